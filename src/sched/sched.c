/* sched.c: the scheduling problem solved (through the shim of
 * sched-solve.cc) and its solution rounded; freeing.  Reading is in
 * sched-read.c, output in sched-write.c. */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched-int.h"
#include "sched-solve.h"

const char *cprof_sched_status_name(enum cprof_sched_status status)
{
	switch (status) {
	case CPROF_SCHED_OPTIMAL:
		return "optimal";
	case CPROF_SCHED_INFEASIBLE:
		return "infeasible";
	case CPROF_SCHED_UNBOUNDED:
		return "unbounded";
	default:
		return "unsolved";
	}
}

void cprof_sched_free(struct cprof_sched *sched)
{
	if (!sched)
		return;
	json_decref(sched->root);
	free(sched->platforms);
	free(sched->apps);
	free(sched->column_first);
	free(sched->column_app);
	free(sched->starts);
	free(sched->rows);
	free(sched->elements);
	free(sched->cost);
	free(sched->row_lower);
	free(sched->row_upper);
	free(sched->x);
	free(sched);
}

/* Solving. */

/* Rounds `x` to CPROF_SCHED_DIGITS significant digits of `scale`: to a
 * multiple of 10^(E + 1 - CPROF_SCHED_DIGITS), E the decimal exponent of
 * `scale`, by an exact power of ten so that the result is the double
 * nearest that decimal.  Returns 0 for x that rounds to 0 or below. */
static double round_to(double x, double scale)
{
	static const double powers[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
	};
	int decimals;

	if (!(x > 0) || !(scale > 0))
		return 0.0;
	decimals = CPROF_SCHED_DIGITS - 1 - (int)floor(log10(scale));
	if (decimals > 22) {
		/* A scale below 1e-13: no exact power; keep x unless it is noise. */
		return x > 1e-9 * scale ? x : 0.0;
	}
	if (decimals >= 0)
		x = round(x * powers[decimals]) / powers[decimals];
	else
		x = round(x / powers[-decimals]) * powers[-decimals];
	return x > 0 ? x : 0.0;
}

/* Rounds each x[i][j] against the smaller of load[j] and capacity[i] /
 * cpi[i][j], the most of app j that platform i can hold: against a load
 * of 1e12 alone, x moves by up to 500, and with it a platform of capacity
 * 1e6 past its capacity. */
static void round_solution(struct cprof_sched *sched)
{
	int i, k;

	for (i = 0; i < sched->num_platforms; i++)
		for (k = sched->column_first[i]; k < sched->column_first[i + 1]; k++) {
			double load = sched->apps[sched->column_app[k]].amount;
			double room = sched->platforms[i].amount / sched->cost[k];

			sched->x[k] = round_to(sched->x[k], room > 0 && room < load ? room : load);
		}
}

/* The error of a solve that gave no answer. */
static void solve_error(const struct cprof_lp_result *result, struct cprof_error *err)
{
	switch (result->outcome) {
	case CPROF_LP_NO_MEMORY:
		cprof_die_oom();
	case CPROF_LP_FAILED:
		cprof_error_set(err, "the solver failed: %s", result->what);
		break;
	default:
		cprof_error_set(err, "the solver stopped without an answer: %s", result->what);
		break;
	}
}

/* Loads the LP into CLP and frees the arrays CLP copied. */
static struct cprof_clp *load(struct cprof_sched *sched, struct cprof_lp_result *result)
{
	struct cprof_lp lp = {
		.num_columns = sched->num_columns,
		.num_rows = sched->num_apps + sched->num_platforms,
		.starts = sched->starts,
		.rows = sched->rows,
		.elements = sched->elements,
		.cost = sched->cost,
		.row_lower = sched->row_lower,
		.row_upper = sched->row_upper,
	};
	struct cprof_clp *clp = cprof_clp_load(&lp, result);

	free(sched->starts);
	free(sched->rows);
	free(sched->elements);
	sched->starts = NULL;
	sched->rows = NULL;
	sched->elements = NULL;
	return clp;
}

enum cprof_sched_status cprof_sched_solve(struct cprof_sched *sched, struct cprof_error *err)
{
	struct cprof_lp_result result;
	struct cprof_clp *clp;

	sched->status = CPROF_SCHED_UNSOLVED;
	sched->x = cprof_xcalloc((size_t)sched->num_columns, sizeof(double));
	clp = load(sched, &result);
	if (clp)
		cprof_clp_solve(clp, sched->x, &result);
	cprof_clp_free(clp);
	switch (result.outcome) {
	case CPROF_LP_OPTIMAL:
		sched->status = CPROF_SCHED_OPTIMAL;
		round_solution(sched);
		break;
	case CPROF_LP_INFEASIBLE:
		sched->status = CPROF_SCHED_INFEASIBLE;
		break;
	case CPROF_LP_UNBOUNDED:
		sched->status = CPROF_SCHED_UNBOUNDED;
		break;
	default:
		solve_error(&result, err);
		break;
	}
	return sched->status;
}

