/* stats-calib: the calibration of cprof's verdicts, by simulation.
 *
 * Draws profiles from known distributions (multinomial sampling, and
 * Dirichlet-multinomial for runs noisier than sampling), judges them with
 * the library functions cprof-diff and cprof-regress call, and prints how
 * often each verdict is wrong (false alarms) or right (power), beside the
 * fixed-threshold rules, then the entropy's bias and interval coverage and
 * the calibration of manhattan_null.  Seeded: the same options print the
 * same table.  The targets of issue 11 end the output as PASS/FAIL lines;
 * exit 1 when one fails, 2 on trouble.
 *
 *   stats-calib [--seed S] [--trials N] [--entropy-trials N] */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "metrics/signif.h"
#include "metrics/json-metrics.h"
#include "metrics/judge.h"
#include "metrics/options.h"
#include "metrics/stats.h"
#include "stats-common.h"

/* The rules as the programs apply them by default. */
#define TOP_K 10                /* cprof-diff and cprof-regress -k */
#define FAIL_ABOVE 0.05         /* cprof-diff --fail-above 0.05 */
#define BASELINES 5             /* cprof-regress: runs in BASELINE_DIR */
#define DISTANCE_FACTOR 2.0     /* cprof-regress --rule distance --factor */
#define DISTANCE_MARGIN 0.02    /* and --margin */

/* A distribution of shares over keys 0..keys-1 (in key order), and the key
 * a shift moves. */
struct shape {
	const char *name;
	const char *about;
	size_t keys;
	double *shares;
	size_t shifted;
};

/* Work space for one shape's trials: every array has `keys` entries (runs
 * has BASELINES rows of them). */
struct scratch {
	size_t keys;
	double *moved;         /* the shares after a shift */
	double *alpha;         /* Dirichlet parameters */
	double *theta;         /* one Dirichlet draw */
	unsigned int *draw;    /* one multinomial draw */
	uint64_t *counts_a;
	uint64_t *counts_b;
	uint64_t *runs;        /* the baselines, runs[run * keys + key] */
	uint64_t *others;      /* the merge of all baselines but one */
	struct cprof_pair *pairs;
};

/* What the cells measured that a target judges. */
struct findings {
	double worst_diff_null;          /* --fail-different, same distribution */
	char worst_diff_cell[64];
	double worst_regress_null;       /* rule test, overdispersed, no shift */
	char worst_regress_cell[64];
	double zipf_plus2_power;         /* zipf200 third key +2 points, 10,000 */
	double zipf_plus2_single;
	double ten_to_twelve_100000;     /* zipf200-10 key #2 +2 points */
	double ten_to_twelve_10000;
	double ten_to_twelve_single_10000;
	double mm_bias_1000;             /* bits, zipf200 at 1,000 */
	double coverage_10000;           /* entropy_mm +- 1.96 se, zipf200 at 10,000 */
};

static const struct cprof_signif_options defaults = CPROF_SIGNIF_DEFAULTS;
static const uint64_t sample_sizes[] = { 1000, 10000, 100000 };
static const double shifts[] = { 0.0, 0.01, 0.02, 0.05 };

static struct shape shape_new(const char *name, const char *about, size_t keys, size_t shifted)
{
	struct shape shape = { name, about, keys, NULL, shifted };

	shape.shares = cprof_xcalloc(keys, sizeof(*shape.shares));
	return shape;
}

static struct shape shape_zipf200(void)
{
	struct shape shape = shape_new("zipf200", "Zipf s=1 over 200 keys", 200, 2);

	stats_zipf(shape.shares, 200, 1.0);
	return shape;
}

static struct shape shape_flat50(void)
{
	struct shape shape = shape_new("flat50", "50 keys at 2% each", 50, 0);
	size_t i;

	for (i = 0; i < 50; i++)
		shape.shares[i] = 1.0 / 50.0;
	return shape;
}

static struct shape shape_top90(void)
{
	struct shape shape = shape_new("top90", "key #1 at 90%, 199 keys share 10% as Zipf s=1",
				       200, 1);

	shape.shares[0] = 0.9;
	stats_zipf(shape.shares + 1, 199, 0.1);
	return shape;
}

/* Zipf 200 with its second key (8.5%) set to 10% and the others scaled
 * to the remaining 90%. */
static struct shape shape_zipf10(void)
{
	struct shape shape = shape_new("zipf200-10",
				       "zipf200, key #2 set to 10%, the others scaled to 90%", 200, 1);
	double rest;
	size_t i;

	stats_zipf(shape.shares, 200, 1.0);
	rest = 1.0 - shape.shares[1];
	for (i = 0; i < 200; i++)
		shape.shares[i] *= 0.9 / rest;
	shape.shares[1] = 0.1;
	return shape;
}

static void shape_free(struct shape *shape)
{
	free(shape->shares);
	shape->shares = NULL;
}

static void scratch_init(struct scratch *s, size_t keys)
{
	s->keys = keys;
	s->moved = cprof_xcalloc(keys, sizeof(*s->moved));
	s->alpha = cprof_xcalloc(keys, sizeof(*s->alpha));
	s->theta = cprof_xcalloc(keys, sizeof(*s->theta));
	s->draw = cprof_xcalloc(keys, sizeof(*s->draw));
	s->counts_a = cprof_xcalloc(keys, sizeof(*s->counts_a));
	s->counts_b = cprof_xcalloc(keys, sizeof(*s->counts_b));
	s->runs = cprof_xcalloc(BASELINES * keys, sizeof(*s->runs));
	s->others = cprof_xcalloc(keys, sizeof(*s->others));
	s->pairs = cprof_xcalloc(keys, sizeof(*s->pairs));
}

static void scratch_free(struct scratch *s)
{
	free(s->moved);
	free(s->alpha);
	free(s->theta);
	free(s->draw);
	free(s->counts_a);
	free(s->counts_b);
	free(s->runs);
	free(s->others);
	free(s->pairs);
}

/* The shape's shares with its shifted key's share raised by `gain` into
 * s->moved, which is returned. */
static const double *shift_shares(const struct shape *shape, double gain, struct scratch *s)
{
	stats_shift(shape->shares, shape->keys, shape->shifted, gain, s->moved);
	return s->moved;
}

/* One run of `samples` samples from `shares` into counts: multinomial
 * when phi is 1, else Dirichlet-multinomial whose variance is phi times
 * the multinomial's (concentration (samples - phi) / (phi - 1)). */
static void draw_run(gsl_rng *rng, const double *shares, uint64_t samples, double phi,
		     struct scratch *s, uint64_t *counts)
{
	const double *p = shares;
	size_t i;

	if (phi > 1.0) {
		double concentration = ((double)samples - phi) / (phi - 1.0);

		for (i = 0; i < s->keys; i++)
			s->alpha[i] = concentration * shares[i];
		gsl_ran_dirichlet(rng, s->keys, s->alpha, s->theta);
		p = s->theta;
	}
	gsl_ran_multinomial(rng, s->keys, (unsigned int)samples, p, s->draw);
	for (i = 0; i < s->keys; i++)
		counts[i] = s->draw[i];
}

/* The pairs cprof-diff builds: one per key of A or B, in key order.
 * Returns how many. */
static size_t pairs_fill(const uint64_t *a, const uint64_t *b, size_t keys,
			 struct cprof_pair *pairs)
{
	size_t i, n = 0;

	for (i = 0; i < keys; i++) {
		if (a[i] == 0 && b[i] == 0)
			continue;
		pairs[n].count_a = a[i];
		pairs[n].count_b = b[i];
		pairs[n].known = true;
		n++;
	}
	return n;
}

static double distance(const uint64_t *a, const uint64_t *b, uint64_t total_a, uint64_t total_b,
		       struct scratch *s)
{
	size_t n = pairs_fill(a, b, s->keys, s->pairs);

	return cprof_manhattan_of(s->pairs, n, total_a, total_b, TOP_K, false);
}

/* ---- cprof-diff on multinomial pairs ---- */

struct diff_rates {
	double different;      /* --fail-different */
	double above;          /* --fail-above 0.05 */
	double single;         /* the shifted key's own test, unadjusted */
};

static void diff_cell(gsl_rng *rng, const struct shape *shape, uint64_t samples, double gain,
		      size_t trials, struct scratch *s, struct diff_rates *out)
{
	const double *moved = shift_shares(shape, gain, s);
	size_t t, different = 0, above = 0, single = 0, key = shape->shifted;

	for (t = 0; t < trials; t++) {
		size_t n;

		draw_run(rng, shape->shares, samples, 1.0, s, s->counts_a);
		draw_run(rng, moved, samples, 1.0, s, s->counts_b);
		n = pairs_fill(s->counts_a, s->counts_b, s->keys, s->pairs);
		different += stats_different(s->pairs, n, samples, samples, &defaults);
		above += cprof_manhattan_of(s->pairs, n, samples, samples, TOP_K, false) > FAIL_ABOVE;
		single += cprof_share_test(s->counts_a[key], samples, s->counts_b[key], samples,
					   1.0) <= defaults.alpha;
	}
	out->different = stats_rate(different, trials);
	out->above = stats_rate(above, trials);
	out->single = stats_rate(single, trials);
}

static void diff_header(void)
{
	printf("%-11s %7s %4s %6s %6s %9s %11s %7s\n", "shape", "samples", "key", "share", "shift",
	       "different", "above-0.05", "single");
}

static void diff_row(const struct shape *shape, uint64_t samples, double gain,
		     const struct diff_rates *r)
{
	printf("%-11s %7" PRIu64 " #%-3zu %5.2f%% %+5.0f%% %8.1f%% %10.1f%% %6.1f%%\n",
	       shape->name, samples, shape->shifted + 1, 100.0 * shape->shares[shape->shifted],
	       100.0 * gain, 100.0 * r->different, 100.0 * r->above, 100.0 * r->single);
}

static void note_diff(struct findings *f, const struct shape *shape, uint64_t samples, double gain,
		      const struct diff_rates *r)
{
	if (gain == 0.0 && r->different >= f->worst_diff_null) {
		f->worst_diff_null = r->different;
		snprintf(f->worst_diff_cell, sizeof(f->worst_diff_cell), "%s at %" PRIu64,
			 shape->name, samples);
	}
	if (strcmp(shape->name, "zipf200") == 0 && samples == 10000 && gain == 0.02) {
		f->zipf_plus2_power = r->different;
		f->zipf_plus2_single = r->single;
	}
	if (strcmp(shape->name, "zipf200-10") == 0 && samples == 100000 && gain == 0.02)
		f->ten_to_twelve_100000 = r->different;
	if (strcmp(shape->name, "zipf200-10") == 0 && samples == 10000 && gain == 0.02) {
		f->ten_to_twelve_10000 = r->different;
		f->ten_to_twelve_single_10000 = r->single;
	}
}

static unsigned long diff_section(gsl_rng *rng, unsigned long seed, unsigned long cell,
				  const struct shape *shapes, size_t nshapes, size_t trials,
				  struct findings *f)
{
	size_t i, j, g;

	printf("\n== cprof-diff: pairs of multinomial profiles, %zu trials a cell\n", trials);
	printf("rate of verdict \"different\" (false alarms at shift +0, else power)\n");
	diff_header();
	for (i = 0; i < nshapes; i++) {
		struct scratch s;
		bool power_only = strcmp(shapes[i].name, "zipf200-10") == 0;

		scratch_init(&s, shapes[i].keys);
		for (j = 0; j < sizeof(sample_sizes) / sizeof(*sample_sizes); j++)
			for (g = 0; g < sizeof(shifts) / sizeof(*shifts); g++) {
				struct diff_rates r;

				if (power_only && (sample_sizes[j] < 10000 || shifts[g] != 0.02))
					continue;
				stats_seed_cell(rng, seed, cell++);
				diff_cell(rng, &shapes[i], sample_sizes[j], shifts[g], trials, &s, &r);
				diff_row(&shapes[i], sample_sizes[j], shifts[g], &r);
				note_diff(f, &shapes[i], sample_sizes[j], shifts[g], &r);
			}
		scratch_free(&s);
	}
	return cell;
}

/* ---- cprof-regress on overdispersed runs ---- */

struct regress_rates {
	double test;           /* --rule test */
	double distance;       /* --rule distance */
	double single;         /* the shifted key's own test at the estimated phi */
	double mean_phi;       /* of cprof_dispersion_estimate */
};

/* The noise of --rule distance: the largest distance of a baseline (B) from
 * the merge of the others (A). */
static double baseline_noise(uint64_t samples, struct scratch *s)
{
	double noise = 0.0;
	size_t r, o, i;

	for (r = 0; r < BASELINES; r++) {
		memset(s->others, 0, s->keys * sizeof(*s->others));
		for (o = 0; o < BASELINES; o++)
			for (i = 0; o != r && i < s->keys; i++)
				s->others[i] += s->runs[o * s->keys + i];
		noise = fmax(noise, distance(s->others, s->runs + r * s->keys,
					     (BASELINES - 1) * samples, samples, s));
	}
	return noise;
}

/* The merge of every baseline into s->counts_a. */
static void merge_baselines(struct scratch *s)
{
	size_t r, i;

	memset(s->counts_a, 0, s->keys * sizeof(*s->counts_a));
	for (r = 0; r < BASELINES; r++)
		for (i = 0; i < s->keys; i++)
			s->counts_a[i] += s->runs[r * s->keys + i];
}

/* One trial: the baselines and the candidate drawn, both rules applied;
 * bit 0 of the result is rule test's failure, bit 1 rule distance's, bit 2
 * the single test's.  The estimated dispersion into *phi_hat. */
static unsigned regress_trial(gsl_rng *rng, const struct shape *shape, const double *moved,
			      uint64_t samples, double phi, struct scratch *s, double *phi_hat)
{
	struct cprof_signif_options options = defaults;
	uint64_t merged = BASELINES * samples;
	size_t r, n, key = shape->shifted;
	unsigned fails = 0;

	for (r = 0; r < BASELINES; r++)
		draw_run(rng, shape->shares, samples, phi, s, s->runs + r * s->keys);
	draw_run(rng, moved, samples, phi, s, s->counts_b);
	merge_baselines(s);
	options.dispersion = *phi_hat = cprof_dispersion_estimate(s->runs, BASELINES, s->keys);

	n = pairs_fill(s->counts_a, s->counts_b, s->keys, s->pairs);
	if (stats_different(s->pairs, n, merged, samples, &options))
		fails |= 1;
	if (cprof_manhattan_of(s->pairs, n, merged, samples, TOP_K, false) >
	    DISTANCE_FACTOR * baseline_noise(samples, s) + DISTANCE_MARGIN)
		fails |= 2;
	if (cprof_share_test(s->counts_a[key], merged, s->counts_b[key], samples, *phi_hat) <=
	    defaults.alpha)
		fails |= 4;
	return fails;
}

static void regress_cell(gsl_rng *rng, const struct shape *shape, uint64_t samples, double phi,
			 double gain, size_t trials, struct scratch *s, struct regress_rates *out)
{
	const double *moved = shift_shares(shape, gain, s);
	size_t t, test = 0, dist = 0, single = 0;
	double phi_sum = 0.0;

	for (t = 0; t < trials; t++) {
		double phi_hat;
		unsigned fails = regress_trial(rng, shape, moved, samples, phi, s, &phi_hat);

		test += fails & 1;
		dist += (fails >> 1) & 1;
		single += (fails >> 2) & 1;
		phi_sum += phi_hat;
	}
	out->test = stats_rate(test, trials);
	out->distance = stats_rate(dist, trials);
	out->single = stats_rate(single, trials);
	out->mean_phi = phi_sum / (double)trials;
}

static void regress_row(const struct shape *shape, uint64_t samples, double phi, double gain,
			const struct regress_rates *r)
{
	printf("%-11s %7" PRIu64 " %4.0f %8.2f #%-3zu %+5.0f%% %8.1f%% %8.1f%% %6.1f%%\n",
	       shape->name, samples, phi, r->mean_phi, shape->shifted + 1, 100.0 * gain,
	       100.0 * r->test, 100.0 * r->distance, 100.0 * r->single);
}

static unsigned long regress_section(gsl_rng *rng, unsigned long seed, unsigned long cell,
				     const struct shape *shape, size_t trials, struct findings *f)
{
	static const double phis[] = { 1.0, 2.0, 4.0 };
	static const double gains[] = { 0.0, 0.02, 0.05 };
	struct scratch s;
	size_t j, p, g;

	printf("\n== cprof-regress: %d baselines and a candidate, Dirichlet-multinomial runs, "
	       "%zu trials a cell\n", BASELINES, trials);
	printf("rate of failure by --rule test and --rule distance (factor %g, margin %g)\n",
	       DISTANCE_FACTOR, DISTANCE_MARGIN);
	printf("%-11s %7s %4s %8s %4s %6s %9s %9s %7s\n", "shape", "samples", "phi", "phi-est",
	       "key", "shift", "test", "distance", "single");
	scratch_init(&s, shape->keys);
	for (j = 0; j < 2; j++)
		for (p = 0; p < sizeof(phis) / sizeof(*phis); p++)
			for (g = 0; g < sizeof(gains) / sizeof(*gains); g++) {
				struct regress_rates r;

				stats_seed_cell(rng, seed, cell++);
				regress_cell(rng, shape, sample_sizes[j], phis[p], gains[g], trials, &s,
					     &r);
				regress_row(shape, sample_sizes[j], phis[p], gains[g], &r);
				if (gains[g] == 0.0 && r.test >= f->worst_regress_null) {
					f->worst_regress_null = r.test;
					snprintf(f->worst_regress_cell, sizeof(f->worst_regress_cell),
						 "phi %g at %" PRIu64, phis[p], sample_sizes[j]);
				}
			}
	scratch_free(&s);
	return cell;
}

/* ---- entropy ---- */

static double true_entropy_bits(const struct shape *shape)
{
	double h = 0.0;
	size_t i;

	for (i = 0; i < shape->keys; i++)
		if (shape->shares[i] > 0.0)
			h -= shape->shares[i] * log2(shape->shares[i]);
	return h;
}

struct entropy_figures {
	double plugin_bias;    /* mean of entropy - H */
	double mm_bias;        /* mean of entropy_mm - H */
	double mm_sd;          /* spread of entropy_mm */
	double mean_se;
	double coverage;       /* entropy_mm +- 1.96 se holds H */
};

static void entropy_cell(gsl_rng *rng, const struct shape *shape, uint64_t samples, size_t trials,
			 struct scratch *s, struct entropy_figures *out)
{
	double truth = true_entropy_bits(shape);
	double plugin = 0.0, mm = 0.0, mm_sq = 0.0, se = 0.0, mean;
	size_t t, covered = 0;

	for (t = 0; t < trials; t++) {
		struct cprof_entropy e;

		draw_run(rng, shape->shares, samples, 1.0, s, s->counts_a);
		cprof_entropy_of_counts(s->counts_a, s->keys, samples, CPROF_BASE_2, &e);
		plugin += e.entropy - truth;
		mm += e.entropy_mm - truth;
		mm_sq += (e.entropy_mm - truth) * (e.entropy_mm - truth);
		se += e.se;
		covered += fabs(e.entropy_mm - truth) <= 1.96 * e.se;
	}
	mean = mm / (double)trials;
	out->plugin_bias = plugin / (double)trials;
	out->mm_bias = mean;
	out->mm_sd = sqrt(fmax(0.0, mm_sq / (double)trials - mean * mean));
	out->mean_se = se / (double)trials;
	out->coverage = stats_rate(covered, trials);
}

static unsigned long entropy_section(gsl_rng *rng, unsigned long seed, unsigned long cell,
				     const struct shape *shape, size_t trials, struct findings *f)
{
	struct scratch s;
	size_t j;

	printf("\n== cprof-entropy: %s, true entropy %.4f bits, %zu trials a cell\n", shape->name,
	       true_entropy_bits(shape), trials);
	printf("%-11s %7s %12s %9s %8s %8s %9s\n", "shape", "samples", "plugin-bias", "mm-bias",
	       "mm-sd", "mean-se", "coverage");
	scratch_init(&s, shape->keys);
	for (j = 0; j < sizeof(sample_sizes) / sizeof(*sample_sizes); j++) {
		struct entropy_figures e;

		stats_seed_cell(rng, seed, cell++);
		entropy_cell(rng, shape, sample_sizes[j], trials, &s, &e);
		printf("%-11s %7" PRIu64 " %12.4f %9.4f %8.4f %8.4f %8.1f%%\n", shape->name,
		       sample_sizes[j], e.plugin_bias, e.mm_bias, e.mm_sd, e.mean_se,
		       100.0 * e.coverage);
		if (sample_sizes[j] == 1000)
			f->mm_bias_1000 = e.mm_bias;
		if (sample_sizes[j] == 10000)
			f->coverage_10000 = e.coverage;
	}
	scratch_free(&s);
	return cell;
}

/* ---- manhattan_null ---- */

struct null_figures {
	double exceeded;       /* observed > the 1 - alpha quantile */
	double observed;       /* mean observed distance */
	double mean;           /* mean of manhattan_null.mean */
	double quantile;       /* mean of manhattan_null.quantile */
};

static void null_cell(gsl_rng *rng, const struct shape *shape, uint64_t samples, size_t trials,
		      struct scratch *s, struct null_figures *out)
{
	double observed = 0.0, mean = 0.0, quantile = 0.0;
	size_t t, exceeded = 0;

	for (t = 0; t < trials; t++) {
		struct cprof_manhattan_null null;
		double d;
		size_t n;

		draw_run(rng, shape->shares, samples, 1.0, s, s->counts_a);
		draw_run(rng, shape->shares, samples, 1.0, s, s->counts_b);
		n = pairs_fill(s->counts_a, s->counts_b, s->keys, s->pairs);
		d = cprof_manhattan_of(s->pairs, n, samples, samples, TOP_K, false);
		cprof_manhattan_null(s->pairs, n, samples, samples, TOP_K, false, 1.0, defaults.alpha,
				     0, &null);
		exceeded += d > null.quantile;
		observed += d;
		mean += null.mean;
		quantile += null.quantile;
	}
	out->exceeded = stats_rate(exceeded, trials);
	out->observed = observed / (double)trials;
	out->mean = mean / (double)trials;
	out->quantile = quantile / (double)trials;
}

static unsigned long null_section(gsl_rng *rng, unsigned long seed, unsigned long cell,
				  const struct shape *shapes, size_t trials)
{
	/* shape index into `shapes`, samples */
	static const struct { size_t shape; uint64_t samples; } cells[] = {
		{ 0, 1000 }, { 0, 10000 }, { 0, 100000 }, { 1, 1000 }, { 2, 10000 },
	};
	size_t c;

	printf("\n== manhattan_null: same-distribution pairs, k %d, keys union, %zu trials a cell\n",
	       TOP_K, trials);
	printf("%-11s %7s %9s %9s %9s %9s\n", "shape", "samples", "exceeded", "observed",
	       "null-mean", "quantile");
	for (c = 0; c < sizeof(cells) / sizeof(*cells); c++) {
		const struct shape *shape = &shapes[cells[c].shape];
		struct null_figures r;
		struct scratch s;

		scratch_init(&s, shape->keys);
		stats_seed_cell(rng, seed, cell++);
		null_cell(rng, shape, cells[c].samples, trials, &s, &r);
		printf("%-11s %7" PRIu64 " %8.1f%% %9.4f %9.4f %9.4f\n", shape->name, cells[c].samples,
		       100.0 * r.exceeded, r.observed, r.mean, r.quantile);
		scratch_free(&s);
	}
	return cell;
}

/* ---- targets ---- */

/* Prints one line per target of issue 11; true when all pass. */
static bool judge(const struct findings *f)
{
	bool ok = true;
	double gap = f->zipf_plus2_single - f->zipf_plus2_power;

	printf("\n== targets\n");
	ok &= stats_target(f->worst_diff_null <= 0.02, "--fail-different false alarms <= 2%% in "
			   "every same-distribution cell (worst %.1f%%, %s)",
			   100.0 * f->worst_diff_null, f->worst_diff_cell);
	ok &= stats_target(f->worst_regress_null <= 0.03, "cprof-regress --rule test false alarms "
			   "<= 3%% on overdispersed runs (worst %.1f%%, %s)",
			   100.0 * f->worst_regress_null, f->worst_regress_cell);
	ok &= stats_target(f->zipf_plus2_power >= 0.95 && gap <= 0.15, "zipf200 key #3 +2 points "
			   "at 10000 detected >= 95%% and within 15 points of the single test "
			   "(%.1f%%, single %.1f%%)", 100.0 * f->zipf_plus2_power,
			   100.0 * f->zipf_plus2_single);
	ok &= stats_target(f->ten_to_twelve_100000 >= 0.99, "zipf200-10 key #2 at 10%% going to "
			   "12%% at 100000 detected >= 99%% (%.1f%%)",
			   100.0 * f->ten_to_twelve_100000);
	ok &= stats_target(f->ten_to_twelve_single_10000 - f->ten_to_twelve_10000 <= 0.15, "the "
			   "key at 10%% going to 12%% at 10000 within 15 points of the single "
			   "test (%.1f%%, single %.1f%%)", 100.0 * f->ten_to_twelve_10000,
			   100.0 * f->ten_to_twelve_single_10000);
	ok &= stats_target(fabs(f->mm_bias_1000) <= 0.06, "Miller-Madow mean bias within +-0.06 "
			   "bits at 1000 on zipf200 (%+.4f)", f->mm_bias_1000);
	ok &= stats_target(f->coverage_10000 >= 0.92 && f->coverage_10000 <= 0.98, "entropy_mm +- "
			   "1.96 se covers the true entropy in 92-98%% at 10000 (%.1f%%)",
			   100.0 * f->coverage_10000);
	return ok;
}

/* ---- main ---- */

static void usage(void) __attribute__((noreturn));

static void usage(void)
{
	printf("usage: %s [--seed S] [--trials N] [--entropy-trials N]\n"
	       "Simulate profiles and print how often cprof's verdicts are wrong and right.\n"
	       "  --seed S     the generator's seed (default 1)\n"
	       "  --trials N   trials a cell (default 1000; manhattan_null cells: N/5)\n"
	       "  --entropy-trials N\n"
	       "               trials an entropy cell (default: as --trials)\n"
	       "  -h, --help   this help\n",
	       cprof_progname);
	exit(cprof_finish_output(EXIT_OK));
}

static void print_shapes(const struct shape *shapes, size_t n, unsigned long seed, size_t trials)
{
	size_t i;

	printf("stats-calib: seed %lu, %zu trials a cell; alpha %g, min_effect %g, k %d, "
	       "every side of a pair %s\n", seed, trials, defaults.alpha, defaults.min_effect,
	       TOP_K, "the same number of samples");
	for (i = 0; i < n; i++)
		printf("  %-11s %s; shifted key #%zu (%.2f%%)\n", shapes[i].name, shapes[i].about,
		       shapes[i].shifted + 1, 100.0 * shapes[i].shares[shapes[i].shifted]);
	printf("  a shift raises the shifted key's share by that many points, taken from the "
	       "others in proportion\n"
	       "  different: cprof-diff --fail-different; above-0.05: cprof-diff --fail-above "
	       "0.05;\n"
	       "  single: the shifted key's own two-sided test at level alpha, unadjusted\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "entropy-trials", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ "seed", required_argument, NULL, 's' },
		{ "trials", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct findings findings;
	size_t trials = 1000, entropy_trials = 0;
	uint64_t seed = 1;
	struct shape shapes[4];
	unsigned long cell = 0;
	gsl_rng *rng;
	bool ok;
	size_t i;
	int opt;

	cprof_set_progname(argv[0]);
	memset(&findings, 0, sizeof(findings));
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (opt) {
		case 'e':
			entropy_trials = stats_trials_option("--entropy-trials", optarg);
			break;
		case 'h':
			usage();
		case 'n':
			trials = stats_trials_option("--trials", optarg);
			break;
		case 's':
			seed = cprof_option_u64("--seed", optarg);
			break;
		default:
			cprof_bad_option(opt, argv, options);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 0)
		cprof_die("no operands expected (see --help)");
	if (entropy_trials == 0)
		entropy_trials = trials;

	rng = stats_rng_new();
	shapes[0] = shape_zipf200();
	shapes[1] = shape_flat50();
	shapes[2] = shape_top90();
	shapes[3] = shape_zipf10();

	print_shapes(shapes, 4, (unsigned long)seed, trials);
	cell = diff_section(rng, seed, cell, shapes, 4, trials, &findings);
	cell = regress_section(rng, seed, cell, &shapes[0], trials, &findings);
	cell = entropy_section(rng, seed, cell, &shapes[0], entropy_trials, &findings);
	null_section(rng, seed, cell, shapes, trials / 5);
	ok = judge(&findings);

	for (i = 0; i < 4; i++)
		shape_free(&shapes[i]);
	gsl_rng_free(rng);
	return cprof_finish_output(ok ? EXIT_OK : EXIT_VERDICT);
}
