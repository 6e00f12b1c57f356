/* flatjson.c: cprof flat JSON, what cprof-flat prints, read back in. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dist.h"
#include "flatjson.h"
#include "jsonin.h"
#include "profile-core.h"
#include "base/util.h"

/* The fields that say what the document is, "cprof" to "cum": a new empty
 * distribution of that key and cum, or NULL with `err` set. */
static struct cprof_dist *read_kind(json_t *root, struct cprof_error *err)
{
	json_t *value;
	int by;

	if (!json_is_object(root)) {
		cprof_error_at(err, "(root)", "not a cprof flat object");
		return NULL;
	}
	value = json_object_get(root, "cprof");
	if (!json_is_string(value) || strcmp(json_string_value(value), "flat") != 0) {
		cprof_error_at(err, "cprof", "not \"flat\": not a cprof flat distribution");
		return NULL;
	}
	value = json_object_get(root, "version");
	if (!json_is_integer(value) || json_integer_value(value) != CPROF_SCHEMA_VERSION) {
		cprof_error_at(err, "version",
			       "unsupported schema version (this cprof reads version 1)");
		return NULL;
	}
	value = json_object_get(root, "by");
	by = json_is_string(value) ? cprof_by_parse(json_string_value(value)) : -1;
	if (by < 0) {
		cprof_error_at(err, "by",
			       "must be one of function, dso, line, address, stack, label:NAME");
		return NULL;
	}
	value = json_object_get(root, "cum");
	if (!json_is_boolean(value)) {
		cprof_error_at(err, "cum", "must be true or false");
		return NULL;
	}
	return cprof_dist_new((enum cprof_by)by, json_is_true(value));
}

/* "period_us" into `dist`, "total" and "other" (0 when absent) into the
 * caller's; -1 with `err` set. */
static int read_totals(json_t *root, struct cprof_dist *dist, uint64_t *total, uint64_t *other,
		       struct cprof_error *err)
{
	json_t *value = json_object_get(root, "period_us");

	if (json_is_null(value) || !value)
		dist->has_period = false;
	else if (cprof_json_whole(value, &dist->period_us))
		dist->has_period = true;
	else
		return cprof_error_at(err, "period_us", "must be a whole number or null");
	if (!cprof_json_whole(json_object_get(root, "total"), total))
		return cprof_error_at(err, "total", "must be a whole number");
	value = json_object_get(root, "other");
	*other = 0;
	if (value && !cprof_json_whole(value, other))
		return cprof_error_at(err, "other", "must be a whole number");
	return 0;
}

/* Entry `i` added to `dist` and its count to `sum`; -1 with `err` set. */
static int read_entry(json_t *entry, size_t i, struct cprof_dist *dist, uint64_t *sum,
		      struct cprof_error *err)
{
	json_t *key = json_object_get(entry, "key");
	const char *name;
	char path[64];
	uint64_t count;

	snprintf(path, sizeof(path), "entries[%zu]", i);
	if (!json_is_object(entry) || !json_is_string(key))
		return cprof_error_at(err, path, "must be an object with a string key");
	name = json_string_value(key);
	if (!cprof_json_no_nul(key))
		return cprof_error_at(err, path, "key holds a NUL character");
	if (!cprof_json_whole(json_object_get(entry, "count"), &count)) {
		snprintf(path, sizeof(path), "entries[%zu].count", i);
		return cprof_error_at(err, path, "must be a whole number");
	}
	if (cprof_dist_find(dist, name)) {
		snprintf(path, sizeof(path), "entries[%zu].key", i);
		return cprof_error_at(err, path, "duplicate key");
	}
	if (!dist->cum && *sum + count < *sum)
		return cprof_error_at(err, path, "counts overflow");
	*sum += count;
	cprof_dist_add(dist, name, count);
	return 0;
}

/* "entries" into `dist`, checked against "total" and "other"; -1 with
 * `err` set. */
static int read_entries(json_t *root, struct cprof_dist *dist, uint64_t total, uint64_t other,
			struct cprof_error *err)
{
	json_t *entries = json_object_get(root, "entries"), *entry;
	uint64_t sum = 0;
	size_t i;

	if (!json_is_array(entries))
		return cprof_error_at(err, "entries", "must be an array");
	json_array_foreach(entries, i, entry) {
		if (read_entry(entry, i, dist, &sum, err) < 0)
			return -1;
	}
	if (!dist->cum && (sum > total || total - sum != other))
		return cprof_error_at(err, "total",
				      "does not equal the sum of the entries' counts plus other");
	return 0;
}

/* The optional "sample_type" into `dist`; -1 with `err` set. */
static int read_sample_type(json_t *root, struct cprof_dist *dist, struct cprof_error *err)
{
	json_t *value = json_object_get(root, "sample_type");
	const char *type;

	if (!value)
		return 0;
	type = json_is_string(value) ? json_string_value(value) : NULL;
	if (!type || !strchr(type, '/') || strlen(type) != json_string_length(value))
		return cprof_error_at(err, "sample_type", "must be a string TYPE/UNIT");
	dist->sample_type = cprof_xstrdup(type);
	return 0;
}

static struct cprof_dist *json_to_dist(json_t *root, struct cprof_error *err)
{
	struct cprof_dist *dist = read_kind(root, err);
	uint64_t total = 0, other = 0;

	if (!dist)
		return NULL;
	if (read_totals(root, dist, &total, &other, err) < 0 ||
	    read_entries(root, dist, total, other, err) < 0 ||
	    read_sample_type(root, dist, err) < 0) {
		cprof_dist_free(dist);
		return NULL;
	}
	dist->total = total;
	return dist;
}

int cprof_flatjson_take(json_t *root, struct cprof_profile *profile, struct cprof_error *err)
{
	profile->format = CPROF_FORMAT_FLAT;
	profile->flat = json_to_dist(root, err);
	if (!profile->flat)
		return -1;
	profile->total = profile->flat->total;
	profile->has_period = profile->flat->has_period;
	profile->period_us = profile->flat->period_us;
	return 0;
}
