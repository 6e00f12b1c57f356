/* speedscope.h: speedscope's file format (what py-spy, rbspy and
 * dotnet-trace write for https://www.speedscope.app), read into a call
 * tree. */
#ifndef CPROF_SPEEDSCOPE_H
#define CPROF_SPEEDSCOPE_H

#include <stdbool.h>

#include <jansson.h>

#include "profile-core.h"
#include "base/util.h"

/* True when the JSON object `root` is a speedscope file: its "$schema"
 * names speedscope, or it has "shared" and "profiles". */
bool cprof_speedscope_is(const json_t *root);

/* Reads the speedscope file `root` (not taken over) into `profile`, every
 * profile of it merged: its weights, or with `sample_index` "samples" (or
 * 0) its samples counted one each.  Returns 0, or -1 with `err` set to
 * the JSON path of the fault. */
int cprof_speedscope_take(const json_t *root, struct cprof_profile *profile,
			  const char *sample_index, struct cprof_error *err);

#endif
