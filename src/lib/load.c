/* load.c: the options and the reading every profile-reading program shares. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "folded.h"
#include "base/hash.h"
#include "load.h"
#include "profile.h"
#include "symbolize.h"

void cprof_loader_init(struct cprof_loader *loader)
{
	memset(loader, 0, sizeof(*loader));
	loader->key.by = CPROF_BY_FUNCTION;
	loader->key.symbolize = true;
	loader->key.inline_frames = true;
}

bool cprof_loader_option(struct cprof_loader *loader, int opt, const char *arg)
{
	int by;

	switch (opt) {
	case CPROF_OPT_BINARY:
		loader->binary = arg;
		loader->read.binary = arg;
		return true;
	case CPROF_OPT_BY:
		by = cprof_by_parse(arg);
		if (by < 0)
			cprof_die("--by: unknown key '%s' (function, dso, line, address, stack or "
				  "label:NAME)", arg);
		loader->key.by = (enum cprof_by)by;
		loader->key.by_given = true;
		return true;
	case CPROF_OPT_CUM:
		loader->key.cum = true;
		loader->key.by_given = true;
		return true;
	case CPROF_OPT_NO_CACHE:
		loader->no_cache = true;
		return true;
	case CPROF_OPT_NO_INLINE:
		loader->key.inline_frames = false;
		return true;
	case CPROF_OPT_NO_SYMBOLIZE:
		loader->key.symbolize = false;
		return true;
	case CPROF_OPT_SYMBOLS:
		cprof_ptrs_add(&loader->symbol_dirs, cprof_xstrdup(arg));
		return true;
	case CPROF_OPT_PERIOD:
		loader->read.period = cprof_option_double("--period", arg);
		if (!(loader->read.period > 0) || loader->read.period > 9.2e18)
			cprof_die("--period: must be a positive number: '%s'", arg);
		loader->read.has_period = true;
		return true;
	case CPROF_OPT_SAMPLE_TYPE:
		if (!strchr(arg, '/') || arg[0] == '/' || arg[strlen(arg) - 1] == '/' ||
		    strpbrk(arg, "\n\r") || !g_utf8_validate(arg, -1, NULL))
			cprof_die("--sample-type: '%s' is not TYPE/UNIT (cpu/nanoseconds)", arg);
		loader->read.sample_type = arg;
		return true;
	case CPROF_OPT_SAMPLE_INDEX:
		if (!*arg)
			cprof_die("--sample-index: empty (a number or a sample type's name)");
		loader->read.sample_index = arg;
		return true;
	case CPROF_OPT_TAG_FILTER:
		if (arg[0] == '=' || !strchr(arg, '=') || !g_utf8_validate(arg, -1, NULL))
			cprof_die("--tag-filter: '%s' is not NAME=VALUE", arg);
		cprof_ptrs_add(&loader->tag_filters, (void *)arg);
		loader->read.tag_filters = (const char *const *)loader->tag_filters.items;
		loader->read.num_tag_filters = loader->tag_filters.len;
		return true;
	default:
		return false;
	}
}

/* Creates the symbolizer on first need: --symbols directories first, then
 * those of CPROF_SYMBOL_PATH. */
static void start_symbolizer(struct cprof_loader *loader)
{
	struct cprof_symbol_options options = { 0 };
	const char *path = getenv("CPROF_SYMBOL_PATH");

	if (loader->key.symbolizer || !loader->key.symbolize)
		return;
	if (path && *path) {
		char **dirs = g_strsplit(path, ":", -1), **d;

		for (d = dirs; *d; d++)
			if (**d)
				cprof_ptrs_add(&loader->symbol_dirs, cprof_xstrdup(*d));
		g_strfreev(dirs);
	}
	options.symbol_dirs = (const char *const *)loader->symbol_dirs.items;
	options.num_symbol_dirs = loader->symbol_dirs.len;
	options.binary = loader->binary;
	options.inline_frames = loader->key.inline_frames;
	options.lines = loader->key.by == CPROF_BY_LINE;
	options.cache = !loader->no_cache;
	loader->key.symbolizer = cprof_symbolizer_new(&options);
}

/* Reads `name` whole; dies on any error and on a sample type other than
 * the inputs' before it.  *type: its sample type. */
static struct cprof_profile *read_profile(struct cprof_loader *loader, const char *name,
					  const char **type)
{
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_profile *profile;
	size_t i;

	loader->read.label_key = cprof_by_label_key(loader->key.by);
	loader->read.addresses = loader->key.by == CPROF_BY_ADDRESS;
	if (loader->read.label_key && loader->key.cum)
		cprof_die("--cum: a label is no frame of a stack (--by=%s counts each sample once)",
			  cprof_by_name(loader->key.by));
	profile = cprof_profile_read_with(name, &loader->read, &err);
	if (!profile)
		cprof_die_input(name, &err);
	if (profile->replaced_utf8)
		cprof_warn("%s: names that are not valid UTF-8 were replaced by U+FFFD", name);
	for (i = 0; i < profile->notes.len; i++) {
		const char *text = profile->notes.items[i];

		cprof_warn("%s:%s%s", name, g_ascii_isdigit(text[0]) ? "" : " ", text);
	}
	*type = profile->format == CPROF_FORMAT_FLAT ? cprof_dist_sample_type(profile->flat) :
		profile->sample_type ? profile->sample_type : "samples/count";
	if (!loader->sample_type)
		loader->sample_type = cprof_xstrdup(*type);
	else if (strcmp(loader->sample_type, *type) != 0)
		cprof_die("%s: sample type %s differs from %s of the input before it", name, *type,
			  loader->sample_type);
	if (profile->format != CPROF_FORMAT_FOLDED && profile->format != CPROF_FORMAT_FLAT &&
	    profile->format != CPROF_FORMAT_SPEEDSCOPE && profile->format != CPROF_FORMAT_CPUPROFILE &&
	    (loader->key.by == CPROF_BY_FUNCTION || loader->key.by == CPROF_BY_LINE ||
	     loader->key.by == CPROF_BY_STACK))
		start_symbolizer(loader);
	return profile;
}

/* What the keys of the distributions of a run may take in all: KEY_FLOOR
 * bytes and KEY_RATIO times the bytes of its inputs (cprof-flat(1) BOUNDS).  A
 * stack key is as long as its frames' names, each a few bytes of a
 * profile.proto: --by=stack could print gigabytes of a megabyte. */
enum { KEY_FLOOR = 64 << 20, KEY_RATIO = 64 };

/* Keys `profile` into *dist (created when NULL) and notes it as an input;
 * dies when the keys pass their bound. */
static void key_profile(struct cprof_loader *loader, const char *name,
			struct cprof_profile *profile, const char *type, struct cprof_dist **dist)
{
	struct cprof_error err = { { 0 }, 0 };

	if (!*dist)
		*dist = cprof_dist_new(loader->key.by, loader->key.cum);
	uint64_t before = (*dist)->key_bytes, bound;

	loader->input_bytes += profile->bytes;
	bound = KEY_FLOOR + KEY_RATIO * loader->input_bytes;
	cprof_dist_limit_keys(*dist, before + (bound > loader->key_bytes ?
					       bound - loader->key_bytes : 0));
	if (cprof_profile_to_dist(profile, &loader->key, *dist, &err) < 0)
		cprof_die_input(name, &err);
	if ((*dist)->over_limit)
		cprof_die("%s: the keys of --by=%s pass %" PRIu64 " bytes (64 MiB and 64 times "
			  "the %" PRIu64 " bytes read): stacks too deep or names too long to "
			  "print whole (--by=function keeps one frame a key)", name,
			  cprof_by_name(loader->key.by), bound, loader->input_bytes);
	loader->key_bytes += (*dist)->key_bytes - before;
	cprof_dist_note_input(*dist, name, profile->has_period, profile->period_us);
	if (cprof_dist_note_sample_type(*dist, type, &err) < 0)
		cprof_die_input(name, &err);
}

int cprof_loader_try_read(struct cprof_loader *loader, const char *name,
			  struct cprof_dist **dist, struct cprof_error *err)
{
	const char *type;
	struct cprof_profile *profile = read_profile(loader, name, &type);
	int status = 0;

	if (!*dist)
		*dist = cprof_dist_new(loader->key.by, loader->key.cum);
	if (cprof_profile_to_dist(profile, &loader->key, *dist, err) < 0) {
		status = -1;
	} else {
		cprof_dist_note_input(*dist, name, profile->has_period, profile->period_us);
		if (cprof_dist_note_sample_type(*dist, type, err) < 0)
			status = -1;
	}
	cprof_profile_free(profile);
	return status;
}

void cprof_loader_read(struct cprof_loader *loader, const char *name, struct cprof_dist **dist)
{
	const char *type;
	struct cprof_profile *profile = read_profile(loader, name, &type);

	key_profile(loader, name, profile, type, dist);
	cprof_profile_free(profile);
}

void cprof_loader_read_pair(struct cprof_loader *loader, const char *name,
			    struct cprof_dist **a, struct cprof_dist **b)
{
	const char *type;
	struct cprof_profile *profile;

	loader->read.two_counts = true;
	profile = read_profile(loader, name, &type);
	loader->read.two_counts = false;
	if (!profile->two_counts)
		cprof_die("two inputs needed, A and B, not 1: one input must be folded stacks of "
			  "two counts a line, KEY COUNT_A COUNT_B (see --help)");
	key_profile(loader, name, profile, type, a);
	cprof_folded_take_second(profile);
	key_profile(loader, name, profile, type, b);
	cprof_profile_free(profile);
}

/* A tuple of row label values: interned, so equal values are the same
 * pointer, and a tuple is hashed and compared by its pointers. */
struct tuple {
	const char *const *values;
	size_t n;
};

static guint tuple_hash(gconstpointer key)
{
	const struct tuple *t = key;

	return (guint)cprof_hash(t->values, t->n * sizeof(*t->values));
}

static gboolean tuple_equal(gconstpointer a, gconstpointer b)
{
	const struct tuple *x = a, *y = b;

	return memcmp(x->values, y->values, x->n * sizeof(*x->values)) == 0;
}

/* The part of each stack of `profile` by its row labels' values, into
 * part_of[i]; returns the number of parts. */
static size_t assign_parts(const struct cprof_profile *profile, size_t n, size_t *part_of,
			   struct tuple *tuples)
{
	GHashTable *seen = g_hash_table_new(tuple_hash, tuple_equal);
	size_t i, parts = 0;

	for (i = 0; i < profile->stacks.len; i++) {
		gpointer found;

		tuples[i].values = profile->row_labels + i * n;
		tuples[i].n = n;
		found = g_hash_table_lookup(seen, &tuples[i]);
		if (!found) {
			found = GSIZE_TO_POINTER(++parts);
			g_hash_table_insert(seen, &tuples[i], found);
		}
		part_of[i] = GPOINTER_TO_SIZE(found) - 1;
	}
	g_hash_table_destroy(seen);
	return parts;
}

/* A profile that borrows the `count` stacks of `profile` whose indexes
 * `stacks` holds. */
static struct cprof_profile *view_of(const struct cprof_profile *profile, const size_t *stacks,
				     size_t count)
{
	struct cprof_profile *view = cprof_xmalloc(sizeof(*view));
	struct cprof_ptrs labels = { 0 };
	size_t k;

	*view = *profile;
	view->bytes = 0;       /* the whole profile's are counted once (key_parts) */
	memset(&view->stacks, 0, sizeof(view->stacks));
	view->row_labels = NULL;
	view->total = 0;
	for (k = 0; k < count; k++) {
		const struct cprof_stack *stack = profile->stacks.items[stacks[k]];

		if (profile->labels)
			cprof_ptrs_add(&labels, (void *)profile->labels[stacks[k]]);
		cprof_ptrs_add(&view->stacks, (void *)stack);
		view->total += stack->count;
	}
	view->labels = profile->labels ? (const char **)labels.items : NULL;
	return view;
}

static void free_view(struct cprof_profile *view)
{
	cprof_ptrs_clear(&view->stacks, NULL);
	free(view->labels);
	free(view);
}

static struct cprof_part *new_part(size_t n, const char *const *values)
{
	struct cprof_part *part = cprof_xcalloc(1, sizeof(*part));
	size_t j;

	part->num_values = n;
	part->values = cprof_xcalloc(n ? n : 1, sizeof(*part->values));
	for (j = 0; j < n; j++)
		part->values[j] = values && values[j] ? cprof_xstrdup(values[j]) : NULL;
	return part;
}

/* Keys each part of `profile` (`parts` of them, part_of[i] the part of
 * stack i) into parts appended to `out`: the stacks gathered by part in
 * one pass, each part keyed once. */
static void key_parts(struct cprof_loader *loader, const char *name,
		      const struct cprof_profile *profile, const char *type, const size_t *part_of,
		      size_t parts, struct cprof_ptrs *out)
{
	size_t n = loader->read.num_row_labels, len = profile->stacks.len, p, i;
	size_t *start = cprof_xcalloc(parts + 1, sizeof(*start));
	size_t *order = cprof_xcalloc(len ? len : 1, sizeof(*order));
	size_t *fill = cprof_xcalloc(parts + 1, sizeof(*fill));

	for (i = 0; i < len; i++)
		start[part_of[i] + 1]++;
	for (p = 0; p < parts; p++)
		start[p + 1] += start[p];
	memcpy(fill, start, (parts + 1) * sizeof(*fill));
	for (i = 0; i < len; i++)
		order[fill[part_of[i]]++] = i;
	loader->input_bytes += profile->bytes;
	for (p = 0; p < parts; p++) {
		struct cprof_profile *view = view_of(profile, order + start[p], start[p + 1] - start[p]);
		struct cprof_part *part = new_part(n, profile->row_labels + order[start[p]] * n);

		key_profile(loader, name, view, type, &part->dist);
		cprof_ptrs_add(out, part);
		free_view(view);
	}
	free(fill);
	free(order);
	free(start);
}

void cprof_loader_read_parts(struct cprof_loader *loader, const char *name,
			     struct cprof_ptrs *parts)
{
	size_t n = loader->read.num_row_labels, count, *part_of;
	const char *type;
	struct cprof_profile *profile = read_profile(loader, name, &type);
	struct tuple *tuples;

	if (!profile->row_labels || profile->stacks.len == 0) {
		struct cprof_part *part = new_part(n, NULL);

		key_profile(loader, name, profile, type, &part->dist);
		cprof_ptrs_add(parts, part);
		cprof_profile_free(profile);
		return;
	}
	part_of = cprof_xcalloc(profile->stacks.len, sizeof(*part_of));
	tuples = cprof_xcalloc(profile->stacks.len, sizeof(*tuples));
	count = assign_parts(profile, n, part_of, tuples);
	key_parts(loader, name, profile, type, part_of, count, parts);
	free(tuples);
	free(part_of);
	cprof_profile_free(profile);
}

void cprof_part_free(void *data)
{
	struct cprof_part *part = data;
	size_t j;

	if (!part)
		return;
	for (j = 0; j < part->num_values; j++)
		free(part->values[j]);
	cprof_dist_free(part->dist);
	free(part->values);
	free(part);
}

void cprof_loader_check_operands(const char *const *names, int count)
{
	bool seen_stdin = false;
	int i;

	for (i = 0; i < count; i++) {
		if (strcmp(names[i], "-") != 0)
			continue;
		if (seen_stdin)
			cprof_die("standard input (-) can be read only once");
		seen_stdin = true;
	}
}

void cprof_loader_free(struct cprof_loader *loader)
{
	cprof_symbolizer_free(loader->key.symbolizer);
	free(loader->sample_type);
	cprof_ptrs_clear(&loader->symbol_dirs, free);
	cprof_ptrs_clear(&loader->tag_filters, NULL);
}
