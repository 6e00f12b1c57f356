/* cpuprofile.c: V8's CPU profile, as node --cpu-prof and Chrome's DevTools
 * write it: "nodes" (id, callFrame {functionName, url, lineNumber from 0},
 * hitCount, children, positionTicks {line from 1, ticks}), "samples" (the
 * node of each tick), "timeDeltas" (microseconds), "startTime",
 * "endTime".  The tree is checked before it is walked: every id once,
 * every child of one parent, one root, no cycle, a bounded depth.  The
 * root, "(root)", is no frame; frames are named as DevTools names them. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "calltree.h"
#include "cpuprofile.h"
#include "base/hash.h"
#include "jsonin.h"
#include "profile.h"
#include "base/util.h"

enum { NONE = UINT32_MAX };

struct reader {
	struct cprof_calltree *tree;
	struct cprof_error *err;
	const json_t *nodes;
	size_t n;
	json_int_t *ids;
	GHashTable *index;     /* id -> its index + 1, when ids are not 1..n */
	uint32_t *parent;      /* index of each node's parent, or NONE */
	uint32_t *frame;       /* its frame in the tree */
	uint32_t *tree_node;   /* its node in the tree */
	uint64_t *count;       /* its samples */
	uint32_t root;
};

bool cprof_cpuprofile_is(const json_t *root)
{
	return json_is_array(json_object_get(root, "nodes")) &&
	       (json_object_get(root, "samples") || json_object_get(root, "startTime")) &&
	       !json_object_get(root, "snapshot");
}

/* The index of the node of id `id`, or NONE. */
static uint32_t find(const struct reader *r, json_int_t id)
{
	if (!r->index)
		return id >= 1 && (uint64_t)id <= r->n ? (uint32_t)(id - 1) : NONE;
	return (uint32_t)(GPOINTER_TO_SIZE(g_hash_table_lookup(r->index, &id)) - 1);
}

/* Every node's id: 1..n in order (V8's numbering) is looked up as it
 * stands, any other through a table.  -1 with `err` set. */
static int read_ids(struct reader *r)
{
	const json_t *node, *id;
	bool dense = true;
	uint32_t other;
	size_t i;

	json_array_foreach(r->nodes, i, node) {
		id = json_object_get(node, "id");
		if (!json_is_object(node))
			return cprof_error_set(r->err, "nodes[%zu]: must be an object", i);
		if (!json_is_integer(id))
			return cprof_error_set(r->err, "nodes[%zu].id: must be an integer", i);
		r->ids[i] = json_integer_value(id);
		dense &= r->ids[i] == (json_int_t)i + 1;
	}
	if (dense)
		return 0;
	r->index = g_hash_table_new(cprof_int64_hash, g_int64_equal);
	for (i = 0; i < r->n; i++) {
		other = find(r, r->ids[i]);
		if (other != NONE)
			return cprof_error_set(r->err, "nodes[%zu].id: %" PRId64 " again (nodes[%u] has "
						       "it)", i, (int64_t)r->ids[i], other);
		g_hash_table_insert(r->index, &r->ids[i], GSIZE_TO_POINTER(i + 1));
	}
	return 0;
}

/* The parent of every child named in nodes[i].children. */
static int link_children(struct reader *r, size_t i)
{
	const json_t *children = json_object_get(json_array_get(r->nodes, i), "children"), *c;
	uint32_t j;
	size_t k;

	if (!children)
		return 0;
	if (!json_is_array(children))
		return cprof_error_set(r->err, "nodes[%zu].children: must be an array of ids", i);
	json_array_foreach(children, k, c) {
		j = json_is_integer(c) ? find(r, json_integer_value(c)) : NONE;
		if (!json_is_integer(c))
			return cprof_error_set(r->err, "nodes[%zu].children[%zu]: must be an id", i, k);
		if (j == NONE)
			return cprof_error_set(r->err, "nodes[%zu].children[%zu]: no node has id %" PRId64,
					       i, k, (int64_t)json_integer_value(c));
		if (j == i)
			return cprof_error_set(r->err, "nodes[%zu].children[%zu]: node %" PRId64 " is its "
						       "own child", i, k, (int64_t)r->ids[i]);
		if (r->parent[j] != NONE)
			return cprof_error_set(r->err, "nodes[%zu].children[%zu]: node %" PRId64 " is a "
						       "child of node %" PRId64 " already", i, k,
					       (int64_t)r->ids[j], (int64_t)r->ids[r->parent[j]]);
		r->parent[j] = (uint32_t)i;
	}
	return 0;
}

/* The one node that is no node's child. */
static int find_root(struct reader *r)
{
	size_t i;

	r->root = NONE;
	for (i = 0; i < r->n; i++) {
		if (r->parent[i] != NONE)
			continue;
		if (r->root != NONE)
			return cprof_error_set(r->err, "nodes[%zu]: a second root: node %" PRId64 " is "
						       "no node's child, nor is node %" PRId64, i,
					       (int64_t)r->ids[i], (int64_t)r->ids[r->root]);
		r->root = (uint32_t)i;
	}
	if (r->root == NONE)
		return cprof_error_set(r->err, "nodes: no root (every node is a child: a cycle)");
	return 0;
}

/* A string member of a callFrame ("" when absent). */
static const char *frame_string(struct reader *r, const json_t *call, const char *key, size_t i)
{
	const json_t *value = json_object_get(call, key);

	if (!value)
		return "";
	if (json_is_string(value) && cprof_json_no_nul(value))
		return json_string_value(value);
	cprof_error_set(r->err, "nodes[%zu].callFrame.%s: must be a string without NUL", i, key);
	return NULL;
}

/* The keys of a frame of nodes[i] at line `line` (from 1; 0: none). */
static uint32_t add_frame(struct reader *r, const char *function, const char *url,
			  json_int_t line)
{
	const char *name = function[0] ? function : "(anonymous)", *dso = url;
	char *line_key = url[0] && line > 0 ? g_strdup_printf("%s:%" PRId64, url, (int64_t)line)
					    : NULL;
	uint32_t id;

	/* V8's states, (program), (idle), (garbage collector), are their own
	 * "script"; its built-in functions have none. */
	if (!url[0])
		dso = function[0] == '(' ? function : "(native)";
	id = cprof_calltree_frame(r->tree, name, dso, line_key);
	g_free(line_key);
	return id;
}

/* The frame of nodes[i] from its callFrame; -1 with `err` set. */
static int read_frame(struct reader *r, size_t i)
{
	const json_t *call = json_object_get(json_array_get(r->nodes, i), "callFrame");
	const json_t *line = json_object_get(call, "lineNumber");
	const char *function, *url;

	if (!json_is_object(call))
		return cprof_error_set(r->err, "nodes[%zu].callFrame: must be an object", i);
	function = frame_string(r, call, "functionName", i);
	url = function ? frame_string(r, call, "url", i) : NULL;
	if (!url)
		return -1;
	if (line && !json_is_integer(line))
		return cprof_error_set(r->err, "nodes[%zu].callFrame.lineNumber: must be an integer",
				       i);
	r->frame[i] = add_frame(r, function, url, line ? json_integer_value(line) + 1 : 0);
	return 0;
}

/* The tree's nodes, parents first from the root; a node not reached is in
 * a cycle. */
static int walk_tree(struct reader *r)
{
	uint32_t *queue = cprof_xcalloc(r->n, sizeof(*queue));
	size_t head = 0, tail = 0, i, k;
	int status = 0;

	queue[tail++] = r->root;
	r->tree_node[r->root] = CPROF_CALLTREE_ROOT;
	while (status == 0 && head < tail) {
		const json_t *children, *c;

		i = queue[head++];
		children = json_object_get(json_array_get(r->nodes, i), "children");
		json_array_foreach(children, k, c) {
			uint32_t j = find(r, json_integer_value(c));
			int64_t node;

			if (read_frame(r, j) < 0) {
				status = -1;
				break;
			}
			node = cprof_calltree_child(r->tree, r->tree_node[i], r->frame[j]);
			if (node < 0) {
				status = cprof_error_set(r->err, "nodes[%u]: deeper than %d frames", j,
							 CPROF_CALLTREE_MAX_DEPTH);
				break;
			}
			r->tree_node[j] = (uint32_t)node;
			queue[tail++] = j;
		}
	}
	free(queue);
	for (i = 0; status == 0 && tail < r->n && i < r->n; i++)
		if (r->tree_node[i] == NONE)
			status = cprof_error_set(r->err, "nodes[%zu]: node %" PRId64 " is not reached "
							 "from the root (a cycle)", i, (int64_t)r->ids[i]);
	return status;
}

/* The samples of each node: one per entry of "samples". */
static int count_samples(struct reader *r, const json_t *samples)
{
	const json_t *id;
	uint32_t i;
	size_t k;

	if (!json_is_array(samples))
		return cprof_error_set(r->err, "samples: must be an array of node ids");
	json_array_foreach(samples, k, id) {
		if (!json_is_integer(id))
			return cprof_error_set(r->err, "samples[%zu]: must be a node id", k);
		i = find(r, json_integer_value(id));
		if (i == NONE)
			return cprof_error_set(r->err, "samples[%zu]: no node has id %" PRId64, k,
					       (int64_t)json_integer_value(id));
		r->count[i]++;
	}
	return 0;
}

/* Without "samples", the samples of each node are its hitCount. */
static int count_hits(struct reader *r)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < r->n; i++) {
		const json_t *hits = json_object_get(json_array_get(r->nodes, i), "hitCount");

		if (hits && !cprof_json_whole(hits, &r->count[i]))
			return cprof_error_set(r->err, "nodes[%zu].hitCount: must be a whole number", i);
		if (total + r->count[i] < total)
			return cprof_error_set(r->err, "nodes[%zu].hitCount: the counts' sum overflows",
					       i);
		total += r->count[i];
	}
	return 0;
}

static int cmp_deltas(const void *a, const void *b)
{
	json_int_t x = *(const json_int_t *)a, y = *(const json_int_t *)b;

	return x < y ? -1 : x > y;
}

/* The period: the median of the intervals between samples (the first
 * delta is from startTime, not from a sample); 0 when none. */
static int read_period(struct reader *r, const json_t *deltas, size_t num_samples,
		       uint64_t *period_us)
{
	json_int_t *positive = cprof_xcalloc(num_samples + 1, sizeof(*positive));
	const json_t *d;
	size_t k, n = 0;

	*period_us = 0;
	if (!json_is_array(deltas) || json_array_size(deltas) != num_samples) {
		free(positive);
		if (!json_is_array(deltas))
			return cprof_error_set(r->err, "timeDeltas: must be an array");
		return cprof_error_set(r->err, "timeDeltas: %zu deltas for %zu samples",
				       json_array_size(deltas), num_samples);
	}
	json_array_foreach(deltas, k, d) {
		if (!json_is_integer(d)) {
			free(positive);
			return cprof_error_set(r->err, "timeDeltas[%zu]: must be an integer", k);
		}
		if (k > 0 && json_integer_value(d) > 0)
			positive[n++] = json_integer_value(d);
	}
	if (n > 0) {
		qsort(positive, n, sizeof(*positive), cmp_deltas);
		*period_us = (uint64_t)positive[n / 2];
	}
	free(positive);
	return 0;
}

/* nodes[i].positionTicks checked; their sum into *sum. */
static int tick_sum(struct reader *r, size_t i, const json_t *ticks, uint64_t *sum)
{
	const json_t *t;
	uint64_t line, n;
	size_t k;

	*sum = 0;
	if (!json_is_array(ticks))
		return cprof_error_set(r->err, "nodes[%zu].positionTicks: must be an array", i);
	json_array_foreach(ticks, k, t) {
		if (!cprof_json_whole(json_object_get(t, "line"), &line) || line == 0)
			return cprof_error_set(r->err, "nodes[%zu].positionTicks[%zu].line: must be a "
						       "line number (from 1)", i, k);
		if (!cprof_json_whole(json_object_get(t, "ticks"), &n) || *sum + n < *sum)
			return cprof_error_set(r->err, "nodes[%zu].positionTicks[%zu].ticks: must be a "
						       "whole number", i, k);
		*sum += n;
	}
	return 0;
}

/* A string of a callFrame read_frame checked ("" when absent). */
static const char *checked_string(const json_t *call, const char *key)
{
	const char *s = json_string_value(json_object_get(call, key));

	return s ? s : "";
}

/* The samples of nodes[i] into the tree: at the lines its positionTicks
 * name when they hold no more ticks than it has samples (the rest at its
 * function's line), else all at its function's line. */
static int add_node(struct reader *r, size_t i)
{
	const json_t *node = json_array_get(r->nodes, i), *t;
	const json_t *ticks = json_object_get(node, "positionTicks");
	const json_t *call = json_object_get(node, "callFrame");
	uint32_t parent = i == r->root ? CPROF_CALLTREE_ROOT : r->tree_node[r->parent[i]];
	uint32_t self = r->tree_node[i], frame;
	uint64_t sum = 0, line, n, left = r->count[i];
	size_t k;

	if (i == r->root)      /* a sample at the root: (root) is its frame then */
		self = (uint32_t)cprof_calltree_child(r->tree, parent, r->frame[i]);
	if (ticks && tick_sum(r, i, ticks, &sum) < 0)
		return -1;
	if (ticks && sum <= left) {
		json_array_foreach(ticks, k, t) {
			cprof_json_whole(json_object_get(t, "line"), &line);
			cprof_json_whole(json_object_get(t, "ticks"), &n);
			if (n == 0)
				continue;
			frame = add_frame(r, checked_string(call, "functionName"),
					  checked_string(call, "url"), (json_int_t)line);
			cprof_calltree_add(r->tree,
					   (uint32_t)cprof_calltree_child(r->tree, parent, frame), n);
			left -= n;
		}
	}
	if (left)
		cprof_calltree_add(r->tree, self, left);
	return 0;
}

static int read_counts(struct reader *r, const json_t *root, struct cprof_profile *profile)
{
	const json_t *samples = json_object_get(root, "samples");
	const json_t *deltas = json_object_get(root, "timeDeltas");
	size_t i;

	if (samples && count_samples(r, samples) < 0)
		return -1;
	if (!samples && count_hits(r) < 0)
		return -1;
	if (samples && deltas && read_period(r, deltas, json_array_size(samples),
					     &profile->period_us) < 0)
		return -1;
	profile->has_period = profile->period_us > 0;
	for (i = 0; i < r->n; i++)
		if (r->count[i] && add_node(r, i) < 0)
			return -1;
	return 0;
}

static void reader_free(struct reader *r)
{
	if (r->index)
		g_hash_table_destroy(r->index);
	free(r->ids);
	free(r->parent);
	free(r->frame);
	free(r->tree_node);
	free(r->count);
}

int cprof_cpuprofile_take(const json_t *root, struct cprof_profile *profile,
			  struct cprof_error *err)
{
	struct reader r = { .err = err, .nodes = json_object_get(root, "nodes") };
	int status;
	size_t i;

	profile->format = CPROF_FORMAT_CPUPROFILE;
	profile->calltree = r.tree = cprof_calltree_new("a .cpuprofile");
	r.n = json_array_size(r.nodes);
	if (r.n == 0)
		return cprof_error_set(err, "nodes: holds no node");
	r.ids = cprof_xcalloc(r.n, sizeof(*r.ids));
	r.parent = cprof_xcalloc(r.n, sizeof(*r.parent));
	r.frame = cprof_xcalloc(r.n, sizeof(*r.frame));
	r.tree_node = cprof_xcalloc(r.n, sizeof(*r.tree_node));
	r.count = cprof_xcalloc(r.n, sizeof(*r.count));
	for (i = 0; i < r.n; i++)
		r.parent[i] = r.tree_node[i] = NONE;
	status = read_ids(&r);
	for (i = 0; status == 0 && i < r.n; i++)
		status = link_children(&r, i);
	if (status == 0)
		status = find_root(&r);
	if (status == 0)
		status = read_frame(&r, r.root);
	if (status == 0)
		status = walk_tree(&r);
	if (status == 0)
		status = read_counts(&r, root, profile);
	reader_free(&r);
	if (status == 0)
		profile->total = cprof_calltree_total(profile->calltree);
	return status;
}
