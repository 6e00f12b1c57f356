/* sum.h: compensated (Neumaier) summation, for the entropies and the
 * distances: ten terms of 0.1 sum to 1, not to 0.99999999999999989, so
 * that a uniform distribution has exactly the entropy log(entries) and
 * the printed distance does not depend on rounding along the way. */
#ifndef CPROF_SUM_H
#define CPROF_SUM_H

#include <math.h>

/* A running sum; start it at { 0, 0 }. */
struct cprof_sum {
	double sum;
	double compensation;
};

/* Adds `x` to the sum. */
static inline void cprof_sum_add(struct cprof_sum *s, double x)
{
	double t = s->sum + x;

	if (fabs(s->sum) >= fabs(x))
		s->compensation += (s->sum - t) + x;
	else
		s->compensation += (x - t) + s->sum;
	s->sum = t;
}

/* The sum so far. */
static inline double cprof_sum_value(const struct cprof_sum *s)
{
	return s->sum + s->compensation;
}

#endif
