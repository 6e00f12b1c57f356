/* cpuprofile.h: Chrome's and V8's .cpuprofile (node --cpu-prof, the
 * DevTools' JavaScript profiler), read into a call tree. */
#ifndef CPROF_CPUPROFILE_H
#define CPROF_CPUPROFILE_H

#include <stdbool.h>

#include <jansson.h>

#include "profile-core.h"
#include "base/util.h"

/* True when the JSON object `root` is a .cpuprofile: an array "nodes"
 * beside "samples" or "startTime", or the older format's "head" node
 * (and no heap snapshot's "snapshot"). */
bool cprof_cpuprofile_is(const json_t *root);

/* Reads the .cpuprofile `root` (not taken over) into `profile`: one
 * sample per entry of "samples" (the nodes' hitCounts without it), the
 * period the median of "timeDeltas" (of the older format's sorted
 * "timestamps").  Returns 0, or -1 with `err` set to the JSON path of
 * the fault. */
int cprof_cpuprofile_take(const json_t *root, struct cprof_profile *profile,
			  struct cprof_error *err);

#endif
