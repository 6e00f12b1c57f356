/* sched-int.h: the scheduling problem as the sched module holds it, shared
 * by its reader (sched-read.c), its solve (sched.c) and its output
 * (sched-write.c).  Private to those three files: everything else goes
 * through sched-lp.h. */
#ifndef CPROF_SCHED_INT_H
#define CPROF_SCHED_INT_H

#include "sched-lp.h"

/* A platform (amount: its capacity) or an app (amount: its load), its
 * name pointing into the problem's JSON. */
struct named {
	const char *name;
	double amount;
};

/* The LP has one column per usable (platform, app) pair, platform-major:
 * the columns of platform i are [column_first[i], column_first[i + 1]).
 * Column k has the element 1 in the row of its app (rows 0..apps-1) and
 * its CPI in the row of its platform (rows apps..apps+platforms-1). */
struct cprof_sched {
	json_t *root;
	struct named *platforms;
	struct named *apps;
	int num_platforms;
	int num_apps;
	int num_columns;
	int *column_first;     /* num_platforms + 1 */
	int *column_app;       /* the app of each column */
	int *starts;           /* CLP's column starts: 2k */
	int *rows;             /* CLP's row indices, two per column */
	double *elements;      /* CLP's elements, two per column */
	double *cost;          /* the objective: each column's CPI */
	double *row_lower;
	double *row_upper;
	enum cprof_sched_status status;
	double *x;             /* the solution, one per column, rounded */
};

#endif
