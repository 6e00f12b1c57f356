/* sample.h: the uniform draw of each round's targets (GSL). */
#ifndef CPROF_COLLECT_SAMPLE_H
#define CPROF_COLLECT_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

struct cprof_sampler;

/* A sampler whose draws follow from `seed` alone; free with
 * cprof_sampler_free. */
struct cprof_sampler *cprof_sampler_new(uint64_t seed);

/* Writes to `chosen` `k` of the indices 0..n-1 (k <= n), drawn uniformly
 * without replacement, in increasing order. */
void cprof_sampler_choose(struct cprof_sampler *sampler, size_t n, size_t k, size_t *chosen);

/* Frees a sampler; accepts NULL. */
void cprof_sampler_free(struct cprof_sampler *sampler);

#endif
