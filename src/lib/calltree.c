/* calltree.c: a call tree of named frames: its nodes found by parent and
 * frame in one open-addressing table, its counts keyed by walking up. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "calltree.h"
#include "dist.h"
#include "base/hash.h"
#include "keys.h"
#include "base/util.h"

/* What keys walk over at most with --by=stack or --cum: the frames of
 * every counted node's path, summed. */
#define MAX_WALKED (UINT64_C(1) << 28)

struct frame {
	const char *name, *dso, *line; /* interned: equal keys, equal pointers */
};

struct node {
	uint32_t parent, frame, depth;
	uint64_t count;
};

struct cprof_calltree {
	const char *what;
	struct cprof_strings *strings;
	struct frame *frames;
	size_t num_frames, frames_cap;
	struct node *nodes;    /* nodes[0] is the root */
	size_t num_nodes, nodes_cap;
	uint32_t *slots;       /* node id, 0: empty (the root is no one's child) */
	size_t mask;
	uint64_t total;
	bool has_dso, has_line;
};

struct cprof_calltree *cprof_calltree_new(const char *what)
{
	struct cprof_calltree *tree = cprof_xcalloc(1, sizeof(*tree));

	tree->what = what;
	tree->strings = cprof_strings_new();
	tree->nodes_cap = 1024;
	tree->nodes = cprof_xcalloc(tree->nodes_cap, sizeof(*tree->nodes));
	tree->num_nodes = 1;
	tree->mask = 2047;
	tree->slots = cprof_xcalloc(tree->mask + 1, sizeof(*tree->slots));
	return tree;
}

void cprof_calltree_free(struct cprof_calltree *tree)
{
	if (!tree)
		return;
	cprof_strings_free(tree->strings);
	free(tree->frames);
	free(tree->nodes);
	free(tree->slots);
	free(tree);
}

static const char *intern(struct cprof_calltree *tree, const char *s)
{
	return s ? cprof_strings_intern(tree->strings, s) : NULL;
}

uint32_t cprof_calltree_frame(struct cprof_calltree *tree, const char *name, const char *dso,
			      const char *line)
{
	struct frame *f;

	if (tree->num_frames == tree->frames_cap) {
		tree->frames_cap = tree->frames_cap ? 2 * tree->frames_cap : 1024;
		tree->frames = cprof_xrealloc(tree->frames, tree->frames_cap * sizeof(*f));
	}
	f = &tree->frames[tree->num_frames];
	f->name = intern(tree, name);
	f->dso = intern(tree, dso);
	f->line = intern(tree, line);
	tree->has_dso |= dso != NULL;
	tree->has_line |= line != NULL;
	return (uint32_t)tree->num_frames++;
}

static size_t slot_of(uint32_t parent, uint32_t frame, size_t mask)
{
	return (size_t)cprof_hash_u64((uint64_t)parent << 32 | frame) & mask;
}

static void grow_slots(struct cprof_calltree *tree)
{
	size_t old_cap = tree->mask + 1, i, j;
	uint32_t *old = tree->slots;

	tree->mask = 2 * old_cap - 1;
	tree->slots = cprof_xcalloc(tree->mask + 1, sizeof(*tree->slots));
	for (i = 0; i < old_cap; i++) {
		const struct node *n = &tree->nodes[old[i]];

		if (!old[i])
			continue;
		for (j = slot_of(n->parent, n->frame, tree->mask); tree->slots[j];
		     j = (j + 1) & tree->mask)
			;
		tree->slots[j] = old[i];
	}
	free(old);
}

int64_t cprof_calltree_child(struct cprof_calltree *tree, uint32_t parent, uint32_t frame)
{
	size_t j;
	struct node *n;

	for (j = slot_of(parent, frame, tree->mask); tree->slots[j]; j = (j + 1) & tree->mask) {
		n = &tree->nodes[tree->slots[j]];
		if (n->parent == parent && n->frame == frame)
			return tree->slots[j];
	}
	if (tree->nodes[parent].depth >= CPROF_CALLTREE_MAX_DEPTH)
		return -1;
	if (tree->num_nodes == tree->nodes_cap) {
		tree->nodes_cap *= 2;
		tree->nodes = cprof_xrealloc(tree->nodes, tree->nodes_cap * sizeof(*n));
	}
	n = &tree->nodes[tree->num_nodes];
	n->parent = parent;
	n->frame = frame;
	n->depth = tree->nodes[parent].depth + 1;
	n->count = 0;
	tree->slots[j] = (uint32_t)tree->num_nodes++;
	if (tree->num_nodes > tree->mask / 2)
		grow_slots(tree);
	return (int64_t)tree->num_nodes - 1;
}

uint32_t cprof_calltree_frame_of(const struct cprof_calltree *tree, uint32_t node)
{
	return tree->nodes[node].frame;
}

bool cprof_calltree_add(struct cprof_calltree *tree, uint32_t node, uint64_t count)
{
	if (count > (uint64_t)INT64_MAX - tree->total)
		return false;
	tree->total += count;
	tree->nodes[node].count += count;
	return true;
}

uint64_t cprof_calltree_total(const struct cprof_calltree *tree)
{
	return tree->total;
}

/* The key of frame `f` by `by`. */
static const char *frame_key(const struct frame *f, enum cprof_by by)
{
	if (by == CPROF_BY_DSO)
		return f->dso ? f->dso : "[unknown]";
	if (by == CPROF_BY_LINE && f->line)
		return f->line;
	return f->name;
}

/* Each counted node's frame key, the entry found once per frame. */
static void add_leaves(const struct cprof_calltree *tree, enum cprof_by by,
		       struct cprof_dist *dist)
{
	struct cprof_entry **entries = cprof_xcalloc(tree->num_frames + 1, sizeof(*entries));
	size_t i;

	for (i = 1; i < tree->num_nodes; i++) {
		const struct node *n = &tree->nodes[i];

		if (n->count == 0)
			continue;
		if (entries[n->frame])
			entries[n->frame]->count += n->count;
		else
			entries[n->frame] = cprof_dist_add(dist, frame_key(&tree->frames[n->frame], by),
							   n->count);
	}
	free(entries);
}

/* The keys of the path of node `i`, leaf first, into `path`; their count. */
static size_t path_keys(const struct cprof_calltree *tree, size_t i, enum cprof_by by,
			const char **path)
{
	size_t n = 0;

	for (; i != CPROF_CALLTREE_ROOT; i = tree->nodes[i].parent)
		path[n++] = frame_key(&tree->frames[tree->nodes[i].frame], by);
	return n;
}

/* Each counted node's path: joined root first (stack), or each distinct
 * key of it once (cum). */
static void add_paths(const struct cprof_calltree *tree, const struct cprof_key_options *options,
		      struct cprof_dist *dist)
{
	enum cprof_by by = options->by == CPROF_BY_STACK ? CPROF_BY_FUNCTION : options->by;
	const char **path = cprof_xcalloc(CPROF_CALLTREE_MAX_DEPTH + 1, sizeof(*path));
	struct cprof_stack_keys *keys = cprof_stack_keys_new();
	size_t i, n;

	for (i = 1; i < tree->num_nodes && !dist->over_limit; i++) {
		if (tree->nodes[i].count == 0)
			continue;
		n = path_keys(tree, i, by, path);
		if (options->by == CPROF_BY_STACK) {
			cprof_stack_keys_begin(keys, dist);
			while (n-- > 0 && cprof_stack_keys_push(keys, path[n]))
				;
			cprof_stack_keys_end(keys, dist, tree->nodes[i].count);
		} else {
			cprof_keys_add_each_once(dist, path, n, tree->nodes[i].count);
		}
	}
	cprof_stack_keys_free(keys);
	free(path);
}

/* Refuses a keying the tree cannot give; 0 when it can. */
static int check_keying(const struct cprof_calltree *tree,
			const struct cprof_key_options *options, struct cprof_error *err)
{
	uint64_t walked = 0;
	size_t i;

	if (options->by == CPROF_BY_ADDRESS)
		return cprof_error_set(err, "--by=address: %s names functions, not addresses (use "
					    "function, line, dso or stack)", tree->what);
	if (cprof_by_label_key(options->by))
		return cprof_error_set(err, "--by=%s: %s has no labels", cprof_by_name(options->by),
				       tree->what);
	if (options->by == CPROF_BY_DSO && !tree->has_dso)
		return cprof_error_set(err, "--by=dso: %s names the file of no frame", tree->what);
	if (options->by == CPROF_BY_LINE && !tree->has_line)
		return cprof_error_set(err, "--by=line: %s gives the line of no frame", tree->what);
	if (options->by != CPROF_BY_STACK && !options->cum)
		return 0;
	for (i = 1; i < tree->num_nodes; i++)
		if (tree->nodes[i].count)
			walked += tree->nodes[i].depth;
	if (walked > MAX_WALKED)
		return cprof_error_set(err, "--by=%s%s: the sampled stacks hold %" G_GUINT64_FORMAT
					    " frames in all, more than cprof walks (%" G_GUINT64_FORMAT
					    ")", cprof_by_name(options->by),
				       options->cum ? " --cum" : "", walked, MAX_WALKED);
	return 0;
}

int cprof_calltree_to_dist(const struct cprof_calltree *tree,
			   const struct cprof_key_options *options, struct cprof_dist *dist,
			   struct cprof_error *err)
{
	if (check_keying(tree, options, err) < 0)
		return -1;
	if (options->by == CPROF_BY_STACK || options->cum)
		add_paths(tree, options, dist);
	else
		add_leaves(tree, options->by, dist);
	return 0;
}
