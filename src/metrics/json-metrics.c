/* json-metrics.c: the JSON shapes of cprof-entropy and cprof-diff
 * (jansson), as the contract gives them. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonout.h"
#include "json-metrics.h"
#include "options.h"

static json_t *new_object(void)
{
	json_t *object = json_object();

	if (!object)
		cprof_die_oom();
	return object;
}

/* 2 and 10 are printed as integers, e with full precision. */
static json_t *base_json(enum cprof_base base)
{
	if (base == CPROF_BASE_E)
		return json_real(cprof_base_value(base));
	return json_integer((json_int_t)cprof_base_value(base));
}

/* A file name, or a sentence that holds one, as a JSON string: names need
 * not be UTF-8, JSON must be. */
static json_t *source_json(const char *source)
{
	char *valid = cprof_utf8_sanitize(source, strlen(source), NULL);
	json_t *value = cprof_json_string(valid);

	free(valid);
	return value;
}

static json_t *real_or_null(double value);

static void set_header(json_t *object, const char *name)
{
	cprof_json_set(object, "cprof", json_string(name));
	cprof_json_set(object, "version", json_integer(CPROF_SCHEMA_VERSION));
}

json_t *cprof_json_entropy(const char *source, enum cprof_by by, enum cprof_base base,
			   const struct cprof_entropy *entropy, bool header)
{
	json_t *root = new_object();

	if (header)
		set_header(root, "entropy");
	cprof_json_set(root, "source", source_json(source));
	cprof_json_set(root, "by", json_string(cprof_by_name(by)));
	cprof_json_set(root, "entropy", json_real(entropy->entropy));
	cprof_json_set(root, "base", base_json(base));
	cprof_json_set(root, "entries", json_integer((json_int_t)entropy->entries));
	cprof_json_set(root, "total", json_integer((json_int_t)entropy->total));
	cprof_json_set(root, "normalized", json_real(entropy->normalized));
	cprof_json_set(root, "lower_bound", json_boolean(entropy->lower_bound));
	cprof_json_set(root, "entropy_mm", real_or_null(entropy->entropy_mm));
	cprof_json_set(root, "se", real_or_null(entropy->se));
	return root;
}

json_t *cprof_json_entropy_many(enum cprof_by by, enum cprof_base base, json_t *profiles,
				const struct cprof_stability *stability)
{
	json_t *root = new_object(), *summary = new_object();

	set_header(root, "entropy");
	cprof_json_set(root, "by", json_string(cprof_by_name(by)));
	cprof_json_set(root, "base", base_json(base));
	cprof_json_set(root, "profiles", profiles);
	cprof_json_set(summary, "n", json_integer((json_int_t)stability->n));
	cprof_json_set(summary, "mean", json_real(stability->mean));
	cprof_json_set(summary, "sd", json_real(stability->sd));
	cprof_json_set(summary, "min", json_real(stability->min));
	cprof_json_set(summary, "max", json_real(stability->max));
	cprof_json_set(summary, "cv", json_real(stability->cv));
	cprof_json_set(summary, "sampling_sd", real_or_null(stability->sampling_sd));
	cprof_json_set(root, "stability", summary);
	return root;
}

static json_t *pair(json_t *a, json_t *b)
{
	json_t *object = new_object();

	cprof_json_set(object, "a", a);
	cprof_json_set(object, "b", b);
	return object;
}

static json_t *maybe_real(const double *value)
{
	return value ? json_real(*value) : json_null();
}

/* A double, or null for NaN (a figure that does not exist). */
static json_t *real_or_null(double value)
{
	return isnan(value) ? json_null() : json_real(value);
}

static json_t *new_array(void)
{
	json_t *array = json_array();

	if (!array)
		cprof_die_oom();
	return array;
}

static void append(json_t *array, json_t *value)
{
	if (!value || json_array_append_new(array, value) != 0)
		cprof_die_oom();
}

/* One compared key, with its significance when there is any. */
static json_t *diff_entry(const struct cprof_diff_entry *e, const struct cprof_judgement *judgement)
{
	const struct cprof_key_signif *key = judgement ? cprof_judgement_key(judgement, e->key) : NULL;
	json_t *item = new_object(), *ci;

	cprof_json_set(item, "key", cprof_json_string(e->key));
	cprof_json_set(item, "p_a", json_real(e->p_a));
	cprof_json_set(item, "p_b", json_real(e->p_b));
	cprof_json_set(item, "delta", json_real(e->delta));
	cprof_json_set(item, "count_a", json_integer((json_int_t)e->count_a));
	cprof_json_set(item, "count_b", json_integer((json_int_t)e->count_b));
	if (!key)
		return item;
	cprof_json_set(item, "p_value", real_or_null(key->p_value));
	cprof_json_set(item, "q_value", json_real(key->q_value));
	if (isnan(key->ci_low)) {
		cprof_json_set(item, "ci", json_null());
	} else {
		ci = new_array();
		append(ci, json_real(key->ci_low));
		append(ci, json_real(key->ci_high));
		cprof_json_set(item, "ci", ci);
		cprof_json_set(item, "ci_level", json_real(key->ci_level));
		cprof_json_set(item, "moved", json_boolean(key->significant));
		if (cprof_key_note(key))
			cprof_json_set(item, "note", json_string(cprof_key_note(key)));
	}
	if (!isnan(key->dispersion))
		cprof_json_set(item, "dispersion", json_real(key->dispersion));
	return item;
}

/* The options, verdict, test and null of a tested difference. */
static void set_verdict(json_t *root, const struct cprof_judgement *judgement)
{
	const struct cprof_gtest *g = &judgement->signif->gtest;
	json_t *test = new_object(), *null = new_object();

	cprof_json_set(root, "alpha", json_real(judgement->options.alpha));
	cprof_json_set(root, "min_effect", json_real(judgement->options.min_effect));
	cprof_json_set(root, "dispersion", json_real(judgement->options.dispersion));
	cprof_json_set(root, "verdict",
		       json_string(judgement->signif->different ? "different" : "same"));
	cprof_json_set(root, "selected", json_integer((json_int_t)judgement->signif->selected));
	cprof_json_set(test, "name", json_string("G"));
	cprof_json_set(test, "statistic", json_real(g->statistic));
	cprof_json_set(test, "df", json_integer((json_int_t)g->df));
	cprof_json_set(test, "p_value", json_real(g->p_value));
	cprof_json_set(root, "test", test);
	cprof_json_set(null, "mean", json_real(judgement->null.mean));
	cprof_json_set(null, "quantile", json_real(judgement->null.quantile));
	cprof_json_set(root, "manhattan_null", null);
}

json_t *cprof_json_diff(const char *source_a, const char *source_b, enum cprof_by by, size_t k,
			enum cprof_keys keys, const struct cprof_diff *diff, uint64_t total_a,
			uint64_t total_b, const double *entropy_a, const double *entropy_b,
			const struct cprof_judgement *judgement)
{
	json_t *root = new_object(), *entries = new_array(), *warnings;
	size_t i;

	for (i = 0; i < diff->count; i++)
		append(entries, diff_entry(&diff->entries[i], judgement));
	set_header(root, "diff");
	cprof_json_set(root, "a", source_json(source_a));
	cprof_json_set(root, "b", source_json(source_b));
	cprof_json_set(root, "by", json_string(cprof_by_name(by)));
	cprof_json_set(root, "k", json_integer((json_int_t)k));
	cprof_json_set(root, "keys", json_string(cprof_keys_name(keys)));
	cprof_json_set(root, "manhattan", json_real(diff->manhattan));
	cprof_json_set(root, "total",
		       pair(json_integer((json_int_t)total_a), json_integer((json_int_t)total_b)));
	cprof_json_set(root, "entropy", pair(maybe_real(entropy_a), maybe_real(entropy_b)));
	if (judgement && judgement->signif)
		set_verdict(root, judgement);
	cprof_json_set(root, "entries", entries);
	if (!judgement)
		return root;
	warnings = new_array();
	for (i = 0; i < judgement->warnings.count; i++)
		append(warnings, source_json(judgement->warnings.text[i]));
	cprof_json_set(root, "warnings", warnings);
	return root;
}
