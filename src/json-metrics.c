/* json-metrics.c: the JSON shapes of cprof-entropy and cprof-diff
 * (jansson), as the contract gives them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "stats.h"

static void set(json_t *object, const char *name, json_t *value)
{
	if (!value || json_object_set_new(object, name, value) != 0)
		cprof_die("out of memory");
}

static json_t *new_object(void)
{
	json_t *object = json_object();

	if (!object)
		cprof_die("out of memory");
	return object;
}

/* 2 and 10 are printed as integers, e with full precision. */
static json_t *base_json(enum cprof_base base)
{
	if (base == CPROF_BASE_E)
		return json_real(cprof_base_value(base));
	return json_integer((json_int_t)cprof_base_value(base));
}

/* A file name as a JSON string: names need not be UTF-8, JSON must be. */
static json_t *source_json(const char *source)
{
	char *valid = cprof_utf8_sanitize(source, strlen(source), NULL);
	json_t *value = cprof_json_string(valid);

	free(valid);
	return value;
}

static void set_header(json_t *object, const char *name)
{
	set(object, "cprof", json_string(name));
	set(object, "version", json_integer(CPROF_SCHEMA_VERSION));
}

json_t *cprof_json_entropy(const char *source, enum cprof_by by, enum cprof_base base,
			   const struct cprof_entropy *entropy, bool header)
{
	json_t *root = new_object();

	if (header)
		set_header(root, "entropy");
	set(root, "source", source_json(source));
	set(root, "by", json_string(cprof_by_name(by)));
	set(root, "entropy", json_real(entropy->entropy));
	set(root, "base", base_json(base));
	set(root, "entries", json_integer((json_int_t)entropy->entries));
	set(root, "total", json_integer((json_int_t)entropy->total));
	set(root, "normalized", json_real(entropy->normalized));
	set(root, "lower_bound", json_boolean(entropy->lower_bound));
	set(root, "entropy_mm", json_real(entropy->entropy_mm));
	set(root, "se", json_real(entropy->se));
	return root;
}

json_t *cprof_json_entropy_many(enum cprof_by by, enum cprof_base base, json_t *profiles,
				const struct cprof_stability *stability)
{
	json_t *root = new_object(), *summary = new_object();

	set_header(root, "entropy");
	set(root, "by", json_string(cprof_by_name(by)));
	set(root, "base", base_json(base));
	set(root, "profiles", profiles);
	set(summary, "n", json_integer((json_int_t)stability->n));
	set(summary, "mean", json_real(stability->mean));
	set(summary, "sd", json_real(stability->sd));
	set(summary, "min", json_real(stability->min));
	set(summary, "max", json_real(stability->max));
	set(summary, "cv", json_real(stability->cv));
	set(summary, "sampling_sd", json_real(stability->sampling_sd));
	set(root, "stability", summary);
	return root;
}

static json_t *pair(json_t *a, json_t *b)
{
	json_t *object = new_object();

	set(object, "a", a);
	set(object, "b", b);
	return object;
}

static json_t *maybe_real(const double *value)
{
	return value ? json_real(*value) : json_null();
}

json_t *cprof_json_diff(const char *source_a, const char *source_b, enum cprof_by by, size_t k,
			enum cprof_keys keys, const struct cprof_diff *diff, uint64_t total_a,
			uint64_t total_b, const double *entropy_a, const double *entropy_b)
{
	json_t *root = new_object(), *entries = json_array();
	size_t i;

	if (!entries)
		cprof_die("out of memory");
	for (i = 0; i < diff->count; i++) {
		const struct cprof_diff_entry *e = &diff->entries[i];
		json_t *item = new_object();

		set(item, "key", cprof_json_string(e->key));
		set(item, "p_a", json_real(e->p_a));
		set(item, "p_b", json_real(e->p_b));
		set(item, "delta", json_real(e->delta));
		set(item, "count_a", json_integer((json_int_t)e->count_a));
		set(item, "count_b", json_integer((json_int_t)e->count_b));
		if (json_array_append_new(entries, item) != 0)
			cprof_die("out of memory");
	}
	set_header(root, "diff");
	set(root, "a", source_json(source_a));
	set(root, "b", source_json(source_b));
	set(root, "by", json_string(cprof_by_name(by)));
	set(root, "k", json_integer((json_int_t)k));
	set(root, "keys", json_string(cprof_keys_name(keys)));
	set(root, "manhattan", json_real(diff->manhattan));
	set(root, "total", pair(json_integer((json_int_t)total_a), json_integer((json_int_t)total_b)));
	set(root, "entropy", pair(maybe_real(entropy_a), maybe_real(entropy_b)));
	set(root, "entries", entries);
	return root;
}
