/* regress.c: cprof-regress's rule (see regress.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "noise.h"
#include "regress.h"
#include "base/util.h"

double cprof_regress_dispersion(const struct cprof_runs *runs, double units)
{
	size_t keys = runs->keys + 1, base = 0, r, j;
	uint64_t *table = cprof_xcalloc(runs->runs * keys + 1, sizeof(*table));
	double phi;

	for (r = 0; r < runs->runs; r++) {
		uint64_t listed = 0;

		if (runs->group[r] != 0)
			continue;
		for (j = 0; j < runs->keys; j++) {
			table[base * keys + j] = runs->counts[j * runs->runs + r];
			listed += table[base * keys + j];
		}
		table[base * keys + keys - 1] = runs->totals[r] - listed;
		base++;
	}
	phi = cprof_dispersion_estimate(table, base, keys);
	free(table);
	return units > 1 ? fmax(1.0, phi / units) : phi;
}

/* The distance of baseline `r` to the merge of the other baselines. */
static double left_out(const struct cprof_runs *runs, size_t r,
		       const struct cprof_regress_options *options, struct cprof_pair *pairs)
{
	uint64_t total = 0;
	size_t o, j;

	for (j = 0; j < runs->keys; j++) {
		pairs[j].count_a = 0;
		pairs[j].count_b = runs->counts[j * runs->runs + r];
		pairs[j].known = true;
	}
	for (o = 0; o < runs->runs; o++) {
		if (o == r || runs->group[o] != 0)
			continue;
		total += runs->totals[o];
		for (j = 0; j < runs->keys; j++)
			pairs[j].count_a += runs->counts[j * runs->runs + o];
	}
	return cprof_manhattan_of(pairs, runs->keys, total, runs->totals[r], options->k,
				  options->a_only);
}

double cprof_regress_noise(const struct cprof_runs *runs,
			   const struct cprof_regress_options *options)
{
	struct cprof_pair *pairs = cprof_xcalloc(runs->keys + 1, sizeof(*pairs));
	double noise = 0.0;
	size_t r;

	for (r = 0; r < runs->runs; r++)
		if (runs->group[r] == 0)
			noise = fmax(noise, left_out(runs, r, options, pairs));
	free(pairs);
	return noise;
}

double cprof_regress_threshold(const struct cprof_regress_options *options, double noise)
{
	return options->factor * noise + options->margin;
}

struct cprof_signif *cprof_regress_keys(const struct cprof_runs *runs,
					const struct cprof_pair *pairs, size_t n,
					uint64_t total_a, uint64_t total_b,
					const struct cprof_signif_options *options,
					struct cprof_noise **noise)
{
	struct cprof_signif_options with_noise = *options;

	*noise = cprof_noise_estimate(runs->counts, runs->keys, runs->runs, runs->totals,
				      runs->group);
	with_noise.noise = *noise;
	return cprof_signif_compute(pairs, n, total_a, total_b, &with_noise);
}

bool cprof_regress_different(const struct cprof_regress_options *options, bool keys_moved,
			     double distance, double threshold, const struct cprof_cost *cost)
{
	bool different = options->rule == CPROF_RULE_DISTANCE ? distance > threshold : keys_moved;

	return different || (options->absolute && cost && cost->moved);
}
