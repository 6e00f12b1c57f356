/* stats-common.h: what the calibration benchmarks (bench/stats-calib,
 * bench/stats-replicates) share: Zipf shares, a shifted key, the seeded
 * generator of a cell, the library's verdict, the tally of the intervals
 * beside the verdicts, rates and PASS/FAIL lines. */
#ifndef CPROF_BENCH_STATS_COMMON_H
#define CPROF_BENCH_STATS_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "metrics/signif.h"

/* Zipf s=1 shares 1/i, i = 1..n, scaled to sum to `mass`, into p. */
void stats_zipf(double *p, size_t n, double mass);

/* The `n` shares with key `shifted` raised by `gain`, taken from the
 * others in proportion to their shares, into moved. */
void stats_shift(const double *shares, size_t n, size_t shifted, double gain, double *moved);

/* A Mersenne Twister (mt19937) with GSL's error handler off; dies when out
 * of memory.  The caller frees it with gsl_rng_free. */
gsl_rng *stats_rng_new(void);

/* Seeds `rng` for cell number `cell`: each cell's figures depend on the
 * seed and its own number only. */
void stats_seed_cell(gsl_rng *rng, uint64_t seed, unsigned long cell);

/* Whether cprof_signif_compute says different of these pairs. */
bool stats_different(const struct cprof_pair *pairs, size_t n, uint64_t total_a,
		     uint64_t total_b, const struct cprof_signif_options *options);

/* How the intervals printed beside the verdicts fared, over trials. */
struct stats_intervals {
	size_t trials;
	size_t rows;           /* keys tested (an interval printed) */
	size_t moved;          /* keys called moved */
	size_t covered;        /* of them, the interval holding the true delta */
	double fcr;            /* sum over trials of missed / max(moved, 1) */
	size_t noted;          /* not moved, interval without 0, why given */
	size_t unexplained;    /* moved with 0 inside, or not moved without 0 nor why */
};

/* Adds one trial: `signif` of the `n` pairs, truth[i] the true delta of
 * pair i; with `every`, each key tested first (cprof_signif_test, as the
 * programs test the keys they print), else only those the correction
 * tested (the others cannot move). */
void stats_intervals_add(struct stats_intervals *tally, struct cprof_signif *signif,
			 const struct cprof_pair *pairs, size_t n, uint64_t total_a,
			 uint64_t total_b, const struct cprof_signif_options *options,
			 const double *truth, bool every);

/* hits / trials. */
double stats_rate(size_t hits, size_t trials);

/* The number of trials option `option` gives in `arg`, 5 to 10,000,000;
 * dies naming the option otherwise. */
size_t stats_trials_option(const char *option, const char *arg);

/* Prints "PASS " or "FAIL " as `ok` says, then the formatted line; returns
 * ok. */
bool stats_target(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
