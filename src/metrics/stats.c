/* stats.c: entropy, its stability over several profiles, and the top-k
 * Manhattan distance of two distributions. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>

#include <glib.h>

#include "stats.h"
#include "sum.h"

int cprof_base_parse(const char *name)
{
	if (strcmp(name, "2") == 0)
		return CPROF_BASE_2;
	if (strcmp(name, "e") == 0)
		return CPROF_BASE_E;
	if (strcmp(name, "10") == 0)
		return CPROF_BASE_10;
	return -1;
}

double cprof_base_value(enum cprof_base base)
{
	switch (base) {
	case CPROF_BASE_E:
		return M_E;
	case CPROF_BASE_10:
		return 10.0;
	default:
		return 2.0;
	}
}

const char *cprof_base_unit(enum cprof_base base)
{
	switch (base) {
	case CPROF_BASE_E:
		return "nats";
	case CPROF_BASE_10:
		return "hartleys";
	default:
		return "bits";
	}
}

/* log2 and log10 are exact where log(x) / log(base) is not (log2(0.25) is
 * -2, a uniform distribution over 4 keys has 2 bits, not 1.9999...). */
static double log_base(enum cprof_base base, double x)
{
	switch (base) {
	case CPROF_BASE_E:
		return log(x);
	case CPROF_BASE_10:
		return log10(x);
	default:
		return log2(x);
	}
}

/* -p log_base p for `count` of `total` samples, count > 0. */
static double term(enum cprof_base base, uint64_t count, uint64_t total)
{
	double p = (double)count / (double)total;

	return -p * log_base(base, p);
}

/* The natural log of the base, to convert nats. */
static double ln_base(enum cprof_base base)
{
	return log(cprof_base_value(base));
}

/* The sums of an entropy: h in the base, and in nats h_nats and
 * sum p ln^2 p (for the error). */
struct entropy_sums {
	struct cprof_sum h;
	struct cprof_sum h_nats;
	struct cprof_sum p_ln2;
	size_t entries;
};

/* Adds one entry of `count` > 0 samples of `total` to the sums. */
static void entropy_add(struct entropy_sums *sums, enum cprof_base base, uint64_t count,
			uint64_t total)
{
	double p = (double)count / (double)total, ln_p = log(p);

	cprof_sum_add(&sums->h, term(base, count, total));
	cprof_sum_add(&sums->h_nats, -p * ln_p);
	cprof_sum_add(&sums->p_ln2, p * ln_p * ln_p);
	sums->entries++;
}

void cprof_entropy_of_counts(const uint64_t *counts, size_t n, uint64_t total, enum cprof_base base,
			     struct cprof_entropy *out)
{
	struct entropy_sums sums = { { 0, 0 }, { 0, 0 }, { 0, 0 }, 0 };
	uint64_t listed = 0;
	double h_nats, variance;
	size_t i;

	for (i = 0; i < n; i++) {
		if (counts[i] == 0)
			continue;
		entropy_add(&sums, base, counts[i], total);
		listed += counts[i];
	}
	out->lower_bound = total > listed;
	if (out->lower_bound)
		entropy_add(&sums, base, total - listed, total);
	out->entropy = cprof_sum_value(&sums.h);
	out->entries = sums.entries;
	out->total = total;
	out->normalized = sums.entries > 1 ? out->entropy / log_base(base, (double)sums.entries) : 0.0;
	out->entropy_mm = out->entropy;
	out->se = 0.0;
	if (total == 0)
		return;
	out->entropy_mm += (double)(sums.entries - 1) / (2.0 * (double)total) / ln_base(base);
	h_nats = cprof_sum_value(&sums.h_nats);
	variance = (cprof_sum_value(&sums.p_ln2) - h_nats * h_nats) / (double)total;
	out->se = sqrt(fmax(0.0, variance)) / ln_base(base);
}

int cprof_entropy_compute(struct cprof_dist *dist, enum cprof_base base, struct cprof_entropy *out,
			  struct cprof_error *err)
{
	uint64_t *counts;
	double units;
	guint i;

	if (dist->cum)
		return cprof_error_set(err, "a --cum distribution: its p values sum past 1, "
				       "so its entropy is undefined");
	/* In flat order, so that the sum is the same whatever order the
	 * entries were read in. */
	cprof_dist_sort(dist);
	counts = cprof_xcalloc(dist->entries.len + 1, sizeof(*counts));
	for (i = 0; i < dist->entries.len; i++)
		counts[i] = ((const struct cprof_entry *)dist->entries.items[i])->count;
	cprof_entropy_of_counts(counts, dist->entries.len, dist->total, base, out);
	free(counts);
	units = cprof_dist_units_per_sample(dist);
	if (units == 0) {
		/* Bytes, objects, a time without its period: no sample count to
		 * take the sampling error from. */
		out->entropy_mm = NAN;
		out->se = NAN;
	} else if (units != 1 && dist->total > 0) {
		/* Counts of `units` a sample: total / units samples. */
		double samples = (double)dist->total / units;

		out->se *= sqrt(units);
		out->entropy_mm = out->entropy + (double)(out->entries - 1) / (2.0 * samples) /
						 ln_base(base);
	}
	return 0;
}

void cprof_stability_compute(const double *values, const double *se, size_t n,
			     struct cprof_stability *out)
{
	double squares = 0.0;
	size_t i;

	cprof_gsl_quiet();
	out->n = n;
	out->mean = gsl_stats_mean(values, 1, n);
	/* gsl_stats_sd divides by n - 1, which is 0 for one value. */
	out->sd = n > 1 ? gsl_stats_sd_m(values, 1, n, out->mean) : 0.0;
	gsl_stats_minmax(&out->min, &out->max, values, 1, n);
	out->cv = out->mean != 0.0 ? out->sd / out->mean : 0.0;
	for (i = 0; i < n; i++)
		squares += se[i] * se[i];
	out->sampling_sd = sqrt(squares / (double)n);
}

static int key_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The count of `key` in `dist`; a count of 0 is as good as absent. */
static uint64_t count_in(const struct cprof_dist *dist, const char *key)
{
	const struct cprof_entry *entry = cprof_dist_find(dist, key);

	return entry ? entry->count : 0;
}

/* The common denominator of the deltas: |count_b * total_a - count_a *
 * total_b| orders the entries by |delta| exactly, so that equal deltas
 * (1/3 - 0 and 2/3 - 1/3) tie and fall back on the key. */
struct ranked {
	struct cprof_diff_entry entry;
	unsigned __int128 scaled;
};

static int ranked_cmp(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->scaled != b->scaled)
		return a->scaled > b->scaled ? -1 : 1;
	return strcmp(a->entry.key, b->entry.key);
}

static double share(uint64_t count, uint64_t total)
{
	return total > 0 ? (double)count / (double)total : 0.0;
}

const char **cprof_diff_keys(const struct cprof_dist *a, const struct cprof_dist *b, size_t *n,
			       struct cprof_pair **pairs)
{
	const char **keys = cprof_xcalloc(a->entries.len + b->entries.len + 1, sizeof(*keys));
	size_t i;

	*n = 0;
	for (i = 0; i < a->entries.len; i++) {
		const struct cprof_entry *entry = a->entries.items[i];

		if (entry->count > 0)
			keys[(*n)++] = entry->key;
	}
	for (i = 0; i < b->entries.len; i++) {
		const struct cprof_entry *entry = b->entries.items[i];

		if (entry->count > 0 && count_in(a, entry->key) == 0)
			keys[(*n)++] = entry->key;
	}
	qsort(keys, *n, sizeof(*keys), key_cmp);
	*pairs = cprof_xcalloc(*n + 1, sizeof(**pairs));
	for (i = 0; i < *n; i++) {
		(*pairs)[i].count_a = count_in(a, keys[i]);
		(*pairs)[i].count_b = count_in(b, keys[i]);
	}
	return keys;
}

/* The entry of `key` (counts `pair`) in the diff of A and B, its |delta|
 * ranked exactly. */
static void rank_entry(struct ranked *r, const char *key, const struct cprof_pair *pair,
		       const struct cprof_dist *a, const struct cprof_dist *b)
{
	struct cprof_diff_entry *e = &r->entry;
	unsigned __int128 x, y;

	e->key = key;
	e->count_a = pair->count_a;
	e->count_b = pair->count_b;
	e->p_a = share(e->count_a, a->total);
	e->p_b = share(e->count_b, b->total);
	e->delta = e->p_b - e->p_a;
	/* A side without samples scales as total 1 with every count 0. */
	x = (unsigned __int128)e->count_b * (a->total ? a->total : 1);
	y = (unsigned __int128)e->count_a * (b->total ? b->total : 1);
	r->scaled = x > y ? x - y : y - x;
}

struct cprof_diff *cprof_diff_compute(struct cprof_dist *a, struct cprof_dist *b, size_t k,
				      enum cprof_keys keys)
{
	struct cprof_diff *diff = cprof_xcalloc(1, sizeof(*diff));
	bool a_truncated = cprof_dist_other(a) > 0, b_truncated = cprof_dist_other(b) > 0;
	struct cprof_pair *pairs;
	struct ranked *ranked;
	unsigned char *chosen;
	const char **names;
	size_t n, i;

	cprof_dist_sort(a);
	cprof_dist_sort(b);
	names = cprof_diff_keys(a, b, &n, &pairs);
	chosen = cprof_xcalloc(n + 1, 1);
	/* The one top-k Manhattan distance, the calibrated nulls' too. */
	diff->manhattan = cprof_manhattan_choose(pairs, n, a->total, b->total, k,
						 keys == CPROF_KEYS_A, chosen);
	ranked = cprof_xcalloc(n + 1, sizeof(*ranked));
	for (i = 0; i < n; i++) {
		if (!chosen[i])
			continue;
		rank_entry(&ranked[diff->count++], names[i], &pairs[i], a, b);
		if (pairs[i].count_a == 0 && a_truncated)
			diff->unknown_a++;
		if (pairs[i].count_b == 0 && b_truncated)
			diff->unknown_b++;
	}
	qsort(ranked, diff->count, sizeof(*ranked), ranked_cmp);
	diff->entries = cprof_xcalloc(diff->count + 1, sizeof(*diff->entries));
	for (i = 0; i < diff->count; i++)
		diff->entries[i] = ranked[i].entry;
	free(ranked);
	free(chosen);
	free(pairs);
	free(names);
	return diff;
}

void cprof_diff_free(struct cprof_diff *diff)
{
	if (!diff)
		return;
	free(diff->entries);
	free(diff);
}

const double *cprof_entropy_bits(struct cprof_dist *dist, double *out)
{
	struct cprof_entropy entropy;

	if (cprof_entropy_compute(dist, CPROF_BASE_2, &entropy, NULL) < 0)
		return NULL;
	*out = entropy.entropy;
	return out;
}
