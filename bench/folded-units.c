/* folded-units.c: the folded-units rule (folded.h's cprof_folded_units)
 * measured both ways on simulated files (make bench-stats; bench/STATS.md).
 *
 * Sampled profiles: 10 to 500 stacks, 1,000 to 10,000,000 samples (each
 * log-uniform), flat, Zipf or one stack of 90%, drawn multinomially: the
 * rule must read every one as samples.  Period sums, as
 * stackcollapse-perf.pl writes them: a fixed period (each stack's samples
 * times 1001001, perf's cpu-clock at -F 999), and perf's frequency mode
 * (each sample's period drawn as the kernel sets it: a target period of
 * 10^4 to 10^7 whose rate jitters, the period moving an eighth of the way
 * to it at each sample, from 1 at each thread's start): the rule must never
 * read them as raw samples.  Each file is seeded by its number alone.
 *
 * Three rules side by side: "old" (two stacks or more, every one 1000
 * or more, not samples), "least+total" (that and more than 10^7 in all)
 * and the library's, "cprof" (more than 10^7 in all, whatever the least);
 * the last two read counts sharing a divisor of 1000 or more as samples
 * of that period. */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/folded.h"
#include "base/util.h"
#include "stats-common.h"

/* The old rule's least count of every stack. */
enum { OLD_LEAST = 1000 };

enum { MOST_STACKS = 500, SHAPES = 3, RULES = 3, DECADES = 5 };

static const char *const shape_names[SHAPES] = { "flat", "zipf", "dominant" };
static const char *const rule_names[RULES] = { "old", "least+total", "cprof" };

/* The shares of `shape` over n stacks into p. */
static void shares(int shape, size_t n, double *p)
{
	size_t i;

	if (shape == 0) {
		for (i = 0; i < n; i++)
			p[i] = 1.0 / (double)n;
	} else if (shape == 1) {
		stats_zipf(p, n, 1.0);
	} else {
		p[0] = 0.9;
		stats_zipf(p + 1, n - 1, 0.1);
	}
}

/* 10^(lo + (hi - lo) u), rounded. */
static double log_uniform(gsl_rng *rng, double lo, double hi)
{
	return round(pow(10.0, lo + (hi - lo) * gsl_rng_uniform(rng)));
}

/* Whether each rule reads `c` as raw samples (not as a period's samples,
 * not as value/unknown). */
static void judge(const struct cprof_folded_counts *c, bool samples[RULES])
{
	bool many = c->stacks >= 2 && c->least != UINT64_MAX;

	samples[0] = !(many && c->least >= OLD_LEAST);
	samples[1] = !(many && (c->divisor >= CPROF_FOLDED_PERIOD_LEAST ||
				(c->least >= OLD_LEAST &&
				 c->total[0] > CPROF_FOLDED_MOST_SAMPLES)));
	samples[2] = cprof_folded_units(c) == CPROF_FOLDED_SAMPLES;
}

/* The lines of nonzero counts[0, n) (times `scale`), added to c. */
static void add_counts(struct cprof_folded_counts *c, const unsigned int *counts, size_t n,
		       uint64_t scale)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (counts[i])
			cprof_folded_counts_add(c, (uint64_t)counts[i] * scale, 0);
}

/* One file of the kind (0 sampled, 1 fixed period, 2 frequency mode):
 * its shape and decade of samples, and what the rules say. */
struct file {
	int shape, decade;
	bool samples[RULES];
};

/* Period sums of perf's frequency mode over `samples` samples at a target
 * period of `base` into sums. */
static void freq_sums(gsl_rng *rng, const double *p, size_t n, unsigned long samples,
		      double base, double *sums)
{
	gsl_ran_discrete_t *table = gsl_ran_discrete_preproc(n, p);
	double sigma = gsl_ran_flat(rng, 0.05, 0.5);
	double period[8];
	size_t threads = 1 + gsl_rng_uniform_int(rng, 8), t;
	unsigned long k;

	if (!table)
		cprof_die_oom();
	for (t = 0; t < threads; t++)
		period[t] = 1.0;
	for (k = 0; k < samples; k++) {
		double *now = &period[k % threads];
		double target = base * exp(sigma * gsl_ran_ugaussian(rng));

		sums[gsl_ran_discrete(rng, table)] += round(*now);
		*now += ceil((target - *now) / 8.0);
	}
	gsl_ran_discrete_free(table);
}

static void draw(gsl_rng *rng, int kind, struct file *f)
{
	double p[MOST_STACKS], sums[MOST_STACKS] = { 0 };
	unsigned int counts[MOST_STACKS];
	struct cprof_folded_counts c = CPROF_FOLDED_COUNTS_INIT;
	size_t n = (size_t)log_uniform(rng, 1.0, log10(MOST_STACKS)), i;
	double samples = log_uniform(rng, 3.0, kind == 2 ? 6.0 : 7.0);

	f->shape = (int)gsl_rng_uniform_int(rng, SHAPES);
	f->decade = (int)floor(log10(samples)) - 3;
	if (f->decade >= DECADES)
		f->decade = DECADES - 1;
	shares(f->shape, n, p);
	if (kind == 2) {
		freq_sums(rng, p, n, (unsigned long)samples, log_uniform(rng, 4.0, 7.0), sums);
		for (i = 0; i < n; i++)
			if (sums[i] > 0)
				cprof_folded_counts_add(&c, (uint64_t)sums[i], 0);
	} else {
		gsl_ran_multinomial(rng, n, (unsigned int)samples, p, counts);
		add_counts(&c, counts, n, kind == 1 ? 1001001 : 1);
	}
	judge(&c, f->samples);
}

/* The table of one kind: files and how many each rule read as samples, by
 * shape and decade of samples. */
static size_t table(gsl_rng *rng, uint64_t seed, int kind, size_t trials)
{
	static const char *const kinds[] = { "sampled profiles", "fixed period (n x 1001001)",
					     "frequency-mode period sums" };
	size_t files[SHAPES][DECADES] = { { 0 } }, read[SHAPES][DECADES][RULES] = { { { 0 } } };
	size_t all[RULES] = { 0 }, i;
	int s, d, r;

	for (i = 0; i < trials; i++) {
		struct file f;

		gsl_rng_set(rng, (unsigned long)(seed * 1000003 + i * 3 + (size_t)kind));
		draw(rng, kind, &f);
		files[f.shape][f.decade]++;
		for (r = 0; r < RULES; r++) {
			read[f.shape][f.decade][r] += f.samples[r];
			all[r] += f.samples[r];
		}
	}
	printf("\n== %s: %zu files, read as raw samples by each rule ==\n", kinds[kind], trials);
	printf("%-9s %-12s %6s %8s %8s %8s\n", "shape", "samples", "files", rule_names[0],
	       rule_names[1], rule_names[2]);
	for (s = 0; s < SHAPES; s++)
		for (d = 0; d < DECADES; d++) {
			char range[32];

			if (!files[s][d])
				continue;
			snprintf(range, sizeof(range), "1e%d-1e%d", d + 3, d + 4);
			printf("%-9s %-12s %6zu", shape_names[s], range, files[s][d]);
			for (r = 0; r < RULES; r++)
				printf(" %7.1f%%", 100.0 * stats_rate(read[s][d][r], files[s][d]));
			putchar('\n');
		}
	printf("%-9s %-12s %6zu", "all", "", trials);
	for (r = 0; r < RULES; r++)
		printf(" %7.1f%%", 100.0 * stats_rate(all[r], trials));
	putchar('\n');
	return all[RULES - 1];
}

/* The corners: the largest sampled profiles the rule must read as
 * samples, and the least period sums it must not. */
static size_t corners(gsl_rng *rng, uint64_t seed)
{
	static const size_t stacks[] = { 10, 50, 500 };
	double p[MOST_STACKS];
	unsigned int counts[MOST_STACKS];
	size_t i, refused = 0;
	int s;

	printf("\n== corners: 10^7 samples (10, 50, 500 stacks), read as raw samples ==\n");
	for (s = 0; s < SHAPES; s++)
		for (i = 0; i < sizeof(stacks) / sizeof(stacks[0]); i++) {
			struct cprof_folded_counts c = CPROF_FOLDED_COUNTS_INIT;
			bool samples[RULES];

			gsl_rng_set(rng, (unsigned long)(seed * 7919 + (size_t)s * 10 + i));
			shares(s, stacks[i], p);
			gsl_ran_multinomial(rng, stacks[i], 10000000, p, counts);
			add_counts(&c, counts, stacks[i], 1);
			judge(&c, samples);
			printf("%-9s %3zu stacks  least %8" PRIu64
			       "  old %-3s least+total %-3s cprof %s\n",
			       shape_names[s], stacks[i], c.least, samples[0] ? "yes" : "no",
			       samples[1] ? "yes" : "no", samples[2] ? "yes" : "no");
			refused += !samples[RULES - 1];
		}
	return refused;
}

/* The least period sums: 1,000 samples of frequency mode at base periods
 * of 10^4 and 2 x 10^4, `trials` files each. */
static void period_corner(gsl_rng *rng, uint64_t seed, size_t trials)
{
	static const double bases[] = { 1e4, 2e4 };
	double p[50];
	size_t b, i;

	shares(1, 50, p);
	printf("\n== corners: 1000 samples, frequency mode, 50 Zipf stacks, "
	       "read as raw samples ==\n");
	for (b = 0; b < 2; b++) {
		size_t read[RULES] = { 0 };
		int r;

		for (i = 0; i < trials; i++) {
			struct cprof_folded_counts c = CPROF_FOLDED_COUNTS_INIT;
			double sums[50] = { 0 };
			bool samples[RULES];
			size_t k;

			gsl_rng_set(rng, (unsigned long)(seed * 104729 + b * trials + i));
			freq_sums(rng, p, 50, 1000, bases[b], sums);
			for (k = 0; k < 50; k++)
				if (sums[k] > 0)
					cprof_folded_counts_add(&c, (uint64_t)sums[k], 0);
			judge(&c, samples);
			for (r = 0; r < RULES; r++)
				read[r] += samples[r];
		}
		printf("base %-8g %6zu files", bases[b], trials);
		for (r = 0; r < RULES; r++)
			printf("  %s %5.1f%%", rule_names[r], 100.0 * stats_rate(read[r], trials));
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "trials", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t seed = 1;
	size_t trials = 1000, read[3], refused;
	gsl_rng *rng;
	bool ok = true;
	int c, kind;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 's')
			seed = strtoull(optarg, NULL, 10);
		else if (c == 't')
			trials = stats_trials_option("--trials", optarg);
		else
			return 2;
	}
	rng = stats_rng_new();
	printf("folded-units: seed %" PRIu64 ", %zu files each kind; not raw samples: old, "
	       "every stack >= %d; least+total, that and more than %d in all, or a divisor "
	       ">= %d; cprof, more than %d in all or that divisor\n",
	       seed, trials, OLD_LEAST, CPROF_FOLDED_MOST_SAMPLES, CPROF_FOLDED_PERIOD_LEAST,
	       CPROF_FOLDED_MOST_SAMPLES);
	for (kind = 0; kind < 3; kind++)
		read[kind] = table(rng, seed, kind, trials);
	refused = corners(rng, seed);
	period_corner(rng, seed, trials);
	gsl_rng_free(rng);
	putchar('\n');
	ok &= stats_target(read[0] == trials, "sampled profiles read as samples: %zu of %zu",
			   read[0], trials);
	ok &= stats_target(refused == 0, "10^7 samples read as samples: all but %zu", refused);
	ok &= stats_target(read[1] == 0, "fixed-period sums read as raw samples: %zu of %zu",
			   read[1], trials);
	ok &= stats_target(read[2] == 0, "frequency-mode sums read as raw samples: %zu of %zu",
			   read[2], trials);
	return ok ? 0 : 1;
}
