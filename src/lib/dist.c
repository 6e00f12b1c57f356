/* dist.c: the flat distribution: keys, counts, merge, sort. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/arena.h"
#include "dist.h"
#include "base/hash.h"
#include "base/ptrs.h"
#include "base/util.h"

static const char *const by_names[] = {
	[CPROF_BY_FUNCTION] = "function",
	[CPROF_BY_DSO] = "dso",
	[CPROF_BY_LINE] = "line",
	[CPROF_BY_ADDRESS] = "address",
	[CPROF_BY_STACK] = "stack",
};

/* The "label:KEY" names parsed in this run: CPROF_BY_LABEL + i names
 * label_names[i].  They live as long as the program. */
static GPtrArray *label_names;

const char *cprof_by_name(enum cprof_by by)
{
	if (by >= CPROF_BY_LABEL)
		return g_ptr_array_index(label_names, by - CPROF_BY_LABEL);
	return by_names[by];
}

void cprof_stack_frame_tidy(char *s, size_t len)
{
	char *end = s + len;

	while ((s = memchr(s, ';', (size_t)(end - s))))
		*s++ = ':';
}

void cprof_put_by(FILE *out, enum cprof_by by)
{
	fputs("by ", out);
	cprof_put_text(out, cprof_by_name(by));
}

const char *cprof_by_label_key(enum cprof_by by)
{
	return by >= CPROF_BY_LABEL ? cprof_by_name(by) + strlen("label:") : NULL;
}

int cprof_by_parse(const char *name)
{
	size_t i;

	for (i = 0; i < CPROF_BY_LABEL; i++)
		if (strcmp(name, by_names[i]) == 0)
			return (int)i;
	if (strncmp(name, "label:", 6) != 0 || name[6] == '\0' || !g_utf8_validate(name, -1, NULL))
		return -1;
	if (!label_names)
		label_names = g_ptr_array_new();
	for (i = 0; i < label_names->len; i++)
		if (strcmp(name, g_ptr_array_index(label_names, i)) == 0)
			return CPROF_BY_LABEL + (int)i;
	g_ptr_array_add(label_names, cprof_xstrdup(name));
	return CPROF_BY_LABEL + (int)label_names->len - 1;
}

/* The key index: open addressing with linear probing over (hash, entry)
 * pairs, the entries and their keys in an arena.  A key is hashed once
 * per cprof_dist_add (cprof_hash, keyed per run; GLib's string hash and a
 * malloc per key were a fifth of --by=stack). */
struct cprof_dist_index {
	struct index_slot {
		uint64_t hash;
		struct cprof_entry *entry;
	} *slots;
	size_t mask;           /* capacity - 1, capacity a power of two */
	size_t used;
	struct cprof_arena arena;      /* the entries and their keys */
	struct cprof_entry refused;    /* the counts of keys past the key limit */
};

struct cprof_dist *cprof_dist_new(enum cprof_by by, bool cum)
{
	struct cprof_dist *dist = cprof_xcalloc(1, sizeof(*dist));

	dist->by = by;
	dist->cum = cum;
	dist->index = cprof_xcalloc(1, sizeof(*dist->index));
	dist->index->mask = 255;
	dist->index->slots = cprof_pages_alloc((dist->index->mask + 1) *
					       sizeof(*dist->index->slots));
	return dist;
}

void cprof_dist_free(struct cprof_dist *dist)
{
	if (!dist)
		return;
	cprof_pages_free(dist->index->slots, (dist->index->mask + 1) * sizeof(*dist->index->slots));
	cprof_arena_free(&dist->index->arena);
	free(dist->index);
	cprof_ptrs_clear(&dist->entries, NULL);
	cprof_ptrs_clear(&dist->sources, free);
	free(dist->sample_type);
	free(dist);
}

const char *cprof_dist_sample_type(const struct cprof_dist *dist)
{
	return dist->sample_type ? dist->sample_type : "samples/count";
}

int cprof_dist_note_sample_type(struct cprof_dist *dist, const char *sample_type,
				struct cprof_error *err)
{
	const char *type = sample_type ? sample_type : "samples/count";

	if (dist->num_inputs > 1 || dist->sample_type) {
		if (strcmp(cprof_dist_sample_type(dist), type) != 0)
			return cprof_error_set(err, "sample type %s differs from %s of the inputs "
						    "before it", type, cprof_dist_sample_type(dist));
		return 0;
	}
	dist->sample_type = cprof_xstrdup(type);
	return 0;
}

double cprof_dist_units_per_sample(const struct cprof_dist *dist)
{
	static const struct {
		const char *unit;
		double per_us;
	} times[] = {
		{ "nanoseconds", 1e3 }, { "microseconds", 1 }, { "milliseconds", 1e-3 },
		{ "seconds", 1e-6 },
	};
	const char *type = cprof_dist_sample_type(dist), *unit = strrchr(type, '/');
	size_t i;

	if (strcmp(type, "samples/count") == 0)
		return 1;
	if (!unit || !dist->has_period || dist->period_us == 0)
		return 0;
	for (i = 0; i < G_N_ELEMENTS(times); i++)
		if (strcmp(unit + 1, times[i].unit) == 0)
			return (double)dist->period_us * times[i].per_us;
	return 0;
}

/* The slot of the key `key` (hashed to `hash`): its entry's, or the
 * empty one where it goes. */
static struct index_slot *index_find(const struct cprof_dist_index *index, const char *key,
				     uint64_t hash)
{
	size_t j;

	for (j = hash & index->mask;; j = (j + 1) & index->mask) {
		struct index_slot *slot = &index->slots[j];

		if (!slot->entry ||
		    (slot->hash == hash && strcmp(slot->entry->key, key) == 0))
			return slot;
	}
}

static void index_grow(struct cprof_dist_index *index)
{
	struct index_slot *old = index->slots;
	size_t old_cap = index->mask + 1, i, j;

	index->mask = 2 * old_cap - 1;
	index->slots = cprof_pages_alloc((index->mask + 1) * sizeof(*index->slots));
	for (i = 0; i < old_cap; i++) {
		if (!old[i].entry)
			continue;
		for (j = old[i].hash & index->mask; index->slots[j].entry; j = (j + 1) & index->mask)
			;
		index->slots[j] = old[i];
	}
	cprof_pages_free(old, old_cap * sizeof(*old));
}

struct cprof_entry *cprof_dist_find(const struct cprof_dist *dist, const char *key)
{
	size_t len = strlen(key);

	return index_find(dist->index, key, cprof_hash(key, len))->entry;
}

void cprof_dist_limit_keys(struct cprof_dist *dist, uint64_t bytes)
{
	dist->key_limit = bytes;
}

uint64_t cprof_dist_key_room(const struct cprof_dist *dist)
{
	if (dist->key_limit == 0)
		return UINT64_MAX;
	return dist->key_limit > dist->key_bytes ? dist->key_limit - dist->key_bytes : 0;
}

struct cprof_entry *cprof_dist_add(struct cprof_dist *dist, const char *key, uint64_t count)
{
	struct cprof_dist_index *index = dist->index;
	size_t len = strlen(key);
	uint64_t hash = cprof_hash(key, len);
	struct index_slot *slot = index_find(index, key, hash);
	struct cprof_entry *entry = slot->entry;

	if (!entry && len >= cprof_dist_key_room(dist)) {
		dist->over_limit = true;
		entry = &index->refused;
		entry->key = (char *)"";
	} else if (!entry) {
		dist->key_bytes += len + 1;
		entry = cprof_arena_alloc(&index->arena, sizeof(*entry));
		entry->key = cprof_arena_strndup(&index->arena, key, len);
		entry->count = 0;
		cprof_ptrs_add(&dist->entries, entry);
		slot->hash = hash;
		slot->entry = entry;
		dist->sorted = false;
		if (++index->used > index->mask / 2)
			index_grow(index);
	}
	entry->count += count;
	return entry;
}

void cprof_dist_note_input(struct cprof_dist *dist, const char *source, bool has_period,
			   uint64_t period_us)
{
	if (dist->num_inputs == 0) {
		dist->has_period = has_period;
		dist->period_us = period_us;
	} else if (!has_period || !dist->has_period || dist->period_us != period_us) {
		dist->has_period = false;
	}
	dist->num_inputs++;
	cprof_ptrs_add(&dist->sources, cprof_utf8_sanitize(source, strlen(source), NULL));
}

void cprof_dist_merge(struct cprof_dist *into, const struct cprof_dist *from)
{
	guint i;

	for (i = 0; i < from->entries.len; i++) {
		const struct cprof_entry *entry = from->entries.items[i];

		cprof_dist_add(into, entry->key, entry->count);
	}
	into->total += from->total;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct cprof_entry *x = *(const struct cprof_entry *const *)a;
	const struct cprof_entry *y = *(const struct cprof_entry *const *)b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

void cprof_dist_sort(struct cprof_dist *dist)
{
	if (dist->sorted)
		return;
	cprof_ptrs_sort(&dist->entries, entry_cmp);
	dist->sorted = true;
}

uint64_t cprof_dist_other(const struct cprof_dist *dist)
{
	uint64_t sum = 0;
	guint i;

	if (dist->cum)
		return 0;
	for (i = 0; i < dist->entries.len; i++)
		sum += ((const struct cprof_entry *)dist->entries.items[i])->count;
	return dist->total > sum ? dist->total - sum : 0;
}
