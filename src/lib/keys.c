/* keys.c: the samples of a profile as keys of a flat distribution. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/arena.h"
#include "calltree.h"
#include "dist.h"
#include "base/hash.h"
#include "keys.h"
#include "maps.h"
#include "perfscript.h"
#include "proto.h"
#include "profile-core.h"
#include "prune.h"
#include "symbolize.h"
#include "base/util.h"

/* What one looked-up address turns into: one name for most keys, the
 * inlined functions (innermost first) for function keys with DWARF. */
struct frames {
	uint64_t addr;         /* the PC it was looked up for */
	struct cprof_entry *entry; /* the entry of names[0] once a key of it was added */
	uint32_t count;
	uint8_t pruned;        /* PRUNE_NONE, _BENEATH or _WHOLE (prune_location) */
	const char *names[];   /* interned: equal names are the same pointer */
};

/* The frames of each PC looked up: open addressing with linear probing,
 * the frames in an arena (a GLib table with a malloc per PC was a tenth
 * of --by=stack). */
struct frame_table {
	struct frames **slots;
	size_t mask;           /* capacity - 1, capacity a power of two */
	size_t used;
	struct cprof_arena arena;
};

struct keyer {
	const struct cprof_key_options *options;
	const struct cprof_maps *maps;
	const struct cprof_locations *locations; /* profile.proto: PCs are their indexes */
	bool exact_pcs;        /* no PC is a return address */
	struct cprof_prune *prune; /* the profile's drop_frames, by name keys only */
	struct frame_table cache;
	struct cprof_strings *strings;
	GString *scratch;      /* formatting one name */
	struct cprof_stack_keys *stack_keys; /* --by=stack */
	const char **names;    /* --cum: the names of one stack */
	size_t names_cap;
};

static const char *intern(struct keyer *k, const char *s)
{
	return cprof_strings_intern(k->strings, s);
}

static const char *internf(struct keyer *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static const char *internf(struct keyer *k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	g_string_vprintf(k->scratch, fmt, ap);
	va_end(ap);
	return intern(k, k->scratch->str);
}

/* The name of a mapped file as the key of a PC no symbol names:
 * "[libm.so.6]", "[vdso]" (cprof_dso_unnamed). */
static const char *bracketed(struct keyer *k, const struct cprof_mapping *m)
{
	char *key = cprof_dso_unnamed(m->basename);
	const char *interned = intern(k, key);

	free(key);
	return interned;
}

/* --by=address's key of `addr`: its file offset in mapping `m`
 * ("gzip+0x4330"), or the address itself when unmapped. */
static const char *address_key(struct keyer *k, const struct cprof_mapping *m, uint64_t addr)
{
	if (m)
		return internf(k, "%s+0x%" PRIx64, m->basename, addr - m->start + m->offset);
	return internf(k, "0x%" PRIx64, addr);
}

/* The function key of an address no symbol names: its place in the file
 * ("gzip+0x4330", as --by=address keys it: the same across runs under
 * ASLR); "[vdso]" for a mapping bracketed already and "[prog]" for a
 * link-time one, whose addresses are no file offsets; the address itself
 * when unmapped. */
static const char *unresolved(struct keyer *k, const struct cprof_mapping *m, uint64_t addr)
{
	if (m && (m->link_time || cprof_dso_bracketed(m->basename)))
		return bracketed(k, m);
	return address_key(k, m, addr);
}

/* Symbol names of `addr` in `m` for function and line keys, from `known`
 * frames (a profile's own, `count` of them) or else the symbolizer; 0
 * when none. */
static size_t symbol_names(struct keyer *k, const struct cprof_mapping *m, uint64_t addr,
			   const struct cprof_symbol *known, size_t count, const char **names,
			   size_t max)
{
	const struct cprof_symbol *symbols = known;
	const struct cprof_key_options *o = k->options;
	size_t i, n = 0;
	bool main;

	if (count == 0) {
		if (!o->symbolize || !o->symbolizer || !m)
			return 0;
		main = k->maps->main_path && strcmp(m->file, k->maps->main_path) == 0;
		count = cprof_symbolize(o->symbolizer, m, main, addr, &symbols);
	}
	if (count == 0)
		return 0;
	if (o->by == CPROF_BY_LINE) {
		if (symbols[0].file && symbols[0].line > 0) {
			names[0] = internf(k, "%s:%d", symbols[0].file, symbols[0].line);
			return 1;
		}
		if (!symbols[0].function)
			return 0;
		names[0] = intern(k, symbols[0].function);
		return 1;
	}
	if (!o->inline_frames)
		symbols += count - 1, count = 1;
	for (i = 0; i < count && n < max; i++)
		if (symbols[i].function)
			names[n++] = intern(k, symbols[i].function);
	return n;
}

/* The slot of `pc` in the table: its frames, or the empty one where they
 * go. */
static struct frames **frame_slot(const struct frame_table *t, uint64_t pc)
{
	size_t j;

	for (j = (size_t)cprof_hash_u64(pc) & t->mask;; j = (j + 1) & t->mask)
		if (!t->slots[j] || t->slots[j]->addr == pc)
			return &t->slots[j];
}

static void frame_table_grow(struct frame_table *t)
{
	struct frames **old = t->slots;
	size_t old_cap = t->mask + 1, i;

	t->mask = 2 * old_cap - 1;
	t->slots = cprof_pages_alloc((t->mask + 1) * sizeof(*t->slots));
	for (i = 0; i < old_cap; i++)
		if (old[i])
			*frame_slot(t, old[i]->addr) = old[i];
	cprof_pages_free(old, old_cap * sizeof(*old));
}

/* The names of `pc` by the keying asked for (at least one); m is its
 * mapping, addr the address to look up. */
static size_t key_names(struct keyer *k, const struct cprof_mapping *m, uint64_t addr,
			const struct cprof_symbol *known, size_t known_count,
			const char **names, size_t max)
{
	size_t count = 0;

	switch (k->options->by) {
	case CPROF_BY_DSO:
		names[count++] = m ? intern(k, m->basename) : intern(k, "[unknown]");
		break;
	case CPROF_BY_ADDRESS:
		names[count++] = address_key(k, m, addr);
		break;
	case CPROF_BY_FUNCTION:
	case CPROF_BY_LINE:
	case CPROF_BY_STACK:
	default:       /* never a label: those are keyed from profile->labels */
		count = symbol_names(k, m, addr, known, known_count, names, max);
		if (count == 0)
			names[count++] = unresolved(k, m, addr);
		break;
	}
	return count;
}

enum { PRUNE_NONE, PRUNE_BENEATH, PRUNE_WHOLE };

/* pprof's Prune of one location, its names innermost first: the
 * outermost name of a frame to prune marks it; the names inside that one
 * go, and the location goes whole when it is its outermost. */
static uint8_t prune_location(const struct keyer *k, const char **names, size_t *count)
{
	size_t i = *count;

	while (i > 0 && !cprof_prune_drops(k->prune, names[i - 1]))
		i--;
	if (i == 0)
		return PRUNE_NONE;
	if (i == *count)
		return PRUNE_WHOLE;
	memmove(names, names + i, (*count - i) * sizeof(names[0]));
	*count -= i;
	return PRUNE_BENEATH;
}

/* --by=line: the location is pruned by the functions of its frames; its
 * line stays the innermost one's. */
static uint8_t prune_line(struct keyer *k, const struct cprof_mapping *m, uint64_t addr,
			  const struct cprof_symbol *known, size_t known_count)
{
	const struct cprof_key_options *line_options = k->options;
	struct cprof_key_options options = *line_options;
	const char *names[256];
	size_t count;

	options.by = CPROF_BY_FUNCTION;
	k->options = &options;
	count = symbol_names(k, m, addr, known, known_count, names, G_N_ELEMENTS(names));
	k->options = line_options;
	return prune_location(k, names, &count) == PRUNE_NONE ? PRUNE_NONE : PRUNE_BENEATH;
}

static struct frames *resolve(struct keyer *k, uint64_t pc)
{
	const struct cprof_symbol *known = NULL;
	const struct cprof_mapping *m;
	struct frames *f, **slot = frame_slot(&k->cache, pc);
	const char *names[256];
	size_t count, known_count = 0;
	uint64_t addr = pc;
	uint8_t pruned;

	if (*slot)
		return *slot;
	if (k->locations)
		m = cprof_location_get(k->locations, pc, &addr, &known, &known_count);
	else
		m = cprof_maps_find(k->maps, addr);
	if (m && m->path[0] == '\0')
		m = NULL;
	count = key_names(k, m, addr, known, known_count, names, G_N_ELEMENTS(names));
	if (!k->prune)
		pruned = PRUNE_NONE;
	else if (k->options->by == CPROF_BY_LINE)
		pruned = prune_line(k, m, addr, known, known_count);
	else
		pruned = prune_location(k, names, &count);
	f = cprof_arena_alloc(&k->cache.arena, sizeof(*f) + count * sizeof(f->names[0]));
	f->addr = pc;
	f->entry = NULL;
	f->count = (uint32_t)count;
	f->pruned = pruned;
	memcpy(f->names, names, count * sizeof(names[0]));
	*slot = f;
	if (++k->cache.used > k->cache.mask / 2)
		frame_table_grow(&k->cache);
	return f;
}

struct cprof_stack_keys {
	GString *key;
	uint64_t room;         /* the dist's room for keys when begun */
	size_t frames;         /* pushed so far */
};

struct cprof_stack_keys *cprof_stack_keys_new(void)
{
	struct cprof_stack_keys *keys = cprof_xcalloc(1, sizeof(*keys));

	keys->key = g_string_sized_new(256);
	return keys;
}

void cprof_stack_keys_free(struct cprof_stack_keys *keys)
{
	if (!keys)
		return;
	g_string_free(keys->key, TRUE);
	free(keys);
}

void cprof_stack_keys_begin(struct cprof_stack_keys *keys, const struct cprof_dist *dist)
{
	g_string_truncate(keys->key, 0);
	keys->room = cprof_dist_key_room(dist);
	keys->frames = 0;
}

bool cprof_stack_keys_push(struct cprof_stack_keys *keys, const char *name)
{
	size_t at;

	if (keys->key->len >= keys->room)
		return false;
	if (keys->frames++)
		g_string_append_c(keys->key, ';');
	at = keys->key->len;
	g_string_append(keys->key, name);
	cprof_stack_frame_tidy(keys->key->str + at, keys->key->len - at);
	return keys->key->len < keys->room;
}

void cprof_stack_keys_end(struct cprof_stack_keys *keys, struct cprof_dist *dist,
			  uint64_t count)
{
	if (keys->key->len >= keys->room)
		dist->over_limit = true;
	else
		cprof_dist_add(dist, keys->key->str, count);
}

static int cmp_pointers(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (const char *const *)a, y = (uintptr_t) * (const char *const *)b;

	return x < y ? -1 : x > y;
}

void cprof_keys_add_each_once(struct cprof_dist *dist, const char **names, size_t n,
			      uint64_t count)
{
	size_t i;

	qsort(names, n, sizeof(names[0]), cmp_pointers);
	for (i = 0; i < n; i++)
		if (i == 0 || names[i] != names[i - 1])
			cprof_dist_add(dist, names[i], count);
}

static void push_name(struct keyer *k, size_t *n, const char *name)
{
	if (*n == k->names_cap) {
		k->names_cap = k->names_cap ? 2 * k->names_cap : 256;
		k->names = cprof_xrealloc(k->names, k->names_cap * sizeof(k->names[0]));
	}
	k->names[(*n)++] = name;
}

/* The PC to look frame i of a stack up at: a caller's return address less
 * one, unless the profile's PCs are exact. */
static uint64_t frame_pc(const struct keyer *k, const struct cprof_stack *stack, uint32_t i)
{
	return i == 0 || k->exact_pcs ? stack->pcs[i] : stack->pcs[i] - 1;
}

/* The leaf of `stack` once pruned as pprof prunes it: from the root, the
 * first location to prune past a location that is not is cut with all
 * beneath it (kept, its names trimmed, when pruned beneath only). */
static uint32_t pruned_leaf(struct keyer *k, const struct cprof_stack *stack)
{
	bool user = false;
	uint32_t i;

	for (i = stack->depth; i-- > 0;) {
		const struct frames *f = resolve(k, frame_pc(k, stack, i));

		if (f->pruned == PRUNE_NONE)
			user = true;
		else if (user)
			return f->pruned == PRUNE_WHOLE ? i + 1 : i;
	}
	return 0;
}

static void add_stack(struct keyer *k, const struct cprof_stack *stack, struct cprof_dist *dist)
{
	const struct frames *f;
	size_t n = 0;
	uint32_t i, j, leaf_at = k->prune ? pruned_leaf(k, stack) : 0;

	if (k->options->by == CPROF_BY_STACK) {
		bool room = true;

		cprof_stack_keys_begin(k->stack_keys, dist);
		for (i = stack->depth; room && i-- > leaf_at;) {
			f = resolve(k, frame_pc(k, stack, i));
			for (j = f->count; room && j-- > 0;)
				room = cprof_stack_keys_push(k->stack_keys, f->names[j]);
		}
		cprof_stack_keys_end(k->stack_keys, dist, stack->count);
		return;
	}
	if (!k->options->cum) {
		/* resolve's answers live as long as k: the entry of the leaf's
		 * key is looked up once per PC, not once per chain. */
		struct frames *leaf = resolve(k, frame_pc(k, stack, leaf_at));

		if (leaf->entry)
			leaf->entry->count += stack->count;
		else
			leaf->entry = cprof_dist_add(dist, leaf->names[0], stack->count);
		return;
	}
	for (i = leaf_at; i < stack->depth; i++) {
		f = resolve(k, frame_pc(k, stack, i));
		for (j = 0; j < f->count; j++)
			push_name(k, &n, f->names[j]);
	}
	cprof_keys_add_each_once(dist, k->names, n, stack->count);
}

static int gperf_to_dist(struct cprof_profile *profile, const struct cprof_key_options *options,
			 struct cprof_dist *dist)
{
	struct keyer k = {
		.options = options,
		.maps = &profile->maps,
		.locations = profile->locations,
		.exact_pcs = profile->exact_pcs,
		.cache = { .slots = cprof_pages_alloc(1024 * sizeof(struct frames *)), .mask = 1023 },
		.strings = cprof_strings_new(),
		.scratch = g_string_sized_new(256),
		.stack_keys = cprof_stack_keys_new(),
		.prune = options->by == CPROF_BY_FUNCTION || options->by == CPROF_BY_LINE ||
				 options->by == CPROF_BY_STACK ?
			 cprof_prune_new(profile->drop_frames, profile->keep_frames) :
			 NULL,
	};
	size_t i;

	for (i = 0; i < profile->stacks.len && !dist->over_limit; i++) {
		const struct cprof_stack *stack = profile->stacks.items[i];

		if (profile->labels)
			cprof_dist_add(dist, profile->labels[i], stack->count);
		else
			add_stack(&k, stack, dist);
	}
	cprof_pages_free(k.cache.slots, (k.cache.mask + 1) * sizeof(*k.cache.slots));
	cprof_arena_free(&k.cache.arena);
	cprof_strings_free(k.strings);
	g_string_free(k.scratch, TRUE);
	cprof_stack_keys_free(k.stack_keys);
	cprof_prune_free(k.prune);
	free(k.names);
	return 0;
}

static int cmp_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The part of a folded frame that names its function: without
 * async-profiler's frame type ("_[j]" JIT-compiled, "_[i]" inlined,
 * "_[k]" kernel, "_[0]" interpreted, "_[1]" C1-compiled) and without
 * py-spy's " (FILE:LINE)", whose FILE:LINE goes to *line (NULL when the
 * frame has none).  Returns its length. */
static size_t frame_function(const char *frame, size_t len, const char **line,
			     size_t *line_len)
{
	size_t open, colon, i;

	*line = NULL;
	if (len > 4 && frame[len - 4] == '_' && frame[len - 3] == '[' && frame[len - 1] == ']' &&
	    strchr("jik01", frame[len - 2]) && frame[len - 2])
		return len - 4;
	if (len < 6 || frame[len - 1] != ')' || !g_ascii_isdigit(frame[len - 2]))
		return len;
	for (colon = len - 2; colon > 0 && g_ascii_isdigit(frame[colon - 1]); colon--)
		;
	if (colon < 4 || frame[--colon] != ':')
		return len;
	for (open = colon; open > 0 && frame[open - 1] != '('; open--)
		;
	if (open < 3 || open == colon || frame[open - 2] != ' ')
		return len;
	for (i = open; i < colon; i++)
		if (frame[i] == ')')
			return len;
	*line = frame + open;
	*line_len = len - 1 - open;
	return open - 2;
}

/* Keys folded frames: names cleaned of what says how a frame ran
 * (frame_function), or lines for --by=line. */
struct frame_keyer {
	bool by_line;
	bool found_line;       /* --by=line: a frame had its line */
	GString *key;
};

/* The key of the folded frame frame[0, len): where it starts in it, and
 * its length. */
static const char *frame_span(struct frame_keyer *k, const char *frame, size_t len,
			      size_t *key_len)
{
	const char *line;
	size_t line_len;

	*key_len = frame_function(frame, len, &line, &line_len);
	if (line && k->by_line) {
		k->found_line = true;
		*key_len = line_len;
		return line;
	}
	return frame;
}

/* The key of the NUL-terminated folded frame `frame` (itself when
 * nothing is cut from it, else in k->key). */
static const char *frame_key(struct frame_keyer *k, const char *frame)
{
	size_t len = strlen(frame), key_len;
	const char *key = frame_span(k, frame, len, &key_len);

	if (key_len == len)
		return frame;
	g_string_truncate(k->key, 0);
	g_string_append_len(k->key, key, (gssize)key_len);
	return k->key->str;
}

/* Adds `count` to the key of each distinct frame of the folded stack
 * `frames` once (a --cum key), `names` being scratch space. */
static void add_each_frame_once(struct frame_keyer *k, struct cprof_dist *dist,
				const char *frames, uint64_t count, GPtrArray *names)
{
	char *copy = cprof_xstrdup(frames), *frame, *save = NULL;
	guint i;

	g_ptr_array_set_size(names, 0);
	for (frame = strtok_r(copy, ";", &save); frame; frame = strtok_r(NULL, ";", &save)) {
		size_t key_len;
		const char *key = frame_span(k, frame, strlen(frame), &key_len);

		memmove(frame, key, key_len);  /* a key is a part of its frame */
		frame[key_len] = '\0';
		g_ptr_array_add(names, frame);
	}
	if (names->len > 1)
		qsort(names->pdata, names->len, sizeof(gpointer), cmp_strings);
	for (i = 0; i < names->len; i++)
		if (i == 0 || strcmp(names->pdata[i], names->pdata[i - 1]) != 0)
			cprof_dist_add(dist, names->pdata[i], count);
	free(copy);
}

static int folded_to_dist(struct cprof_profile *profile, const struct cprof_key_options *options,
			  struct cprof_dist *dist, struct cprof_error *err)
{
	struct frame_keyer k = { .by_line = options->by == CPROF_BY_LINE };
	GPtrArray *names;
	size_t i;

	if (options->by != CPROF_BY_FUNCTION && options->by != CPROF_BY_STACK &&
	    options->by != CPROF_BY_LINE)
		return cprof_error_set(err, "folded stacks carry names only: --by=%s needs a "
					    "gperftools profile (use function or stack)",
				       cprof_by_name(options->by));
	names = g_ptr_array_new();
	k.key = g_string_sized_new(256);
	for (i = 0; i < profile->folded.len; i++) {
		const struct cprof_folded_stack *stack = profile->folded.items[i];
		const char *leaf = strrchr(stack->frames, ';');

		leaf = leaf ? leaf + 1 : stack->frames;
		if (options->by == CPROF_BY_STACK)
			cprof_dist_add(dist, stack->frames, stack->count);
		else if (!options->cum)
			cprof_dist_add(dist, frame_key(&k, leaf), stack->count);
		else
			add_each_frame_once(&k, dist, stack->frames, stack->count, names);
	}
	g_ptr_array_free(names, TRUE);
	g_string_free(k.key, TRUE);
	if (k.by_line && !k.found_line && profile->folded.len > 0)
		return cprof_error_set(err, "--by=line: these folded stacks carry no lines (as "
					    "py-spy's NAME (FILE:LINE) frames do): use function or "
					    "stack");
	return 0;
}

int cprof_profile_to_dist(struct cprof_profile *profile, const struct cprof_key_options *options,
			  struct cprof_dist *dist, struct cprof_error *err)
{
	int status = 0;

	switch (profile->format) {
	case CPROF_FORMAT_FLAT:
		if (profile->flat->by != dist->by || profile->flat->cum != dist->cum) {
			if (options->by_given || dist->num_inputs > 0)
				return cprof_error_set(err, "a flat keyed by %s%s, not by %s%s",
						       cprof_by_name(profile->flat->by),
						       profile->flat->cum ? " with --cum" : "",
						       cprof_by_name(dist->by), dist->cum ? " with --cum" : "");
			dist->by = profile->flat->by;
			dist->cum = profile->flat->cum;
		}
		cprof_dist_merge(dist, profile->flat);
		return 0;
	case CPROF_FORMAT_FOLDED:
		status = folded_to_dist(profile, options, dist, err);
		break;
	case CPROF_FORMAT_PERF:
		status = cprof_perf_to_dist(profile, options, dist, err);
		break;
	case CPROF_FORMAT_SPEEDSCOPE:
	case CPROF_FORMAT_CPUPROFILE:
		status = cprof_calltree_to_dist(profile->calltree, options, dist, err);
		break;
	case CPROF_FORMAT_GPERF:
	case CPROF_FORMAT_PPROF:
	case CPROF_FORMAT_HEAP:
		if (cprof_by_label_key(options->by) && !profile->labels)
			return cprof_error_set(err, "--by=%s: the profile carries no labels",
					       cprof_by_name(options->by));
		status = gperf_to_dist(profile, options, dist);
		break;
	}
	if (status == 0)
		dist->total += profile->total;
	return status;
}
