/* collect.h: cprof-collect's rounds: each draws targets, fetches their
 * profiles from the pprof HTTP handlers, keeps and loads them, and says
 * what came of it as one JSON object on standard output. */
#ifndef CPROF_COLLECT_H
#define CPROF_COLLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "targets.h"

/* The kinds of profile a target's handlers give, as a bit each. */
enum cprof_collect_kind {
	CPROF_KIND_CPU = 1 << 0,
	CPROF_KIND_HEAP = 1 << 1,
	CPROF_KIND_ALLOCS = 1 << 2,
	CPROF_KIND_MUTEX = 1 << 3,
	CPROF_KIND_BLOCK = 1 << 4,
	CPROF_KIND_GOROUTINE = 1 << 5,
};

struct cprof_loader;

struct cprof_collect_options {
	double fraction;       /* of the targets each round, when count is 0 */
	size_t count;          /* targets each round, or 0 */
	uint64_t seed;
	long seconds;          /* of a CPU profile (and --local) */
	unsigned kinds;        /* enum cprof_collect_kind bits */
	bool local;            /* a perf record -a -g of this machine too */
	size_t jobs;
	long timeout;          /* seconds beyond a profile's own */
	uint64_t max_bytes;
	double max_failures;   /* a fraction of a round's chosen targets, or < 0 */
	const char *out;       /* --out DIR, or NULL */
	const char *db;        /* --db DB, or NULL */
	unsigned rounds;
	double every;          /* seconds from a round's start to the next's */
	bool progress;         /* a progress line on standard error */
	struct cprof_loader *loader;
};

/* Parses the comma-separated kinds of --kind into *kinds; -1 with `err`
 * naming the first that is none. */
int cprof_collect_kinds(const char *list, unsigned *kinds, struct cprof_error *err);

/* Runs the rounds of `opts` over `targets`, printing a JSON object per
 * round; returns EXIT_OK when every round finished, EXIT_VERDICT when one
 * stopped on failures.  Dies (EXIT_TROUBLE) when the store or the
 * directory cannot be opened. */
int cprof_collect_run(const struct cprof_collect_options *opts,
		      const struct cprof_targets *targets);

#endif
