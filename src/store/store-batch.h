/* store-batch.h: a shard's rows of a ClickHouse load, gathered a profile
 * at a time, then put in the rows table's order (kind, dimensions, date,
 * key: ClickHouse's order of its Strings, which is strcmp's) and written
 * as one Native block, which the server writes without sorting it. */
#ifndef CPROF_STORE_BATCH_H
#define CPROF_STORE_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cprof_native_out;
struct cprof_batch;

/* A new, empty batch of rows of `num_dims` dimensions. */
struct cprof_batch *cprof_batch_new(size_t num_dims);

/* Frees `b` (NULL: nothing). */
void cprof_batch_free(struct cprof_batch *b);

/* The number of rows `b` holds. */
size_t cprof_batch_rows(const struct cprof_batch *b);

/* Whether `b` holds rows and a profile of `keys` more would take it past
 * a batch (2^17 rows for its first four writes, then twice as many after
 * each cprof_batch_write up to 2^20; or 16 MiB of distinct keys): send
 * it first. */
bool cprof_batch_full(const struct cprof_batch *b, size_t keys);

/* Adds what a profile's rows share: its dimensions' values (copied), its
 * kind (kept: a static name), day number and seq; returns the head that
 * cprof_batch_add takes. */
uint32_t cprof_batch_head(struct cprof_batch *b, const char *const *dims, const char *kind,
			  uint16_t day, uint32_t seq);

/* Adds a row of `head`: `key` (copied) and its count. */
void cprof_batch_add(struct cprof_batch *b, uint32_t head, const char *key, uint64_t count);

/* Writes the rows of `b`, in the table's order, as one Native block of
 * the columns named `names`, of types `types` (the dimensions, then
 * date, load, seq, kind, key, count), `load` in every row; then empties
 * `b` (from its fourth write on, doubles its limit of rows up to 2^20). */
void cprof_batch_write(struct cprof_batch *b, struct cprof_native_out *o,
		       const char *const *names, const char *const *types, uint64_t load);

#endif
