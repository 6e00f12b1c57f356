/* targets.h: the machine database cprof-collect reads (--targets): JSON
 * Lines, one target a line, {"url": "http://HOST:PORT", DIMENSION: VALUE...}. */
#ifndef CPROF_COLLECT_TARGETS_H
#define CPROF_COLLECT_TARGETS_H

#include <stddef.h>

#include "base/util.h"

/* One target: where its profiling handlers are, and what it is. */
struct cprof_target {
	char *url;             /* http:// or https://, no trailing '/' */
	char **dim_names;      /* its other members, in the line's order */
	char **dim_values;     /* their values, valid UTF-8 */
	size_t num_dims;
	unsigned long long line;
};

struct cprof_targets {
	struct cprof_target *items;
	size_t len;
};

/* Reads the database `path` ("-": standard input) into `targets`.  On the
 * first line that is not a target (or on no target at all) returns -1 with
 * `err` naming the line, and `targets` empty; 0 otherwise. */
int cprof_targets_read(const char *path, struct cprof_targets *targets, struct cprof_error *err);

/* Frees what `targets` holds and leaves it empty. */
void cprof_targets_clear(struct cprof_targets *targets);

#endif
