/* stats-common.c: what the calibration benchmarks share.  See
 * stats-common.h. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include <gsl/gsl_errno.h>

#include "stats-common.h"
#include "base/util.h"

void stats_zipf(double *p, size_t n, double mass)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += 1.0 / (double)(i + 1);
	for (i = 0; i < n; i++)
		p[i] = mass / (double)(i + 1) / sum;
}

void stats_shift(const double *shares, size_t n, size_t shifted, double gain, double *moved)
{
	double old = shares[shifted], scale = (1.0 - old - gain) / (1.0 - old);
	size_t i;

	for (i = 0; i < n; i++)
		moved[i] = shares[i] * scale;
	moved[shifted] = old + gain;
}

gsl_rng *stats_rng_new(void)
{
	gsl_rng *rng;

	gsl_set_error_handler_off();
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		cprof_die_oom();
	return rng;
}

void stats_seed_cell(gsl_rng *rng, uint64_t seed, unsigned long cell)
{
	gsl_rng_set(rng, (unsigned long)(seed * 1000 + cell));
}

bool stats_different(const struct cprof_pair *pairs, size_t n, uint64_t total_a,
		     uint64_t total_b, const struct cprof_signif_options *options)
{
	struct cprof_signif *signif = cprof_signif_compute(pairs, n, total_a, total_b, options);
	bool different;

	if (!signif)
		cprof_die("cprof_signif_compute failed");
	different = signif->different;
	cprof_signif_free(signif);
	return different;
}

void stats_intervals_add(struct stats_intervals *tally, struct cprof_signif *signif,
			 const struct cprof_pair *pairs, size_t n, uint64_t total_a,
			 uint64_t total_b, const struct cprof_signif_options *options,
			 const double *truth, bool every)
{
	size_t i, moved = 0, missed = 0;

	for (i = 0; i < n; i++) {
		const struct cprof_key_signif *key = &signif->keys[i];
		bool without_0;

		if (every)
			cprof_signif_test(signif, pairs, i, total_a, total_b, options);
		if (!key->tested)
			continue;
		without_0 = key->ci_low > 0 || key->ci_high < 0;
		tally->rows++;
		if (key->significant) {
			bool covers = key->ci_low <= truth[i] && truth[i] <= key->ci_high;

			moved++;
			missed += !covers;
			tally->unexplained += !without_0;
		} else if (without_0) {
			if (cprof_key_note(key))
				tally->noted++;
			else
				tally->unexplained++;
		}
	}
	tally->trials++;
	tally->moved += moved;
	tally->covered += moved - missed;
	tally->fcr += moved > 0 ? (double)missed / (double)moved : 0.0;
}

double stats_rate(size_t hits, size_t trials)
{
	return (double)hits / (double)trials;
}

size_t stats_trials_option(const char *option, const char *arg)
{
	uint64_t trials = cprof_option_u64(option, arg);

	if (trials < 5 || trials > 10000000)
		cprof_die("%s: not between 5 and 10000000: '%s'", option, arg);
	return (size_t)trials;
}

bool stats_target(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return ok;
}
