/* watch.c: the changes of one series of days; see watch.h for the model. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "base/util.h"
#include "metrics/noise.h"
#include "metrics/signif.h"
#include "metrics/stats.h"
#include "watch.h"

/* One key's (or entropy's) test at one split. */
struct test {
	double p, q;
	double before, after;          /* the levels */
	double se_before, se_after;    /* their standard errors */
};

/* What the detection of one series works on. */
struct watch {
	const struct cprof_watch_series *s;
	const struct cprof_watch_settings *set;
	size_t first, splits;          /* the splits tested: first .. first + splits - 1 */
	size_t rows;                   /* keys, then entropy */
	struct test *tests;            /* tests[row * splits + split] */
	double *entropy;               /* each day's Miller-Madow entropy, bits */
	double z;                      /* the normal 1 - alpha/2 quantile */
	struct cprof_noise *last;      /* the last split's noise: the next fit starts there */
};

const char *cprof_watch_kind_name(enum cprof_watch_kind kind)
{
	static const char *const names[] = { "regression", "improvement", "shift", "entropy" };

	return names[kind];
}

static struct test *test_at(const struct watch *w, size_t row, size_t s)
{
	return &w->tests[row * w->splits + (s - w->first)];
}

/* The days of split s, [s - baseline, num_days), as the runs of a noise
 * fit: the days before s one group, those from it on the other. */
struct split {
	size_t lo, runs;
	uint64_t *counts;              /* counts[key * runs + run] */
	unsigned char *group;
	uint64_t total_a, total_b;     /* the samples before s, from s on */
	struct cprof_noise *noise;     /* each key's dispersion between days */
};

/* The days of split s into *sp, their noise fit started from `start`'s
 * (NULL: afresh). */
static void split_open(const struct watch *w, size_t s, const struct cprof_noise *start,
		       struct split *sp)
{
	const struct cprof_watch_series *se = w->s;
	size_t k, d;

	sp->lo = s - w->set->baseline;
	sp->runs = se->num_days - sp->lo;
	sp->counts = cprof_xcalloc(se->num_keys * sp->runs + 1, sizeof(*sp->counts));
	sp->group = cprof_xcalloc(sp->runs, 1);
	sp->total_a = sp->total_b = 0;
	for (d = 0; d < sp->runs; d++) {
		sp->group[d] = sp->lo + d >= s;
		*(sp->group[d] ? &sp->total_b : &sp->total_a) += se->totals[sp->lo + d];
	}
	for (k = 0; k < se->num_keys; k++)
		memcpy(&sp->counts[k * sp->runs], &se->counts[k * se->num_days + sp->lo],
		       sp->runs * sizeof(*sp->counts));
	sp->noise = cprof_noise_estimate_from(sp->counts, se->num_keys, sp->runs,
					      se->totals + sp->lo, sp->group, start);
}

/* Frees what split_open made. */
static void split_close(struct split *sp)
{
	cprof_noise_free(sp->noise);
	free(sp->counts);
	free(sp->group);
}

/* Key k's samples before the split (*a) and from it on (*b). */
static void split_sums(const struct split *sp, size_t k, uint64_t *a, uint64_t *b)
{
	size_t d;

	*a = *b = 0;
	for (d = 0; d < sp->runs; d++)
		*(sp->group[d] ? b : a) += sp->counts[k * sp->runs + d];
}

/* The tests of every key at split s: the days before against the days
 * from s on, at each key's own noise between days (cprof_noise_test, the
 * mixture over its posterior dispersion, as cprof-regress judges).  A p
 * of 1 / splits or more is not computed exactly: times the splits (the
 * q-value's Bonferroni) it is 1 whatever it is. */
static void test_keys(struct watch *w, size_t s)
{
	struct split sp;
	size_t k;

	split_open(w, s, w->last, &sp);
	for (k = 0; k < w->s->num_keys; k++) {
		struct test *t = test_at(w, k, s);
		uint64_t a, b;

		split_sums(&sp, k, &a, &b);
		if (a + b == 0 || sp.total_a == 0 || sp.total_b == 0) {
			t->p = 1.0;
			continue;
		}
		t->p = cprof_noise_test(sp.noise, k, a, sp.total_a, b, sp.total_b,
					1.0 / (double)w->splits);
		t->before = (double)a / (double)sp.total_a;
		t->after = (double)b / (double)sp.total_b;
	}
	cprof_noise_free(w->last);
	w->last = sp.noise;
	sp.noise = NULL;
	split_close(&sp);
}

/* The standard errors of key k's levels at split s, at the dispersion
 * that holds its noise's mixture at level 1 - alpha: from a fit of that
 * split's days made afresh (the fit of its test, started from another
 * split's, agrees with it within the EM's tolerance). */
static void key_errors(const struct watch *w, size_t k, size_t s, struct test *t)
{
	struct split sp;
	double phi;

	split_open(w, s, NULL, &sp);
	phi = fmax(1.0, cprof_noise_interval_phi(sp.noise, k, w->set->alpha));
	t->se_before = sqrt(phi * t->before * (1 - t->before) / (double)sp.total_a);
	t->se_after = sqrt(phi * t->after * (1 - t->after) / (double)sp.total_b);
	split_close(&sp);
}

/* Student's t test of the days' entropies before split s against those
 * from s on, their variances pooled. */
static void test_entropy(struct watch *w, size_t s)
{
	const double *h = w->entropy + (s - w->set->baseline);
	size_t na = w->set->baseline, nb = w->s->num_days - s;
	struct test *t = test_at(w, w->s->num_keys, s);
	double va, vb, pooled, tstat;

	t->before = gsl_stats_mean(h, 1, na);
	t->after = gsl_stats_mean(h + na, 1, nb);
	va = na > 1 ? gsl_stats_variance_m(h, 1, na, t->before) : 0.0;
	vb = nb > 1 ? gsl_stats_variance_m(h + na, 1, nb, t->after) : 0.0;
	pooled = ((double)(na - 1) * va + (double)(nb - 1) * vb) / (double)(na + nb - 2);
	t->se_before = sqrt(pooled / (double)na);
	t->se_after = sqrt(pooled / (double)nb);
	if (!(pooled > 0)) {
		t->p = t->before == t->after ? 1.0 : 0.0;
		return;
	}
	tstat = (t->after - t->before) / sqrt(pooled / (double)na + pooled / (double)nb);
	t->p = 2 * gsl_cdf_tdist_Q(fabs(tstat), (double)(na + nb - 2));
}

/* Each day's Miller-Madow entropy in bits. */
static void day_entropies(struct watch *w)
{
	const struct cprof_watch_series *s = w->s;
	uint64_t *day = cprof_xcalloc(s->num_keys + 1, sizeof(*day));
	size_t d, k;

	w->entropy = cprof_xcalloc(s->num_days, sizeof(*w->entropy));
	for (d = 0; d < s->num_days; d++) {
		struct cprof_entropy e;

		for (k = 0; k < s->num_keys; k++)
			day[k] = s->counts[k * s->num_days + d];
		cprof_entropy_of_counts(day, s->num_keys, s->totals[d], CPROF_BASE_2, &e);
		w->entropy[d] = e.entropy_mm;
	}
	free(day);
}

/* Each row's weight in the q-values: a key's the square root of its
 * share over the series (as cprof-diff weighs its keys), entropy's the
 * keys' mean weight. */
static double *row_weights(const struct watch *w)
{
	const struct cprof_watch_series *s = w->s;
	double *weight = cprof_xcalloc(w->rows, sizeof(*weight)), total = 0.0, sum = 0.0;
	size_t k, d;

	for (d = 0; d < s->num_days; d++)
		total += (double)s->totals[d];
	for (k = 0; k < s->num_keys && total > 0; k++) {
		double count = 0.0;

		for (d = 0; d < s->num_days; d++)
			count += (double)s->counts[k * s->num_days + d];
		sum += weight[k] = sqrt(fmax(count, 1.0) / total);
	}
	weight[s->num_keys] = s->num_keys && sum > 0 ? sum / (double)s->num_keys : 1.0;
	return weight;
}

/* Each row's q-value: its smallest p over the splits, times the splits
 * tested (Bonferroni: the best split is chosen), then the weighted
 * Benjamini-Hochberg over the rows (row_weights).  One q per row, at its
 * best split (best[row]). */
static void qvalues(struct watch *w, size_t *best)
{
	double *p = cprof_xcalloc(w->rows, sizeof(*p)), *weight = row_weights(w);
	size_t row, s;

	for (row = 0; row < w->rows; row++) {
		best[row] = w->first;
		for (s = w->first; s < w->first + w->splits; s++)
			if (test_at(w, row, s)->p < test_at(w, row, best[row])->p)
				best[row] = s;
		p[row] = fmin(1.0, test_at(w, row, best[row])->p * (double)w->splits);
	}
	cprof_bh_qvalues(p, weight, w->rows, p);
	for (row = 0; row < w->rows; row++)
		test_at(w, row, best[row])->q = p[row];
	free(weight);
	free(p);
}

/* Row `row`'s value on day d: a key's share, or the entropy. */
static double value_on(const struct watch *w, size_t row, size_t d)
{
	if (row == w->s->num_keys)
		return w->entropy[d];
	return w->s->totals[d] ? (double)w->s->counts[row * w->s->num_days + d] /
				 (double)w->s->totals[d] : 0.0;
}

/* The first day of the new level of row `row`, its best split s0 moved
 * to the split of the days [s0 - baseline, last] whose two levels fit them
 * best (least squares, each day weighted by its samples); a split tested. */
static size_t refine(const struct watch *w, size_t row, size_t s0)
{
	size_t lo = s0 - w->set->baseline, n = w->s->num_days, s, d, best = s0;
	double best_sse = INFINITY;

	for (s = w->first > lo + 2 ? w->first : lo + 2; s + w->set->persist <= n; s++) {
		double sum[2] = { 0, 0 }, weight[2] = { 0, 0 }, sse = 0;

		for (d = lo; d < n; d++) {
			sum[d >= s] += (double)w->s->totals[d] * value_on(w, row, d);
			weight[d >= s] += (double)w->s->totals[d];
		}
		for (d = lo; d < n && weight[0] > 0 && weight[1] > 0; d++) {
			double e = value_on(w, row, d) - sum[d >= s] / weight[d >= s];

			sse += (double)w->s->totals[d] * e * e;
		}
		if (sse < best_sse) {
			best_sse = sse;
			best = s;
		}
	}
	return best;
}

/* The mean of row `row`'s values on days [from, to) less `before`, over
 * `move`: the share of the way from before to after. */
static double way(const struct watch *w, size_t row, size_t from, size_t to, double before,
		  double move)
{
	double sum = 0.0;
	size_t d;

	for (d = from; d < to; d++)
		sum += value_on(w, row, d);
	return (sum / (double)(to - from) - before) / move;
}

/* Whether the move of row `row` at split s held: its first `persist`
 * days' mean a quarter of the way from before to after (the new level
 * began there), and the mean of its last days (the last third of the
 * days from s, at least `persist`) half of the way (it did not go away). */
static bool held(const struct watch *w, size_t row, size_t s, const struct test *t)
{
	size_t n = w->s->num_days, m = w->set->persist, tail = (n - s + 2) / 3;
	double move = t->after - t->before;

	tail = tail > m ? tail : m;
	return way(w, row, s, s + m, t->before, move) >= 0.25 &&
	       way(w, row, n - tail, n, t->before, move) >= 0.5;
}

/* The level `value` with its interval from its standard error. */
static struct cprof_watch_level level_of(double value, double se, double z)
{
	return (struct cprof_watch_level){ value, value - z * se, value + z * se };
}

/* The change of row `row` at its best split best_s (its q-value's),
 * moved by refine, into *c; false when none. */
static bool best_change(const struct watch *w, size_t row, size_t best_s,
			struct cprof_watch_change *c)
{
	struct test *best = test_at(w, row, best_s);
	double rel, se_log, q = best->q;

	if (best->p * (double)w->splits >= 1.0 || q > w->set->alpha)
		return false;
	if (row < w->s->num_keys) {
		best_s = refine(w, row, best_s);
		best = test_at(w, row, best_s);
	}
	if (best->after == best->before)
		return false;
	rel = best->before > 0 ? fabs(best->after / best->before - 1) : INFINITY;
	if (rel < w->set->min_effect || !held(w, row, best_s, best))
		return false;
	if (row < w->s->num_keys)
		key_errors(w, row, best_s, best);
	memset(c, 0, sizeof(*c));
	c->key = row == w->s->num_keys ? SIZE_MAX : row;
	c->kind = row == w->s->num_keys ? CPROF_WATCH_ENTROPY :
		  best->after > best->before ? CPROF_WATCH_REGRESSION : CPROF_WATCH_IMPROVEMENT;
	c->day = best_s;
	c->days = w->s->num_days - best_s;
	c->q_value = q;
	c->before = level_of(best->before, best->se_before, w->z);
	c->after = level_of(best->after, best->se_after, w->z);
	c->ratio = (struct cprof_watch_level){ NAN, NAN, NAN };
	if (best->before > 0 && best->after > 0) {
		c->ratio.value = best->after / best->before;
		se_log = sqrt(pow(best->se_before / best->before, 2) +
			      pow(best->se_after / best->after, 2));
		c->ratio.low = c->ratio.value * exp(-w->z * se_log);
		c->ratio.high = c->ratio.value * exp(w->z * se_log);
	}
	return true;
}

/* Whether the profiles' totals before day s and from s on differ
 * (Welch's t, at alpha); false when either side has fewer than two. */
static bool totals_moved(const struct watch *w, size_t s)
{
	const struct cprof_watch_series *se = w->s;
	size_t a0 = se->day_start[s - w->set->baseline], a1 = se->day_start[s];
	size_t b1 = se->day_start[se->num_days], na = a1 - a0, nb = b1 - a1;
	double ma, mb, va, vb, t, df, sa, sb;

	if (na < 2 || nb < 2)
		return false;
	ma = gsl_stats_mean(se->profile_totals + a0, 1, na);
	mb = gsl_stats_mean(se->profile_totals + a1, 1, nb);
	va = gsl_stats_variance_m(se->profile_totals + a0, 1, na, ma);
	vb = gsl_stats_variance_m(se->profile_totals + a1, 1, nb, mb);
	sa = va / (double)na;
	sb = vb / (double)nb;
	if (!(sa + sb > 0))
		return ma != mb;
	t = (mb - ma) / sqrt(sa + sb);
	df = (sa + sb) * (sa + sb) /
	     (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	return 2 * gsl_cdf_tdist_Q(fabs(t), df) <= w->set->alpha;
}

/* Merges the key changes of day `day` (changes[from .. to)) into one
 * shift when they go both ways and offset each other, and the totals
 * did not move; returns the changes left in that range. */
static size_t merge_shift(const struct watch *w, struct cprof_watch_change *c, size_t n)
{
	double up = 0, down = 0, move, largest = -1;
	size_t i, main = 0, o = 0;

	for (i = 0; i < n; i++) {
		move = c[i].after.value - c[i].before.value;
		*(move > 0 ? &up : &down) += move;
	}
	if (up == 0 || down == 0 || fabs(up + down) > 0.25 * fmax(up, -down) ||
	    totals_moved(w, c[0].day))
		return n;
	for (i = 0; i < n; i++) {
		move = fabs(c[i].after.value - c[i].before.value);
		if (move > largest) {
			largest = move;
			main = i;
		}
	}
	c[main].kind = CPROF_WATCH_SHIFT;
	c[main].offset_by = cprof_xcalloc(n, sizeof(size_t));
	for (i = 0; i < n; i++)
		if (i != main) {
			c[main].offset_by[o++] = c[i].key;
			c[main].q_value = fmax(c[main].q_value, c[i].q_value);
		}
	c[main].num_offset = o;
	c[0] = c[main];
	return 1;
}

static int change_cmp(const void *a, const void *b)
{
	const struct cprof_watch_change *x = a, *y = b;

	if (x->key == SIZE_MAX || y->key == SIZE_MAX)
		return (x->key == SIZE_MAX) - (y->key == SIZE_MAX);
	if (x->day != y->day)
		return x->day < y->day ? -1 : 1;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* Finds each row's change, then merges the shifts of each day. */
static size_t collect(const struct watch *w, const size_t *best,
		      struct cprof_watch_change **out)
{
	struct cprof_watch_change *c = cprof_xcalloc(w->rows + 1, sizeof(*c));
	size_t n = 0, i, j, kept = 0, row;

	for (row = 0; row < w->rows; row++)
		if (best_change(w, row, best[row], &c[n]))
			n++;
	qsort(c, n, sizeof(*c), change_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && c[j].key != SIZE_MAX && c[i].key != SIZE_MAX &&
			    c[j].day == c[i].day; j++)
			continue;
		if (j == i)
			j = i + 1;
		memmove(&c[kept], &c[i], (j - i) * sizeof(*c));
		kept += j - i > 1 ? merge_shift(w, &c[kept], j - i) : 1;
	}
	*out = c;
	return kept;
}

size_t cprof_watch_detect(const struct cprof_watch_series *series,
			  const struct cprof_watch_settings *settings,
			  struct cprof_watch_change **changes)
{
	struct watch w = { series, settings, settings->baseline, 0, series->num_keys + 1, NULL,
			   NULL, gsl_cdf_ugaussian_Pinv(1 - settings->alpha / 2), NULL };
	size_t s, n, *best;

	*changes = NULL;
	if (settings->baseline < 2 || series->num_days < settings->baseline + settings->persist)
		return 0;
	w.splits = series->num_days - settings->persist - settings->baseline + 1;
	w.tests = cprof_xcalloc(w.rows * w.splits, sizeof(*w.tests));
	day_entropies(&w);
	for (s = w.first; s < w.first + w.splits; s++) {
		test_keys(&w, s);
		test_entropy(&w, s);
	}
	best = cprof_xcalloc(w.rows, sizeof(*best));
	qvalues(&w, best);
	n = collect(&w, best, changes);
	free(best);
	cprof_noise_free(w.last);
	free(w.tests);
	free(w.entropy);
	return n;
}

void cprof_watch_free(struct cprof_watch_change *changes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(changes[i].offset_by);
	free(changes);
}
