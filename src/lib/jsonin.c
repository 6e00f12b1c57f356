/* jsonin.c: a JSON input parsed once, as the JSON readers take it. */
#include "config.h"

#include <string.h>

#include "base/input.h"
#include "jsonin.h"
#include "base/util.h"

struct loader {
	struct cprof_input *in;
	struct cprof_error *err;
};

static size_t load_chunk(void *buffer, size_t size, void *data)
{
	struct loader *loader = data;
	size_t n;

	if (cprof_input_avail(loader->in) == 0 &&
	    cprof_input_fill(loader->in, 1, loader->err) < 0)
		return (size_t)-1;
	n = cprof_input_avail(loader->in);
	if (n > size)
		n = size;
	memcpy(buffer, cprof_input_data(loader->in), n);
	cprof_input_skip(loader->in, n);
	return n;
}

json_t *cprof_json_load(struct cprof_input *in, struct cprof_error *err)
{
	struct loader loader = { in, err };
	json_error_t json_err;
	json_t *root;

	root = json_load_callback(load_chunk, &loader, JSON_REJECT_DUPLICATES, &json_err);
	if (root || err->text[0])
		return root;
	err->line = json_err.line > 0 ? (unsigned long long)json_err.line : 0;
	cprof_error_set(err, "invalid JSON at column %d (byte %d): %s", json_err.column,
			json_err.position, json_err.text);
	return NULL;
}

bool cprof_json_whole(const json_t *value, uint64_t *out)
{
	if (!json_is_integer(value) || json_integer_value(value) < 0)
		return false;
	*out = (uint64_t)json_integer_value(value);
	return true;
}

bool cprof_json_no_nul(const json_t *value)
{
	return strlen(json_string_value(value)) == json_string_length(value);
}
