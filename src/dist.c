/* dist.c: the flat distribution: keys, counts, merge, sort. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "dist.h"
#include "ptrs.h"
#include "util.h"

static const char *const by_names[] = {
	[CPROF_BY_FUNCTION] = "function",
	[CPROF_BY_DSO] = "dso",
	[CPROF_BY_LINE] = "line",
	[CPROF_BY_ADDRESS] = "address",
	[CPROF_BY_STACK] = "stack",
};

const char *cprof_by_name(enum cprof_by by)
{
	return by_names[by];
}

int cprof_by_parse(const char *name)
{
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(by_names); i++)
		if (strcmp(name, by_names[i]) == 0)
			return (int)i;
	return -1;
}

/* The key index: a GLib hash table of keys to entries, behind a type of
 * cprof's own. */
struct cprof_dist_index {
	GHashTable *table;
};

static void entry_free(void *p)
{
	struct cprof_entry *entry = p;

	free(entry->key);
	free(entry);
}

struct cprof_dist *cprof_dist_new(enum cprof_by by, bool cum)
{
	struct cprof_dist *dist = cprof_xcalloc(1, sizeof(*dist));

	dist->by = by;
	dist->cum = cum;
	dist->index = cprof_xmalloc(sizeof(*dist->index));
	dist->index->table = g_hash_table_new(g_str_hash, g_str_equal);
	return dist;
}

void cprof_dist_free(struct cprof_dist *dist)
{
	if (!dist)
		return;
	g_hash_table_destroy(dist->index->table);
	free(dist->index);
	cprof_ptrs_clear(&dist->entries, entry_free);
	cprof_ptrs_clear(&dist->sources, free);
	free(dist);
}

struct cprof_entry *cprof_dist_find(const struct cprof_dist *dist, const char *key)
{
	return g_hash_table_lookup(dist->index->table, key);
}

struct cprof_entry *cprof_dist_add(struct cprof_dist *dist, const char *key, uint64_t count)
{
	struct cprof_entry *entry = g_hash_table_lookup(dist->index->table, key);

	if (!entry) {
		entry = cprof_xmalloc(sizeof(*entry));
		entry->key = cprof_xstrdup(key);
		entry->count = 0;
		cprof_ptrs_add(&dist->entries, entry);
		g_hash_table_insert(dist->index->table, entry->key, entry);
		dist->sorted = false;
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

int cprof_entry_cmp(const void *a, const void *b)
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
	cprof_ptrs_sort(&dist->entries, cprof_entry_cmp);
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
