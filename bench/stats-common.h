/* stats-common.h: what the calibration benchmarks (bench/stats-calib,
 * bench/stats-replicates) share: Zipf shares, a shifted key, the seeded
 * generator of a cell, the library's verdict, rates and PASS/FAIL lines. */
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

/* hits / trials. */
double stats_rate(size_t hits, size_t trials);

/* The number of trials option `option` gives in `arg`, 5 to 10,000,000;
 * dies naming the option otherwise. */
size_t stats_trials_option(const char *option, const char *arg);

/* Prints "PASS " or "FAIL " as `ok` says, then the formatted line; returns
 * ok. */
bool stats_target(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
