/* json.c: the JSON of a flat distribution (jansson). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/jsonout.h"
#include "base/util.h"
#include "dist.h"
#include "json.h"

/* The p of a count: its share of the total. */
static double share(const struct cprof_dist *dist, uint64_t count)
{
	return dist->total ? (double)count / (double)dist->total : 0.0;
}

/* The object of a flat distribution around `entries` (taken over), the
 * first `n` entries of the sorted distribution summing to `shown`. */
static json_t *flat_root(const struct cprof_dist *dist, json_t *entries, uint64_t shown)
{
	json_t *root = json_object(), *sources = json_array();
	size_t i;

	if (!root || !sources)
		cprof_die_oom();
	for (i = 0; i < dist->sources.len; i++)
		json_array_append_new(sources, cprof_json_string(dist->sources.items[i]));
	cprof_json_set(root, "cprof", json_string("flat"));
	cprof_json_set(root, "version", json_integer(CPROF_SCHEMA_VERSION));
	cprof_json_set(root, "by", json_string(cprof_by_name(dist->by)));
	cprof_json_set(root, "cum", json_boolean(dist->cum));
	cprof_json_set(root, "sources", sources);
	cprof_json_set(root, "period_us", dist->has_period ?
		       json_integer((json_int_t)dist->period_us) : json_null());
	cprof_json_set(root, "total", json_integer((json_int_t)dist->total));
	/* With --cum the counts overlap, and other has no meaning past 0. */
	cprof_json_set(root, "other",
		       json_integer((json_int_t)(!dist->cum && dist->total > shown ?
						 dist->total - shown : 0)));
	cprof_json_set(root, "entries", entries);
	cprof_json_set(root, "sample_type", cprof_json_string(cprof_dist_sample_type(dist)));
	return root;
}

/* Sorts `dist` and returns how many entries `top` keeps (0: all). */
static size_t shown_entries(struct cprof_dist *dist, size_t top)
{
	cprof_dist_sort(dist);
	return top > 0 && top < dist->entries.len ? top : dist->entries.len;
}

json_t *cprof_json_flat(struct cprof_dist *dist, size_t top)
{
	json_t *entries = json_array();
	uint64_t shown = 0;
	size_t n = shown_entries(dist, top), i;

	if (!entries)
		cprof_die_oom();
	for (i = 0; i < n; i++) {
		const struct cprof_entry *entry = dist->entries.items[i];
		json_t *item = json_object();

		cprof_json_set(item, "key", cprof_json_string(entry->key));
		cprof_json_set(item, "count", json_integer((json_int_t)entry->count));
		cprof_json_set(item, "p", json_real(share(dist, entry->count)));
		if (json_array_append_new(entries, item) != 0)
			cprof_die_oom();
		shown += entry->count;
	}
	return flat_root(dist, entries, shown);
}

/* The entries of a flat as they are printed: one object, its members
 * set anew for each entry. */
struct entry_stream {
	const struct cprof_dist *dist;
	size_t next, n;
	json_t *item, *key, *count, *p;
};

/* True when s[0, len) is ASCII, so valid UTF-8 without a closer look. */
static bool all_ascii(const char *s, size_t len)
{
	size_t i = 0;

#ifdef __SSE2__
	for (; i + 16 <= len; i += 16)
		if (_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i))))
			return false;
#endif
	for (; i < len; i++)
		if (s[i] & 0x80)
			return false;
	return true;
}

static const json_t *next_entry(void *ctx)
{
	struct entry_stream *s = ctx;
	const struct cprof_entry *entry;
	size_t len;

	if (s->next == s->n)
		return NULL;
	entry = s->dist->entries.items[s->next++];
	len = strlen(entry->key);
	if ((all_ascii(entry->key, len) ? json_string_setn_nocheck(s->key, entry->key, len)
					: json_string_setn(s->key, entry->key, len)) != 0)
		cprof_die("internal error: a key is not valid UTF-8");
	json_integer_set(s->count, (json_int_t)entry->count);
	json_real_set(s->p, share(s->dist, entry->count));
	return s->item;
}

void cprof_json_print_flat(struct cprof_dist *dist, size_t top, bool compact)
{
	struct entry_stream s = { .dist = dist, .n = shown_entries(dist, top) };
	struct cprof_json_stream stream = { .next = next_entry, .ctx = &s };
	uint64_t shown = 0;
	json_t *root;
	size_t i;

	for (i = 0; i < s.n; i++)
		shown += ((const struct cprof_entry *)dist->entries.items[i])->count;
	s.item = json_object();
	s.key = json_string("");
	s.count = json_integer(0);
	s.p = json_real(0);
	if (!s.item)
		cprof_die_oom();
	cprof_json_set(s.item, "key", json_incref(s.key));
	cprof_json_set(s.item, "count", json_incref(s.count));
	cprof_json_set(s.item, "p", json_incref(s.p));
	root = flat_root(dist, json_array(), shown);
	stream.placeholder = json_object_get(root, "entries");
	cprof_json_dump_stream(stdout, root, compact, &stream);
	fputc('\n', stdout);
	json_decref(root);
	json_decref(s.key);
	json_decref(s.count);
	json_decref(s.p);
	json_decref(s.item);
}
