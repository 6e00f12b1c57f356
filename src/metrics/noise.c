/* noise.c: each key's run-to-run noise, measured on replicate runs and
 * moderated towards the law of the profile's keys (empirical Bayes on a
 * grid).  See noise.h for the model. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>

#include "noise.h"
#include "signif.h"
#include "base/util.h"

/* The grid: phi = GRID_STEP^g, g = 0 .. GRID - 1 (1 to about 1,000). */
#define GRID 32
#define GRID_STEP 1.25

/* A group's runs measure a key only where its expected count in the
 * group's smallest run is this much: below, Pearson's X2 is not a
 * chi-squared of any use. */
#define MEASURED_EXPECTED 3.0

/* The EM of the prior stops when the log-likelihood of its weights is
 * within EM_GAP a key of its maximum (em_step's gap), or after
 * EM_ROUNDS steps. */
#define EM_ROUNDS 10000
#define EM_GAP 1e-6

/* An extrapolated weight is no lower than this share of the EM step's. */
#define FLOOR_OF_STEP 0.01

/* An earlier fit's weights start the EM no lower than this. */
#define START_FLOOR 1e-4

/* Pseudo-keys at the pooled phi in the prior's fit: a profile of few keys
 * has a prior near the whole profile's dispersion, not one spike per key. */
#define PRIOR_PSEUDO_KEYS 1.0

/* A measured key's prior keeps a diffuse part, uniform on the grid up to
 * this phi, of weight 1 / (measured keys + 1): with few keys the law they
 * estimate is uncertain, and a key's own runs then weigh as in a t test. */
#define DIFFUSE_PHI 100.0

struct cprof_noise {
	size_t keys;
	double phi[GRID];
	double prior[GRID];
	double *posterior;     /* keys x GRID */
	double *x2;            /* each key's Pearson X2 over its groups */
	unsigned *df;
};

/* One key's Pearson X2 over the runs of group `g`, adding its degrees of
 * freedom to *df; 0 when the group does not measure it. */
static double group_pearson(const uint64_t *counts, size_t runs, const uint64_t *totals,
			    const unsigned char *group, unsigned char g, unsigned *df)
{
	double sum = 0.0, total = 0.0, smallest = INFINITY, share, x2 = 0.0;
	size_t r, n = 0;

	for (r = 0; r < runs; r++) {
		if (group[r] != g || totals[r] == 0)
			continue;
		sum += (double)counts[r];
		total += (double)totals[r];
		smallest = fmin(smallest, (double)totals[r]);
		n++;
	}
	if (n < 2 || total <= 0)
		return 0.0;
	share = sum / total;
	if (share <= 0 || share >= 1 || share * smallest < MEASURED_EXPECTED ||
	    (1 - share) * smallest < MEASURED_EXPECTED)
		return 0.0;
	for (r = 0; r < runs; r++) {
		double expected, d;

		if (group[r] != g || totals[r] == 0)
			continue;
		expected = (double)totals[r] * share;
		d = (double)counts[r] - expected;
		x2 += d * d / (expected * (1 - share));
	}
	*df += (unsigned)(n - 1);
	return x2;
}

/* The log-likelihood of X2 = x2 on df degrees of freedom at each phi of
 * the grid (X2 / phi chi-squared), less its largest, into loglik. */
static void likelihood(const struct cprof_noise *noise, double x2, unsigned df, double *loglik)
{
	double top = -INFINITY;
	size_t g;

	for (g = 0; g < GRID; g++) {
		loglik[g] = -0.5 * (double)df * log(noise->phi[g]) - 0.5 * x2 / noise->phi[g];
		top = fmax(top, loglik[g]);
	}
	for (g = 0; g < GRID; g++)
		loglik[g] = exp(loglik[g] - top);
}

/* The grid point nearest the pooled phi, sum X2 / sum df (at least 1). */
static size_t pooled_point(double x2, double df)
{
	double phi = df > 0 ? fmax(1.0, x2 / df) : 1.0;
	size_t g = (size_t)lround(log(phi) / log(GRID_STEP));

	return g < GRID ? g : GRID - 1;
}

/* The prior's fit: the keys' likelihoods over the grid (lik: keys x
 * GRID, only the keys with df > 0 counted) and the pseudo-keys' point. */
struct fit {
	const struct cprof_noise *noise;
	const double *lik;
	size_t pooled, measured;
};

/* One EM step of the prior's weights: w into next (renormalized; a key
 * whose mixture underflows is left out), w_g times the
 * directional derivative of the log-likelihood at w towards grid point g,
 * D_g (the mean over the keys and pseudo-keys of lik_kg / sum_g' w_g'
 * lik_kg'); returns the optimality gap, max_g D_g - 1: the mixture
 * likelihood is concave in the weights, so its maximum is at most (keys +
 * pseudo-keys) times the gap above its value at w, and the gap is 0 there. */
static double em_step(const struct fit *f, const double *w, double *next)
{
	double acc[GRID] = { 0 }, n = (double)f->measured + PRIOR_PSEUDO_KEYS, gap = 0.0;
	double total = 0.0;
	size_t k, g;

	for (k = 0; k < f->noise->keys; k++) {
		const double *lik = &f->lik[k * GRID];
		double sum = 0.0, inverse;

		if (f->noise->df[k] == 0)
			continue;
		for (g = 0; g < GRID; g++)
			sum += w[g] * lik[g];
		if (!(sum >= DBL_MIN))
			continue;
		inverse = 1.0 / sum;
		for (g = 0; g < GRID; g++)
			acc[g] += lik[g] * inverse;
	}
	for (g = 0; g < GRID; g++) {
		double pseudo = g == f->pooled ? PRIOR_PSEUDO_KEYS : 0.0;

		next[g] = (w[g] * acc[g] + pseudo) / n;
		gap = fmax(gap, (acc[g] + (pseudo > 0 ? pseudo / w[g] : 0.0)) / n - 1.0);
		total += next[g];
	}
	for (g = 0; g < GRID; g++)
		next[g] /= total;
	return gap;
}

/* The SQUAREM extrapolation (Varadhan and Roland 2008, scheme 3) from w
 * through w1 = EM(w) and w2 = EM(w1) into out: w - 2 a r + a^2 v with
 * a = -|r| / |v| (at most -1, where it is w2), each weight it would take
 * below FLOOR_OF_STEP of w2's kept there (a weight bound for 0 is left to
 * the EM steps), renormalized. */
static void extrapolate(const double *w, const double *w1, const double *w2, double *out)
{
	double r[GRID], v[GRID], rr = 0.0, vv = 0.0, a, sum = 0.0;
	size_t g;

	for (g = 0; g < GRID; g++) {
		r[g] = w1[g] - w[g];
		v[g] = w2[g] - w1[g] - r[g];
		rr += r[g] * r[g];
		vv += v[g] * v[g];
	}
	a = vv > 0 ? fmin(-1.0, -sqrt(rr / vv)) : -1.0;
	for (g = 0; g < GRID; g++)
		sum += out[g] = fmax(w[g] - 2 * a * r[g] + a * a * v[g], FLOOR_OF_STEP * w2[g]);
	for (g = 0; g < GRID; g++)
		out[g] /= sum;
}

/* The EM's first weights from an earlier fit's `prior`, each at least
 * START_FLOOR (renormalized): a weight of 0 never grows under EM. */
static void start_from(double *w, const double *prior)
{
	double sum = 0.0;
	size_t g;

	for (g = 0; g < GRID; g++)
		sum += w[g] = fmax(prior[g], START_FLOOR);
	for (g = 0; g < GRID; g++)
		w[g] /= sum;
}

/* Fits the prior's weights to the keys' likelihoods (lik: keys x GRID,
 * only the keys with df > 0) by EM accelerated by SQUAREM, with
 * PRIOR_PSEUDO_KEYS at grid point `pooled`, until the optimality gap is
 * below EM_GAP (or EM_ROUNDS steps).  `start`: the weights to start from
 * (NULL: uniform). */
static void fit_prior(struct cprof_noise *noise, const double *lik, size_t pooled,
		      const double *start)
{
	struct fit f = { noise, lik, pooled, 0 };
	double w1[GRID], w2[GRID], jump[GRID], next[GRID];
	size_t round, k, g;

	for (k = 0; k < noise->keys; k++)
		f.measured += noise->df[k] > 0;
	for (g = 0; g < GRID; g++)
		noise->prior[g] = f.measured == 0 ? g == pooled : 1.0 / GRID;
	if (f.measured == 0)
		return;
	if (start)
		start_from(noise->prior, start);
	for (round = 0; round + 3 <= EM_ROUNDS; round += 3) {
		if (em_step(&f, noise->prior, w1) < EM_GAP) {
			memcpy(noise->prior, w1, sizeof(w1));
			break;
		}
		em_step(&f, w1, w2);
		extrapolate(noise->prior, w1, w2, jump);
		em_step(&f, jump, next);
		memcpy(noise->prior, next, sizeof(next));
	}
}

/* Each key's posterior: `own` (a measured key's prior) times its
 * likelihood, normalized; a key with no degree of freedom has the prior,
 * and so has one whose likelihood underflows wherever `own` has mass. */
static void posteriors(struct cprof_noise *noise, const double *own, const double *lik)
{
	size_t k, g;

	for (k = 0; k < noise->keys; k++) {
		double *post = &noise->posterior[k * GRID], sum = 0.0;

		for (g = 0; g < GRID; g++)
			sum += post[g] = noise->df[k] > 0 ? own[g] * lik[k * GRID + g] : noise->prior[g];
		if (!(sum > 0)) {
			memcpy(post, own, GRID * sizeof(*post));
			continue;
		}
		for (g = 0; g < GRID; g++)
			post[g] /= sum;
	}
}

/* A measured key's prior: the fitted one with its diffuse part. */
static void with_diffuse(const struct cprof_noise *noise, double *own)
{
	double diffuse = 0.0;
	size_t k, g, measured = 0;

	for (k = 0; k < noise->keys; k++)
		measured += noise->df[k] > 0;
	for (g = 0; g < GRID; g++)
		diffuse += noise->phi[g] <= DIFFUSE_PHI;
	for (g = 0; g < GRID; g++)
		own[g] = ((double)measured * noise->prior[g] +
			  (noise->phi[g] <= DIFFUSE_PHI ? 1.0 / diffuse : 0.0)) / ((double)measured + 1);
}

struct cprof_noise *cprof_noise_estimate(const uint64_t *counts, size_t keys, size_t runs,
					 const uint64_t *totals, const unsigned char *group)
{
	return cprof_noise_estimate_from(counts, keys, runs, totals, group, NULL);
}

struct cprof_noise *cprof_noise_estimate_from(const uint64_t *counts, size_t keys, size_t runs,
					      const uint64_t *totals, const unsigned char *group,
					      const struct cprof_noise *start)
{
	struct cprof_noise *noise = cprof_xcalloc(1, sizeof(*noise));
	double *lik = cprof_xcalloc((keys + 1) * GRID, sizeof(*lik)), x2_sum = 0.0, df_sum = 0.0;
	double own[GRID];
	size_t k, g;

	cprof_gsl_quiet();
	noise->keys = keys;
	noise->posterior = cprof_xcalloc((keys + 1) * GRID, sizeof(*noise->posterior));
	noise->x2 = cprof_xcalloc(keys + 1, sizeof(*noise->x2));
	noise->df = cprof_xcalloc(keys + 1, sizeof(*noise->df));
	for (g = 0; g < GRID; g++)
		noise->phi[g] = pow(GRID_STEP, (double)g);
	for (k = 0; k < keys; k++) {
		const uint64_t *row = &counts[k * runs];
		unsigned df = 0;
		double x2 = group_pearson(row, runs, totals, group, 0, &df) +
			    group_pearson(row, runs, totals, group, 1, &df);

		noise->x2[k] = x2;
		noise->df[k] = df;
		x2_sum += x2;
		df_sum += df;
		if (df > 0)
			likelihood(noise, x2, df, &lik[k * GRID]);
	}
	fit_prior(noise, lik, pooled_point(x2_sum, df_sum), start ? start->prior : NULL);
	with_diffuse(noise, own);
	posteriors(noise, own, lik);
	free(lik);
	return noise;
}

void cprof_noise_set_prior(struct cprof_noise *noise, const double *prior)
{
	double *lik = cprof_xcalloc((noise->keys + 1) * GRID, sizeof(*lik));
	size_t k;

	memcpy(noise->prior, prior, sizeof(noise->prior));
	for (k = 0; k < noise->keys; k++)
		if (noise->df[k] > 0)
			likelihood(noise, noise->x2[k], noise->df[k], &lik[k * GRID]);
	posteriors(noise, noise->prior, lik);
	free(lik);
}

size_t cprof_noise_grid(const struct cprof_noise *noise, const double **phi)
{
	*phi = noise->phi;
	return GRID;
}

const double *cprof_noise_posterior(const struct cprof_noise *noise, size_t key)
{
	return &noise->posterior[key * GRID];
}

double cprof_noise_mean(const struct cprof_noise *noise, size_t key)
{
	const double *post = cprof_noise_posterior(noise, key);
	double mean = 0.0;
	size_t g;

	for (g = 0; g < GRID; g++)
		mean += post[g] * noise->phi[g];
	return mean;
}

unsigned cprof_noise_df(const struct cprof_noise *noise, size_t key)
{
	return noise->df[key];
}

double cprof_noise_prior_mean(const struct cprof_noise *noise)
{
	double mean = 0.0;
	size_t g;

	for (g = 0; g < GRID; g++)
		mean += noise->prior[g] * noise->phi[g];
	return mean;
}

/* A posterior's grid points that weigh on an interval's tail at level
 * alpha: those of weight above alpha * TAIL_NEGLIGIBLE (all the others
 * together move the tail by less than GRID times that). */
#define TAIL_NEGLIGIBLE 1e-12

/* The mixture whose tail is solved for: its weights and phis. */
struct mixture {
	double weight[GRID], phi[GRID];
	size_t n;
	double z, alpha;
};

/* The mixture's two-sided tail beyond z sqrt(phi*) of a single-phi normal,
 * less alpha, at log phi* = log_scale: falls as log_scale grows. */
static double tail_excess(double log_scale, void *data)
{
	const struct mixture *m = data;
	double tail = 0.0, scale = exp(log_scale);
	size_t i;

	for (i = 0; i < m->n; i++)
		tail += m->weight[i] * 2.0 * gsl_cdf_ugaussian_Q(m->z * sqrt(scale / m->phi[i]));
	return tail - m->alpha;
}

/* The root of tail_excess between log 1 (where it is positive) and the
 * grid's top (where it is not), by Brent's method to a relative 1e-10 of
 * phi*. */
static double solve_tail(struct mixture *m, double top)
{
	gsl_function f = { tail_excess, m };
	gsl_root_fsolver *solver = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	double low = 0.0, high = log(top);
	int i, status = GSL_CONTINUE;

	if (!solver)
		cprof_die("out of memory");
	gsl_root_fsolver_set(solver, &f, low, high);
	for (i = 0; i < 100 && status == GSL_CONTINUE; i++) {
		if (gsl_root_fsolver_iterate(solver) != GSL_SUCCESS)
			break;
		low = gsl_root_fsolver_x_lower(solver);
		high = gsl_root_fsolver_x_upper(solver);
		status = gsl_root_test_interval(low, high, 1e-10, 0.0);
	}
	gsl_root_fsolver_free(solver);
	return exp(high);
}

double cprof_noise_interval_phi(const struct cprof_noise *noise, size_t key, double alpha)
{
	const double *post = cprof_noise_posterior(noise, key);
	struct mixture m = { .z = gsl_cdf_ugaussian_Qinv(alpha / 2.0), .alpha = alpha };
	size_t g;

	cprof_gsl_quiet();
	for (g = 0; g < GRID; g++)
		if (post[g] > alpha * TAIL_NEGLIGIBLE) {
			m.weight[m.n] = post[g];
			m.phi[m.n++] = noise->phi[g];
		}
	if (tail_excess(0.0, &m) <= 0)
		return 1.0;
	if (tail_excess(log(noise->phi[GRID - 1]), &m) > 0)
		return noise->phi[GRID - 1];
	return solve_tail(&m, noise->phi[GRID - 1]);
}

void cprof_noise_free(struct cprof_noise *noise)
{
	if (!noise)
		return;
	free(noise->posterior);
	free(noise->x2);
	free(noise->df);
	free(noise);
}
