/* stats.h: entropy, distances and their JSON, for cprof-entropy and
 * cprof-diff.
 *
 *   stats.c         entropy, the stability summary (GSL), the top-k
 *                   Manhattan distance
 *   json-metrics.c  the entropy and diff JSON shapes of the contract
 *
 * A key whose count is 0 (a flat JSON input may hold one) is treated as
 * absent everywhere: it is no entry for the entropy and never in a top k. */
#ifndef CPROF_STATS_H
#define CPROF_STATS_H

/* What the metrics link, for cprof_set_libraries. */
#define CPROF_METRICS_LIBRARIES "GSL"

#include <jansson.h>

#include "lib/dist.h"
#include "signif.h"
#include "lib/util.h"

/* stats.c */

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

/* The name of a --keys value ("union", "a"), and back; -1 for an unknown
 * name. */
const char *cprof_keys_name(enum cprof_keys keys);
int cprof_keys_parse(const char *name);

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

/* Frees a comparison; accepts NULL. */
void cprof_diff_free(struct cprof_diff *diff);

/* The comparison and significance options of cprof-diff and
 * cprof-regress (with -k, a short option of their own). */
enum {
	CPROF_OPT_ALPHA = 768,
	CPROF_OPT_MIN_EFFECT,
	CPROF_OPT_DISPERSION,
	CPROF_OPT_KEYS,
};

#define CPROF_COMPARE_LONG_OPTIONS { "keys", required_argument, NULL, CPROF_OPT_KEYS }

/* Takes -k into *k or --keys into *keys; false when `opt` is neither.
 * Dies on a bad value, naming the option. */
bool cprof_compare_option(int opt, const char *arg, size_t *k, enum cprof_keys *keys);

/* The entropy of `dist` in bits into *out and returns out, or NULL for a
 * --cum distribution (whose entropy is undefined). */
const double *cprof_entropy_bits(struct cprof_dist *dist, double *out);

#define CPROF_SIGNIF_LONG_OPTIONS                                          \
	{ "alpha", required_argument, NULL, CPROF_OPT_ALPHA },             \
	{ "min-effect", required_argument, NULL, CPROF_OPT_MIN_EFFECT }

#define CPROF_SIGNIF_HELP                                                              \
	"  --alpha A       the level of the tests and intervals (default 0.01)\n"          \
	"  --min-effect E  the least change of a share that counts (default 0.005)\n"

/* Takes --alpha, --min-effect or --dispersion into *options; false when
 * `opt` is none of them.  Dies on a value out of range, naming the option
 * and the value. */
bool cprof_signif_option(int opt, const char *arg, struct cprof_signif_options *options);

/* Sentences on what limits an answer. */
#define CPROF_MAX_WARNINGS 8
struct cprof_warnings {
	size_t count;
	char text[CPROF_MAX_WARNINGS][320];
};

/* Adds a sentence (dropped past CPROF_MAX_WARNINGS). */
void cprof_warnings_add(struct cprof_warnings *warnings, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints each sentence on standard error after the program's name. */
void cprof_warnings_print(const struct cprof_warnings *warnings);

/* What the samples say of a difference: every key of A or B tested, the
 * null distribution of the distance, and what limits the answer. */
struct cprof_judgement {
	struct cprof_signif_options options;
	size_t count;                  /* keys of A or B with samples */
	const char **keys;             /* in bytewise order; point into A and B */
	struct cprof_pair *pairs;      /* their counts, in samples */
	struct cprof_signif *signif;   /* NULL for a --cum difference */
	struct cprof_manhattan_null null;
	struct cprof_warnings warnings;
	/* Units of the counts a sample is (cprof_dist_units_per_sample: 1 for
	 * samples/count, the period for a time): the tests take every count
	 * divided by it (rounded), in samples.  0: the counts are not samples,
	 * and nothing is tested. */
	double units_per_sample;
	uint64_t total_a;              /* the totals in samples */
	uint64_t total_b;
};

/* Judges the difference `diff` of `a` and `b` (as cprof_diff_compute made
 * it with `k` and `keys`) under `options`.  A --cum difference gets no
 * tests, and a warning saying so.  Free it with cprof_judgement_free; its
 * keys point into `a` and `b`. */
struct cprof_judgement *cprof_judge(const struct cprof_dist *a, const struct cprof_dist *b,
				    const struct cprof_diff *diff, size_t k, enum cprof_keys keys,
				    const struct cprof_signif_options *options);

/* The significance of `key`, or NULL when it has none. */
const struct cprof_key_signif *cprof_judgement_key(const struct cprof_judgement *judgement,
						   const char *key);

/* Frees a judgement; accepts NULL. */
void cprof_judgement_free(struct cprof_judgement *judgement);

/* json-metrics.c */

/* The cprof-entropy object of one input, named `source`; with `header`
 * false, without the "cprof" and "version" members (an item of
 * "profiles"). */
json_t *cprof_json_entropy(const char *source, enum cprof_by by, enum cprof_base base,
			   const struct cprof_entropy *entropy, bool header);

/* The cprof-entropy object of several inputs: their objects (as
 * cprof_json_entropy without header gives them; the reference is stolen)
 * and the stability summary. */
json_t *cprof_json_entropy_many(enum cprof_by by, enum cprof_base base, json_t *profiles,
				const struct cprof_stability *stability);

/* The cprof-diff object comparing `a` (named `source_a`) and `b`.  The
 * entropies are NULL for a cumulative distribution (printed as null).
 * With a `judgement`, the significance fields too: the options, verdict,
 * test and manhattan_null (not for a --cum difference), each entry's
 * p_value, q_value and ci, and the warnings. */
json_t *cprof_json_diff(const char *source_a, const char *source_b, enum cprof_by by, size_t k,
			enum cprof_keys keys, const struct cprof_diff *diff, uint64_t total_a,
			uint64_t total_b, const double *entropy_a, const double *entropy_b,
			const struct cprof_judgement *judgement);

#endif
