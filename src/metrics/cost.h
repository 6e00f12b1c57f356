/* cost.h: the cost of the same work: the samples per run of a candidate
 * build against its baselines', when every run did the same work. */
#ifndef CPROF_COST_H
#define CPROF_COST_H

#include <stdbool.h>
#include <stddef.h>

/* The comparison of the samples per run. */
struct cprof_cost {
	double baseline;       /* the mean samples per run of the baselines */
	double candidate;      /* and of the candidates */
	double ratio;          /* candidate / baseline */
	double ci_low;         /* the ratio's interval at level 1 - alpha */
	double ci_high;
	double df;             /* of the t distribution behind them */
	double p_value;        /* of "the ratio is 1" */
	bool moved;            /* p_value <= alpha and moved by min_ratio */
};

/* Compares the totals of `baselines` >= 2 runs with those of `candidates`
 * >= 1 runs (every total > 0) on the log scale, centred on the log of the
 * ratio of their means, by Student's two-sample t: the candidates are
 * taken to vary from run to run as the baselines do, their spreads pooled
 * (n_b + n_c - 2 degrees of freedom); with one candidate this is the
 * prediction interval from the baselines' spread, s sqrt(1/n_b + 1).  Moved: p_value <= alpha and |ratio - 1| >= min_ratio, or with
 * `interval` the whole interval at least min_ratio from 1.  Runs that
 * agree exactly leave no spread: the p-value is then 0 for a ratio other
 * than 1, else 1, and the interval that point. */
void cprof_cost_compare(const double *baselines, size_t count_b, const double *candidates,
			size_t count_c, double alpha, double min_ratio, bool interval,
			struct cprof_cost *out);

#endif
