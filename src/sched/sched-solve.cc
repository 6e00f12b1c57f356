// sched-solve.cc: the C++ shim between cprof-sched and COIN-OR CLP.  Every
// call into CLP runs inside try/catch, so that no exception reaches C.
#include "config.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <vector>

#include <coin/ClpSimplex.hpp>
#include <coin/ClpSolve.hpp>
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

// The largest violation of a bound that an optimum may show: a fraction
// of the largest number in play in the row.  CLP's own tolerance (1e-7)
// holds on the scaled problem, and a badly scaled one can end "optimal"
// with a row off by a fifth once unscaled.
static const double violation_allowed = 1e-6;

// Copies the model's solution into x, negatives that CLP's tolerance let
// through set to 0, and says whether that x keeps every row's bounds.
static bool copy_checked(const ClpSimplex *model, double *x)
{
	const CoinPackedMatrix *matrix = model->matrix();
	const CoinBigIndex *starts = matrix->getVectorStarts();
	const int *lengths = matrix->getVectorLengths(), *rows = matrix->getIndices();
	const double *elements = matrix->getElements(), *solution = model->getColSolution();
	const double *lower = model->getRowLower(), *upper = model->getRowUpper();
	std::vector<double> sum((size_t)model->numberRows(), 0.0);
	std::vector<double> scale((size_t)model->numberRows(), 1.0);

	for (int k = 0; k < model->numberColumns(); k++) {
		x[k] = solution[k] > 0 ? solution[k] : 0.0;
		for (CoinBigIndex e = starts[k]; e < starts[k] + lengths[k]; e++) {
			double term = elements[e] * x[k];

			sum[rows[e]] += term;
			scale[rows[e]] = std::max(scale[rows[e]], std::fabs(term));
		}
	}
	for (int i = 0; i < model->numberRows(); i++) {
		double bound = std::max(lower[i] > -COIN_DBL_MAX ? std::fabs(lower[i]) : 0.0,
					upper[i] < COIN_DBL_MAX ? std::fabs(upper[i]) : 0.0);
		double allowed = violation_allowed * std::max(scale[i], bound);

		if (sum[i] < lower[i] - allowed || sum[i] > upper[i] + allowed)
			return false;
	}
	return true;
}

// Whether the model ended with an answer: a proof that it is infeasible
// (status 1) or unbounded (2), or an optimum (0) whose x keeps its rows.
static bool answered(const ClpSimplex *model, double *x)
{
	switch (model->status()) {
	case 0:
		return copy_checked(model, x);
	case 1:
	case 2:
		return true;
	default:
		return false;
	}
}

// CLP's dual simplex from the all-slack basis (dual feasible when every
// cost is positive) through ClpSimplex::initialSolve with the method given,
// not chosen: useDual, no presolve, no SIGINT handler, no +-1 matrix
// tried.  The automatic choice picks Sprint on problems such as 100 x
// 5,000, and Sprint in CLP 1.17.6 adds artificial columns, then reads its
// old column-length array past the end; a method given is never changed,
// and the dual branch adds no columns.  initialSolve, not a bare
// ClpSimplex::dual, for what it sets up before the dual: on 200 x 20,000
// the bare dual took 54 s, initialSolve 12 s (not the factorization
// frequency alone, nor special option 64: each left it at 50 s).
static void dual_simplex(ClpSimplex *model)
{
	ClpSolve options;

	options.setSolveType(ClpSolve::useDual);
	options.setPresolveType(ClpSolve::presolveOff);
	options.setSpecialOption(2, 1);
	options.setSpecialOption(3, 1);
	model->initialSolve(options);
}

// The dual simplex; when it ends without an answer, the primal from its
// basis, the cleanup initialSolve does after a presolve; and when that
// fails too, the dual again from the all-slack basis on the problem
// unscaled.  Returns whether one of them answered.
static bool solve(ClpSimplex *model, double *x)
{
	dual_simplex(model);
	if (answered(model, x))
		return true;
	model->primal(1);
	if (answered(model, x))
		return true;
	model->scaling(0);
	model->allSlackBasis(true);
	dual_simplex(model);
	return answered(model, x);
}

enum cprof_lp_outcome cprof_clp_solve(struct cprof_clp *clp, double *x,
				      struct cprof_lp_result *result)
{
	static const cprof_lp_outcome outcomes[] = { CPROF_LP_OPTIMAL, CPROF_LP_INFEASIBLE,
						     CPROF_LP_UNBOUNDED };

	try {
		bool ok = solve(clp->model, x);
		int status = clp->model->status();

		set_result(result, ok ? outcomes[status] : CPROF_LP_STOPPED, status);
		if (ok)
			return result->outcome;
		if (status == 0)
			snprintf(result->what, sizeof(result->what),
				 "numerical trouble: its optimum breaks a constraint");
		else if (status == 3)
			snprintf(result->what, sizeof(result->what), "iteration limit");
		else
			snprintf(result->what, sizeof(result->what),
				 "numerical trouble (CLP status %d)", status);
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
