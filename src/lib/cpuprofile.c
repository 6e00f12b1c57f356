/* cpuprofile.c: V8's CPU profile, as node --cpu-prof and Chrome's DevTools
 * write it: "nodes" (id, callFrame {functionName, url, lineNumber from 0},
 * hitCount, children, positionTicks {line from 1, ticks}), "samples" (the
 * node of each tick), "timeDeltas" (microseconds), "startTime",
 * "endTime".  The tree is checked before it is walked: every id once,
 * every child of one parent, one root, no cycle, a bounded depth.  The
 * root, "(root)", is no frame; frames are named as DevTools names them.
 * The older format (a "head" tree) is converted to it (take_legacy). */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "calltree.h"
#include "cpuprofile.h"
#include "base/hash.h"
#include "jsonin.h"
#include "profile-core.h"
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

/* True when `root` is V8's older .cpuprofile: a call tree "head" (a node
 * with "children" or a "functionName"), no "nodes". */
static bool is_legacy(const json_t *root)
{
	const json_t *head = json_object_get(root, "head");

	return json_is_object(head) && !json_object_get(root, "nodes") &&
	       (json_object_get(head, "children") || json_object_get(head, "functionName"));
}

bool cprof_cpuprofile_is(const json_t *root)
{
	if (json_object_get(root, "snapshot"))
		return false;
	return (json_is_array(json_object_get(root, "nodes")) &&
		(json_object_get(root, "samples") || json_object_get(root, "startTime"))) ||
	       is_legacy(root);
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

/* Reads a .cpuprofile of "nodes" (the current format, or the older one
 * converted). */
static int take_nodes(const json_t *root, struct cprof_profile *profile,
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

/* V8's older .cpuprofile (Chrome's DevTools and Node before 12): "head",
 * the root node, each node's callFrame members its own (lineNumber from
 * 1), "children" nodes rather than ids, "timestamps" (microseconds)
 * rather than "timeDeltas".  It is converted as DevTools converts it
 * (nodes in the order of a depth-first walk, the head first) and read as
 * the current format; an error names the node by its path from "head". */
struct legacy {
	GArray *up;            /* each node's parent's index (NONE for the head) */
	GArray *pos;           /* its place among its parent's children */
	json_t *nodes;         /* the nodes converted */
};

/* A node to convert: the JSON, its parent's index and its place there. */
struct pending {
	const json_t *node;
	uint32_t up, pos;
};

/* Levels of a node's path named before and after those elided. */
enum { PATH_ENDS = 4 };

/* Appends the path of legacy node i, "head.children[0].children[2]"
 * (past 2 x PATH_ENDS levels, the middle ones counted, not named:
 * "head.children[0]....children[1].<7 levels>.children[0]..."). */
static void legacy_place(const struct legacy *l, uint32_t i, GString *out)
{
	GArray *chain = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	guint k;

	for (; i != NONE; i = g_array_index(l->up, uint32_t, i))
		if (g_array_index(l->up, uint32_t, i) != NONE)
			g_array_append_val(chain, g_array_index(l->pos, uint32_t, i));
	g_string_append(out, "head");
	for (k = chain->len; k-- > 0;) {
		guint level = chain->len - 1 - k;

		if (chain->len > 2 * PATH_ENDS && level == PATH_ENDS)
			g_string_append_printf(out, ".<%u levels>", chain->len - 2 * PATH_ENDS);
		if (chain->len <= 2 * PATH_ENDS || level < PATH_ENDS || k < PATH_ENDS)
			g_string_append_printf(out, ".children[%u]",
					       g_array_index(chain, uint32_t, k));
	}
	g_array_free(chain, TRUE);
}

/* Rewrites an error of the converted profile in the older one's terms:
 * "nodes[I]" as node I's path, its callFrame's members its own. */
static void legacy_rename(const struct legacy *l, struct cprof_error *err)
{
	GString *out = g_string_new(NULL);
	const char *p = err->text;

	while (*p) {
		char *end;
		unsigned long i;

		if (strncmp(p, "nodes[", 6) == 0 && g_ascii_isdigit(p[6]) &&
		    (i = strtoul(p + 6, &end, 10), *end == ']') && i < l->up->len) {
			legacy_place(l, (uint32_t)i, out);
			p = end + 1;
		} else if (strncmp(p, ".callFrame.", 11) == 0) {
			p += 10;
		} else {
			g_string_append_c(out, *p++);
		}
	}
	g_strlcpy(err->text, out->str, sizeof(err->text));
	g_string_free(out, TRUE);
}

/* Sets `key` of `to` to `from`'s, when it has one. */
static void copy_member(json_t *to, const json_t *from, const char *key, const char *as)
{
	json_t *value = json_object_get(from, key);

	if (value)
		json_object_set(to, as, value);
}

/* The callFrame of a legacy node (its line from 1 made from 0). */
static json_t *legacy_call_frame(const json_t *node)
{
	json_t *call = json_object(), *line = json_object_get(node, "lineNumber");

	copy_member(call, node, "functionName", "functionName");
	copy_member(call, node, "url", "url");
	copy_member(call, node, "scriptId", "scriptId");
	if (json_is_integer(line))
		json_object_set_new(call, "lineNumber", json_integer(json_integer_value(line) - 1));
	else if (line)
		json_object_set(call, "lineNumber", line);
	return call;
}

/* Converts one legacy node (checked to be an object, its children an
 * array of objects), its children queued on `todo` first-last. */
static int legacy_node(struct legacy *l, const struct pending *at, GArray *todo,
		       struct cprof_error *err)
{
	uint32_t i = (uint32_t)l->up->len;
	const json_t *children = json_object_get(at->node, "children"), *c;
	json_t *node, *ids;
	GString *place;
	size_t k;

	g_array_append_val(l->up, at->up);
	g_array_append_val(l->pos, at->pos);
	if (json_is_object(at->node) && (!children || json_is_array(children))) {
		node = json_object();
		copy_member(node, at->node, "id", "id");
		copy_member(node, at->node, "hitCount", "hitCount");
		copy_member(node, at->node, "positionTicks", "positionTicks");
		json_object_set_new(node, "callFrame", legacy_call_frame(at->node));
		ids = json_array();
		json_array_foreach(children, k, c) {
			const json_t *id = json_object_get(c, "id");

			json_array_append_new(ids, id ? json_incref((json_t *)id) : json_null());
		}
		json_object_set_new(node, "children", ids);
		json_array_append_new(l->nodes, node);
		for (k = json_array_size(children); k-- > 0;) {
			struct pending child = { json_array_get(children, k), i, (uint32_t)k };

			g_array_append_val(todo, child);
		}
		return 0;
	}
	place = g_string_new(NULL);
	legacy_place(l, i, place);
	if (!json_is_object(at->node))
		cprof_error_set(err, "%s: must be a node (an object)", place->str);
	else
		cprof_error_set(err, "%s.children: must be an array of nodes", place->str);
	g_string_free(place, TRUE);
	return -1;
}

/* The nodes of the tree under "head", the head first, each before its
 * children (depth-first, as DevTools orders them). */
static int legacy_nodes(struct legacy *l, const json_t *head, struct cprof_error *err)
{
	GArray *todo = g_array_new(FALSE, FALSE, sizeof(struct pending));
	struct pending first = { head, NONE, 0 };
	int status = 0;

	g_array_append_val(todo, first);
	while (status == 0 && todo->len > 0) {
		struct pending at = g_array_index(todo, struct pending, todo->len - 1);

		g_array_set_size(todo, todo->len - 1);
		if (l->up->len >= UINT32_MAX - 1)
			status = cprof_error_set(err, "head: more than %u nodes", UINT32_MAX - 2);
		else
			status = legacy_node(l, &at, todo, err);
	}
	g_array_free(todo, TRUE);
	return status;
}

static int cmp_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "timeDeltas" from "timestamps" (microseconds, one a sample), in time
 * order as DevTools sorts them; NULL with `err` set on bad timestamps. */
static json_t *legacy_deltas(const json_t *stamps, size_t num_samples, struct cprof_error *err)
{
	double *t;
	json_t *deltas;
	const json_t *v;
	size_t k;

	if (!json_is_array(stamps))
		return cprof_error_set(err, "timestamps: must be an array"), NULL;
	if (json_array_size(stamps) != num_samples)
		return cprof_error_set(err, "timestamps: %zu timestamps for %zu samples",
				       json_array_size(stamps), num_samples), NULL;
	t = cprof_xcalloc(num_samples + 1, sizeof(*t));
	json_array_foreach(stamps, k, v) {
		if (!json_is_number(v) || !isfinite(json_number_value(v)) ||
		    fabs(json_number_value(v)) > 9e15) {
			free(t);
			return cprof_error_set(err, "timestamps[%zu]: must be a number of "
						    "microseconds", k), NULL;
		}
		t[k] = json_number_value(v);
	}
	qsort(t, num_samples, sizeof(*t), cmp_doubles);
	deltas = json_array();
	for (k = 0; k < num_samples; k++)
		json_array_append_new(deltas, json_integer(k ? llround(t[k] - t[k - 1]) : 0));
	free(t);
	return deltas;
}

/* Reads the older .cpuprofile `root` converted. */
static int take_legacy(const json_t *root, struct cprof_profile *profile,
		       struct cprof_error *err)
{
	struct legacy l = {
		.up = g_array_new(FALSE, FALSE, sizeof(uint32_t)),
		.pos = g_array_new(FALSE, FALSE, sizeof(uint32_t)),
		.nodes = json_array(),
	};
	const json_t *samples = json_object_get(root, "samples");
	const json_t *stamps = json_object_get(root, "timestamps");
	json_t *converted = json_object(), *deltas = NULL;
	int status = legacy_nodes(&l, json_object_get(root, "head"), err);

	json_object_set_new(converted, "nodes", l.nodes);
	if (samples)
		json_object_set(converted, "samples", (json_t *)samples);
	if (status == 0 && json_is_array(samples) && stamps) {
		deltas = legacy_deltas(stamps, json_array_size(samples), err);
		status = deltas ? 0 : -1;
	}
	if (deltas)
		json_object_set_new(converted, "timeDeltas", deltas);
	if (status == 0 && take_nodes(converted, profile, err) < 0) {
		legacy_rename(&l, err);
		status = -1;
	}
	json_decref(converted);
	g_array_free(l.up, TRUE);
	g_array_free(l.pos, TRUE);
	return status;
}

int cprof_cpuprofile_take(const json_t *root, struct cprof_profile *profile,
			  struct cprof_error *err)
{
	if (is_legacy(root))
		return take_legacy(root, profile, err);
	return take_nodes(root, profile, err);
}
