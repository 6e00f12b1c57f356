// sched-solve.cc: the C++ shim between cprof-sched and COIN-OR CLP.  Every
// call into CLP runs inside try/catch, so that no exception reaches C.
#include "config.h"

#include <cstdio>
#include <cstring>
#include <new>

#include <coin/ClpSimplex.hpp>
#include <coin/CoinError.hpp>

#include "sched-solve.h"

static_assert(sizeof(CoinBigIndex) == sizeof(int), "CLP's CoinBigIndex is an int");

struct cprof_clp {
	ClpSimplex *model;
	bool threw;    // an exception left the model in a state not to touch
};

static void set_result(cprof_lp_result *result, cprof_lp_outcome outcome, int clp_status)
{
	result->outcome = outcome;
	result->clp_status = clp_status;
	result->what[0] = '\0';
}

// Says what the exception in flight is; call it in a catch block only.
static void caught(cprof_lp_result *result)
{
	try {
		throw;
	} catch (const std::bad_alloc &) {
		set_result(result, CPROF_LP_NO_MEMORY, -1);
	} catch (const CoinError &e) {
		set_result(result, CPROF_LP_FAILED, -1);
		snprintf(result->what, sizeof(result->what), "%s in %s", e.message().c_str(),
			 e.methodName().c_str());
	} catch (const std::exception &e) {
		set_result(result, CPROF_LP_FAILED, -1);
		snprintf(result->what, sizeof(result->what), "%s", e.what());
	} catch (...) {
		set_result(result, CPROF_LP_FAILED, -1);
		snprintf(result->what, sizeof(result->what), "an unknown exception");
	}
}

struct cprof_clp *cprof_clp_load(const struct cprof_lp *lp, struct cprof_lp_result *result)
{
	cprof_clp *clp = NULL;

	set_result(result, CPROF_LP_OPTIMAL, -1);
	try {
		clp = new cprof_clp();
		clp->model = new ClpSimplex();
		clp->model->setLogLevel(0);
		// Columns are x >= 0 with no upper bound: NULL bounds say so.
		clp->model->loadProblem(lp->num_columns, lp->num_rows, lp->starts, lp->rows,
					lp->elements, NULL, NULL, lp->cost, lp->row_lower,
					lp->row_upper);
	} catch (...) {
		caught(result);
		if (clp)
			clp->threw = true;
		return NULL;
	}
	return clp;
}

// The outcome of CLP's status after a solve.
static cprof_lp_outcome outcome_of(int status)
{
	switch (status) {
	case 0:
		return CPROF_LP_OPTIMAL;
	case 1:
		return CPROF_LP_INFEASIBLE;
	case 2:
		return CPROF_LP_UNBOUNDED;
	default:
		return CPROF_LP_STOPPED;
	}
}

// The dual simplex, then the primal from its basis when the dual did not
// end with a proof: stopped (3, 4), or optimal only before unscaling
// (secondary status 2 to 4).  This is the cleanup ClpSimplex::initialSolve
// does, without its automatic choice of method.
static int dual_then_primal(ClpSimplex *model)
{
	model->dual(0);
	if (model->status() >= 3 ||
	    (model->status() == 0 && model->secondaryStatus() >= 2 && model->secondaryStatus() <= 4))
		model->primal(1);
	return model->status();
}

enum cprof_lp_outcome cprof_clp_solve(struct cprof_clp *clp, double *x,
				      struct cprof_lp_result *result)
{
	try {
		int status = dual_then_primal(clp->model);

		set_result(result, outcome_of(status), status);
		if (status == 0)
			memcpy(x, clp->model->primalColumnSolution(),
			       (size_t)clp->model->numberColumns() * sizeof(double));
	} catch (...) {
		caught(result);
		clp->threw = true;
	}
	return result->outcome;
}

void cprof_clp_free(struct cprof_clp *clp)
{
	if (!clp || clp->threw)
		return;
	delete clp->model;
	delete clp;
}
