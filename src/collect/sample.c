/* sample.c: a round's targets, gsl_ran_choose over a seeded gsl_rng. */
#include "config.h"

#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "base/util.h"
#include "sample.h"

struct cprof_sampler {
	gsl_rng *rng;
	size_t *all;
	size_t num_all;
};

struct cprof_sampler *cprof_sampler_new(uint64_t seed)
{
	struct cprof_sampler *sampler = cprof_xcalloc(1, sizeof(*sampler));

	sampler->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!sampler->rng)
		cprof_die_oom();
	/* mt19937 takes an unsigned long; fold the high half in. */
	gsl_rng_set(sampler->rng, (unsigned long)(seed ^ (seed >> 32)));
	return sampler;
}

void cprof_sampler_choose(struct cprof_sampler *sampler, size_t n, size_t k, size_t *chosen)
{
	size_t i;

	if (k == 0)
		return;
	if (sampler->num_all != n) {
		free(sampler->all);
		sampler->all = cprof_xcalloc(n, sizeof(*sampler->all));
		for (i = 0; i < n; i++)
			sampler->all[i] = i;
		sampler->num_all = n;
	}
	gsl_ran_choose(sampler->rng, chosen, k, sampler->all, n, sizeof(*sampler->all));
}

void cprof_sampler_free(struct cprof_sampler *sampler)
{
	if (!sampler)
		return;
	gsl_rng_free(sampler->rng);
	free(sampler->all);
	free(sampler);
}
