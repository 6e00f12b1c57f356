/* json.c: the JSON shapes of the contract (jansson). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "flatjson.h"
#include "json.h"
#include "jsonout.h"
#include "util.h"

json_t *cprof_json_string(const char *s)
{
	json_t *value = json_string(s);

	if (!value)
		cprof_die("internal error: a key is not valid UTF-8");
	return value;
}

static void set(json_t *object, const char *name, json_t *value)
{
	if (!value || json_object_set_new(object, name, value) != 0)
		cprof_die_oom();
}

json_t *cprof_json_flat(struct cprof_dist *dist, size_t top)
{
	json_t *root = json_object(), *sources = json_array(), *entries = json_array();
	uint64_t shown = 0;
	size_t n = dist->entries.len, i;

	if (!root || !sources || !entries)
		cprof_die_oom();
	cprof_dist_sort(dist);
	if (top > 0 && top < n)
		n = top;
	for (i = 0; i < dist->sources.len; i++)
		json_array_append_new(sources, cprof_json_string(dist->sources.items[i]));
	for (i = 0; i < n; i++) {
		const struct cprof_entry *entry = dist->entries.items[i];
		json_t *item = json_object();

		set(item, "key", cprof_json_string(entry->key));
		set(item, "count", json_integer((json_int_t)entry->count));
		set(item, "p", json_real(dist->total ? (double)entry->count / (double)dist->total : 0.0));
		if (json_array_append_new(entries, item) != 0)
			cprof_die_oom();
		shown += entry->count;
	}
	set(root, "cprof", json_string("flat"));
	set(root, "version", json_integer(CPROF_SCHEMA_VERSION));
	set(root, "by", json_string(cprof_by_name(dist->by)));
	set(root, "cum", json_boolean(dist->cum));
	set(root, "sources", sources);
	set(root, "period_us", dist->has_period ? json_integer((json_int_t)dist->period_us) : json_null());
	set(root, "total", json_integer((json_int_t)dist->total));
	/* With --cum the counts overlap, and other has no meaning past 0. */
	set(root, "other", json_integer((json_int_t)(!dist->cum && dist->total > shown ?
						     dist->total - shown : 0)));
	set(root, "entries", entries);
	set(root, "sample_type", cprof_json_string(cprof_dist_sample_type(dist)));
	return root;
}

static int bad(struct cprof_error *err, const char *path, const char *what)
{
	return cprof_error_set(err, "%s: %s", path, what);
}

/* A JSON integer in [0, 2^63). */
static bool whole(json_t *value, uint64_t *out)
{
	if (!json_is_integer(value) || json_integer_value(value) < 0)
		return false;
	*out = (uint64_t)json_integer_value(value);
	return true;
}

struct cprof_dist *cprof_json_to_dist(json_t *root, struct cprof_error *err)
{
	json_t *value, *entries, *entry;
	struct cprof_dist *dist = NULL;
	uint64_t total, other, sum = 0;
	const char *name;
	size_t i;
	int by;

	if (!json_is_object(root)) {
		bad(err, "(root)", "not a cprof flat object");
		return NULL;
	}
	value = json_object_get(root, "cprof");
	if (!json_is_string(value) || strcmp(json_string_value(value), "flat") != 0) {
		bad(err, "cprof", "not \"flat\": not a cprof flat distribution");
		return NULL;
	}
	value = json_object_get(root, "version");
	if (!json_is_integer(value) || json_integer_value(value) != CPROF_SCHEMA_VERSION) {
		bad(err, "version", "unsupported schema version (this cprof reads version 1)");
		return NULL;
	}
	value = json_object_get(root, "by");
	by = json_is_string(value) ? cprof_by_parse(json_string_value(value)) : -1;
	if (by < 0) {
		bad(err, "by", "must be one of function, dso, line, address, stack, label:NAME");
		return NULL;
	}
	value = json_object_get(root, "cum");
	if (!json_is_boolean(value)) {
		bad(err, "cum", "must be true or false");
		return NULL;
	}
	dist = cprof_dist_new((enum cprof_by)by, json_is_true(value));
	value = json_object_get(root, "period_us");
	if (json_is_null(value) || !value) {
		dist->has_period = false;
	} else if (whole(value, &dist->period_us)) {
		dist->has_period = true;
	} else {
		bad(err, "period_us", "must be a whole number or null");
		goto fail;
	}
	if (!whole(json_object_get(root, "total"), &total)) {
		bad(err, "total", "must be a whole number");
		goto fail;
	}
	value = json_object_get(root, "other");
	other = 0;
	if (value && !whole(value, &other)) {
		bad(err, "other", "must be a whole number");
		goto fail;
	}
	entries = json_object_get(root, "entries");
	if (!json_is_array(entries)) {
		bad(err, "entries", "must be an array");
		goto fail;
	}
	json_array_foreach(entries, i, entry) {
		char path[64];
		uint64_t count;
		json_t *key;

		snprintf(path, sizeof(path), "entries[%zu]", i);
		key = json_object_get(entry, "key");
		if (!json_is_object(entry) || !json_is_string(key)) {
			bad(err, path, "must be an object with a string key");
			goto fail;
		}
		name = json_string_value(key);
		if (strlen(name) != json_string_length(key)) {
			bad(err, path, "key holds a NUL character");
			goto fail;
		}
		if (!whole(json_object_get(entry, "count"), &count)) {
			snprintf(path, sizeof(path), "entries[%zu].count", i);
			bad(err, path, "must be a whole number");
			goto fail;
		}
		if (cprof_dist_find(dist, name)) {
			snprintf(path, sizeof(path), "entries[%zu].key", i);
			bad(err, path, "duplicate key");
			goto fail;
		}
		if (!dist->cum && sum + count < sum) {
			bad(err, path, "counts overflow");
			goto fail;
		}
		sum += count;
		cprof_dist_add(dist, name, count);
	}
	if (!dist->cum && (sum > total || total - sum != other)) {
		bad(err, "total", "does not equal the sum of the entries' counts plus other");
		goto fail;
	}
	value = json_object_get(root, "sample_type");
	if (value) {
		const char *type = json_is_string(value) ? json_string_value(value) : NULL;

		if (!type || !strchr(type, '/') || strlen(type) != json_string_length(value)) {
			bad(err, "sample_type", "must be a string TYPE/UNIT");
			goto fail;
		}
		dist->sample_type = cprof_xstrdup(type);
	}
	dist->total = total;
	return dist;
fail:
	cprof_dist_free(dist);
	return NULL;
}

void cprof_json_print(json_t *root, bool compact)
{
	/* A failed write shows in cprof_finish_output. */
	cprof_json_dump(stdout, root, compact);
	fputc('\n', stdout);
	json_decref(root);
}
