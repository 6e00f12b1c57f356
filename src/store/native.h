/* native.h: ClickHouse's Native format, the input clickhouse-client
 * reads cheapest, written to a file descriptor: a block is its numbers of
 * columns and rows, then each column's name, type and values; integers go
 * little-endian, strings as their length (LEB128) and bytes, a Date as
 * its day number (UInt16). */
#ifndef CPROF_NATIVE_H
#define CPROF_NATIVE_H

#include <stddef.h>
#include <stdint.h>

/* A buffered writer to a descriptor.  It keeps the first error (an
 * errno) and writes nothing after it. */
struct cprof_native_out {
	int fd, error;
	size_t len;
	uint8_t buf[1 << 16];
};

/* `n` in LEB128 into `bytes` (room for 10); returns its length. */
size_t cprof_native_varint_bytes(uint8_t *bytes, uint64_t n);

/* The low `n` bytes of `value`, little-endian, into `bytes`. */
void cprof_native_le_bytes(uint8_t *bytes, uint64_t value, int n);

/* Writes what `o` holds (sets o->error when a write fails). */
void cprof_native_flush(struct cprof_native_out *o);

/* Appends `len` bytes. */
void cprof_native_bytes(struct cprof_native_out *o, const void *p, size_t len);

/* Appends `n` in LEB128: a block's sizes, a String's length. */
void cprof_native_varint(struct cprof_native_out *o, uint64_t n);

/* Appends a String value of `len` bytes. */
void cprof_native_string(struct cprof_native_out *o, const char *s, size_t len);

/* Appends an integer value of `n` bytes (Date 2, UInt32 4, UInt64 8). */
void cprof_native_uint(struct cprof_native_out *o, uint64_t value, int n);

/* Appends the head of a block: its numbers of columns and rows.  Each
 * column follows, its head then its `rows` values. */
void cprof_native_block_head(struct cprof_native_out *o, size_t columns, size_t rows);

/* Appends the head of a column: its name and its type. */
void cprof_native_column(struct cprof_native_out *o, const char *name, const char *type);

/* A block filled a row at a time: each column's values are kept apart
 * until the block is written.  (A block written a column at a time, as
 * store-batch.c writes one, needs none: it writes its head and columns
 * straight to a writer.) */
struct cprof_native_block;

/* A new, empty block with room for `columns` columns. */
struct cprof_native_block *cprof_native_block_new(size_t columns);

/* Adds a column of `name` and ClickHouse `type` (both kept, not copied);
 * returns its number. */
size_t cprof_native_block_add(struct cprof_native_block *b, const char *name, const char *type);

/* The number of columns of `b`, and their names and types. */
size_t cprof_native_block_columns(const struct cprof_native_block *b);
const char *const *cprof_native_block_names(const struct cprof_native_block *b);
const char *const *cprof_native_block_types(const struct cprof_native_block *b);

/* Appends a String value to column `column` of the row being filled. */
void cprof_native_block_string(struct cprof_native_block *b, size_t column, const char *s);

/* Appends an integer value of `n` bytes to column `column`. */
void cprof_native_block_uint(struct cprof_native_block *b, size_t column, uint64_t value, int n);

/* Ends the row being filled; returns the number of rows `b` holds. */
size_t cprof_native_block_end_row(struct cprof_native_block *b);

/* Writes `b` to `o` (nothing when it holds no row) and empties it. */
void cprof_native_block_write(struct cprof_native_block *b, struct cprof_native_out *o);

/* Frees `b` (NULL: nothing). */
void cprof_native_block_free(struct cprof_native_block *b);

#endif
