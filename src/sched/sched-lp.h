/* sched-lp.h: CPI-weighted load scheduling, the linear program of the
 * Google-Wide Profiling paper solved with COIN-OR CLP.
 *
 * With x[i][j] the load of app j placed on platform i, it minimizes
 * sum cpi[i][j] * x[i][j] subject to sum_i x[i][j] = load[j] for every app,
 * sum_j cpi[i][j] * x[i][j] <= capacity[i] for every platform, and x >= 0.
 * A null CPI leaves the pair out: no variable.
 */
#ifndef CPROF_SCHED_LP_H
#define CPROF_SCHED_LP_H

#include <jansson.h>

#include "base/util.h"

enum cprof_sched_status {
	CPROF_SCHED_UNSOLVED,
	CPROF_SCHED_OPTIMAL,
	CPROF_SCHED_INFEASIBLE,
	CPROF_SCHED_UNBOUNDED,
};

/* Each x[i][j] of the solution is rounded to this many significant digits
 * of load[j], or of capacity[i] / cpi[i][j] when that is smaller, far
 * finer than the solver's tolerance: exact answers print exactly, and
 * solver noise near 0 becomes 0. */
#define CPROF_SCHED_DIGITS 10

/* Loads and CPIs must be below this, and a capacity this large or larger
 * is unlimited: CLP takes bounds past 1e27 as infinite (ClpModel). */
#define CPROF_SCHED_INFINITY 1e27

struct cprof_sched;

/* Reads and validates the problem JSON of the input `source` ("-" is
 * standard input).  Returns a problem with its LP built, which the caller
 * frees with cprof_sched_free, or NULL with `err` set: "invalid JSON ..."
 * with err->line, or "JSON.PATH: what is wrong".  Out of memory, here and
 * in every function of this header, ends the program as base's allocator
 * does (cprof_die_oom, naming the input). */
struct cprof_sched *cprof_sched_read(const char *source, struct cprof_error *err);

/* Solves the LP with CLP's dual simplex (sched-solve.h), its log
 * silenced.  Returns the status, or CPROF_SCHED_UNSOLVED with `err` set
 * when the solver gave up or failed; CLP out of memory (its
 * std::bad_alloc, caught by the shim) is cprof_die_oom. */
enum cprof_sched_status cprof_sched_solve(struct cprof_sched *sched, struct cprof_error *err);

/* The result object of the contract for a solved problem, which the
 * caller owns. */
json_t *cprof_sched_json(const struct cprof_sched *sched);

/* Prints the result of a solved problem as tables for people. */
void cprof_sched_text(const struct cprof_sched *sched);

/* The name of a status as the JSON spells it. */
const char *cprof_sched_status_name(enum cprof_sched_status status);

/* Frees a problem; accepts NULL. */
void cprof_sched_free(struct cprof_sched *sched);

#endif
