/* signif.c: tests, intervals and null distributions of the difference of
 * two profiles (GSL).  See signif.h for the model. */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include <glib.h>

#include "noise.h"
#include "signif.h"
#include "sum.h"
#include "base/util.h"

/* The fewest expected samples a cell of a chi-squared table may hold
 * before it is pooled with the other sparse ones. */
#define SPARSE_EXPECTED 5.0

/* The seed of every bootstrap: the same input gives the same figures. */
#define NULL_SEED 20100701UL

static double fraction(uint64_t count, uint64_t total)
{
	return total > 0 ? (double)count / (double)total : 0.0;
}

/* The likelihood-ratio tail of x successes of m at probability pi, for
 * counts too large for the incomplete beta's continued fraction: the
 * signed root of the binomial deviance is standard normal to O(1/m). */
static double deviance_tail(double x, double m, double pi, bool upper)
{
	double expected = m * pi, d = 0.0, z;

	if (x > 0)
		d += x * log(x / expected);
	if (m - x > 0)
		d += (m - x) * log((m - x) / (m - expected));
	z = copysign(sqrt(fmax(0.0, 2.0 * d)), x - expected);
	return upper ? gsl_cdf_ugaussian_Q(z) : gsl_cdf_ugaussian_P(z);
}

/* I_x(a, b), or a negative number when GSL cannot reach full precision. */
static double beta_inc(double a, double b, double x)
{
	gsl_sf_result result;

	if (gsl_sf_beta_inc_e(a, b, x, &result) != GSL_SUCCESS)
		return -1.0;
	return result.val;
}

/* P(X >= x) for X binomial(m, pi), x and m real (counts over phi). */
static double upper_tail(double x, double m, double pi)
{
	double tail;

	if (x <= 0)
		return 1.0;
	tail = beta_inc(x, m - x + 1.0, pi);
	return tail >= 0 ? tail : deviance_tail(x, m, pi, true);
}

/* P(X <= x) for X binomial(m, pi). */
static double lower_tail(double x, double m, double pi)
{
	double tail;

	if (x >= m)
		return 1.0;
	tail = beta_inc(m - x, x + 1.0, 1.0 - pi);
	return tail >= 0 ? tail : deviance_tail(x, m, pi, false);
}

/* The pooled count (over the dispersion) from which a key is tested by
 * the likelihood ratio of its 2 x 2 table instead of exactly. */
#define EXACT_BELOW 1000.0

/* The largest 1 - level an interval takes (a key of very large weight
 * among many selected could ask for more). */
#define MAX_GAMMA 0.5

/* O ln(O / E) of one cell, 0 for an empty one. */
static double cell(double observed, double expected)
{
	return observed > 0 ? observed * log(observed / expected) : 0.0;
}

/* The two-sided p-value of the G-test of the 2 x 2 table (the key and the
 * rest, in A and in B), G divided by the dispersion: its signed root is
 * standard normal for large counts. */
static double table_test(double count_a, double total_a, double count_b, double total_b,
			 double dispersion)
{
	double total = total_a + total_b, share = (count_a + count_b) / total, g;

	g = cell(count_a, total_a * share) + cell(total_a - count_a, total_a * (1 - share)) +
	    cell(count_b, total_b * share) + cell(total_b - count_b, total_b * (1 - share));
	return 2.0 * gsl_cdf_ugaussian_Q(sqrt(fmax(0.0, 2.0 * g / dispersion)));
}

/* Fisher's exact test of the 2 x 2 table, counts rounded (after the
 * division by the dispersion): given both margins, count_b is
 * hypergeometric; twice the smaller tail, at most 1.  Negative when the
 * totals are too large for GSL's unsigned counts. */
static double fisher_test(double count_a, double total_a, double count_b, double total_b)
{
	double a = nearbyint(count_a), b = nearbyint(count_b), n_a = nearbyint(total_a),
	       n_b = nearbyint(total_b), lower, upper;
	unsigned int k, pooled;

	if (n_a + n_b > UINT_MAX || n_a < 1 || n_b < 1)
		return -1.0;
	k = (unsigned int)b;
	pooled = (unsigned int)(a + b);
	if (pooled == 0)
		return 1.0;
	lower = gsl_cdf_hypergeometric_P(k, (unsigned int)n_b, (unsigned int)n_a, pooled);
	upper = k > 0 ? gsl_cdf_hypergeometric_Q(k - 1, (unsigned int)n_b, (unsigned int)n_a, pooled)
		      : 1.0;
	return fmin(1.0, 2.0 * fmin(lower, upper));
}

void cprof_gsl_quiet(void)
{
	static gsize done;

	if (g_once_init_enter(&done)) {
		gsl_set_error_handler_off();
		g_once_init_leave(&done, 1);
	}
}

double cprof_share_test(uint64_t count_a, uint64_t total_a, uint64_t count_b, uint64_t total_b,
			double dispersion)
{
	double m = ((double)count_a + (double)count_b) / dispersion;
	double x = (double)count_b / dispersion;
	double pi, p;

	cprof_gsl_quiet();
	if (m <= 0 || total_a == 0 || total_b == 0)
		return 1.0;
	if (m >= EXACT_BELOW)
		return fmin(1.0, table_test((double)count_a, (double)total_a, (double)count_b,
					    (double)total_b, dispersion));
	p = fisher_test((double)count_a / dispersion, (double)total_a / dispersion, x,
			(double)total_b / dispersion);
	if (p >= 0)
		return p;
	pi = (double)total_b / ((double)total_a + (double)total_b);
	p = 2.0 * fmin(upper_tail(x, m, pi), lower_tail(x, m, pi));
	return fmin(1.0, p);
}

/* The Wilson score interval of a share, count of total over dispersion. */
static void wilson(uint64_t count, uint64_t total, double dispersion, double z, double *low,
		   double *high)
{
	double n, p, z2n, center, half;

	if (total == 0) {
		*low = 0.0;
		*high = 1.0;
		return;
	}
	n = (double)total / dispersion;
	p = (double)count / (double)total;
	z2n = z * z / n;
	center = (p + z2n / 2.0) / (1.0 + z2n);
	half = z * sqrt(p * (1.0 - p) / n + z2n / (4.0 * n)) / (1.0 + z2n);
	*low = fmax(0.0, center - half);
	*high = fmin(1.0, center + half);
}

void cprof_delta_interval(uint64_t count_a, uint64_t total_a, uint64_t count_b, uint64_t total_b,
			  double dispersion, double level, double *low, double *high)
{
	double z = gsl_cdf_ugaussian_Qinv((1.0 - level) / 2.0);
	double p_a = fraction(count_a, total_a), p_b = fraction(count_b, total_b);
	double low_a, high_a, low_b, high_b, delta = p_b - p_a;

	wilson(count_a, total_a, dispersion, z, &low_a, &high_a);
	wilson(count_b, total_b, dispersion, z, &low_b, &high_b);
	*low = delta - hypot(p_b - low_b, high_a - p_a);
	*high = delta + hypot(high_b - p_b, p_a - low_a);
}

/* An index ranked by a key, for the sorts below. */
struct ranked {
	double value;
	size_t index;
};

static int ranked_cmp(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->value != b->value)
		return a->value < b->value ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

void cprof_bh_qvalues(const double *p, const double *weight, size_t n, double *q)
{
	struct ranked *order;
	double weights = 0.0, running = 1.0;
	size_t i;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		weights += weight ? weight[i] : 1.0;
	order = cprof_xcalloc(n, sizeof(*order));
	for (i = 0; i < n; i++) {
		double w = weight ? weight[i] * (double)n / weights : 1.0;

		order[i].value = p[i] / w;
		order[i].index = i;
	}
	qsort(order, n, sizeof(*order), ranked_cmp);
	for (i = n; i-- > 0;) {
		double adjusted = order[i].value * (double)n / (double)(i + 1);

		running = fmin(running, adjusted);
		q[order[i].index] = fmin(1.0, running);
	}
	free(order);
}

/* One column of a contingency table: a key's counts, or several pooled. */
struct column {
	double a;
	double b;
};

/* The G statistic of the 2 x n table `columns`, from its own margins. */
static double g_statistic(const struct column *columns, size_t n)
{
	double total_a = 0, total_b = 0, total, g = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		total_a += columns[i].a;
		total_b += columns[i].b;
	}
	total = total_a + total_b;
	for (i = 0; i < n; i++) {
		double pooled = columns[i].a + columns[i].b;

		if (columns[i].a > 0)
			g += columns[i].a * log(columns[i].a * total / (pooled * total_a));
		if (columns[i].b > 0)
			g += columns[i].b * log(columns[i].b * total / (pooled * total_b));
	}
	return 2.0 * g;
}

/* Merges column `from` into the smallest other column of the `n`. */
static void merge_into_smallest(struct column *columns, size_t n, size_t from)
{
	size_t i, smallest = n;

	for (i = 0; i < n; i++)
		if (i != from && (smallest == n || columns[i].a + columns[i].b <
						   columns[smallest].a + columns[smallest].b))
			smallest = i;
	if (smallest == n)
		return;
	columns[smallest].a += columns[from].a;
	columns[smallest].b += columns[from].b;
	columns[from] = columns[n - 1];
}

void cprof_gtest(const struct cprof_pair *pairs, size_t n, uint64_t total_a, uint64_t total_b,
		 double dispersion, struct cprof_gtest *out)
{
	struct column *columns = cprof_xcalloc(n + 2, sizeof(*columns));
	struct column sparse = { 0, 0 }, rest = { (double)total_a, (double)total_b };
	double share_a = fraction(total_a, total_a + total_b);
	size_t i, used = 0;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		struct column c = { (double)pairs[i].count_a, (double)pairs[i].count_b };
		double pooled = c.a + c.b;

		if (!pairs[i].known || pooled == 0)
			continue;
		rest.a -= c.a;
		rest.b -= c.b;
		if (fmin(share_a, 1.0 - share_a) * pooled < SPARSE_EXPECTED) {
			sparse.a += c.a;
			sparse.b += c.b;
			out->pooled++;
		} else {
			columns[used++] = c;
		}
	}
	/* The samples of no known key (a truncated flat's other, the keys
	 * absent from it) are one more cell, as are the sparse keys. */
	if (rest.a + rest.b > 0)
		columns[used++] = rest;
	if (sparse.a + sparse.b > 0) {
		columns[used++] = sparse;
		if (fmin(share_a, 1.0 - share_a) * (sparse.a + sparse.b) < SPARSE_EXPECTED &&
		    used > 1) {
			merge_into_smallest(columns, used, used - 1);
			used--;
		}
	}
	out->df = used > 1 ? used - 1 : 0;
	out->statistic = out->df > 0 ? g_statistic(columns, used) / dispersion : 0.0;
	out->p_value = out->df > 0 ? gsl_cdf_chisq_Q(out->statistic, (double)out->df) : 1.0;
	free(columns);
}

/* Posterior weights below this are left out of a key's mixture. */
#define NEGLIGIBLE_WEIGHT 1e-9

/* log P(B = k) for B beta-binomial(n, shape_b, shape_a). */
static double betabinomial_log_pmf(double k, double n, double shape_b, double shape_a)
{
	return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) + lgamma(k + shape_b) +
	       lgamma(n - k + shape_a) - lgamma(n + shape_a + shape_b) - lgamma(shape_b) -
	       lgamma(shape_a) + lgamma(shape_a + shape_b);
}

/* The tail of B beyond k (upward or downward), summed from k outwards
 * until the terms no longer count or the sum reaches `cap` (then at least
 * cap), each term from the one before by the ratio of successive
 * probabilities. */
static double betabinomial_tail(double k, double n, double shape_b, double shape_a, bool upper,
				double cap)
{
	double term = exp(betabinomial_log_pmf(k, n, shape_b, shape_a)), sum = 0.0, x = k;

	if (!(term > 0))
		return 0.0;
	while (x >= 0 && x <= n) {
		sum += term;
		if (term < 1e-17 * sum || sum >= cap)
			break;
		if (upper) {
			term *= (n - x) / (x + 1) * (x + shape_b) / (n - x - 1 + shape_a);
			x++;
		} else {
			term *= x / (n - x + 1) * (n - x + shape_a) / (x - 1 + shape_b);
			x--;
		}
	}
	return sum;
}

/* Above this the gamma shapes of the compound test are sampling alone. */
#define SHAPE_POISSON 1e8

/* The two-sided p-value of "the key has the same share in A and B" when
 * each run's rate of the key is a gamma whose variance makes the count's
 * phi times sampling's (the negative binomial of edgeR's exact test): the
 * rates of A and B, summed over their runs, are gammas of one scale and
 * shapes S = pi N / ((phi - 1)(1 - pi)) for each side's N samples (pi the
 * pooled share), so that given the pooled count n, count_b is
 * beta-binomial(n, S_b, S_a); twice the smaller tail.  Its right skew is
 * what a noisy key's few samples have; the normal approximation of the
 * scaled G-test misses it.  At phi 1, cprof_share_test.  Exact below
 * `cap`, at least cap (or 1) from it on. */
static double compound_test(uint64_t count_a, uint64_t total_a, uint64_t count_b,
			    uint64_t total_b, double phi, double cap)
{
	double n = (double)count_a + (double)count_b, total = (double)total_a + (double)total_b;
	double share = n / total, scale, shape_a, shape_b, mean;

	if (phi <= 1.0 || n == 0 || share >= 1)
		return cprof_share_test(count_a, total_a, count_b, total_b, phi);
	scale = (phi - 1.0) * (1.0 - share);
	shape_a = share * (double)total_a / scale;
	shape_b = share * (double)total_b / scale;
	if (shape_a + shape_b > SHAPE_POISSON)
		return cprof_share_test(count_a, total_a, count_b, total_b, phi);
	mean = n * shape_b / (shape_a + shape_b);
	return fmin(1.0, 2.0 * betabinomial_tail((double)count_b, n, shape_b, shape_a,
						 (double)count_b >= mean, cap / 2.0));
}

/* The grid points of `post` (`grid`) of weight NEGLIGIBLE_WEIGHT or more
 * into order, heaviest first; returns their number. */
static size_t heaviest_first(const double *post, size_t grid, size_t *order)
{
	size_t g, n = 0, i;

	for (g = 0; g < grid; g++) {
		if (post[g] < NEGLIGIBLE_WEIGHT)
			continue;
		for (i = n++; i > 0 && post[order[i - 1]] < post[g]; i--)
			order[i] = order[i - 1];
		order[i] = g;
	}
	return n;
}

double cprof_noise_test(const struct cprof_noise *noise, size_t key, uint64_t count_a,
			uint64_t total_a, uint64_t count_b, uint64_t total_b, double cap)
{
	const double *phi, *post = cprof_noise_posterior(noise, key);
	size_t grid = cprof_noise_grid(noise, &phi), *order = cprof_xcalloc(grid, sizeof(*order));
	size_t n = heaviest_first(post, grid, order), i;
	double p = 0.0, used = 0.0;

	for (i = 0; i < n; i++)
		used += post[order[i]];
	/* The heaviest points first: once the mixture is past cap, the rest
	 * need not be tested, and each point's test need not be summed past
	 * what would take the mixture there. */
	for (i = 0; i < n && p < cap * used; i++) {
		double w = post[order[i]];

		p += w * compound_test(count_a, total_a, count_b, total_b, phi[order[i]],
				       (cap * used - p) / w);
	}
	free(order);
	return n > 0 ? fmin(1.0, p / used) : 1.0;
}

/* The p-value of known key `i` (and its own dispersion) into *key. */
static void test_key(const struct cprof_pair *pair, size_t i, uint64_t total_a, uint64_t total_b,
		     const struct cprof_signif_options *options, struct cprof_key_signif *key)
{
	if (options->noise) {
		key->p_value = cprof_noise_test(options->noise, i, pair->count_a, total_a,
						pair->count_b, total_b, 1.0);
		key->dispersion = cprof_noise_mean(options->noise, i);
	} else {
		key->p_value = cprof_share_test(pair->count_a, total_a, pair->count_b, total_b,
						options->dispersion);
	}
	key->tested = true;
}

/* The test-based interval of a key whose test rejects at `gamma`
 * (Miettinen 1976): delta +- z(gamma) se, the standard error the test's
 * own p-value implies (se = |delta| / z(p)), so that the interval
 * excludes 0 exactly as the test rejects. */
static void test_based(double delta, double p, double gamma, double *low, double *high)
{
	double z_p = gsl_cdf_ugaussian_Qinv(fmax(p, DBL_MIN) / 2.0);
	double z = fmin(gsl_cdf_ugaussian_Qinv(gamma / 2.0), z_p);
	double half = z_p > 0 ? z * fabs(delta) / z_p : 0.0;

	*low = delta - half;
	*high = delta + half;
}

/* Key `i`'s interval at level 1 - gamma into *key: test-based when its
 * test rejects (`rejects`), else Newcombe's at the key's dispersion,
 * reaching 0 when it does not (the test does not reject: no change is
 * among the values it accepts). */
static void key_interval(const struct cprof_pair *pair, size_t i, uint64_t total_a,
			 uint64_t total_b, const struct cprof_signif_options *options,
			 double gamma, bool rejects, struct cprof_key_signif *key)
{
	double delta = fraction(pair->count_b, total_b) - fraction(pair->count_a, total_a);
	double phi = options->dispersion;

	gamma = fmin(gamma, MAX_GAMMA);
	key->ci_level = 1.0 - gamma;
	if (rejects) {
		test_based(delta, key->p_value, gamma, &key->ci_low, &key->ci_high);
		return;
	}
	if (options->noise)
		phi = cprof_noise_interval_phi(options->noise, i, gamma);
	cprof_delta_interval(pair->count_a, total_a, pair->count_b, total_b, phi, 1.0 - gamma,
			     &key->ci_low, &key->ci_high);
	key->ci_low = fmin(key->ci_low, 0.0);
	key->ci_high = fmax(key->ci_high, 0.0);
}

void cprof_signif_test(struct cprof_signif *signif, const struct cprof_pair *pairs, size_t i,
		       uint64_t total_a, uint64_t total_b, const struct cprof_signif_options *options)
{
	struct cprof_key_signif *key = &signif->keys[i];

	if (key->tested || !pairs[i].known)
		return;
	test_key(&pairs[i], i, total_a, total_b, options, key);
	key_interval(&pairs[i], i, total_a, total_b, options, options->alpha,
		     key->p_value <= options->alpha, key);
}

/* Whether a key's pooled count could show a difference of min_effect at
 * all: the filter is blind to how the count splits, so it keeps the
 * correction valid (independent filtering). */
static bool could_show(const struct cprof_pair *pair, uint64_t total_a, uint64_t total_b,
		       double min_effect)
{
	double pooled = (double)pair->count_a + (double)pair->count_b;
	uint64_t smaller = total_a < total_b ? total_a : total_b;

	return pair->known && pooled > 0 && pooled >= min_effect * (double)smaller;
}

/* Whether a key moved by min_effect: its point estimate, or with
 * effect_interval its whole interval. */
static bool moved(const struct cprof_key_signif *key, double delta,
		  const struct cprof_signif_options *options)
{
	if (!options->effect_interval)
		return fabs(delta) >= options->min_effect;
	return key->ci_low >= options->min_effect || key->ci_high <= -options->min_effect;
}

/* The Benjamini-Hochberg correction over the keys that could show
 * min_effect, weighted by the square root of their pooled share; then
 * each corrected key's interval at the false-coverage-rate level of the
 * selection the correction made (Benjamini and Yekutieli 2005): for R
 * keys selected of m, 1 - R alpha w / m, w the key's weight rescaled to
 * mean 1 (R taken as 1 when none is), the level at which the key's own
 * test rejects exactly when the correction selects it. */
static void correct(const struct cprof_pair *pairs, uint64_t total_a, uint64_t total_b,
		    const struct cprof_signif_options *options, struct cprof_signif *signif)
{
	size_t *which = cprof_xcalloc(signif->count + 1, sizeof(*which));
	double *p = cprof_xcalloc(signif->count + 1, sizeof(*p));
	double *weight = cprof_xcalloc(signif->count + 1, sizeof(*weight));
	double total = (double)total_a + (double)total_b, weights = 0.0;
	size_t i, m = 0;

	for (i = 0; i < signif->count; i++) {
		if (!could_show(&pairs[i], total_a, total_b, options->min_effect))
			continue;
		which[m] = i;
		p[m] = signif->keys[i].p_value;
		weight[m] = sqrt(((double)pairs[i].count_a + (double)pairs[i].count_b) / total);
		weights += weight[m];
		m++;
	}
	cprof_bh_qvalues(p, weight, m, p);
	for (i = 0; i < m; i++) {
		struct cprof_key_signif *key = &signif->keys[which[i]];

		key->q_value = p[i];
		key->corrected = true;
		key->selected = key->q_value <= options->alpha;
		signif->selected += key->selected;
	}
	for (i = 0; i < m; i++) {
		struct cprof_key_signif *key = &signif->keys[which[i]];
		const struct cprof_pair *pair = &pairs[which[i]];
		double delta = fraction(pair->count_b, total_b) - fraction(pair->count_a, total_a);
		double selected = signif->selected > 0 ? (double)signif->selected : 1.0;

		key_interval(pair, which[i], total_a, total_b, options,
			     options->alpha * selected * weight[i] / weights, key->selected, key);
		key->significant = key->selected && moved(key, delta, options);
		signif->significant += key->significant;
	}
	signif->corrected = m;
	free(weight);
	free(p);
	free(which);
}

const char *cprof_key_note(const struct cprof_key_signif *key)
{
	if (!key->tested || key->significant || isnan(key->ci_low) ||
	    (key->ci_low <= 0 && key->ci_high >= 0))
		return NULL;
	if (key->selected || !key->corrected)
		return "below --min-effect";
	return "not significant after the correction";
}

struct cprof_signif *cprof_signif_compute(const struct cprof_pair *pairs, size_t n,
					  uint64_t total_a, uint64_t total_b,
					  const struct cprof_signif_options *options)
{
	struct cprof_signif *signif = cprof_xcalloc(1, sizeof(*signif));
	size_t i;

	signif->count = n;
	signif->keys = cprof_xcalloc(n + 1, sizeof(*signif->keys));
	for (i = 0; i < n; i++) {
		struct cprof_key_signif *key = &signif->keys[i];

		key->q_value = 1.0;
		key->p_value = NAN;
		key->ci_low = NAN;
		key->ci_high = NAN;
		key->ci_level = NAN;
		key->dispersion = NAN;
		if (could_show(&pairs[i], total_a, total_b, options->min_effect))
			test_key(&pairs[i], i, total_a, total_b, options, key);
	}
	correct(pairs, total_a, total_b, options, signif);
	cprof_gtest(pairs, n, total_a, total_b, options->dispersion, &signif->gtest);
	signif->different = signif->significant > 0;
	return signif;
}

void cprof_signif_free(struct cprof_signif *signif)
{
	if (!signif)
		return;
	free(signif->keys);
	free(signif);
}

/* A bounded heap of the best `k` key indexes of one side, in flat order
 * (count descending, index ascending); its root is the worst kept. */
struct top {
	size_t *heap;
	size_t len;
	size_t k;
	const uint64_t *counts;
};

/* Whether key x comes after key y in flat order. */
static bool after(const struct top *top, size_t x, size_t y)
{
	if (top->counts[x] != top->counts[y])
		return top->counts[x] < top->counts[y];
	return x > y;
}

static void swap(struct top *top, size_t i, size_t j)
{
	size_t t = top->heap[i];

	top->heap[i] = top->heap[j];
	top->heap[j] = t;
}

static void sift_down(struct top *top, size_t i)
{
	for (;;) {
		size_t worst = i, l = 2 * i + 1, r = l + 1;

		if (l < top->len && after(top, top->heap[l], top->heap[worst]))
			worst = l;
		if (r < top->len && after(top, top->heap[r], top->heap[worst]))
			worst = r;
		if (worst == i)
			return;
		swap(top, i, worst);
		i = worst;
	}
}

static void sift_up(struct top *top, size_t i)
{
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!after(top, top->heap[i], top->heap[parent]))
			return;
		swap(top, i, parent);
		i = parent;
	}
}

/* Offers key `index` (count > 0) to the heap. */
static void top_offer(struct top *top, size_t index)
{
	if (top->len < top->k) {
		top->heap[top->len++] = index;
		sift_up(top, top->len - 1);
	} else if (after(top, top->heap[0], index)) {
		top->heap[0] = index;
		sift_down(top, 0);
	}
}

/* Marks in `chosen` the top k keys with a count > 0 of `counts`. */
static void mark_top(const uint64_t *counts, size_t n, size_t k, size_t *heap,
		     unsigned char *chosen)
{
	struct top top = { heap, 0, k, counts };
	size_t i;

	for (i = 0; i < n; i++)
		if (counts[i] > 0)
			top_offer(&top, i);
	for (i = 0; i < top.len; i++)
		chosen[heap[i]] = 1;
}

/* Work space for distances from two count arrays. */
struct distance {
	size_t n;
	uint64_t *a;
	uint64_t *b;
	size_t *heap;
	unsigned char *chosen;
};

static void distance_init(struct distance *d, size_t n)
{
	d->n = n;
	d->a = cprof_xcalloc(n + 1, sizeof(*d->a));
	d->b = cprof_xcalloc(n + 1, sizeof(*d->b));
	d->heap = cprof_xcalloc(n + 1, sizeof(*d->heap));
	d->chosen = cprof_xcalloc(n + 1, 1);
}

static void distance_free(struct distance *d)
{
	free(d->a);
	free(d->b);
	free(d->heap);
	free(d->chosen);
}

/* The top-k Manhattan distance of d->a (of total_a) and d->b, over the
 * first `n` keys (those after, if any, are never compared). */
static double distance_of(struct distance *d, size_t n, uint64_t total_a, uint64_t total_b,
			  size_t k, bool a_only)
{
	struct cprof_sum sum = { 0.0, 0.0 };
	size_t i;

	if (k == 0 || k >= n) {
		for (i = 0; i < n; i++)
			d->chosen[i] = d->a[i] > 0 || (!a_only && d->b[i] > 0);
	} else {
		memset(d->chosen, 0, n);
		mark_top(d->a, n, k, d->heap, d->chosen);
		if (!a_only)
			mark_top(d->b, n, k, d->heap, d->chosen);
	}
	for (i = 0; i < n; i++)
		if (d->chosen[i])
			cprof_sum_add(&sum, fabs(fraction(d->b[i], total_b) -
						 fraction(d->a[i], total_a)));
	return cprof_sum_value(&sum);
}

double cprof_manhattan_of(const struct cprof_pair *pairs, size_t n, uint64_t total_a,
			  uint64_t total_b, size_t k, bool a_only)
{
	return cprof_manhattan_choose(pairs, n, total_a, total_b, k, a_only, NULL);
}

double cprof_manhattan_choose(const struct cprof_pair *pairs, size_t n, uint64_t total_a,
			      uint64_t total_b, size_t k, bool a_only, unsigned char *chosen)
{
	struct distance d;
	double result;
	size_t i;

	distance_init(&d, n);
	for (i = 0; i < n; i++) {
		d.a[i] = pairs[i].count_a;
		d.b[i] = pairs[i].count_b;
	}
	result = distance_of(&d, n, total_a, total_b, k, a_only);
	if (chosen)
		memcpy(chosen, d.chosen, n);
	distance_free(&d);
	return result;
}

/* The pooled shares a bootstrap draws from, keys that can never enter a
 * top k left out (their mass is one last cell, never compared). */
struct pool {
	double *shares;
	size_t compared;       /* the first `compared` cells are keys */
	size_t cells;          /* compared, plus one for the rest when any */
};

/* How far a pooled share could move in a draw: six standard deviations
 * of a side of `samples`. */
static double reach(double share, double samples)
{
	return 6.0 * sqrt(share * (1.0 - share) / samples) + 1.0 / samples;
}

/* The pooled shares of `pairs`; with k > 0 only the keys whose share
 * could reach the k-th largest in a draw of `samples` per side. */
static void pool_init(struct pool *pool, const struct cprof_pair *pairs, size_t n, size_t k,
		      double samples)
{
	double *pooled = cprof_xcalloc(n + 1, sizeof(*pooled)), total = 0.0, floor = 0.0, rest = 0.0;
	size_t i;

	pool->shares = cprof_xcalloc(n + 1, sizeof(*pool->shares));
	for (i = 0; i < n; i++)
		total += (double)pairs[i].count_a + (double)pairs[i].count_b;
	for (i = 0; i < n; i++)
		pooled[i] = total > 0 ? ((double)pairs[i].count_a + (double)pairs[i].count_b) / total
				      : 0.0;
	if (k > 0 && k < n) {
		double kth;

		memcpy(pool->shares, pooled, n * sizeof(*pooled));
		gsl_sort(pool->shares, 1, n);
		kth = pool->shares[n - k];
		floor = kth - reach(kth, samples);
	}
	pool->compared = 0;
	for (i = 0; i < n; i++) {
		if (pooled[i] > 0 && pooled[i] + reach(pooled[i], samples) >= floor)
			pool->shares[pool->compared++] = pooled[i];
		else
			rest += pooled[i];
	}
	pool->cells = pool->compared;
	if (rest > 0)
		pool->shares[pool->cells++] = rest;
	free(pooled);
}

/* A side's effective sample count: total / dispersion, at least 1. */
static unsigned int effective(uint64_t total, double dispersion)
{
	double n = nearbyint((double)total / dispersion);

	return n < 1 ? 1 : n > 4e9 ? 4000000000u : (unsigned int)n;
}

/* Replicates that keep the work near 2e7 key draws. */
static size_t replicates_for(size_t cells)
{
	size_t r = cells > 0 ? (size_t)(1e7 / (double)cells) : 2000;

	return r < 200 ? 200 : r > 2000 ? 2000 : r;
}

/* From this many keys, when every key is compared, the null of the
 * distance is computed rather than drawn: a sum of that many terms is
 * normal, and a bootstrap of them is slow. */
#define ANALYTIC_KEYS 1000

/* Below this expected count on a side a key's |D| is summed exactly. */
#define EXACT_EXPECTED 30.0

/* E|D| and E D^2 of one key, D = X_b / n_b - X_a / n_a with X binomial of
 * the pooled `share` (effective sizes n_a, n_b); with `a_only`, D counts
 * only where X_a > 0. */
struct moments {
	double abs;
	double square;
};

static unsigned int support(double n, double share)
{
	double lambda = n * share, top = lambda + 12.0 * sqrt(lambda) + 12.0;

	return (unsigned int)fmin(nearbyint(n), ceil(top));
}

/* The exact moments, summed over the binomials' supports. */
static struct moments exact_moments(double n_a, double n_b, double share, bool a_only)
{
	unsigned int top_a = support(n_a, share), top_b = support(n_b, share), x, y;
	unsigned int size_a = (unsigned int)nearbyint(n_a), size_b = (unsigned int)nearbyint(n_b);
	double *pb = cprof_xcalloc(top_b + 1, sizeof(*pb));
	struct moments m = { 0.0, 0.0 };

	for (y = 0; y <= top_b; y++)
		pb[y] = gsl_ran_binomial_pdf(y, share, size_b);
	for (x = a_only ? 1 : 0; x <= top_a; x++) {
		double pa = gsl_ran_binomial_pdf(x, share, size_a);

		for (y = 0; y <= top_b && pa > 0; y++) {
			double d = (double)y / size_b - (double)x / size_a;

			m.abs += pa * pb[y] * fabs(d);
			m.square += pa * pb[y] * d * d;
		}
	}
	free(pb);
	return m;
}

static struct moments key_moments(double n_a, double n_b, double share, bool a_only)
{
	double variance = share * (1.0 - share) * (1.0 / n_a + 1.0 / n_b);
	struct moments m = { sqrt(2.0 / M_PI * variance), variance };

	if (fmax(n_a, n_b) * share < EXACT_EXPECTED)
		return exact_moments(n_a, n_b, share, a_only);
	return m;
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* The null of the full distance as a normal sum of the keys' |D|, their
 * moments computed once per distinct pooled count. */
static void analytic_null(const struct cprof_pair *pairs, size_t n, double n_a, double n_b,
			  bool a_only, double alpha, struct cprof_manhattan_null *out)
{
	uint64_t *pooled = cprof_xcalloc(n + 1, sizeof(*pooled)), total = 0;
	double mean = 0.0, variance = 0.0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		pooled[i] = pairs[i].count_a + pairs[i].count_b;
		total += pooled[i];
	}
	qsort(pooled, n, sizeof(*pooled), u64_cmp);
	for (i = 0; i < n; i = j) {
		struct moments m;

		for (j = i; j < n && pooled[j] == pooled[i]; j++)
			;
		if (pooled[i] == 0)
			continue;
		m = key_moments(n_a, n_b, (double)pooled[i] / (double)total, a_only);
		mean += (double)(j - i) * m.abs;
		variance += (double)(j - i) * fmax(0.0, m.square - m.abs * m.abs);
	}
	out->mean = mean;
	out->quantile = mean + gsl_cdf_ugaussian_Qinv(alpha) * sqrt(variance);
	out->replicates = 0;
	free(pooled);
}

/* The null of the distance drawn: `replicates` (0: replicates_for) pairs of
 * multinomial draws of n_a and n_b samples from the pooled shares. */
static void bootstrap_null(const struct cprof_pair *pairs, size_t n, unsigned int n_a,
			   unsigned int n_b, size_t k, bool a_only, double alpha, size_t replicates,
			   struct cprof_manhattan_null *out)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned int *draw_a, *draw_b;
	struct distance d;
	struct pool pool;
	double *values;
	size_t r, i;

	if (!rng)
		cprof_die_oom();
	gsl_rng_set(rng, NULL_SEED);
	pool_init(&pool, pairs, n, k, n_a < n_b ? n_a : n_b);
	if (replicates == 0)
		replicates = replicates_for(pool.cells);
	distance_init(&d, pool.cells);
	draw_a = cprof_xcalloc(pool.cells + 1, sizeof(*draw_a));
	draw_b = cprof_xcalloc(pool.cells + 1, sizeof(*draw_b));
	values = cprof_xcalloc(replicates, sizeof(*values));
	for (r = 0; r < replicates; r++) {
		if (pool.cells > 0) {
			gsl_ran_multinomial(rng, pool.cells, n_a, pool.shares, draw_a);
			gsl_ran_multinomial(rng, pool.cells, n_b, pool.shares, draw_b);
		}
		for (i = 0; i < pool.cells; i++) {
			d.a[i] = draw_a[i];
			d.b[i] = draw_b[i];
		}
		values[r] = distance_of(&d, pool.compared, n_a, n_b, k, a_only);
	}
	gsl_sort(values, 1, replicates);
	out->mean = gsl_stats_mean(values, 1, replicates);
	out->quantile = gsl_stats_quantile_from_sorted_data(values, 1, replicates, 1.0 - alpha);
	out->replicates = replicates;
	free(values);
	free(draw_b);
	free(draw_a);
	distance_free(&d);
	free(pool.shares);
	gsl_rng_free(rng);
}

void cprof_manhattan_null(const struct cprof_pair *pairs, size_t n, uint64_t total_a,
			  uint64_t total_b, size_t k, bool a_only, double dispersion, double alpha,
			  size_t replicates, struct cprof_manhattan_null *out)
{
	unsigned int n_a = effective(total_a, dispersion), n_b = effective(total_b, dispersion);

	if ((k == 0 || k >= n) && n >= ANALYTIC_KEYS && replicates == 0)
		analytic_null(pairs, n, n_a, n_b, a_only, alpha, out);
	else
		bootstrap_null(pairs, n, n_a, n_b, k, a_only, alpha, replicates, out);
}

/* Pools the columns of `table` (runs x keys) whose expected count is
 * sparse in the smallest run into one; returns the columns kept, sums in
 * `columns` (runs per column, row-major by column). */
static size_t dispersion_columns(const uint64_t *table, size_t runs, size_t keys,
				 const double *row, double total, double *columns)
{
	double smallest = row[0], *sparse;
	size_t i, j, used = 0;
	bool any_sparse = false;

	for (i = 1; i < runs; i++)
		smallest = fmin(smallest, row[i]);
	sparse = cprof_xcalloc(runs, sizeof(*sparse));
	for (j = 0; j < keys; j++) {
		double column = 0.0;

		for (i = 0; i < runs; i++)
			column += (double)table[i * keys + j];
		if (column == 0)
			continue;
		if (column * smallest / total < SPARSE_EXPECTED) {
			for (i = 0; i < runs; i++)
				sparse[i] += (double)table[i * keys + j];
			any_sparse = true;
			continue;
		}
		for (i = 0; i < runs; i++)
			columns[used * runs + i] = (double)table[i * keys + j];
		used++;
	}
	if (any_sparse) {
		memcpy(&columns[used * runs], sparse, runs * sizeof(*sparse));
		used++;
	}
	free(sparse);
	return used;
}

double cprof_dispersion_estimate(const uint64_t *table, size_t runs, size_t keys)
{
	double *row = cprof_xcalloc(runs, sizeof(*row)), *columns, total = 0.0, chi2 = 0.0, df;
	size_t i, j, used;

	for (i = 0; i < runs; i++) {
		for (j = 0; j < keys; j++)
			row[i] += (double)table[i * keys + j];
		total += row[i];
	}
	columns = cprof_xcalloc((keys + 1) * runs, sizeof(*columns));
	used = total > 0 ? dispersion_columns(table, runs, keys, row, total, columns) : 0;
	for (j = 0; j < used; j++) {
		double column = 0.0;

		for (i = 0; i < runs; i++)
			column += columns[j * runs + i];
		for (i = 0; i < runs; i++) {
			double expected = row[i] * column / total, o = columns[j * runs + i];

			if (expected > 0)
				chi2 += (o - expected) * (o - expected) / expected;
		}
	}
	df = (double)(runs - 1) * (double)(used > 0 ? used - 1 : 0);
	free(columns);
	free(row);
	return df > 0 ? fmax(1.0, chi2 / df) : 1.0;
}
