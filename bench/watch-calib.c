/* bench/watch-calib.c: the calibration of cprof-store watch (issue 37) on
 * simulated fleets, run on the detection code itself (src/store/watch.c),
 * not through a database: watch-calib [--seed S] [--trials N] [--hosts H].
 *
 * A series is one application's 60 days: 200 keys of Zipf shares (s = 1;
 * key 8 has 2.1%, key 34 0.50%); each day's level of each key its share
 * times 1 + W z (z standard normal, a new one each day: the day-to-day
 * wander, W = 0.03 of itself unless --wander), renormalized; H hosts a day (10, or 3) of 20,000
 * samples each, a host's share of key k its day's level times a gamma
 * variate of mean 1 that makes the key's counts between hosts dispersed
 * by phi_k (drawn 1.5 exp(0.5 z), at least 1); the counts a multinomial of
 * those shares.  Scenarios: none; key 8 rising 10% of itself from day 40;
 * key 34 rising 20% from day 40; key 8 tripled on day 40 alone; key 8's
 * whole cost moving to a new key from day 40 (a rename).  Watch runs with
 * its defaults (baseline 14, persist 2, alpha 0.01, min-effect 0.05).
 * WATCH_SCEN=N runs scenario N (0 to 4) alone; WATCH_DEBUG=1 prints each
 * change found on standard error. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "base/util.h"
#include "stats-common.h"
#include "store/watch.h"

#define KEYS 200
#define DAYS 60
#define SAMPLES 20000
#define CHANGE_DAY 40
#define BIG_KEY 7              /* 0-based: the 8th key, 2.1% */
#define SMALL_KEY 33           /* the 34th, 0.50% */
#define NEW_KEY KEYS           /* a rename's new key */

static double wander = 0.03;       /* --wander */

enum scenario { NONE, RISE_BIG, RISE_SMALL, SPIKE, RENAME, SCENARIOS };

static const char *const scenario_names[] = {
	"no change", "2.1% key +10% at day 40", "0.50% key +20% at day 40",
	"2.1% key tripled on day 40 alone", "2.1% key renamed at day 40",
};

/* One simulated series and its storage. */
struct sim {
	size_t hosts;
	double shares[KEYS + 1], phi[KEYS + 1];
	uint64_t counts[(KEYS + 1) * DAYS], totals[DAYS];
	double *profile_totals;
	size_t day_start[DAYS + 1];
};

/* Key k's level on day d under scenario sc, before renormalizing. */
static double level(const struct sim *sim, enum scenario sc, size_t k, size_t d)
{
	double p = sim->shares[k];

	if (sc == RISE_BIG && k == BIG_KEY && d >= CHANGE_DAY)
		return p * 1.10;
	if (sc == RISE_SMALL && k == SMALL_KEY && d >= CHANGE_DAY)
		return p * 1.20;
	if (sc == SPIKE && k == BIG_KEY && d == CHANGE_DAY)
		return p * 3;
	if (sc == RENAME && d >= CHANGE_DAY && (k == BIG_KEY || k == NEW_KEY))
		return k == NEW_KEY ? sim->shares[BIG_KEY] : 0.0;
	return p;
}

/* One day's counts: its levels with their wander, then each host's. */
static void simulate_day(struct sim *sim, gsl_rng *rng, enum scenario sc, size_t d)
{
	double mu[KEYS + 1], host[KEYS + 1];
	unsigned int n[KEYS + 1];
	size_t k, h;

	for (k = 0; k <= KEYS; k++)
		mu[k] = fmax(0.0, level(sim, sc, k, d) * (1 + wander * gsl_ran_ugaussian(rng)));
	for (h = 0; h < sim->hosts; h++) {
		for (k = 0; k <= KEYS; k++) {
			double c = mu[k] > 0 ? (sim->phi[k] - 1) / (SAMPLES * mu[k]) : 0;

			host[k] = c > 0 ? mu[k] * gsl_ran_gamma(rng, 1 / c, c) : mu[k];
		}
		gsl_ran_multinomial(rng, KEYS + 1, SAMPLES, host, n);
		for (k = 0; k <= KEYS; k++)
			sim->counts[k * DAYS + d] += n[k];
		sim->totals[d] += SAMPLES;
		sim->profile_totals[d * sim->hosts + h] = SAMPLES;
	}
	sim->day_start[d + 1] = (d + 1) * sim->hosts;
}

static void simulate(struct sim *sim, gsl_rng *rng, enum scenario sc)
{
	size_t k, d;

	stats_zipf(sim->shares, KEYS, 1.0);
	sim->shares[NEW_KEY] = 0.0;
	for (k = 0; k <= KEYS; k++)
		sim->phi[k] = fmax(1.0, 1.5 * exp(0.5 * gsl_ran_ugaussian(rng)));
	memset(sim->counts, 0, sizeof(sim->counts));
	memset(sim->totals, 0, sizeof(sim->totals));
	sim->day_start[0] = 0;
	for (d = 0; d < DAYS; d++)
		simulate_day(sim, rng, sc, d);
}

/* What one scenario's series gave. */
struct tally {
	size_t trials, changes, found, near_day, shift_ok, big_key;
};

/* Whether change c names key k, as its key or an offset. */
static bool names_key(const struct cprof_watch_change *c, size_t k)
{
	size_t i;

	if (c->key == k)
		return true;
	for (i = 0; i < c->num_offset; i++)
		if (c->offset_by[i] == k)
			return true;
	return false;
}

/* Prints change c on standard error, with its key's share day by day
 * (in 10^-4) and the key's phi. */
static void debug_change(const struct sim *sim, enum scenario sc,
			 const struct cprof_watch_change *c)
{
	size_t d;

	fprintf(stderr, "sc %d: %s key %zu day %zu %g -> %g q %g offsets %zu", sc,
		cprof_watch_kind_name(c->kind), c->key, c->day, c->before.value, c->after.value,
		c->q_value, c->num_offset);
	if (c->key != SIZE_MAX) {
		fprintf(stderr, " phi %.2f:", sim->phi[c->key]);
		for (d = 0; d < DAYS; d++)
			fprintf(stderr, " %.1f", 1e4 * (double)sim->counts[c->key * DAYS + d] /
						 (double)sim->totals[d]);
	}
	fputc('\n', stderr);
}

static void score(const struct sim *sim, struct tally *t, enum scenario sc, const struct cprof_watch_change *c, size_t n)
{
	size_t target = sc == RISE_SMALL ? SMALL_KEY : BIG_KEY, i;
	bool found = false, near = false;

	t->trials++;
	t->changes += n;
	if (getenv("WATCH_DEBUG"))
		for (i = 0; i < n; i++)
			debug_change(sim, sc, &c[i]);
	for (i = 0; i < n; i++) {
		if (c[i].kind == CPROF_WATCH_ENTROPY || !names_key(&c[i], target))
			continue;
		t->big_key++;
		if (sc == RENAME) {
			if (n == 1 && c[i].kind == CPROF_WATCH_SHIFT && names_key(&c[i], NEW_KEY))
				t->shift_ok++;
			continue;
		}
		if (c[i].kind == CPROF_WATCH_REGRESSION) {
			found = true;
			near |= labs((long)c[i].day - CHANGE_DAY) <= 1;
		}
	}
	t->found += found;
	t->near_day += near;
}

/* Runs `trials` series of scenario sc with `hosts` hosts a day. */
static struct tally run(enum scenario sc, size_t hosts, size_t trials, uint64_t seed)
{
	struct cprof_watch_settings settings = { 14, 2, 0.01, 0.05 };
	struct tally t = { 0 };
	struct sim *sim = cprof_xcalloc(1, sizeof(*sim));
	gsl_rng *rng = stats_rng_new();
	size_t i, n;

	sim->hosts = hosts;
	if (getenv("WATCH_SCEN") && atoi(getenv("WATCH_SCEN")) != (int)sc)
		trials = 0;
	sim->profile_totals = cprof_xcalloc(DAYS * hosts, sizeof(double));
	for (i = 0; i < trials; i++) {
		struct cprof_watch_series series = { DAYS, KEYS + 1, sim->counts, sim->totals,
						     sim->profile_totals, sim->day_start };
		struct cprof_watch_change *changes;

		stats_seed_cell(rng, seed, (unsigned long)(sc * 100000 + hosts * 10000000 + i));
		simulate(sim, rng, sc);
		n = cprof_watch_detect(&series, &settings, &changes);
		score(sim, &t, sc, changes, n);
		cprof_watch_free(changes, n);
	}
	gsl_rng_free(rng);
	free(sim->profile_totals);
	free(sim);
	return t;
}

/* Prints one scenario's line and its target's verdict. */
static bool report(enum scenario sc, size_t hosts, const struct tally *t)
{
	double per = (double)t->changes / (double)t->trials;

	switch (sc) {
	case NONE:
		return stats_target(per <= 0.05, "%zu hosts, %s: %.3f changes per series (<= 0.05)",
				    hosts, scenario_names[sc], per);
	case RISE_BIG:
		return stats_target(stats_rate(t->near_day, t->trials) >= 0.9,
				    "%zu hosts, %s: found %.3f, its day within 1 of 40 %.3f (>= 0.9)",
				    hosts, scenario_names[sc], stats_rate(t->found, t->trials),
				    stats_rate(t->near_day, t->trials));
	case RISE_SMALL:
		return stats_target(stats_rate(t->found, t->trials) >= 0.9,
				    "%zu hosts, %s: found %.3f (>= 0.9), day within 1 %.3f",
				    hosts, scenario_names[sc], stats_rate(t->found, t->trials),
				    stats_rate(t->near_day, t->trials));
	case SPIKE:
		return stats_target(stats_rate(t->big_key, t->trials) <= 0.05,
				    "%zu hosts, %s: reported %.3f (<= 0.05)", hosts,
				    scenario_names[sc], stats_rate(t->big_key, t->trials));
	default:
		return stats_target(stats_rate(t->shift_ok, t->trials) >= 0.9,
				    "%zu hosts, %s: one shift naming both %.3f (>= 0.9)", hosts,
				    scenario_names[sc], stats_rate(t->shift_ok, t->trials));
	}
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "trials", required_argument, NULL, 'n' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "wander", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seed = 1;
	size_t trials = 1000, hosts[2] = { 10, 3 }, num_hosts = 2, h;
	int opt, sc, failed = 0;

	cprof_set_progname(argv[0]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		if (opt == 's')
			seed = cprof_option_u64("--seed", optarg);
		else if (opt == 'n')
			trials = stats_trials_option("--trials", optarg);
		else if (opt == 'w')
			wander = cprof_option_double("--wander", optarg);
		else if (opt == 'H') {
			hosts[0] = (size_t)cprof_option_u64("--hosts", optarg);
			num_hosts = 1;
			if (hosts[0] < 1 || hosts[0] > 1000)
				cprof_die("--hosts: '%s': 1 to 1000", optarg);
		} else
			cprof_die("usage: watch-calib [--seed S] [--trials N] [--hosts H] [--wander W]");
	}
	printf("watch-calib: %zu series a scenario, seed %llu, wander %g\n", trials,
	       (unsigned long long)seed, wander);
	for (h = 0; h < num_hosts; h++)
		for (sc = 0; sc < SCENARIOS; sc++) {
			struct tally t = run((enum scenario)sc, hosts[h], trials, seed);

			failed += !report((enum scenario)sc, hosts[h], &t);
		}
	return failed ? 1 : 0;
}
