/* flame.c: the frames of a flame graph: the stacks sorted frame by frame,
 * their call tree built in one pass (a stack shares the path of the one
 * before it up to their first different frame), laid out in preorder with
 * the narrow frames merged, and, for two profiles, each frame tested. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "base/util.h"

/* One stack and its counts in A and B (a single profile's in B). */
struct stack {
	const char *key;
	uint64_t a, b;
};

/* A node of the call tree, in preorder. */
struct node {
	const char *name;
	size_t len;
	uint32_t depth;
	uint32_t parent;
	uint64_t a, b;         /* inclusive */
};

struct tree {
	struct node *nodes;
	size_t count, cap;
	uint32_t *path;        /* the nodes of the last stack's frames, by depth */
	size_t path_cap;
	uint32_t open;         /* how deep path is valid */
};

/* A byte's rank in the order of stacks: the end of a key first, then the
 * frame separator, then every other byte; so stacks sort frame by frame,
 * a frame before the longer frames it begins. */
static int frame_rank(unsigned char c)
{
	return c == '\0' ? 0 : c == ';' ? 1 : (int)c + 2;
}

static int stack_cmp(const void *x, const void *y)
{
	const unsigned char *p = (const unsigned char *)((const struct stack *)x)->key;
	const unsigned char *q = (const unsigned char *)((const struct stack *)y)->key;

	while (*p && *p == *q) {
		p++;
		q++;
	}
	return frame_rank(*p) - frame_rank(*q);
}

static uint32_t tree_node(struct tree *t, const char *name, size_t len, uint32_t depth,
			  uint32_t parent)
{
	struct node *n;

	if (t->count == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->nodes = cprof_xrealloc(t->nodes, t->cap * sizeof(*t->nodes));
	}
	if (t->count >= UINT32_MAX)
		cprof_die("a flame graph of more than %u frames", UINT32_MAX);
	n = &t->nodes[t->count];
	n->name = name;
	n->len = len;
	n->depth = depth;
	n->parent = parent;
	n->a = n->b = 0;
	return (uint32_t)t->count++;
}

/* Adds one stack (sorted after the one added before) to the tree. */
static void tree_add(struct tree *t, const struct stack *s)
{
	const char *p = s->key, *end;
	uint32_t depth = 0, node = 0;
	size_t len;

	t->nodes[0].a += s->a;
	t->nodes[0].b += s->b;
	while (*p) {
		end = strchr(p, ';');
		len = end ? (size_t)(end - p) : strlen(p);
		depth++;
		if (depth >= t->path_cap) {
			t->path_cap = 2 * depth;
			t->path = cprof_xrealloc(t->path, t->path_cap * sizeof(*t->path));
		}
		if (depth <= t->open && t->nodes[t->path[depth]].len == len &&
		    memcmp(t->nodes[t->path[depth]].name, p, len) == 0) {
			node = t->path[depth];
		} else {
			node = tree_node(t, p, len, depth, node);
			t->path[depth] = node;
			t->open = depth;
		}
		t->nodes[node].a += s->a;
		t->nodes[node].b += s->b;
		p = end ? end + 1 : p + len;
	}
	t->open = depth;
}

/* The stacks of A and B with samples, each once; a single profile's in
 * B.  Returns how many. */
static size_t gather(const struct cprof_dist *a, const struct cprof_dist *b,
		     struct stack **out)
{
	size_t n = 0, i, cap = b->entries.len + (a ? a->entries.len : 0) + 1;
	struct stack *s = cprof_xcalloc(cap, sizeof(*s));

	for (i = 0; i < b->entries.len; i++) {
		const struct cprof_entry *e = b->entries.items[i];
		const struct cprof_entry *in_a = a ? cprof_dist_find(a, e->key) : NULL;

		if (e->count > 0 || (in_a && in_a->count > 0))
			s[n++] = (struct stack){ e->key, in_a ? in_a->count : 0, e->count };
	}
	for (i = 0; a && i < a->entries.len; i++) {
		const struct cprof_entry *e = a->entries.items[i];

		if (e->count > 0 && !cprof_dist_find(b, e->key))
			s[n++] = (struct stack){ e->key, e->count, 0 };
	}
	*out = s;
	return n;
}

/* The call tree of the stacks of A and B, the root's counts their totals. */
static void build_tree(struct tree *t, const struct cprof_dist *a, const struct cprof_dist *b)
{
	struct stack *stacks;
	size_t n = gather(a, b, &stacks), i;

	qsort(stacks, n, sizeof(*stacks), stack_cmp);
	memset(t, 0, sizeof(*t));
	tree_node(t, "all", 3, 0, 0);
	for (i = 0; i < n; i++)
		tree_add(t, &stacks[i]);
	t->nodes[0].a = a ? a->total : 0;
	t->nodes[0].b = b->total;
	free(stacks);
	free(t->path);
}

/* What the layout keeps of each node. */
struct layout {
	struct cprof_flame *flame;
	size_t cap;
	double min_count;
	uint64_t *cursor;      /* a drawn node's next callee's offset */
	uint64_t *narrow_a, *narrow_b;
	size_t *narrow_k;
	uint32_t *stack;       /* the drawn nodes open in the preorder walk */
	size_t depth;
};

static bool is_narrow(const struct layout *l, uint64_t count)
{
	return count == 0 || (double)count < l->min_count;
}

static struct cprof_flame_frame *emit(struct layout *l)
{
	struct cprof_flame *f = l->flame;

	if (f->count == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		f->frames = cprof_xrealloc(f->frames, l->cap * sizeof(*f->frames));
	}
	memset(&f->frames[f->count], 0, sizeof(f->frames[0]));
	return &f->frames[f->count++];
}

/* Closes the drawn node on top of the walk: its narrow callees' frame. */
static void close_node(struct layout *l, const struct tree *t)
{
	uint32_t node = l->stack[--l->depth];
	struct cprof_flame_frame *frame;

	if (l->narrow_k[node] < 2 || is_narrow(l, l->narrow_b[node]))
		return;
	frame = emit(l);
	frame->name = "";
	frame->merged = l->narrow_k[node];
	frame->depth = t->nodes[node].depth + 1;
	frame->offset = l->cursor[node];
	frame->count = l->narrow_b[node];
	frame->count_a = l->narrow_a[node];
	l->flame->narrow -= l->narrow_k[node];
}

/* Lays node `i` out: drawn after its drawn siblings, or merged into its
 * parent's narrow callees, or left out under a parent not drawn. */
static void place(struct layout *l, const struct tree *t, uint32_t i)
{
	const struct node *n = &t->nodes[i];
	struct cprof_flame_frame *frame;
	uint32_t parent;

	while (l->depth > 0 && t->nodes[l->stack[l->depth - 1]].depth >= n->depth)
		close_node(l, t);
	parent = n->parent;
	if (i != 0 && (l->depth == 0 || l->stack[l->depth - 1] != parent)) {
		l->flame->narrow++;
		return;
	}
	if (i != 0 && is_narrow(l, n->b)) {
		l->narrow_k[parent]++;
		l->narrow_a[parent] += n->a;
		l->narrow_b[parent] += n->b;
		l->flame->narrow++;
		return;
	}
	frame = emit(l);
	frame->name = n->name;
	frame->name_len = n->len;
	frame->depth = n->depth;
	frame->offset = i == 0 ? 0 : l->cursor[parent];
	frame->count = n->b;
	frame->count_a = n->a;
	if (i != 0)
		l->cursor[parent] += n->b;
	l->cursor[i] = frame->offset;
	l->stack[l->depth++] = i;
}

static void lay_out(struct cprof_flame *flame, const struct tree *t, double min_share)
{
	struct layout l = { .flame = flame };
	size_t i;

	l.min_count = min_share * (double)t->nodes[0].b;
	l.cursor = cprof_xcalloc(t->count, sizeof(*l.cursor));
	l.narrow_a = cprof_xcalloc(t->count, sizeof(*l.narrow_a));
	l.narrow_b = cprof_xcalloc(t->count, sizeof(*l.narrow_b));
	l.narrow_k = cprof_xcalloc(t->count, sizeof(*l.narrow_k));
	l.stack = cprof_xcalloc(t->count, sizeof(*l.stack));
	for (i = 0; i < t->count; i++)
		place(&l, t, (uint32_t)i);
	while (l.depth > 0)
		close_node(&l, t);
	for (i = 0; i < flame->count; i++)
		if (flame->frames[i].depth > flame->max_depth)
			flame->max_depth = flame->frames[i].depth;
	free(l.cursor);
	free(l.narrow_a);
	free(l.narrow_b);
	free(l.narrow_k);
	free(l.stack);
}

static struct cprof_flame *flame_of(const struct cprof_dist *a, const struct cprof_dist *b,
				    double min_share)
{
	struct cprof_flame *flame = cprof_xcalloc(1, sizeof(*flame));
	struct tree t;

	build_tree(&t, a, b);
	lay_out(flame, &t, min_share);
	flame->total = b->total;
	flame->total_a = a ? a->total : 0;
	flame->diff = a != NULL;
	free(t.nodes);
	return flame;
}

struct cprof_flame *cprof_flame_build(const struct cprof_dist *dist, double min_share)
{
	return flame_of(NULL, dist, min_share);
}

/* A count of `units` a sample in samples, rounded (as judge.c counts). */
static uint64_t in_samples(uint64_t count, double units)
{
	return units == 1 ? count : (uint64_t)llround((double)count / units);
}

/* Tests every frame but the root, whose share is 1 on both sides. */
static void test_frames(struct cprof_flame *flame, double units)
{
	size_t n = flame->count - 1, i;
	struct cprof_pair *pairs = cprof_xcalloc(n + 1, sizeof(*pairs));
	uint64_t total_a = in_samples(flame->total_a, units), total_b = in_samples(flame->total, units);
	struct cprof_signif *signif;

	for (i = 0; i < n; i++) {
		pairs[i].count_a = in_samples(flame->frames[i + 1].count_a, units);
		pairs[i].count_b = in_samples(flame->frames[i + 1].count, units);
		pairs[i].known = true;
	}
	signif = cprof_signif_compute(pairs, n, total_a, total_b, &flame->options);
	for (i = 0; i < n; i++) {
		struct cprof_flame_frame *frame = &flame->frames[i + 1];
		const struct cprof_key_signif *key = &signif->keys[i];

		cprof_signif_test(signif, pairs, i, total_a, total_b, &flame->options);
		frame->tested = key->tested;
		frame->q_value = key->q_value;
		frame->ci_low = key->ci_low;
		frame->ci_high = key->ci_high;
		frame->ci_level = key->ci_level;
		frame->note = cprof_key_note(key);
		frame->significant = key->significant;
	}
	flame->tested = true;
	flame->corrected = signif->corrected;
	flame->significant = signif->significant;
	cprof_signif_free(signif);
	free(pairs);
}

struct cprof_flame *cprof_flame_diff(const struct cprof_dist *a, const struct cprof_dist *b,
				     double min_share, const struct cprof_signif_options *options)
{
	struct cprof_flame *flame = flame_of(a, b, min_share);
	double units = cprof_dist_units_per_sample(a);
	size_t i;

	for (i = 0; i < flame->count; i++) {
		struct cprof_flame_frame *frame = &flame->frames[i];

		frame->delta = (double)frame->count / (double)flame->total -
			       (double)frame->count_a / (double)flame->total_a;
		frame->q_value = NAN;
		frame->ci_low = frame->ci_high = frame->ci_level = NAN;
	}
	if (options) {
		flame->options = *options;
		/* Each key's own noise (cprof-regress) is measured for the
		 * judgement's keys, not for frames: frames are tested with the
		 * whole profile's dispersion. */
		flame->options.noise = NULL;
	}
	if (options && units > 0 && units == cprof_dist_units_per_sample(b) && flame->count > 1 &&
	    flame->total_a > 0 && flame->total > 0)
		test_frames(flame, units);
	return flame;
}

void cprof_flame_free(struct cprof_flame *flame)
{
	if (!flame)
		return;
	free(flame->frames);
	free(flame);
}
