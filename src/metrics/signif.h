/* signif.h: how much a difference between two profiles means.
 *
 * Per-key tests of equal shares, Benjamini-Hochberg q-values, intervals
 * of a difference of shares, the whole-profile G-test, the dispersion of
 * repeated runs, and the null distribution of the top-k Manhattan
 * distance; all with GSL.  Plain arrays in and out: a caller needs no
 * container library.
 *
 * The model: each side's counts are a multinomial sample of its total
 * (independent samples), their variance multiplied by a dispersion
 * factor phi >= 1 when runs vary more than sampling alone (phi = 1 is
 * pure sampling).  Every test and interval divides the counts by phi
 * (the effective sample size), so phi = 1 gives the plain exact tests. */
#ifndef CPROF_SIGNIF_H
#define CPROF_SIGNIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cprof_noise;

/* What a verdict asks. */
struct cprof_signif_options {
	double alpha;          /* 0 < alpha < 1: the level of tests and intervals */
	double min_effect;     /* 0 <= min_effect < 1: the least |delta| a verdict counts */
	double dispersion;     /* phi >= 1 */
	/* false: a key moved when its |delta| >= min_effect (the point
	 * estimate); true: when its whole interval lies beyond +-min_effect. */
	bool effect_interval;
	/* NULL: every key's variance is `dispersion` times sampling's.  Else
	 * each key's own (noise.h, indexed as the pairs): its p-value is the
	 * mixture over its posterior of the compound tests at each phi of the
	 * grid (given the pooled count, B's count beta-binomial: each run's
	 * rate of the key a gamma, the negative binomial of edgeR's exact
	 * test), its interval Newcombe's at cprof_noise_interval_phi. */
	const struct cprof_noise *noise;
};

/* The contract's defaults: alpha 0.01, min_effect 0.005, dispersion 1,
 * the point rule, one dispersion for every key. */
#define CPROF_SIGNIF_DEFAULTS { 0.01, 0.005, 1.0, false, NULL }

/* One key's counts on both sides. */
struct cprof_pair {
	uint64_t count_a;
	uint64_t count_b;
	/* false: the key is absent from a truncated flat (its count there is
	 * unknown), so it is left out of every test. */
	bool known;
};

/* Turns GSL's abort-on-error handler off, once for the process: safe to
 * call from any thread, as the tests of watch's groups do side by side. */
void cprof_gsl_quiet(void);

/* The two-sided p-value of "the key has the same share in A and B", its
 * counts and the totals divided by `dispersion`.  Below 1,000 pooled
 * samples (count_a + count_b over `dispersion`), Fisher's exact test of
 * the 2 x 2 table (the key and the rest, in A and in B; the scaled counts
 * rounded): count_b given both margins is hypergeometric, and the p-value
 * is twice the smaller tail.  From 1,000 on, the likelihood-ratio (G) test
 * of that table, G divided by `dispersion`.  At most 1. */
double cprof_share_test(uint64_t count_a, uint64_t total_a, uint64_t count_b, uint64_t total_b,
			double dispersion);

/* The two-sided p-value of "key `key` has the same share in A and B"
 * under its own noise (noise.h): the mixture over its posterior of the
 * compound tests at each phi of the grid (given the pooled count, B's
 * count beta-binomial, each run's rate of the key a gamma), the grid
 * points of weight below 1e-9 left out.  At most 1; exact below `cap`,
 * at least cap from it on (cap 1: always exact). */
double cprof_noise_test(const struct cprof_noise *noise, size_t key, uint64_t count_a,
			uint64_t total_a, uint64_t count_b, uint64_t total_b, double cap);

/* Newcombe's hybrid score interval (his method 10) of delta = p_b - p_a at
 * confidence `level` (0 < level < 1), from the Wilson intervals of each
 * share with the effective sample sizes total / dispersion, into *low and
 * *high.  A side with total 0 contributes the interval [0, 1]. */
void cprof_delta_interval(uint64_t count_a, uint64_t total_a, uint64_t count_b, uint64_t total_b,
			  double dispersion, double level, double *low, double *high);

/* Weighted Benjamini-Hochberg (Genovese, Roeder and Wasserman 2006): the
 * adjusted q[i] of the `n` p-values p[i] with weights weight[i] > 0 (NULL:
 * all 1), rescaled inside to mean 1; q[i] = min over j ranked at or after
 * i by p/w of n * (p/w)_j / rank_j, at most 1.  q may alias p. */
void cprof_bh_qvalues(const double *p, const double *weight, size_t n, double *q);

/* The whole-profile G-test of homogeneity. */
struct cprof_gtest {
	double statistic;      /* 2 sum O ln(O/E), divided by the dispersion */
	unsigned long df;      /* cells after pooling, less one */
	double p_value;        /* chi-squared upper tail; 1 when df is 0 */
	size_t pooled;         /* sparse keys merged into one cell */
};

/* The G-test of the 2 x n table of counts (the remainder total - sum of a
 * side's counts, such as a truncated flat's other, is one more cell).
 * Keys whose expected count is below 5 on either side are pooled into one
 * cell (dropped when that cell too is below 5). */
void cprof_gtest(const struct cprof_pair *pairs, size_t n, uint64_t total_a, uint64_t total_b,
		 double dispersion, struct cprof_gtest *out);

/* One key's significance. */
struct cprof_key_signif {
	double p_value;        /* NaN when the key is not known on both sides */
	double q_value;        /* 1 when left out of the correction */
	/* The interval of delta at level ci_level, consistent with the test:
	 * it excludes 0 exactly when the key's test rejects at that level
	 * (test-based limits, Miettinen 1976, where it rejects; Newcombe's
	 * reaching 0 where it does not).  A corrected key's level is the
	 * false-coverage-rate level of the correction's selection (Benjamini
	 * and Yekutieli 2005): 1 - R alpha w / m for R keys selected (at
	 * least 1) of the m corrected, w its weight rescaled to mean 1, so
	 * that it excludes 0 exactly when the key is selected; another key's
	 * is 1 - alpha. */
	double ci_low;
	double ci_high;
	double ci_level;       /* NaN when not tested */
	double dispersion;     /* the key's own phi (posterior mean); NaN without noise */
	bool tested;           /* p_value and the interval are computed */
	bool corrected;        /* among the keys of the correction */
	bool selected;         /* corrected and q_value <= alpha */
	bool significant;      /* selected and moved by min_effect (by the point
				* estimate or the interval, as asked): moved */
};

/* Why a key not called moved has an interval that excludes 0, in words
 * ("below --min-effect": selected, or outside the correction, which no
 * key that could move by min_effect is; "not significant after the
 * correction"), or NULL when its interval agrees with its verdict (or
 * it is not tested). */
const char *cprof_key_note(const struct cprof_key_signif *key);

/* The significance of a whole difference. */
struct cprof_signif {
	struct cprof_key_signif *keys;     /* one per pair, in the caller's order */
	size_t count;
	size_t corrected;      /* keys in the correction */
	size_t selected;       /* keys with selected set (R) */
	size_t significant;    /* keys with significant set */
	struct cprof_gtest gtest;
	bool different;        /* the verdict: significant > 0 */
};

/* Tests the known pairs of `n` (the counts out of total_a and total_b)
 * that enter the correction (the others on demand, cprof_signif_test): a
 * p-value and an interval each; the Benjamini-Hochberg correction over
 * the keys whose pooled count could show a difference of min_effect
 * (count_a + count_b >= min_effect * min(total_a, total_b)), weighted by
 * the square root of their pooled share; the G-test; the verdict.
 * Returns a result the caller frees with cprof_signif_free. */
struct cprof_signif *cprof_signif_compute(const struct cprof_pair *pairs, size_t n,
					  uint64_t total_a, uint64_t total_b,
					  const struct cprof_signif_options *options);

/* Tests key `i` of the `pairs` cprof_signif_compute was given (the same
 * totals and options) when it is not tested yet: the keys left out of the
 * correction are tested only when asked, which spares the work on the many
 * small keys nobody prints. */
void cprof_signif_test(struct cprof_signif *signif, const struct cprof_pair *pairs, size_t i,
		       uint64_t total_a, uint64_t total_b, const struct cprof_signif_options *options);

/* Frees a result; accepts NULL. */
void cprof_signif_free(struct cprof_signif *signif);

/* The top-k Manhattan distance as cprof-diff prints it, from counts: the
 * `pairs` are in bytewise key order (the index breaks ties of count), the
 * compared keys are the first `k` (0: every key) with a count > 0 of A by
 * count descending, and of B too unless `a_only`; the sum of |p_b - p_a|
 * over them. */
double cprof_manhattan_of(const struct cprof_pair *pairs, size_t n, uint64_t total_a,
			  uint64_t total_b, size_t k, bool a_only);

/* The null distribution of that distance for these totals. */
/* cprof_manhattan_of, and the keys it compares: chosen[i] (of n, when
 * `chosen` is not NULL) is 1 for a compared key, else 0. */
double cprof_manhattan_choose(const struct cprof_pair *pairs, size_t n, uint64_t total_a,
			      uint64_t total_b, size_t k, bool a_only, unsigned char *chosen);

struct cprof_manhattan_null {
	double mean;
	double quantile;       /* the 1 - alpha quantile */
	size_t replicates;     /* 0: computed, not drawn */
};

/* A seeded parametric bootstrap: both sides drawn (gsl_ran_multinomial)
 * from the pooled shares with total / dispersion samples, the distance
 * taken as cprof_manhattan_of does, `replicates` times (0: as many as
 * keep the work near 2e7 key draws, between 200 and 2000).  The same
 * input gives the same figures.  When every key is compared (k 0 or k >=
 * n) and there are 1,000 keys or more, with `replicates` 0, it is
 * computed instead: the distance as a normal sum of independent |D| per
 * key, each key's E|D| and E D^2 summed exactly over the binomials below
 * 30 expected samples, and from the normal approximation above. */
void cprof_manhattan_null(const struct cprof_pair *pairs, size_t n, uint64_t total_a,
			  uint64_t total_b, size_t k, bool a_only, double dispersion, double alpha,
			  size_t replicates, struct cprof_manhattan_null *out);

/* The dispersion of `runs` >= 2 profiles of one program: the Pearson
 * chi-squared of their runs x keys count table (table[run * keys + key];
 * each row sums to that run's total) over its degrees of freedom, with
 * keys of expected count below 5 in some run pooled into one column;
 * never below 1 (1 when there are no degrees of freedom). */
double cprof_dispersion_estimate(const uint64_t *table, size_t runs, size_t keys);

#endif
