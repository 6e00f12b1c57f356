/* calltree.h: a profile of named frames kept as a call tree, what the
 * readers of speedscope files and V8 .cpuprofiles fill and keys.c keys. */
#ifndef CPROF_CALLTREE_H
#define CPROF_CALLTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "dist.h"
#include "keys.h"
#include "base/util.h"

struct cprof_calltree;

/* The root, a node of no frame; and how deep a node may be. */
enum { CPROF_CALLTREE_ROOT = 0, CPROF_CALLTREE_MAX_DEPTH = 65536 };

/* An empty tree; `what` names its format in messages ("a speedscope
 * file"; static).  Free it with cprof_calltree_free. */
struct cprof_calltree *cprof_calltree_new(const char *what);

/* Frees a tree; accepts NULL. */
void cprof_calltree_free(struct cprof_calltree *tree);

/* Adds a frame and returns its id: its key by function `name`, by dso
 * `dso` and by line `line` (valid UTF-8 without NUL, copied; dso or line
 * NULL when the frame has none: by line it is then keyed by its name). */
uint32_t cprof_calltree_frame(struct cprof_calltree *tree, const char *name, const char *dso,
			      const char *line);

/* The child of node `parent` of frame `frame`, added when new.  Returns
 * its id, or -1 when it would be deeper than CPROF_CALLTREE_MAX_DEPTH. */
int64_t cprof_calltree_child(struct cprof_calltree *tree, uint32_t parent, uint32_t frame);

/* The frame of node `node` (not the root). */
uint32_t cprof_calltree_frame_of(const struct cprof_calltree *tree, uint32_t node);

/* Adds `count` to the samples of `node` (never the root).  False, with
 * nothing added, when the tree's total would pass 2^63 - 1 (what JSON
 * integers hold). */
bool cprof_calltree_add(struct cprof_calltree *tree, uint32_t node, uint64_t count);

/* The sum of the counts added. */
uint64_t cprof_calltree_total(const struct cprof_calltree *tree);

/* Adds the counts of `tree` into `dist`, keyed as `options` say: the
 * node's frame (function, dso, line), the path from the root (stack), or
 * with cum each distinct key of the path once.  Returns 0, or -1 with
 * `err` set for a key the tree cannot give (address, labels, dso or line
 * when no frame has one, stacks of more frames in all than cprof keys). */
int cprof_calltree_to_dist(const struct cprof_calltree *tree,
			   const struct cprof_key_options *options, struct cprof_dist *dist,
			   struct cprof_error *err);

#endif
