/* store-batch.c: a shard's rows of a ClickHouse load, put in the rows
 * table's order and written as one Native block.
 *
 * A block in the table's order (kind, dimensions, date, key) is written
 * by the server as it comes, where one out of order costs it a sort,
 * three quarters of its work on a load.  A batch ends before the profile
 * that would take it past its limit of rows or past BATCH_KEY_BYTES of
 * distinct keys; the load makes each batch one part of the table, which
 * the server merges later.  The limit is 2^17 rows for a batch's first
 * BATCH_SMALL_WRITES writes (a shard's first million rows, as a load
 * has two batches a shard), so that the shards take the first rows while
 * the load reads on and what is left to send when it ends is small (at
 * 2^20 a load of 10,000 profiles sent all at its end and took a third
 * longer, bench/RESULTS.md); then it doubles with each write up to 2^20,
 * so that a long load makes parts of a million rows, as many as the
 * server would have made of unsorted rows, and stays far below its limit
 * of parts (300 a partition). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "native.h"
#include "store-batch.h"
#include "base/util.h"

/* The first and the last limit of rows of a batch, and the most bytes
 * of its distinct keys. */
#define BATCH_FIRST_ROWS (1u << 17)
#define BATCH_SMALL_WRITES 4
#define BATCH_MAX_ROWS (1u << 20)
#define BATCH_KEY_BYTES (16 << 20)

/* What the rows of one profile in a batch share. */
struct batch_head {
	const char **dims;     /* in the batch's strings */
	const char *kind;      /* a cprof_by_name */
	uint32_t seq, rank;    /* rank: the head's place in the order */
	uint16_t day;
};

/* A distinct key of a batch and its place in the order. */
struct batch_key {
	uint32_t rank, len;
	char text[];
};

struct batch_row {
	uint64_t count;
	const struct batch_key *key;
	uint32_t head;
};

struct cprof_batch {
	size_t num_dims;
	size_t limit;          /* of rows, up to BATCH_MAX_ROWS */
	unsigned writes;
	GArray *heads;         /* struct batch_head */
	GArray *rows;          /* struct batch_row */
	GHashTable *keys;      /* text -> struct batch_key * */
	struct cprof_strings *strings; /* the heads' dimensions, each once */
	size_t key_bytes;
};

struct cprof_batch *cprof_batch_new(size_t num_dims)
{
	struct cprof_batch *b = cprof_xcalloc(1, sizeof(*b));

	b->num_dims = num_dims;
	b->limit = BATCH_FIRST_ROWS;
	b->heads = g_array_new(FALSE, FALSE, sizeof(struct batch_head));
	b->rows = g_array_new(FALSE, FALSE, sizeof(struct batch_row));
	b->keys = g_hash_table_new_full(cprof_str_hash, g_str_equal, NULL, free);
	b->strings = cprof_strings_new();
	return b;
}

static void batch_clear(struct cprof_batch *b)
{
	guint i;

	for (i = 0; i < b->heads->len; i++)
		free(g_array_index(b->heads, struct batch_head, i).dims);
	g_array_set_size(b->heads, 0);
	g_array_set_size(b->rows, 0);
	g_hash_table_remove_all(b->keys);
	cprof_strings_clear(b->strings);
	b->key_bytes = 0;
}

void cprof_batch_free(struct cprof_batch *b)
{
	if (!b)
		return;
	batch_clear(b);
	g_array_free(b->heads, TRUE);
	g_array_free(b->rows, TRUE);
	g_hash_table_destroy(b->keys);
	cprof_strings_free(b->strings);
	free(b);
}

size_t cprof_batch_rows(const struct cprof_batch *b)
{
	return b->rows->len;
}

bool cprof_batch_full(const struct cprof_batch *b, size_t keys)
{
	return b->rows->len && (b->rows->len + keys > b->limit ||
				b->key_bytes >= BATCH_KEY_BYTES);
}

uint32_t cprof_batch_head(struct cprof_batch *b, const char *const *dims, const char *kind,
			  uint16_t day, uint32_t seq)
{
	struct batch_head h = { .kind = kind, .seq = seq, .day = day };
	size_t d;

	h.dims = cprof_xcalloc(b->num_dims ? b->num_dims : 1, sizeof(*h.dims));
	for (d = 0; d < b->num_dims; d++)
		h.dims[d] = cprof_strings_intern(b->strings, dims[d]);
	g_array_append_val(b->heads, h);
	return b->heads->len - 1;
}

void cprof_batch_add(struct cprof_batch *b, uint32_t head, const char *key, uint64_t count)
{
	struct batch_key *k = g_hash_table_lookup(b->keys, key);
	struct batch_row row = { .count = count, .head = head };

	if (!k) {
		size_t len = strlen(key);

		k = cprof_xmalloc(sizeof(*k) + len + 1);
		k->len = (uint32_t)len;
		memcpy(k->text, key, len + 1);
		g_hash_table_insert(b->keys, k->text, k);
		b->key_bytes += len + 1;
	}
	row.key = k;
	g_array_append_val(b->rows, row);
}

struct head_order {
	const struct batch_head *heads;
	size_t num_dims;
};

/* Two heads (by index) in the table's order.  ClickHouse orders Strings
 * as strcmp does text without NULs: bytes unsigned, a prefix first. */
static int head_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct head_order *o = data;
	const struct batch_head *x = &o->heads[*(const uint32_t *)a];
	const struct batch_head *y = &o->heads[*(const uint32_t *)b];
	int c = strcmp(x->kind, y->kind);
	size_t d;

	for (d = 0; c == 0 && d < o->num_dims; d++)
		c = strcmp(x->dims[d], y->dims[d]);
	if (c == 0)
		c = (x->day > y->day) - (x->day < y->day);
	return c;
}

/* Ranks the heads of `b` in the table's order, equal heads alike;
 * returns the number of ranks. */
static uint32_t rank_heads(struct cprof_batch *b)
{
	struct batch_head *heads = (struct batch_head *)(void *)b->heads->data;
	struct head_order o = { heads, b->num_dims };
	GArray *index = g_array_sized_new(FALSE, FALSE, sizeof(uint32_t), b->heads->len);
	uint32_t i, rank = 0, *at;

	for (i = 0; i < b->heads->len; i++)
		g_array_append_val(index, i);
	g_array_sort_with_data(index, head_cmp, &o);
	at = (uint32_t *)(void *)index->data;
	for (i = 0; i < index->len; i++) {
		if (i && head_cmp(&at[i - 1], &at[i], &o) != 0)
			rank++;
		heads[at[i]].rank = rank;
	}
	g_array_free(index, TRUE);
	return rank + 1;
}

static int key_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp((*(struct batch_key *const *)a)->text,
		      (*(struct batch_key *const *)b)->text);
}

/* Ranks the distinct keys of `b` in byte order; returns their number. */
static uint32_t rank_keys(struct cprof_batch *b)
{
	GPtrArray *keys = g_ptr_array_sized_new(g_hash_table_size(b->keys));
	GHashTableIter it;
	gpointer key;
	uint32_t i, n;

	g_hash_table_iter_init(&it, b->keys);
	while (g_hash_table_iter_next(&it, NULL, &key))
		g_ptr_array_add(keys, key);
	g_ptr_array_sort(keys, key_cmp);
	for (i = 0; i < keys->len; i++)
		((struct batch_key *)g_ptr_array_index(keys, i))->rank = i;
	n = keys->len;
	g_ptr_array_free(keys, TRUE);
	return n;
}

/* `in`'s row indexes, stably sorted by rank(row), into `out`; `count`
 * has room for `ranks` + 1. */
static void counting_sort(const uint32_t *in, uint32_t *out, uint32_t n, uint32_t *count,
			  uint32_t ranks, uint32_t (*rank)(const struct cprof_batch *, uint32_t),
			  const struct cprof_batch *b)
{
	uint32_t i;

	memset(count, 0, (ranks + 1) * sizeof(*count));
	for (i = 0; i < n; i++)
		count[rank(b, in ? in[i] : i) + 1]++;
	for (i = 0; i < ranks; i++)
		count[i + 1] += count[i];
	for (i = 0; i < n; i++) {
		uint32_t row = in ? in[i] : i;

		out[count[rank(b, row)]++] = row;
	}
}

static uint32_t key_rank(const struct cprof_batch *b, uint32_t row)
{
	return g_array_index(b->rows, struct batch_row, row).key->rank;
}

static uint32_t head_rank(const struct cprof_batch *b, uint32_t row)
{
	return g_array_index(b->heads, struct batch_head,
			     g_array_index(b->rows, struct batch_row, row).head).rank;
}

/* The indexes of `b`'s rows in the table's order (newly allocated): by
 * key, then stably by head, two counting sorts. */
static uint32_t *batch_order(struct cprof_batch *b)
{
	uint32_t n = b->rows->len, heads = rank_heads(b), keys = rank_keys(b);
	uint32_t *by_key = cprof_xcalloc(n, sizeof(*by_key));
	uint32_t *order = cprof_xcalloc(n, sizeof(*order));
	uint32_t *count = cprof_xcalloc((size_t)MAX(heads, keys) + 1, sizeof(*count));

	counting_sort(NULL, by_key, n, count, keys, key_rank, b);
	counting_sort(by_key, order, n, count, heads, head_rank, b);
	free(count);
	free(by_key);
	return order;
}

/* The head of the next column, `*c`, which it counts. */
static void next_column(struct cprof_native_out *o, const char *const *names,
			const char *const *types, size_t *c)
{
	cprof_native_column(o, names[*c], types[*c]);
	++*c;
}

void cprof_batch_write(struct cprof_batch *b, struct cprof_native_out *o,
		       const char *const *names, const char *const *types, uint64_t load)
{
	const struct batch_head *heads = (const struct batch_head *)(void *)b->heads->data;
	const struct batch_row *rows = (const struct batch_row *)(void *)b->rows->data;
	uint32_t i, n = b->rows->len, *order = batch_order(b);
	size_t d, c = 0;

#define HEAD(i) (&heads[rows[order[i]].head])
	cprof_native_block_head(o, b->num_dims + 6, n);
	for (d = 0; d < b->num_dims; d++) {
		next_column(o, names, types, &c);
		for (i = 0; i < n; i++)
			cprof_native_string(o, HEAD(i)->dims[d], strlen(HEAD(i)->dims[d]));
	}
	next_column(o, names, types, &c);
	for (i = 0; i < n; i++)
		cprof_native_uint(o, HEAD(i)->day, 2);
	next_column(o, names, types, &c);
	for (i = 0; i < n; i++)
		cprof_native_uint(o, load, 8);
	next_column(o, names, types, &c);
	for (i = 0; i < n; i++)
		cprof_native_uint(o, HEAD(i)->seq, 4);
	next_column(o, names, types, &c);
	for (i = 0; i < n; i++)
		cprof_native_string(o, HEAD(i)->kind, strlen(HEAD(i)->kind));
	next_column(o, names, types, &c);
	for (i = 0; i < n; i++)
		cprof_native_string(o, rows[order[i]].key->text, rows[order[i]].key->len);
	next_column(o, names, types, &c);
	for (i = 0; i < n; i++)
		cprof_native_uint(o, rows[order[i]].count, 8);
#undef HEAD
	free(order);
	batch_clear(b);
	if (++b->writes >= BATCH_SMALL_WRITES && b->limit < BATCH_MAX_ROWS)
		b->limit *= 2;
}
