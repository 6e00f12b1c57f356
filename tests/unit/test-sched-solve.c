/* test-sched-solve: the CLP shim (src/sched/sched-solve.cc) on small linear
 * programs whose answer is known: optimal, infeasible, unbounded (which
 * no valid cprof-sched problem is, so only this test can reach it), and
 * empty. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "sched/sched-solve.h"
#include "check.h"

/* Loads and solves `lp`, checks the outcome and, when optimal, that x is
 * `want` (to 1e-9) and that result says so. */
static void solve(const char *name, const struct cprof_lp *lp, enum cprof_lp_outcome outcome,
		  const double *want)
{
	struct cprof_lp_result result;
	struct cprof_clp *clp = cprof_clp_load(lp, &result);
	double x[8] = { 0 };
	int k;

	check(clp != NULL, "%s: load: outcome %d", name, (int)result.outcome);
	if (!clp)
		return;
	check(cprof_clp_solve(clp, x, &result) == outcome, "%s: outcome %d (CLP status %d), want %d",
	      name, (int)result.outcome, result.clp_status, (int)outcome);
	check(result.outcome == outcome, "%s: the result says %d", name, (int)result.outcome);
	for (k = 0; want && k < lp->num_columns; k++)
		check(fabs(x[k] - want[k]) <= 1e-9, "%s: x[%d] = %.17g, want %.17g", name, k, x[k],
		      want[k]);
	cprof_clp_free(clp);
}

/* Two apps (rows 0, 1: = loads 60, 50) on two platforms (rows 2, 3: <=
 * capacity), columns (p1, a), (p1, b), (p2, a), (p2, b) at CPI 1, 2, 3, 4.
 * p1 cannot hold both (160 > 100); moving a unit of a or of b to p2 costs
 * 2 more, but b frees 2 of p1 where a frees 1: 30 of b move. */
static void test_optimal(void)
{
	static const int starts[] = { 0, 2, 4, 6, 8 };
	static const int rows[] = { 0, 2, 1, 2, 0, 3, 1, 3 };
	static const double elements[] = { 1, 1, 1, 2, 1, 3, 1, 4 };
	static const double cost[] = { 1, 2, 3, 4 };
	static const double lower[] = { 60, 50, -DBL_MAX, -DBL_MAX };
	static const double upper[] = { 60, 50, 100, 1000 };
	static const double want[] = { 60, 20, 0, 30 };
	struct cprof_lp lp = { 4, 4, starts, rows, elements, cost, lower, upper };

	solve("optimal", &lp, CPROF_LP_OPTIMAL, want);
}

/* The same with p2 too small for a: infeasible. */
static void test_infeasible(void)
{
	static const int starts[] = { 0, 2, 4, 6, 8 };
	static const int rows[] = { 0, 2, 1, 2, 0, 3, 1, 3 };
	static const double elements[] = { 1, 1, 1, 2, 1, 3, 1, 4 };
	static const double cost[] = { 1, 2, 3, 4 };
	static const double lower[] = { 60, 50, -DBL_MAX, -DBL_MAX };
	static const double upper[] = { 60, 50, 100, 100 };
	struct cprof_lp lp = { 4, 4, starts, rows, elements, cost, lower, upper };

	solve("infeasible", &lp, CPROF_LP_INFEASIBLE, NULL);
}

/* Minimize -x0 subject to x0 - x1 = 0: x0 = x1 grows without end. */
static void test_unbounded(void)
{
	static const int starts[] = { 0, 1, 2 };
	static const int rows[] = { 0, 0 };
	static const double elements[] = { 1, -1 };
	static const double cost[] = { -1, 0 };
	static const double lower[] = { 0 };
	static const double upper[] = { 0 };
	struct cprof_lp lp = { 2, 1, starts, rows, elements, cost, lower, upper };

	solve("unbounded", &lp, CPROF_LP_UNBOUNDED, NULL);
}

/* No rows and no columns; and rows without columns, = 0 (optimal) and
 * = 1 (infeasible). */
static void test_empty(void)
{
	static const int starts[] = { 0 };
	static const double zero[] = { 0, 0 }, one[] = { 0, 1 };
	struct cprof_lp none = { 0, 0, starts, NULL, NULL, NULL, NULL, NULL };
	struct cprof_lp rows_zero = { 0, 2, starts, NULL, NULL, NULL, zero, zero };
	struct cprof_lp rows_one = { 0, 2, starts, NULL, NULL, NULL, one, one };

	solve("empty", &none, CPROF_LP_OPTIMAL, NULL);
	solve("rows = 0", &rows_zero, CPROF_LP_OPTIMAL, NULL);
	solve("rows = 1", &rows_one, CPROF_LP_INFEASIBLE, NULL);
}

int main(void)
{
	test_optimal();
	test_infeasible();
	test_unbounded();
	test_empty();
	cprof_clp_free(NULL);
	return failures ? 1 : 0;
}
