/* store-sched.h: a ratio's answer as the cpi matrix of cprof-sched's
 * problem. */
#ifndef CPROF_STORE_SCHED_H
#define CPROF_STORE_SCHED_H

#include <jansson.h>

#include "store.h"

/* The problem cprof-sched reads: the object of the JSON file at `path`
 * (its "platforms" and "apps", each an array of objects with a unique
 * "name", and whatever else they hold, checked by cprof-sched), with
 * "cpi" added: cpi[i][j] the whole ratio of the group whose first
 * dimension's value is platform i's name and whose second's is app j's,
 * null where no profile has them (or the ratio is not positive).  Groups
 * the file does not name are left out with one warning.  `result` must
 * be grouped by exactly two dimensions; dies naming the file and the
 * place otherwise. */
json_t *cprof_store_sched_problem(const struct cprof_store_ratio_result *result,
				  const char *path);

#endif
