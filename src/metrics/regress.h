/* regress.h: cprof-regress's rule, called by cprof-regress and by the
 * calibration benches (bench/stats-calib, bench/stats-replicates), so
 * that what bench/STATS.md measures is the shipped rule.
 *
 * Runs of a baseline build and of a candidate build are a table of
 * counts, counts[key * runs + run] (keys in bytewise order of their
 * names, which breaks ties of count as cprof-diff does), run r of
 * totals[r] samples (at least its keys' sum: the rest, a truncated
 * flat's other, is no key) and of group[r] (0 a baseline, 1 a
 * candidate). */
#ifndef CPROF_REGRESS_H
#define CPROF_REGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cost.h"
#include "signif.h"

struct cprof_noise;

/* Which rule judges. */
enum cprof_regress_rule {
	CPROF_RULE_TEST,       /* each key against its own noise (the default) */
	CPROF_RULE_DISTANCE    /* the distance against the baselines' own */
};

/* What a check asks. */
struct cprof_regress_options {
	enum cprof_regress_rule rule;
	struct cprof_signif_options signif;
	double factor;         /* distance rule: threshold factor x noise + margin */
	double margin;
	size_t k;              /* the distance's top k keys (0: every key) */
	bool a_only;           /* of the baselines alone (--keys a) */
	bool absolute;         /* --absolute: the cost judged too */
	double min_ratio;      /* the least change of the cost that counts */
};

/* cprof-regress's defaults: rule test, the contract's signif defaults,
 * factor 2, margin 0.02, k 10 of both sides, no cost, min_ratio 0.02. */
#define CPROF_REGRESS_DEFAULTS \
	{ CPROF_RULE_TEST, CPROF_SIGNIF_DEFAULTS, 2.0, 0.02, 10, false, false, 0.02 }

/* A table of runs, as the top of this header says. */
struct cprof_runs {
	const uint64_t *counts;
	size_t keys;
	size_t runs;
	const uint64_t *totals;
	const unsigned char *group;
};

/* The dispersion of the baselines: Pearson's X^2 over its degrees of
 * freedom of their runs x keys table (each run's rest one more column;
 * cprof_dispersion_estimate), per sample when a count is `units` > 1 of a
 * sample (X^2 / units, at least 1). */
double cprof_regress_dispersion(const struct cprof_runs *runs, double units);

/* The baselines' own noise for the distance rule: the largest distance
 * (cprof_manhattan_of, top k of options) of a baseline to the merge of
 * the others. */
double cprof_regress_noise(const struct cprof_runs *runs,
			   const struct cprof_regress_options *options);

/* The distance rule's threshold: factor x noise + margin. */
double cprof_regress_threshold(const struct cprof_regress_options *options, double noise);

/* The test rule's keys: each key's noise measured on the runs
 * (cprof_noise_estimate; into *noise, which the caller frees with
 * cprof_noise_free) and the `n` pairs (the keys of the merged sides, in
 * the table's order, in samples, of total_a and total_b) tested against
 * it (cprof_signif_compute).  The caller frees the result with
 * cprof_signif_free. */
struct cprof_signif *cprof_regress_keys(const struct cprof_runs *runs,
					const struct cprof_pair *pairs, size_t n,
					uint64_t total_a, uint64_t total_b,
					const struct cprof_signif_options *options,
					struct cprof_noise **noise);

/* The verdict: the rule's (keys moved for rule test, distance past the
 * threshold for rule distance), or with options->absolute the cost
 * moved (`cost` may be NULL without it). */
bool cprof_regress_different(const struct cprof_regress_options *options, bool keys_moved,
			     double distance, double threshold, const struct cprof_cost *cost);

#endif
