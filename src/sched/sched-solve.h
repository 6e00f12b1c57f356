/* sched-solve.h: a linear program handed to COIN-OR CLP through a small
 * C++ shim (sched-solve.cc).  CLP is C++ and reports running out of
 * memory by throwing std::bad_alloc; the shim catches every exception, so
 * none ever crosses into C, and says what happened in a result code.
 *
 * The solve is CLP's dual simplex from the all-slack basis, the method
 * given to ClpSimplex::initialSolve, never its automatic choice: see
 * cprof-sched(1) for why.
 */
#ifndef CPROF_SCHED_SOLVE_H
#define CPROF_SCHED_SOLVE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Minimize cost . x subject to row_lower <= A x <= row_upper and x >= 0,
 * A given by columns in CLP's packed form: column k holds the elements
 * elements[starts[k] .. starts[k + 1]) in the rows rows[...].  A bound
 * of -DBL_MAX or DBL_MAX is none. */
struct cprof_lp {
	int num_columns;
	int num_rows;
	const int *starts;        /* num_columns + 1 */
	const int *rows;
	const double *elements;
	const double *cost;       /* num_columns */
	const double *row_lower;  /* num_rows */
	const double *row_upper;  /* num_rows */
};

enum cprof_lp_outcome {
	CPROF_LP_OPTIMAL,
	CPROF_LP_INFEASIBLE,
	CPROF_LP_UNBOUNDED,
	CPROF_LP_STOPPED,         /* no answer: a limit, or numerical trouble */
	CPROF_LP_NO_MEMORY,       /* an allocation failed (std::bad_alloc) */
	CPROF_LP_FAILED,          /* CLP threw anything else */
};

/* What a call did: the outcome, CLP's status (ClpModel::status(), -1
 * before any solve) and, for CPROF_LP_STOPPED and CPROF_LP_FAILED, why. */
struct cprof_lp_result {
	enum cprof_lp_outcome outcome;
	int clp_status;
	char what[160];
};

/* A CLP model holding its own copy of a linear program. */
struct cprof_clp;

/* Copies `lp` into a new CLP model, its log silenced; the caller may free
 * the arrays of `lp` at once.  Returns the model, which the caller frees
 * with cprof_clp_free, or NULL with `result` saying why. */
struct cprof_clp *cprof_clp_load(const struct cprof_lp *lp, struct cprof_lp_result *result);

/* Solves the model with the dual simplex; when that ends without an
 * answer, with the primal from the dual's basis, then with the dual on the
 * problem unscaled.  An optimum is an answer only when its x, negatives
 * set to 0, keeps every row within 1e-6 of the largest number in the row
 * (its bounds and terms): CLP's tolerance holds on the scaled problem.
 * Copies that x into `x` (one double per column) when the outcome is
 * CPROF_LP_OPTIMAL.  Returns the outcome, also set in `result`. */
enum cprof_lp_outcome cprof_clp_solve(struct cprof_clp *clp, double *x,
				      struct cprof_lp_result *result);

/* Frees a model; accepts NULL.  A model that threw is left to the exit:
 * CLP is not exception-safe, and its destructor could free twice. */
void cprof_clp_free(struct cprof_clp *clp);

#ifdef __cplusplus
}
#endif

#endif
