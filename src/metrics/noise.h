/* noise.h: each key's run-to-run noise, measured on replicate runs and
 * moderated by empirical Bayes.
 *
 * The model: in run i of N_i samples, a key's share varies around the
 * build's share pi with variance phi_k pi (1 - pi) / N_i, phi_k >= 1 the
 * key's own dispersion (1: sampling alone).  Its Pearson statistic over
 * the runs of a group, X2_k = sum_i (y_i - N_i pi)^2 / (N_i pi (1 - pi)),
 * is phi_k times a chi-squared of (runs - 1) degrees of freedom, summed
 * over the groups (baselines, candidates) that have two runs or more.
 *
 * The phi_k of a profile's keys are drawn from a law, its prior, which
 * the keys' X2 estimate together: a mixture over a fixed grid of phi
 * (from 1 to 1000), its weights the maximum-likelihood fit of all the
 * keys' X2 (EM, with one pseudo-key spread over the grid so that a
 * profile of few keys keeps some mass on noisy values).  This is the
 * variance-adaptive shrinkage of Lu and Stephens (2016, vash), on a grid:
 * unlike limma's scaled-F prior it follows a law with a heavy upper tail
 * (most keys near 1.5, a few near 20), and a key whose few runs happened
 * to agree keeps the probability that it is one of the noisy ones.  Each
 * key's posterior over the grid is the prior times its own likelihood,
 * the prior of a measured key keeping a diffuse part (uniform on the grid
 * up to 100) of weight 1 / (measured keys + 1): with few keys the law is
 * itself uncertain, and a key's own runs then weigh as in a t test.  A key
 * with no degree of freedom (absent from the runs, or too sparse to
 * measure) has the prior itself. */
#ifndef CPROF_NOISE_H
#define CPROF_NOISE_H

#include <stddef.h>
#include <stdint.h>

struct cprof_noise;

/* Measures the noise of `keys` keys over `runs` runs: counts[key * runs +
 * run] of totals[run] samples, run r in group[r] (0 or 1: the baselines and
 * the candidates; a group's runs need not be contiguous).  Returns a result
 * the caller frees with cprof_noise_free. */
struct cprof_noise *cprof_noise_estimate(const uint64_t *counts, size_t keys, size_t runs,
					 const uint64_t *totals, const unsigned char *group);

/* As cprof_noise_estimate, the prior's fit started from `start`'s prior
 * (NULL: from uniform weights): the same law within the fit's tolerance,
 * in fewer steps when start measured keys alike (the splits of one
 * series, each a day from the last). */
struct cprof_noise *cprof_noise_estimate_from(const uint64_t *counts, size_t keys, size_t runs,
					      const uint64_t *totals, const unsigned char *group,
					      const struct cprof_noise *start);

/* Replaces the fitted prior by `prior` (weights over the grid, summing to
 * 1; copied) and every key's posterior by the one it gives, with no diffuse
 * part: the posteriors of keys whose law is known (a benchmark's oracle). */
void cprof_noise_set_prior(struct cprof_noise *noise, const double *prior);

/* The grid of phi values into *phi (owned by `noise`); returns its size. */
size_t cprof_noise_grid(const struct cprof_noise *noise, const double **phi);

/* Key `key`'s posterior weights over the grid (sum 1; owned by `noise`). */
const double *cprof_noise_posterior(const struct cprof_noise *noise, size_t key);

/* Key `key`'s dispersion: the posterior mean of phi_k. */
double cprof_noise_mean(const struct cprof_noise *noise, size_t key);

/* Key `key`'s degrees of freedom: 0 when its runs say nothing of it. */
unsigned cprof_noise_df(const struct cprof_noise *noise, size_t key);

/* The prior's mean of phi. */
double cprof_noise_prior_mean(const struct cprof_noise *noise);

/* The dispersion a single-phi interval needs to hold key `key`'s mixture
 * at level 1 - alpha: phi* with sum_g w_g 2 Q(z sqrt(phi* / phi_g)) =
 * alpha, z the normal 1 - alpha/2 quantile (a normal difference whose
 * variance is phi_g times sampling's, with the posterior's weights). */
double cprof_noise_interval_phi(const struct cprof_noise *noise, size_t key, double alpha);

/* Frees a result; accepts NULL. */
void cprof_noise_free(struct cprof_noise *noise);

#endif
