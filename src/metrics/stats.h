/* stats.h: entropy, its stability over several profiles (GSL), and the
 * top-k Manhattan distance of two distributions.  The tests of a
 * difference are judge.h's, the options options.h's, the JSON shapes
 * json-metrics.h's.
 *
 * A key whose count is 0 (a flat JSON input may hold one) is treated as
 * absent everywhere: it is no entry for the entropy and never in a top k. */
#ifndef CPROF_STATS_H
#define CPROF_STATS_H

/* What the metrics link, for cprof_set_libraries. */
#define CPROF_METRICS_LIBRARIES "GSL"

#include "lib/dist.h"
#include "signif.h"
#include "base/util.h"

/* The base of the logarithm of an entropy: bits, nats or hartleys. */
enum cprof_base {
	CPROF_BASE_2,
	CPROF_BASE_E,
	CPROF_BASE_10,
};

/* Parses a --base value ("2", "e" or "10"); -1 for anything else. */
int cprof_base_parse(const char *name);

/* The base itself (2, e or 10), and the unit an entropy is counted in
 * ("bits", "nats", "hartleys"). */
double cprof_base_value(enum cprof_base base);
const char *cprof_base_unit(enum cprof_base base);

/* The entropy of one distribution. */
struct cprof_entropy {
	double entropy;        /* -sum p log_base p over the entries */
	double normalized;     /* entropy / log_base(entries); 0 when entries <= 1 */
	size_t entries;        /* keys with count > 0, plus one for other */
	uint64_t total;        /* samples */
	bool lower_bound;      /* other > 0 was counted as one entry */
	/* The Miller-Madow estimate: entropy + (entries - 1) / (2 total), in
	 * nats before conversion to the base. */
	double entropy_mm;
	/* The delta-method standard error of `entropy` from multinomial
	 * sampling: sqrt((sum p ln^2 p - H^2) / total), H in nats, then
	 * converted to the base; 0 without samples. */
	double se;
};

/* The entropy of the `n` counts (those of 0 skipped) of a distribution of
 * `total` samples into *out; total - the sum of the counts, when above 0,
 * is one more entry and makes the result a lower bound.  Summed in the
 * order given. */
void cprof_entropy_of_counts(const uint64_t *counts, size_t n, uint64_t total, enum cprof_base base,
			     struct cprof_entropy *out);

/* Computes the entropy of `dist` (sorting it) in `base` into *out.  Returns
 * 0, or -1 with `err` set when the distribution is cumulative (its p can
 * sum past 1, and the entropy is undefined).  A distribution without
 * samples has entropy 0 and no entries. */
int cprof_entropy_compute(struct cprof_dist *dist, enum cprof_base base, struct cprof_entropy *out,
			  struct cprof_error *err);

/* How the entropy of several profiles varies. */
struct cprof_stability {
	size_t n;
	double mean;
	double sd;             /* sample standard deviation (n - 1); 0 when n = 1 */
	double min;
	double max;
	double cv;             /* sd / mean; 0 when the mean is 0 */
	double sampling_sd;    /* root mean square of the profiles' se */
};

/* Summarizes the `n` >= 1 entropies `values`, whose standard errors are
 * `se`, with GSL's gsl_stats_* into *out. */
void cprof_stability_compute(const double *values, const double *se, size_t n,
			     struct cprof_stability *out);

/* Which keys cprof-diff compares: the top k of A and of B, or of A alone. */
enum cprof_keys {
	CPROF_KEYS_UNION,
	CPROF_KEYS_A,
};

/* One compared key. */
struct cprof_diff_entry {
	const char *key;       /* points into the distributions compared */
	uint64_t count_a;
	uint64_t count_b;
	double p_a;            /* count_a / total of A */
	double p_b;
	double delta;          /* p_b - p_a */
};

/* The comparison of two distributions. */
struct cprof_diff {
	double manhattan;      /* sum of |delta| over the entries */
	size_t count;
	struct cprof_diff_entry *entries;  /* sorted by |delta| desc, then key */
	/* Compared keys absent from a side whose flat was truncated (other >
	 * 0): their p there is taken as 0 though some may hide in other. */
	size_t unknown_a;
	size_t unknown_b;
};

/* Compares the top `k` keys (0: every key) of `a` and `b` (`keys` says of
 * which), sorting both distributions.  Returns a comparison the caller
 * frees with cprof_diff_free; its keys point into `a` and `b`, which must
 * outlive it.  A side without samples has p = 0 for every key. */
struct cprof_diff *cprof_diff_compute(struct cprof_dist *a, struct cprof_dist *b, size_t k,
				      enum cprof_keys keys);

/* Every key with samples in `a` or `b`, in bytewise order (newly
 * allocated, pointing into the distributions), their number in *n, and
 * their counts as pairs in *pairs (newly allocated; `known` unset). */
const char **cprof_diff_keys(const struct cprof_dist *a, const struct cprof_dist *b, size_t *n,
			     struct cprof_pair **pairs);

/* Frees a comparison; accepts NULL. */
void cprof_diff_free(struct cprof_diff *diff);

/* The entropy of `dist` in bits into *out and returns out, or NULL for a
 * --cum distribution (whose entropy is undefined). */
const double *cprof_entropy_bits(struct cprof_dist *dist, double *out);

#endif
