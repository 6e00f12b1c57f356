/* judge.h: what the samples say of a difference of two distributions:
 * every key of A or B tested, the null distribution of the distance, and
 * the sentences on what limits the answer. */
#ifndef CPROF_JUDGE_H
#define CPROF_JUDGE_H

#include <stdint.h>

#include "lib/dist.h"
#include "signif.h"
#include "stats.h"

/* Sentences on what limits an answer. */
#define CPROF_MAX_WARNINGS 8
struct cprof_warnings {
	size_t count;
	char text[CPROF_MAX_WARNINGS][320];
};

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
	/* Each key's own noise, from replicate runs (cprof_judge_replicates);
	 * NULL: every key has options.dispersion. */
	struct cprof_noise *noise;
	/* The sides in the user's words, for the warnings: the file names,
	 * or "the baselines" and "the candidate" (not copied). */
	const char *names[2];
};

/* Replicate runs of each side: A is the merge of the runs a, B of b. */
struct cprof_replicates {
	const struct cprof_dist *const *a;
	size_t count_a;
	const struct cprof_dist *const *b;
	size_t count_b;
};

/* Judges the difference `diff` of `a` and `b` (as cprof_diff_compute made
 * it with `k` and `keys`) under `options`, the warnings naming the sides
 * `names` (which must outlive the judgement).  A --cum difference gets no
 * tests, and a warning saying so.  Free it with cprof_judgement_free; its
 * keys point into `a` and `b`. */
struct cprof_judgement *cprof_judge(const struct cprof_dist *a, const struct cprof_dist *b,
				    const struct cprof_diff *diff, size_t k, enum cprof_keys keys,
				    const struct cprof_signif_options *options,
				    const char *const names[2]);

/* cprof_judge, each key tested against its own noise: measured on the
 * runs of `runs` (noise.h: within the runs of A and within those of B),
 * moderated towards the law of the profile's keys.  Warns when fewer
 * than 5 baselines (the runs of A) measure it. */
struct cprof_judgement *cprof_judge_replicates(const struct cprof_dist *a,
					       const struct cprof_dist *b,
					       const struct cprof_diff *diff, size_t k,
					       enum cprof_keys keys,
					       const struct cprof_signif_options *options,
					       const char *const names[2],
					       const struct cprof_replicates *runs);

/* The significance of `key`, or NULL when it has none. */
const struct cprof_key_signif *cprof_judgement_key(const struct cprof_judgement *judgement,
						   const char *key);

/* Frees a judgement; accepts NULL. */
void cprof_judgement_free(struct cprof_judgement *judgement);

#endif
