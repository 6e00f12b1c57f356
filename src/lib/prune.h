/* prune.h: pprof's Prune of the frames a legacy profile's own profiler
 * put on its stacks (the allocator's under a heap sample), by the
 * profile's drop and keep patterns (pprof's DropFrames and KeepFrames). */
#ifndef CPROF_PRUNE_H
#define CPROF_PRUNE_H

#include <stdbool.h>

/* pprof's patterns of a legacy heap profile's frames (allocRxStr and
 * allocSkipRxStr of its legacy_profile.go): malloc, tcmalloc and Go's
 * runtime.*, but for runtime.panic, runtime.reflectcall, runtime.callN. */
extern const char cprof_prune_alloc_drop[];
extern const char cprof_prune_alloc_keep[];

struct cprof_prune;

/* Compiles `drop` and `keep` (NULL: none), each matched against a whole
 * function name, as pprof's RemoveUninteresting.  Returns NULL when drop
 * is NULL; the patterns are cprof's own, so they compile. */
struct cprof_prune *cprof_prune_new(const char *drop, const char *keep);

/* True when the frame of function `name` is one to prune: its name, its
 * argument list cut off as pprof's simplifyFunc does, matches drop and
 * not keep. */
bool cprof_prune_drops(const struct cprof_prune *prune, const char *name);

/* Frees a prune; accepts NULL. */
void cprof_prune_free(struct cprof_prune *prune);

#endif
