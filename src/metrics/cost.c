/* cost.c: samples per run, candidates against baselines (GSL's t
 * distribution).  See cost.h. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "cost.h"
#include "base/util.h"

/* The mean of `n` values, and the logs of them into logs. */
static double mean_and_logs(const double *values, size_t n, double *logs)
{
	double sum = 0.0;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += values[i];
		logs[i] = log(values[i]);
	}
	return sum / (double)n;
}

/* The standard error of the log ratio and its degrees of freedom: the
 * two sides' spreads pooled (Student's two-sample t), which with one
 * candidate is the prediction interval s sqrt(1/n + 1) on n - 1. */
static double log_se(const double *logs_b, size_t count_b, const double *logs_c, size_t count_c,
		     double *df)
{
	double ss = gsl_stats_variance(logs_b, 1, count_b) * (double)(count_b - 1);

	if (count_c > 1)
		ss += gsl_stats_variance(logs_c, 1, count_c) * (double)(count_c - 1);
	*df = (double)(count_b + count_c - 2);
	return sqrt(ss / *df * (1.0 / (double)count_b + 1.0 / (double)count_c));
}

void cprof_cost_compare(const double *baselines, size_t count_b, const double *candidates,
			size_t count_c, double alpha, double min_ratio, bool interval,
			struct cprof_cost *out)
{
	double *logs_b = cprof_xcalloc(count_b, sizeof(*logs_b));
	double *logs_c = cprof_xcalloc(count_c, sizeof(*logs_c));
	double se, center, half;

	out->baseline = mean_and_logs(baselines, count_b, logs_b);
	out->candidate = mean_and_logs(candidates, count_c, logs_c);
	out->ratio = out->candidate / out->baseline;
	center = log(out->ratio);
	se = log_se(logs_b, count_b, logs_c, count_c, &out->df);
	if (se > 0) {
		out->p_value = 2.0 * gsl_cdf_tdist_Q(fabs(center) / se, out->df);
		half = gsl_cdf_tdist_Qinv(alpha / 2.0, out->df) * se;
	} else {
		out->p_value = center == 0 ? 1.0 : 0.0;
		half = 0.0;
	}
	out->ci_low = exp(center - half);
	out->ci_high = exp(center + half);
	out->moved = out->p_value <= alpha &&
		     (interval ? out->ci_low >= 1.0 + min_ratio || out->ci_high <= 1.0 - min_ratio
			       : fabs(out->ratio - 1.0) >= min_ratio);
	free(logs_c);
	free(logs_b);
}
