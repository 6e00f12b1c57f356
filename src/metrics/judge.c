/* judge.c: what the samples say of a difference: every key tested, the
 * null distribution of the distance, and the sentences on what limits
 * the answer. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"
#include "noise.h"
#include "regress.h"

/* Adds a sentence (dropped past CPROF_MAX_WARNINGS). */
static void __attribute__((format(printf, 2, 3)))
cprof_warnings_add(struct cprof_warnings *warnings, const char *fmt, ...)
{
	char *text;
	va_list ap;

	if (warnings->count >= CPROF_MAX_WARNINGS)
		return;
	text = warnings->text[warnings->count++];
	va_start(ap, fmt);
	vsnprintf(text, sizeof(warnings->text[0]), fmt, ap);
	va_end(ap);
}

void cprof_warnings_print(const struct cprof_warnings *warnings)
{
	size_t i;

	for (i = 0; i < warnings->count; i++)
		cprof_warn("%s", warnings->text[i]);
}

/* A count of `units` a sample in samples, rounded. */
static uint64_t in_samples(uint64_t count, double units)
{
	return units == 1 ? count : (uint64_t)llround((double)count / units);
}

/* Every key with samples in A or B, in bytewise order, and their counts
 * in samples; a key absent from a truncated side is not known there. */
static void gather_keys(struct cprof_judgement *j, const struct cprof_dist *a,
			const struct cprof_dist *b)
{
	bool a_truncated = cprof_dist_other(a) > 0, b_truncated = cprof_dist_other(b) > 0;
	size_t i;

	j->keys = cprof_diff_keys(a, b, &j->count, &j->pairs);
	for (i = 0; i < j->count; i++) {
		struct cprof_pair *pair = &j->pairs[i];

		pair->count_a = in_samples(pair->count_a, j->units_per_sample);
		pair->count_b = in_samples(pair->count_b, j->units_per_sample);
		pair->known = !(pair->count_a == 0 && a_truncated) &&
			      !(pair->count_b == 0 && b_truncated);
	}
}

static int key_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static const char **find_key(const struct cprof_judgement *j, const char *key)
{
	return bsearch(&key, j->keys, j->count, sizeof(*j->keys), key_cmp);
}

/* Tests the compared keys the correction left out: they are printed. */
static void test_compared(struct cprof_judgement *j, const struct cprof_diff *diff)
{
	size_t i;

	for (i = 0; i < diff->count; i++) {
		const char **found = find_key(j, diff->entries[i].key);

		if (found)
			cprof_signif_test(j->signif, j->pairs, (size_t)(found - j->keys), j->total_a,
					  j->total_b, &j->options);
	}
}

/* Warns of a side whose samples are few: a share's 95% sampling interval
 * is up to 1.96 sqrt(phi / 4 total) wide on each side. */
static void warn_few(struct cprof_judgement *j, const char *side, uint64_t total)
{
	double phi = j->options.dispersion;

	if ((double)total / phi < 1000)
		cprof_warnings_add(&j->warnings,
				   "%" PRIu64 " samples in %s: shares move by up to %.2g by "
				   "sampling alone", total, side, 1.96 * sqrt(phi / (4.0 * (double)total)));
}

/* The warnings of a tested difference. */
static void warn_tested(struct cprof_judgement *j, const struct cprof_diff *diff)
{
	double ratio = (double)j->total_a / (double)j->total_b;
	size_t i, unknown = 0, hidden = j->signif->significant;

	warn_few(j, j->names[0], j->total_a);
	warn_few(j, j->names[1], j->total_b);
	if (ratio > 20 || ratio < 1.0 / 20)
		cprof_warnings_add(&j->warnings,
				   "%.0f times the samples in %s as in %s: the smaller side sets "
				   "what the tests can see", ratio > 1 ? ratio : 1 / ratio,
				   ratio > 1 ? j->names[0] : j->names[1],
				   ratio > 1 ? j->names[1] : j->names[0]);
	for (i = 0; i < j->count; i++)
		unknown += !j->pairs[i].known;
	if (unknown > 0)
		cprof_warnings_add(&j->warnings,
				   "%zu keys are absent from a truncated flat, where their count is "
				   "unknown: they are left out of the tests", unknown);
	if (j->signif->corrected == 0)
		cprof_warnings_add(&j->warnings,
				   "no key holds samples enough to show a change of %g (--min-effect)",
				   j->options.min_effect);
	else if (j->signif->gtest.df == 0)
		cprof_warnings_add(&j->warnings, "too few samples for the G-test: no two cells "
				   "have an expected count of 5");
	for (i = 0; i < diff->count; i++) {
		const struct cprof_key_signif *key = cprof_judgement_key(j, diff->entries[i].key);

		if (key && key->significant)
			hidden--;
	}
	if (hidden > 0)
		cprof_warnings_add(&j->warnings,
				   "%zu keys that changed significantly are not among the compared "
				   "keys (-k 0 shows every key)", hidden);
}

/* A run's count of every key of j (in samples) into column `run` of
 * counts (keys x runs), its total into totals[run]. */
static void run_column(const struct cprof_judgement *j, const struct cprof_dist *dist, size_t run,
		       size_t runs, uint64_t *counts, uint64_t *totals)
{
	size_t i;

	totals[run] = in_samples(dist->total, j->units_per_sample);
	for (i = 0; i < j->count; i++) {
		const struct cprof_entry *entry = cprof_dist_find(dist, j->keys[i]);

		counts[i * runs + run] = entry ? in_samples(entry->count, j->units_per_sample) : 0;
	}
}

/* The keys tested by cprof-regress's rule (regress.c): each against its
 * own noise, measured on the runs of both sides. */
static void test_against_runs(struct cprof_judgement *j,
			      const struct cprof_replicates *replicates)
{
	size_t runs = replicates->count_a + replicates->count_b, r;
	uint64_t *counts = cprof_xcalloc(j->count * runs + 1, sizeof(*counts));
	uint64_t *totals = cprof_xcalloc(runs, sizeof(*totals));
	unsigned char *group = cprof_xcalloc(runs, 1);
	struct cprof_runs table = { counts, j->count, runs, totals, group };

	for (r = 0; r < replicates->count_a; r++)
		run_column(j, replicates->a[r], r, runs, counts, totals);
	for (r = 0; r < replicates->count_b; r++) {
		group[replicates->count_a + r] = 1;
		run_column(j, replicates->b[r], replicates->count_a + r, runs, counts, totals);
	}
	j->signif = cprof_regress_keys(&table, j->pairs, j->count, j->total_a, j->total_b,
				       &j->options, &j->noise);
	j->options.noise = j->noise;
	free(group);
	free(totals);
	free(counts);
}

/* The fewest runs of A that tell a noisy key from a quiet one. */
#define FEW_RUNS 5

static struct cprof_judgement *judge(const struct cprof_dist *a, const struct cprof_dist *b,
				     const struct cprof_diff *diff, size_t k, enum cprof_keys keys,
				     const struct cprof_signif_options *options,
				     const char *const names[2],
				     const struct cprof_replicates *replicates)
{
	struct cprof_judgement *j = cprof_xcalloc(1, sizeof(*j));
	double units_a = cprof_dist_units_per_sample(a), units_b = cprof_dist_units_per_sample(b);

	j->options = *options;
	j->names[0] = names[0];
	j->names[1] = names[1];
	j->units_per_sample = units_a;
	if (a->cum || b->cum) {
		cprof_warnings_add(&j->warnings, "a --cum difference has no significance figures: "
				   "a sample counts in many keys");
		return j;
	}
	if (units_a == 0 || units_a != units_b) {
		cprof_warnings_add(&j->warnings, "the counts are %s, not samples of a known period: "
				   "no tests, intervals or verdict", cprof_dist_sample_type(a));
		return j;
	}
	j->total_a = in_samples(a->total, units_a);
	j->total_b = in_samples(b->total, units_a);
	gather_keys(j, a, b);
	if (replicates) {
		size_t df = replicates->count_a - 1 +
			    (replicates->count_b > 1 ? replicates->count_b - 1 : 0);

		test_against_runs(j, replicates);
		if (replicates->count_a < FEW_RUNS)
			cprof_warnings_add(&j->warnings,
					   "%zu baselines: a key's own noise is measured on %zu "
					   "degree%s of freedom, too few to tell a noisy key from a "
					   "quiet one; %d baselines or more are needed",
					   replicates->count_a, df, df == 1 ? "" : "s", FEW_RUNS);
	}
	if (!j->signif)
		j->signif = cprof_signif_compute(j->pairs, j->count, j->total_a, j->total_b,
						 &j->options);
	test_compared(j, diff);
	cprof_manhattan_null(j->pairs, j->count, j->total_a, j->total_b, k, keys == CPROF_KEYS_A,
			     options->dispersion, options->alpha, 0, &j->null);
	warn_tested(j, diff);
	return j;
}

struct cprof_judgement *cprof_judge(const struct cprof_dist *a, const struct cprof_dist *b,
				    const struct cprof_diff *diff, size_t k, enum cprof_keys keys,
				    const struct cprof_signif_options *options,
				    const char *const names[2])
{
	return judge(a, b, diff, k, keys, options, names, NULL);
}

struct cprof_judgement *cprof_judge_replicates(const struct cprof_dist *a,
					       const struct cprof_dist *b,
					       const struct cprof_diff *diff, size_t k,
					       enum cprof_keys keys,
					       const struct cprof_signif_options *options,
					       const char *const names[2],
					       const struct cprof_replicates *runs)
{
	return judge(a, b, diff, k, keys, options, names, runs);
}

const struct cprof_key_signif *cprof_judgement_key(const struct cprof_judgement *judgement,
						   const char *key)
{
	const char **found;

	if (!judgement->signif)
		return NULL;
	found = find_key(judgement, key);
	return found ? &judgement->signif->keys[found - judgement->keys] : NULL;
}

void cprof_judgement_free(struct cprof_judgement *judgement)
{
	if (!judgement)
		return;
	cprof_signif_free(judgement->signif);
	cprof_noise_free(judgement->noise);
	free(judgement->pairs);
	free(judgement->keys);
	free(judgement);
}
