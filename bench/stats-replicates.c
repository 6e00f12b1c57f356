/* stats-replicates: the calibration of cprof-regress's verdicts over
 * several runs on each side (issue 27), by simulation.
 *
 * Each trial is a program of Zipf shares (s = 1, 200 keys) whose keys
 * have dispersions of their own, drawn from a heavy-tailed law (most near
 * 1.5, a few near 20, as address skid makes), and whose runs' totals vary
 * by a few percent.  BASELINES runs of it are judged against CANDIDATES
 * runs of the same program (false alarms), of a uniformly slower build
 * (every count 5% more for the same work), or of a build where the third
 * key (5.67%) gained points, with the library calls cprof-regress makes:
 * cprof_noise_estimate on the runs, cprof_signif_compute with it,
 * cprof_cost_compare for --absolute.  Beside them, the rule of cprof 0.1
 * before this work: one dispersion for the whole profile
 * (cprof_dispersion_estimate of the baselines); and the oracle: the same
 * test with each key's prior the law the dispersions were drawn from
 * (cprof_noise_set_prior), what the test does with the prior known
 * rather than fitted.  Seeded: the same options print the same table.
 * The targets end the output as PASS/FAIL lines; exit 1 when one fails,
 * 2 on trouble.
 *
 *   stats-replicates [--seed S] [--trials N] [--cells null|power|LIST] */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "base/util.h"
#include "metrics/cost.h"
#include "metrics/noise.h"
#include "metrics/regress.h"
#include "metrics/signif.h"
#include "stats-common.h"

#define KEYS 200
#define SHIFTED 2               /* the third key, 5.67% */
#define SAMPLES 10000           /* a run's samples, before its total varies */
#define MAX_RUNS 13
#define GRID_ROOM 64            /* points of the noise grid, at most */

/* The law of a key's dispersion: with probability NOISY_SHARE near
 * NOISY_PHI, else near QUIET_PHI; log-normal around each (sd LOG_SD). */
#define QUIET_PHI 1.5
#define NOISY_PHI 20.0
#define NOISY_SHARE 0.05
#define LOG_SD 0.3

static const struct cprof_signif_options defaults = CPROF_SIGNIF_DEFAULTS;
static const struct cprof_regress_options regress_defaults = CPROF_REGRESS_DEFAULTS;

/* What a cell draws. */
struct cell {
	size_t baselines;
	size_t candidates;
	double total_sd;       /* of a run's total, on the log scale */
	double slowdown;       /* the candidates' counts x (1 + slowdown) */
	double gain;           /* the shifted key's gain, in share */
	bool quiet;            /* the shifted key's dispersion QUIET_PHI, not drawn */
};

/* How often each rule said different. */
struct rates {
	double point;          /* the keys, point rule (the default) */
	double interval;       /* the keys, --effect interval */
	double absolute;       /* the keys (point) or the cost: --absolute */
	double cost;           /* the cost alone */
	double single_phi;     /* one dispersion for the whole profile */
	double oracle;         /* the keys, point rule, the prior the true law */
	struct stats_intervals intervals;  /* beside the point rule's verdicts */
};

/* One trial's program and runs. */
struct scratch {
	double shares[KEYS];
	double moved[KEYS];
	double phi[KEYS];
	double theta[KEYS];
	unsigned int draw[KEYS];
	uint64_t table[KEYS * MAX_RUNS];       /* keys x runs */
	uint64_t base_rows[MAX_RUNS * KEYS];   /* runs x keys, the baselines */
	uint64_t totals[MAX_RUNS];
	unsigned char group[MAX_RUNS];
	struct cprof_pair pairs[KEYS];
	double truth[KEYS];    /* pair i's true delta */
	double law[GRID_ROOM]; /* the true law of phi on the noise grid */
};

static double draw_phi(gsl_rng *rng)
{
	double center = gsl_rng_uniform(rng) < NOISY_SHARE ? NOISY_PHI : QUIET_PHI;

	return fmax(1.01, center * exp(gsl_ran_gaussian(rng, LOG_SD)));
}

/* The probability of phi <= x under the law draw_phi draws from. */
static double law_cdf(double x)
{
	if (x < 1.01)
		return 0.0;
	return (1.0 - NOISY_SHARE) * gsl_cdf_ugaussian_P(log(x / QUIET_PHI) / LOG_SD) +
	       NOISY_SHARE * gsl_cdf_ugaussian_P(log(x / NOISY_PHI) / LOG_SD);
}

/* The law draw_phi draws from, on the noise grid (`grid` points phi,
 * increasing): each point has the mass between the geometric middles of
 * it and its neighbours. */
static void law_on_grid(const double *phi, size_t grid, double *law)
{
	double below = 0.0;
	size_t g;

	if (grid > GRID_ROOM)
		cprof_die("the noise grid has %zu points, more than %d", grid, GRID_ROOM);
	for (g = 0; g < grid; g++) {
		double above = g + 1 < grid ? law_cdf(sqrt(phi[g] * phi[g + 1])) : 1.0;

		law[g] = above - below;
		below = above;
	}
}

/* One run of `shares` into column `run` of s->table: its total
 * SAMPLES x e^(total_sd Z) x scale, each key's share drawn with variance
 * (phi_k - 1) share (1 - share) / samples around it (a gamma, the draws
 * renormalized), then the samples multinomial. */
static void draw_run(gsl_rng *rng, const double *shares, double total_sd, double scale,
		     struct scratch *s, size_t run, size_t runs)
{
	double samples = (double)SAMPLES * exp(gsl_ran_gaussian(rng, total_sd)) * scale, sum = 0.0;
	unsigned int total = (unsigned int)lround(samples);
	size_t k;

	for (k = 0; k < KEYS; k++) {
		double c = samples / ((s->phi[k] - 1.0) * (1.0 - shares[k]));

		s->theta[k] = gsl_ran_gamma(rng, shares[k] * c, 1.0 / c);
		sum += s->theta[k];
	}
	for (k = 0; k < KEYS; k++)
		s->theta[k] /= sum;
	gsl_ran_multinomial(rng, KEYS, total, s->theta, s->draw);
	for (k = 0; k < KEYS; k++)
		s->table[k * runs + run] = s->draw[k];
	s->totals[run] = total;
}

/* The verdicts of cprof-regress's rule (regress.h) on the table of runs:
 * the point rule (bit 0), the interval rule (bit 1: from the same
 * computation, the selected keys whose interval lies beyond
 * +-min_effect, as signif.c decides them with --effect interval, which
 * spares a second computation), the point rule or the cost (bit 2,
 * --absolute); each key's noise into *noise, the intervals beside the
 * point rule's verdict into `tally`. */
static unsigned regress_rule(const struct cprof_runs *runs, struct scratch *s, size_t n,
			     uint64_t total_a, uint64_t total_b, const struct cprof_cost *cost,
			     struct cprof_noise **noise, struct stats_intervals *tally)
{
	struct cprof_regress_options options = regress_defaults;
	struct cprof_signif_options interval;
	struct cprof_signif *signif;
	unsigned result = 0;
	size_t i;

	signif = cprof_regress_keys(runs, s->pairs, n, total_a, total_b, &options.signif, noise);
	result |= cprof_regress_different(&options, signif->different, 0, 0, NULL) ? 1 : 0;
	options.absolute = true;
	result |= cprof_regress_different(&options, signif->different, 0, 0, cost) ? 4 : 0;
	interval = options.signif;
	interval.noise = *noise;
	stats_intervals_add(tally, signif, s->pairs, n, total_a, total_b, &interval, s->truth,
			    false);
	for (i = 0; i < n; i++) {
		const struct cprof_key_signif *key = &signif->keys[i];

		if (key->selected && (key->ci_low >= options.signif.min_effect ||
				      key->ci_high <= -options.signif.min_effect))
			result |= 2;
	}
	cprof_signif_free(signif);
	return result;
}

/* The oracle's verdict: the same test, each key's prior the true law
 * (`noise` is left with it). */
static bool oracle_different(struct cprof_noise *noise, struct scratch *s, size_t n,
			     uint64_t total_a, uint64_t total_b,
			     const struct cprof_signif_options *options)
{
	const double *phi;
	size_t grid = cprof_noise_grid(noise, &phi);

	law_on_grid(phi, grid, s->law);
	cprof_noise_set_prior(noise, s->law);
	return stats_different(s->pairs, n, total_a, total_b, options);
}

/* One trial: bit 0 point, 1 interval, 2 absolute, 3 cost, 4 single phi,
 * 5 oracle; the point rule's intervals into `tally`. */
static unsigned trial(gsl_rng *rng, const struct cell *cell, struct scratch *s,
		      struct stats_intervals *tally)
{
	size_t runs = cell->baselines + cell->candidates, r, k, n = 0;
	struct cprof_signif_options options = defaults;
	double base[MAX_RUNS], cand[MAX_RUNS];
	uint64_t total_a = 0, total_b = 0, *table;
	const double *cand_shares = s->shares;
	struct cprof_noise *noise;
	struct cprof_runs runs_table;
	struct cprof_cost cost;
	unsigned result = 0;

	for (k = 0; k < KEYS; k++)
		s->phi[k] = draw_phi(rng);
	if (cell->quiet)
		s->phi[SHIFTED] = QUIET_PHI;
	if (cell->gain > 0) {
		stats_shift(s->shares, KEYS, SHIFTED, cell->gain, s->moved);
		cand_shares = s->moved;
	}
	for (r = 0; r < runs; r++) {
		bool candidate = r >= cell->baselines;

		s->group[r] = candidate;
		draw_run(rng, candidate ? cand_shares : s->shares, cell->total_sd,
			 candidate ? 1.0 + cell->slowdown : 1.0, s, r, runs);
		*(candidate ? &total_b : &total_a) += s->totals[r];
		(candidate ? cand : base)[candidate ? r - cell->baselines : r] = (double)s->totals[r];
	}
	/* The keys with samples, as cprof-regress's judgement has them. */
	table = cprof_xcalloc(KEYS * runs, sizeof(*table));
	for (k = 0; k < KEYS; k++) {
		uint64_t a = 0, b = 0;

		for (r = 0; r < runs; r++)
			*(s->group[r] ? &b : &a) += s->table[k * runs + r];
		if (a + b == 0)
			continue;
		s->pairs[n].count_a = a;
		s->pairs[n].count_b = b;
		s->pairs[n].known = true;
		s->truth[n] = cand_shares[k] - s->shares[k];
		memcpy(&table[n * runs], &s->table[k * runs], runs * sizeof(*table));
		n++;
	}
	cprof_cost_compare(base, cell->baselines, cand, cell->candidates, defaults.alpha,
			   regress_defaults.min_ratio, false, &cost);
	runs_table = (struct cprof_runs){ table, n, runs, s->totals, s->group };
	result |= regress_rule(&runs_table, s, n, total_a, total_b, &cost, &noise, tally);
	options.noise = noise;
	if (cost.moved)
		result |= 8;
	if (oracle_different(noise, s, n, total_a, total_b, &options))
		result |= 32;
	/* Today's rule: the whole profile's dispersion from the baselines. */
	for (r = 0; r < cell->baselines; r++)
		for (k = 0; k < KEYS; k++)
			s->base_rows[r * KEYS + k] = s->table[k * runs + r];
	options = defaults;
	options.dispersion = cprof_dispersion_estimate(s->base_rows, cell->baselines, KEYS);
	if (stats_different(s->pairs, n, total_a, total_b, &options))
		result |= 16;
	cprof_noise_free(noise);
	free(table);
	return result;
}

static void run_cell(gsl_rng *rng, const struct cell *cell, size_t trials, struct scratch *s,
		     struct rates *out)
{
	size_t t, hits[6] = { 0 }, b;

	memset(&out->intervals, 0, sizeof(out->intervals));
	for (t = 0; t < trials; t++) {
		unsigned result = trial(rng, cell, s, &out->intervals);

		for (b = 0; b < 6; b++)
			hits[b] += (result >> b) & 1;
	}
	out->point = stats_rate(hits[0], trials);
	out->interval = stats_rate(hits[1], trials);
	out->absolute = stats_rate(hits[2], trials);
	out->cost = stats_rate(hits[3], trials);
	out->single_phi = stats_rate(hits[4], trials);
	out->oracle = stats_rate(hits[5], trials);
}

static void print_row(const struct cell *cell, const struct rates *r)
{
	printf("%5zu %5zu %6.0f%% %+5.0f%% %+5.0f%s %7.1f%% %8.1f%% %8.1f%% %6.1f%% %9.1f%% %6.1f%%\n",
	       cell->baselines, cell->candidates, 100.0 * cell->total_sd, 100.0 * cell->slowdown,
	       100.0 * cell->gain, cell->quiet ? "q" : " ", 100.0 * r->point, 100.0 * r->interval, 100.0 * r->absolute,
	       100.0 * r->cost, 100.0 * r->single_phi, 100.0 * r->oracle);
}

/* The cells: false alarms over 3, 5, 10 baselines x 1, 3 candidates and
 * totals varying by 1% and 2%; then the powers. */
static const struct cell null_cells[] = {
	{ 3, 1, 0.01, 0, 0, false }, { 3, 3, 0.01, 0, 0, false }, { 5, 1, 0.01, 0, 0, false }, { 5, 3, 0.01, 0, 0, false },
	{ 10, 1, 0.01, 0, 0, false }, { 10, 3, 0.01, 0, 0, false }, { 3, 1, 0.02, 0, 0, false }, { 3, 3, 0.02, 0, 0, false },
	{ 5, 1, 0.02, 0, 0, false }, { 5, 3, 0.02, 0, 0, false }, { 10, 1, 0.02, 0, 0, false }, { 10, 3, 0.02, 0, 0, false },
};
static const struct cell power_cells[] = {
	{ 5, 3, 0.01, 0.05, 0, false }, { 5, 1, 0.01, 0.05, 0, false }, { 10, 3, 0.01, 0.05, 0, false },
	{ 5, 3, 0.02, 0.05, 0, false },
	{ 5, 3, 0.01, 0, 0.02, false }, { 5, 1, 0.01, 0, 0.02, false }, { 5, 1, 0.01, 0, 0.03, false },
	{ 3, 3, 0.01, 0, 0.02, false }, { 10, 3, 0.01, 0, 0.02, false }, { 10, 1, 0.01, 0, 0.03, false },
	{ 5, 3, 0.01, 0, 0.02, true }, { 5, 1, 0.01, 0, 0.03, true },
};

#define NULL_CELLS (sizeof(null_cells) / sizeof(*null_cells))
#define POWER_CELLS (sizeof(power_cells) / sizeof(*power_cells))

/* The worst false-alarm rate of the cells with `baselines` (keys, and
 * keys or cost). */
static double worst_null(const struct rates *r, size_t baselines, bool absolute)
{
	double worst = 0.0;
	size_t i;

	for (i = 0; i < sizeof(null_cells) / sizeof(*null_cells); i++)
		if (null_cells[i].baselines == baselines)
			worst = fmax(worst, fmax(r[i].point, absolute ? r[i].absolute : 0.0));
	return worst;
}

/* The oracle's worst false-alarm rate of the cells with `baselines`. */
static double worst_oracle(const struct rates *r, size_t baselines)
{
	double worst = 0.0;
	size_t i;

	for (i = 0; i < NULL_CELLS; i++)
		if (null_cells[i].baselines == baselines)
			worst = fmax(worst, r[i].oracle);
	return worst;
}

/* The intervals beside the point rule's verdicts, a row per cell run. */
static void print_intervals(const struct cell *cells, const struct rates *r, size_t n,
			    const bool *run)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct stats_intervals *t = &r[i].intervals;

		if (!run[i])
			continue;
		printf("%5zu %5zu %6.0f%% %+5.0f%% %+5.0f%s %8zu %6zu %8.1f%% %6.1f%% %6zu %11zu\n",
		       cells[i].baselines, cells[i].candidates, 100.0 * cells[i].total_sd,
		       100.0 * cells[i].slowdown, 100.0 * cells[i].gain,
		       cells[i].quiet ? "q" : " ",
		       t->rows, t->moved,
		       t->moved ? 100.0 * (double)t->covered / (double)t->moved : 100.0,
		       100.0 * (1.0 - t->fcr / (double)(t->trials ? t->trials : 1)), t->noted,
		       t->unexplained);
	}
}

/* The intervals of every cell run pooled, the gained cells apart. */
static void pool_intervals(const struct rates *null, const struct rates *power,
			   struct stats_intervals *all, struct stats_intervals *gained)
{
	size_t i;

	memset(all, 0, sizeof(*all));
	memset(gained, 0, sizeof(*gained));
	for (i = 0; i < NULL_CELLS + POWER_CELLS; i++) {
		const struct stats_intervals *t = i < NULL_CELLS ? &null[i].intervals :
						  &power[i - NULL_CELLS].intervals;
		struct stats_intervals *to = i >= NULL_CELLS &&
					     power_cells[i - NULL_CELLS].gain > 0 ? gained : all;

		all->unexplained += t->unexplained;
		to->trials += t->trials;
		to->moved += t->moved;
		to->covered += t->covered;
		to->fcr += t->fcr;
	}
}

static bool judge(const struct rates *null, const struct rates *power)
{
	static const size_t limits[][2] = { { 10, 2 }, { 5, 5 }, { 3, 10 } };
	struct stats_intervals all, gained;
	double fcr, coverage;
	bool ok = true;
	size_t i;

	printf("\n== targets\n");
	for (i = 0; i < 3; i++) {
		double worst = worst_null(null, limits[i][0], true);

		ok &= stats_target(worst <= (double)limits[i][1] / 100.0, "false alarms <= %zu%% "
				   "with %zu baselines, with and without --absolute (worst %.1f%%)",
				   limits[i][1], limits[i][0], 100.0 * worst);
	}
	ok &= stats_target(power[0].absolute >= 0.90, "a uniform 5%% slowdown found >= 90%% with "
			   "5 baselines and 3 candidates, totals varying by 1%% (%.1f%%)",
			   100.0 * power[0].absolute);
	ok &= stats_target(power[4].point >= 0.90, "the 5.7%% key at 7.7%% found >= 90%% with 5 "
			   "baselines and 3 candidates (%.1f%%)", 100.0 * power[4].point);
	ok &= stats_target(power[6].point >= 0.90, "the 5.7%% key at 8.7%% found >= 90%% with 5 "
			   "baselines and 1 candidate (%.1f%%)", 100.0 * power[6].point);
	pool_intervals(null, power, &all, &gained);
	fcr = 1.0 - gained.fcr / (double)(gained.trials ? gained.trials : 1);
	coverage = gained.moved ? (double)gained.covered / (double)gained.moved : 1.0;
	ok &= stats_target(fcr >= 1.0 - defaults.alpha && coverage >= 1.0 - defaults.alpha,
			   "the moved keys' intervals hold their true delta: 1 - FCR and coverage "
			   ">= %g%% over the cells where a key gained (%.2f%%, %.2f%% of %zu)",
			   100.0 * (1.0 - defaults.alpha), 100.0 * fcr, 100.0 * coverage,
			   gained.moved);
	ok &= stats_target(all.unexplained == 0, "no row where interval and verdict disagree "
			   "unexplained (%zu)", all.unexplained);
	printf("     the same two with the key's own dispersion %g: %.1f%% and %.1f%%\n", QUIET_PHI,
	       100.0 * power[10].point, 100.0 * power[11].point);
	printf("     the oracle (the prior the true law): %.1f%% and %.1f%%, false alarms at most "
	       "%.1f%%, %.1f%%, %.1f%% with 10, 5, 3 baselines\n", 100.0 * power[4].oracle,
	       100.0 * power[6].oracle, 100.0 * worst_oracle(null, 10),
	       100.0 * worst_oracle(null, 5), 100.0 * worst_oracle(null, 3));
	return ok;
}

static void usage(void) __attribute__((noreturn));

static void usage(void)
{
	printf("usage: %s [--seed S] [--trials N] [--cells null|power|LIST]\n"
	       "Simulate replicate runs and print how often cprof-regress's verdicts are wrong\n"
	       "and right.\n"
	       "  --seed S     the generator's seed (default 1)\n"
	       "  --trials N   trials a cell (default 1000)\n"
	       "  --cells C    only the false alarms (null), the powers (power), or the cells\n"
	       "               numbered in C (1 to %zu in the order printed, commas between)\n"
	       "  -h, --help   this help\n",
	       cprof_progname, NULL_CELLS + POWER_CELLS);
	exit(cprof_finish_output(EXIT_OK));
}

/* --cells: null, power, or a list of cell numbers (1 to `cells`, in the
 * order printed, commas between) into chosen[]. */
static void cells_option(const char *arg, bool *chosen, size_t cells)
{
	bool null = strcmp(arg, "null") == 0, power = strcmp(arg, "power") == 0;
	const char *p = arg;
	size_t i;

	for (i = 0; i < cells; i++)
		chosen[i] = i < NULL_CELLS ? null : power;
	if (null || power)
		return;
	while (*p) {
		char *end;
		unsigned long n = strtoul(p, &end, 10);

		if (end == p || n < 1 || n > cells || (*end != ',' && *end != '\0'))
			cprof_die("--cells: must be null, power or cell numbers 1 to %zu "
				  "with commas, not '%s'", cells, arg);
		chosen[n - 1] = true;
		p = *end ? end + 1 : end;
	}
}

static void header(void)
{
	printf("%5s %5s %7s %6s %5s  %8s %9s %9s %7s %10s %7s\n", "base", "cand", "totals",
	       "slower", "gain", "point", "interval", "absolute", "cost", "single-phi", "oracle");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "cells", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "seed", required_argument, NULL, 's' },
		{ "trials", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	size_t nnull = sizeof(null_cells) / sizeof(*null_cells);
	size_t npower = sizeof(power_cells) / sizeof(*power_cells);
	struct rates null[sizeof(null_cells) / sizeof(*null_cells)];
	struct rates power[sizeof(power_cells) / sizeof(*power_cells)];
	uint64_t seed = 1, trials = 1000;
	bool chosen[NULL_CELLS + POWER_CELLS], only = false;
	bool chosen_null[NULL_CELLS], chosen_power[POWER_CELLS];
	unsigned long cell = 0;
	struct scratch *s;
	gsl_rng *rng;
	size_t i;
	bool ok;
	int opt;

	cprof_set_progname(argv[0]);
	while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cells_option(optarg, chosen, nnull + npower);
			only = true;
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
	if (optind != argc)
		cprof_die("no operands expected (see --help)");
	rng = stats_rng_new();
	s = cprof_xcalloc(1, sizeof(*s));
	stats_zipf(s->shares, KEYS, 1.0);
	printf("stats-replicates: seed %" PRIu64 ", %" PRIu64 " trials a cell; alpha %g, "
	       "min_effect %g, min_ratio %g\n"
	       "  Zipf s=1 over %d keys, %d samples a run before its total varies (log-normal,\n"
	       "  sd 'totals'); each key's dispersion drawn per trial: %.0f%% near %g, %.0f%% near "
	       "%g\n  (log-normal, sd %g on the log scale)\n"
	       "  point: the keys, the default rule; interval: the keys, --effect interval;\n"
	       "  absolute: the keys or the cost, --absolute; cost: the cost alone;\n"
	       "  single-phi: one dispersion for the whole profile (cprof 0.1 before issue 27);\n"
	       "  oracle: the keys, point rule, each key's prior the law of the dispersions\n",
	       seed, trials, defaults.alpha, defaults.min_effect, regress_defaults.min_ratio, KEYS,
	       SAMPLES,
	       100.0 * (1 - NOISY_SHARE), QUIET_PHI, 100.0 * NOISY_SHARE, NOISY_PHI, LOG_SD);
	printf("\n== false alarms: runs of one build\n");
	header();
	for (i = 0; i < nnull; i++) {
		stats_seed_cell(rng, seed, cell++);
		chosen_null[i] = false;
		if (only && !chosen[i])
			continue;
		chosen_null[i] = true;
		run_cell(rng, &null_cells[i], (size_t)trials, s, &null[i]);
		print_row(&null_cells[i], &null[i]);
		fflush(stdout);
	}
	printf("\n== power: a slower build, or the third key (5.67%%) gaining points\n"
	       "   (gain 'q': the third key's own dispersion %g, not drawn from the law)\n",
	       QUIET_PHI);
	header();
	cell = nnull;
	for (i = 0; i < npower; i++) {
		stats_seed_cell(rng, seed, cell++);
		chosen_power[i] = false;
		if (only && !chosen[nnull + i])
			continue;
		chosen_power[i] = true;
		run_cell(rng, &power_cells[i], (size_t)trials, s, &power[i]);
		print_row(&power_cells[i], &power[i]);
		fflush(stdout);
	}
	printf("\n== intervals beside the point rule's verdicts (cprof-regress's report and JSON)\n"
	       "   rows: keys in the correction (the others, tested when printed, cannot move);\n"
	       "   moved: keys called moved; coverage: of their intervals, those holding the true\n"
	       "   delta; 1-FCR: one less the mean share missing it; noted: not moved, interval\n"
	       "   without 0, why said; unexplained: the others that disagree\n");
	printf("%5s %5s %7s %6s %5s  %7s %6s %9s %7s %6s %11s\n", "base", "cand", "totals",
	       "slower", "gain", "rows", "moved", "coverage", "1-FCR", "noted", "unexplained");
	print_intervals(null_cells, null, NULL_CELLS, chosen_null);
	print_intervals(power_cells, power, POWER_CELLS, chosen_power);
	ok = only ? true : judge(null, power);
	free(s);
	gsl_rng_free(rng);
	return cprof_finish_output(ok ? EXIT_OK : EXIT_VERDICT);
}
