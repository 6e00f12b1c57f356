/* speedscope.c: speedscope's file format, after its published schema
 * (https://www.speedscope.app/file-format-schema.json): shared.frames
 * (name, file, line, col) and profiles, each "sampled" (stacks of frame
 * indexes, root first, and their weights) or "evented" (frames opened and
 * closed at values: the weight of a stack is the value spent in it).
 * Every profile of a file goes into one call tree, as perf's threads do;
 * weights of time are kept in nanoseconds. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "calltree.h"
#include "jsonin.h"
#include "profile-core.h"
#include "speedscope.h"
#include "base/util.h"

/* A unit of the schema: what a weight of 1 is in the sample type's unit. */
struct unit {
	const char *name;
	double scale;
	const char *type, *type_unit; /* of a sampled profile's weights */
};

static const struct unit units[] = {
	{ "none", 1, "samples", "count" },
	{ "nanoseconds", 1, "time", "nanoseconds" },
	{ "microseconds", 1e3, "time", "nanoseconds" },
	{ "milliseconds", 1e6, "time", "nanoseconds" },
	{ "seconds", 1e9, "time", "nanoseconds" },
	{ "bytes", 1, "space", "bytes" },
};

struct reader {
	struct cprof_calltree *tree;
	struct cprof_error *err;
	size_t num_frames;
	const json_t *frames;  /* shared.frames, for names in messages */
	bool count_samples;    /* --sample-index=samples: each sample counts 1 */
	const char *type, *type_unit; /* what the counts are */
	uint32_t *stack;       /* an evented profile's open nodes */
	bool all_sampled, weights_of_time;
	uint64_t period, samples; /* the weight all samples share, if one */
	bool same_weight;
};

bool cprof_speedscope_is(const json_t *root)
{
	const json_t *schema = json_object_get(root, "$schema");

	if (json_is_string(schema) && strstr(json_string_value(schema), "speedscope"))
		return true;
	return json_is_object(json_object_get(root, "shared")) &&
	       json_is_array(json_object_get(root, "profiles"));
}

/* The unit of profiles[i] and whether it is evented; NULL with `err` set. */
static const struct unit *profile_unit(const json_t *p, size_t i, bool *evented,
				       struct cprof_error *err)
{
	const json_t *type = json_object_get(p, "type"), *unit = json_object_get(p, "unit");
	const char *name = json_string_value(unit);
	size_t k;

	if (!json_is_object(p))
		return cprof_error_set(err, "profiles[%zu]: must be an object", i), NULL;
	if (!json_is_string(type) || (strcmp(json_string_value(type), "sampled") != 0 &&
				      strcmp(json_string_value(type), "evented") != 0))
		return cprof_error_set(err, "profiles[%zu].type: must be \"sampled\" or \"evented\"",
				       i), NULL;
	*evented = strcmp(json_string_value(type), "evented") == 0;
	for (k = 0; name && k < G_N_ELEMENTS(units); k++)
		if (strcmp(name, units[k].name) == 0)
			return &units[k];
	cprof_error_set(err, "profiles[%zu].unit: must be one of none, nanoseconds, microseconds, "
			     "milliseconds, seconds, bytes", i);
	return NULL;
}

/* The sample type of a profile's weights. */
static void weight_type(const struct unit *u, bool evented, const char **type,
			const char **type_unit)
{
	*type = evented && strcmp(u->name, "none") == 0 ? "weight" : u->type;
	*type_unit = evented && strcmp(u->name, "none") == 0 ? "none" : u->type_unit;
}

/* Decides what the counts are: the profiles' weights (of one type for
 * all), or their samples where --sample-index asks and all are sampled. */
static int pick_type(struct reader *r, const json_t *profiles, const char *sample_index)
{
	const char *types[2] = { "samples" }, *type_units[2] = { "count" };
	const char *type = NULL, *type_unit = NULL, *t, *tu;
	bool evented, all_sampled = true;
	const json_t *p;
	size_t i, n;
	int pick;

	json_array_foreach(profiles, i, p) {
		const struct unit *u = profile_unit(p, i, &evented, r->err);

		if (!u)
			return -1;
		weight_type(u, evented, &t, &tu);
		all_sampled &= !evented;
		if (type && (strcmp(type, t) != 0 || strcmp(type_unit, tu) != 0))
			return cprof_error_set(r->err, "profiles[%zu].unit: weights of %s/%s, where "
						       "profiles[0] has %s/%s (cprof merges a file's "
						       "profiles)", i, t, tu, type, type_unit);
		type = t;
		type_unit = tu;
	}
	if (!type)
		return cprof_error_set(r->err, "profiles: holds no profile");
	n = 0;
	if (all_sampled && strcmp(type, "samples") != 0)
		n = 1;
	types[n] = type;
	type_units[n] = type_unit;
	pick = cprof_sample_index_pick(types, type_units, n + 1, NULL, sample_index, r->err);
	if (pick < 0)
		return -1;
	r->all_sampled = all_sampled;
	r->weights_of_time = strcmp(type, "time") == 0;
	r->count_samples = n == 1 && pick == 0;
	r->type = types[pick];
	r->type_unit = type_units[pick];
	return 0;
}

/* shared.frames[i] as the tree's frame i; -1 with `err` set. */
static int read_frame(struct reader *r, const json_t *f, size_t i)
{
	const json_t *name = json_object_get(f, "name"), *file = json_object_get(f, "file");
	const json_t *line = json_object_get(f, "line");
	const char *file_name = NULL;
	uint64_t line_no = 0;
	char *line_key = NULL;

	if (!json_is_object(f))
		return cprof_error_set(r->err, "shared.frames[%zu]: must be an object", i);
	if (!json_is_string(name) || !cprof_json_no_nul(name))
		return cprof_error_set(r->err, "shared.frames[%zu].name: must be a string without "
					       "NUL", i);
	if (file && !json_is_null(file)) {
		if (!json_is_string(file) || !cprof_json_no_nul(file))
			return cprof_error_set(r->err, "shared.frames[%zu].file: must be a string "
						       "without NUL", i);
		file_name = json_string_value(file);
	}
	if (line && !json_is_null(line) && !cprof_json_whole(line, &line_no))
		return cprof_error_set(r->err, "shared.frames[%zu].line: must be a whole number", i);
	if (file_name && line && !json_is_null(line))
		line_key = g_strdup_printf("%s:%" G_GUINT64_FORMAT, file_name, line_no);
	cprof_calltree_frame(r->tree, json_string_value(name), file_name, line_key);
	g_free(line_key);
	return 0;
}

static int read_frames(struct reader *r, const json_t *root)
{
	const json_t *shared = json_object_get(root, "shared"), *f;
	size_t i;

	r->frames = json_object_get(shared, "frames");
	if (!json_is_array(r->frames))
		return cprof_error_set(r->err, "shared.frames: must be an array");
	json_array_foreach(r->frames, i, f)
		if (read_frame(r, f, i) < 0)
			return -1;
	r->num_frames = json_array_size(r->frames);
	return 0;
}

/* The frame index `value` at PATH (printf-formatted by the caller into
 * `path`); -1 with `err` set. */
static int64_t frame_index(struct reader *r, const json_t *value, const char *path)
{
	uint64_t index;

	if (!cprof_json_whole(value, &index))
		return cprof_error_set(r->err, "%s: must be a frame index", path);
	if (index >= r->num_frames)
		return cprof_error_set(r->err, "%s: frame index %" G_GUINT64_FORMAT " out of range "
					       "(%zu frames)", path, index, r->num_frames);
	return (int64_t)index;
}

/* The weight `value` of profiles[i].weights[j] in the counts' unit. */
static int read_weight(struct reader *r, const json_t *value, const struct unit *u, size_t i,
		       size_t j, uint64_t *out)
{
	double w = json_number_value(value) * u->scale;

	if (!json_is_number(value) || w < 0)
		return cprof_error_set(r->err, "profiles[%zu].weights[%zu]: must be a number, 0 or "
					       "more", i, j);
	if (json_is_integer(value) && u->scale == 1) {
		*out = (uint64_t)json_integer_value(value);
		return 0;
	}
	if (strcmp(u->name, "none") == 0 && w != floor(w))
		return cprof_error_set(r->err, "profiles[%zu].weights[%zu]: %g is no whole number of "
					       "samples (the unit is none)", i, j, w);
	if (w >= 0x1p63)
		return cprof_error_set(r->err, "profiles[%zu].weights[%zu]: too large", i, j);
	*out = (uint64_t)llround(w);
	return 0;
}

/* Notes a sample's weight for the period: the weight every sample shares. */
static void note_weight(struct reader *r, uint64_t weight)
{
	if (r->samples++ == 0)
		r->period = weight;
	else if (weight != r->period)
		r->same_weight = false;
}

/* profiles[i].samples[j], root first: its leaf's node; -1 with `err` set. */
static int64_t read_stack(struct reader *r, const json_t *stack, size_t i, size_t j)
{
	int64_t node = CPROF_CALLTREE_ROOT, frame;
	const json_t *index;
	char path[96];
	size_t k;

	if (!json_is_array(stack) || json_array_size(stack) == 0)
		return cprof_error_set(r->err, "profiles[%zu].samples[%zu]: must be a non-empty array "
					       "of frame indexes", i, j);
	json_array_foreach(stack, k, index) {
		snprintf(path, sizeof(path), "profiles[%zu].samples[%zu][%zu]", i, j, k);
		frame = frame_index(r, index, path);
		if (frame < 0)
			return -1;
		node = cprof_calltree_child(r->tree, (uint32_t)node, (uint32_t)frame);
		if (node < 0)
			return cprof_error_set(r->err, "%s: deeper than %d frames", path,
					       CPROF_CALLTREE_MAX_DEPTH);
	}
	return node;
}

static int read_sampled(struct reader *r, const json_t *p, size_t i, const struct unit *u)
{
	const json_t *samples = json_object_get(p, "samples"), *weights = json_object_get(p, "weights");
	uint64_t weight = 0;
	int64_t node;
	size_t j;

	if (!json_is_array(samples))
		return cprof_error_set(r->err, "profiles[%zu].samples: must be an array", i);
	if (!json_is_array(weights))
		return cprof_error_set(r->err, "profiles[%zu].weights: must be an array", i);
	if (json_array_size(weights) != json_array_size(samples))
		return cprof_error_set(r->err, "profiles[%zu].weights: %zu weights for %zu samples", i,
				       json_array_size(weights), json_array_size(samples));
	for (j = 0; j < json_array_size(samples); j++) {
		node = read_stack(r, json_array_get(samples, j), i, j);
		if (node < 0 || read_weight(r, json_array_get(weights, j), u, i, j, &weight) < 0)
			return -1;
		note_weight(r, weight);
		if (r->count_samples)
			weight = 1;
		if (weight && !cprof_calltree_add(r->tree, (uint32_t)node, weight))
			return cprof_error_set(r->err, "profiles[%zu].weights[%zu]: the weights' sum "
						       "overflows", i, j);
	}
	return 0;
}

/* The name of shared.frames[index], for a message. */
static const char *frame_name(const struct reader *r, int64_t index)
{
	return json_string_value(json_object_get(json_array_get(r->frames, (size_t)index), "name"));
}

/* One event of profiles[i] (k its index): the stack of `depth` open nodes
 * changed.  -1 with `err` set. */
static int take_event(struct reader *r, const json_t *ev, size_t i, size_t k, size_t *depth)
{
	const json_t *type = json_object_get(ev, "type");
	const char *t = json_string_value(type);
	char path[96];
	int64_t frame, node;
	uint32_t open;

	snprintf(path, sizeof(path), "profiles[%zu].events[%zu].frame", i, k);
	frame = frame_index(r, json_object_get(ev, "frame"), path);
	if (frame < 0)
		return -1;
	if (t && strcmp(t, "O") == 0) {
		node = cprof_calltree_child(r->tree, *depth ? r->stack[*depth - 1] : 0,
					    (uint32_t)frame);
		if (node < 0)
			return cprof_error_set(r->err, "profiles[%zu].events[%zu]: deeper than %d "
						       "frames", i, k, CPROF_CALLTREE_MAX_DEPTH);
		r->stack[(*depth)++] = (uint32_t)node;
		return 0;
	}
	if (!t || strcmp(t, "C") != 0)
		return cprof_error_set(r->err, "profiles[%zu].events[%zu].type: must be \"O\" or "
					       "\"C\"", i, k);
	if (*depth == 0)
		return cprof_error_set(r->err, "profiles[%zu].events[%zu]: closes frame %" PRId64
					       " (%s) with no frame open", i, k, frame,
				       frame_name(r, frame));
	open = (uint32_t)cprof_calltree_frame_of(r->tree, r->stack[*depth - 1]);
	if (open != frame)
		return cprof_error_set(r->err, "profiles[%zu].events[%zu]: closes frame %" PRId64
					       " (%s) while frame %u (%s) is open", i, k, frame,
				       frame_name(r, frame), open, frame_name(r, open));
	(*depth)--;
	return 0;
}

static int read_evented(struct reader *r, const json_t *p, size_t i, const struct unit *u)
{
	const json_t *events = json_object_get(p, "events"), *ev, *at;
	double first = 0, prev = 0;
	uint64_t done = 0, upto;
	size_t k, depth = 0;

	if (!json_is_array(events))
		return cprof_error_set(r->err, "profiles[%zu].events: must be an array", i);
	json_array_foreach(events, k, ev) {
		at = json_object_get(ev, "at");
		if (!json_is_object(ev) || !json_is_number(at))
			return cprof_error_set(r->err, "profiles[%zu].events[%zu]%s: must be %s", i, k,
					       json_is_object(ev) ? ".at" : "",
					       json_is_object(ev) ? "a number" : "an object");
		if (k == 0)
			first = prev = json_number_value(at);
		if (json_number_value(at) < prev)
			return cprof_error_set(r->err, "profiles[%zu].events[%zu].at: %g is before the "
						       "event before it (%g)", i, k,
					       json_number_value(at), prev);
		prev = json_number_value(at);
		if ((prev - first) * u->scale >= 0x1p63)
			return cprof_error_set(r->err, "profiles[%zu].events[%zu].at: too far from "
						       "the first event", i, k);
		upto = (uint64_t)llround((prev - first) * u->scale);
		if (depth && upto > done && !cprof_calltree_add(r->tree, r->stack[depth - 1],
								upto - done))
			return cprof_error_set(r->err, "profiles[%zu].events[%zu]: the weights' sum "
						       "overflows", i, k);
		done = upto;
		if (take_event(r, ev, i, k, &depth) < 0)
			return -1;
	}
	if (depth)
		return cprof_error_set(r->err, "profiles[%zu].events: frame %u (%s) is still open at "
					       "the end", i,
				       cprof_calltree_frame_of(r->tree, r->stack[depth - 1]),
				       frame_name(r, cprof_calltree_frame_of(r->tree,
									     r->stack[depth - 1])));
	return 0;
}

static int read_profiles(struct reader *r, const json_t *profiles)
{
	const struct unit *u;
	const json_t *p;
	bool evented;
	size_t i;

	json_array_foreach(profiles, i, p) {
		u = profile_unit(p, i, &evented, r->err);
		if (!u || (evented ? read_evented(r, p, i, u) : read_sampled(r, p, i, u)) < 0)
			return -1;
	}
	return 0;
}

int cprof_speedscope_take(const json_t *root, struct cprof_profile *profile,
			  const char *sample_index, struct cprof_error *err)
{
	const json_t *profiles = json_object_get(root, "profiles");
	struct reader r = { .err = err, .same_weight = true };
	int status;

	profile->format = CPROF_FORMAT_SPEEDSCOPE;
	profile->calltree = r.tree = cprof_calltree_new("a speedscope file");
	if (read_frames(&r, root) < 0)
		return -1;
	if (!json_is_array(profiles))
		return cprof_error_set(err, "profiles: must be an array");
	if (pick_type(&r, profiles, sample_index) < 0)
		return -1;
	r.stack = cprof_xcalloc(CPROF_CALLTREE_MAX_DEPTH + 1, sizeof(*r.stack));
	status = read_profiles(&r, profiles);
	free(r.stack);
	if (status < 0)
		return -1;
	profile->total = cprof_calltree_total(r.tree);
	if (strcmp(r.type, "samples") != 0 || strcmp(r.type_unit, "count") != 0)
		profile->sample_type = g_strdup_printf("%s/%s", r.type, r.type_unit);
	/* Samples of one weight of time: the sampling period. */
	if (r.all_sampled && r.weights_of_time && r.samples && r.same_weight && r.period >= 1000) {
		profile->has_period = true;
		profile->period_us = (r.period + 500) / 1000;
	}
	return 0;
}
