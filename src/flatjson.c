/* flatjson.c: cprof flat JSON, what cprof-flat prints, read back in. */
#include "config.h"

#include <string.h>

#include "flatjson.h"
#include "input.h"
#include "profile.h"
#include "util.h"

struct reader {
	struct cprof_input *in;
	struct cprof_error *err;
};

static size_t load_chunk(void *buffer, size_t size, void *data)
{
	struct reader *reader = data;
	size_t n;

	if (cprof_input_avail(reader->in) == 0 && cprof_input_fill(reader->in, 1, reader->err) < 0)
		return (size_t)-1;
	n = cprof_input_avail(reader->in);
	if (n > size)
		n = size;
	memcpy(buffer, cprof_input_data(reader->in), n);
	cprof_input_skip(reader->in, n);
	return n;
}

int cprof_flatjson_read(struct cprof_input *in, struct cprof_profile *profile,
			struct cprof_error *err)
{
	struct reader reader = { in, err };
	json_error_t json_err;
	json_t *root;

	profile->format = CPROF_FORMAT_FLAT;
	root = json_load_callback(load_chunk, &reader, JSON_REJECT_DUPLICATES, &json_err);
	if (!root) {
		if (err->text[0])
			return -1;
		err->line = json_err.line > 0 ? (unsigned long long)json_err.line : 0;
		return cprof_error_set(err, "invalid JSON at column %d (byte %d): %s", json_err.column,
				       json_err.position, json_err.text);
	}
	profile->flat = cprof_json_to_dist(root, err);
	json_decref(root);
	if (!profile->flat)
		return -1;
	profile->total = profile->flat->total;
	profile->has_period = profile->flat->has_period;
	profile->period_us = profile->flat->period_us;
	return 0;
}
