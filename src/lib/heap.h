/* heap.h: gperftools heap profiles (HEAPPROFILE=...), the legacy text:
 * "heap profile: N: M [ N: M] @ heapprofile" (or heap_v2/RATE, heapz_v2,
 * heap/RATE, growthz, fragmentationz), one "N: M [N: M] @ 0x..." line per
 * stack, then MAPPED_LIBRARIES: (or "--- Memory map: ---") and the maps. */
#ifndef CPROF_HEAP_H
#define CPROF_HEAP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/input.h"
#include "profile-core.h"
#include "base/util.h"

/* True when the first `len` bytes of an input begin "heap profile:"
 * (after blanks). */
bool cprof_heap_sniff(const unsigned char *data, size_t len);

/* Reads a heap profile from `in` into `profile`, its counts the value
 * `sample_index` names (NULL: inuse_space, as pprof), heap_v2 sampling
 * undone as pprof does.  Returns 0, or -1 with `err` set (with its line). */
int cprof_heap_read(struct cprof_input *in, struct cprof_profile *profile,
		    const char *sample_index, struct cprof_error *err);

#endif
