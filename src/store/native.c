/* native.c: ClickHouse's Native format, written to a file descriptor. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "base/util.h"
#include "native.h"

size_t cprof_native_varint_bytes(uint8_t *bytes, uint64_t n)
{
	size_t i = 0;

	do {
		bytes[i++] = (uint8_t)((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
		n >>= 7;
	} while (n);
	return i;
}

void cprof_native_le_bytes(uint8_t *bytes, uint64_t value, int n)
{
	int i;

	for (i = 0; i < n; i++)
		bytes[i] = (uint8_t)(value >> (8 * i));
}

void cprof_native_flush(struct cprof_native_out *o)
{
	size_t done = 0;
	ssize_t n;

	while (!o->error && done < o->len) {
		n = write(o->fd, o->buf + done, o->len - done);
		if (n < 0 && errno != EINTR)
			o->error = errno;
		else if (n > 0)
			done += (size_t)n;
	}
	o->len = 0;
}

void cprof_native_bytes(struct cprof_native_out *o, const void *p, size_t len)
{
	const uint8_t *from = p;
	size_t room;

	while (len > (room = sizeof(o->buf) - o->len)) {
		memcpy(o->buf + o->len, from, room);
		o->len += room;
		from += room;
		len -= room;
		cprof_native_flush(o);
	}
	memcpy(o->buf + o->len, from, len);
	o->len += len;
}

void cprof_native_varint(struct cprof_native_out *o, uint64_t n)
{
	uint8_t bytes[10];

	cprof_native_bytes(o, bytes, cprof_native_varint_bytes(bytes, n));
}

void cprof_native_string(struct cprof_native_out *o, const char *s, size_t len)
{
	cprof_native_varint(o, len);
	cprof_native_bytes(o, s, len);
}

void cprof_native_uint(struct cprof_native_out *o, uint64_t value, int n)
{
	uint8_t bytes[8];

	cprof_native_le_bytes(bytes, value, n);
	cprof_native_bytes(o, bytes, (size_t)n);
}

void cprof_native_column(struct cprof_native_out *o, const char *name, const char *type)
{
	cprof_native_string(o, name, strlen(name));
	cprof_native_string(o, type, strlen(type));
}

void cprof_native_block_head(struct cprof_native_out *o, size_t columns, size_t rows)
{
	cprof_native_varint(o, columns);
	cprof_native_varint(o, rows);
}

struct cprof_native_block {
	size_t columns, rows;
	const char **names, **types;
	GByteArray **data;     /* each column's values, as Native writes them */
};

struct cprof_native_block *cprof_native_block_new(size_t columns)
{
	struct cprof_native_block *b = cprof_xcalloc(1, sizeof(*b));

	b->names = cprof_xcalloc(columns + 1, sizeof(*b->names));
	b->types = cprof_xcalloc(columns + 1, sizeof(*b->types));
	b->data = cprof_xcalloc(columns + 1, sizeof(*b->data));
	return b;
}

size_t cprof_native_block_add(struct cprof_native_block *b, const char *name, const char *type)
{
	b->names[b->columns] = name;
	b->types[b->columns] = type;
	b->data[b->columns] = g_byte_array_new();
	return b->columns++;
}

size_t cprof_native_block_columns(const struct cprof_native_block *b)
{
	return b->columns;
}

const char *const *cprof_native_block_names(const struct cprof_native_block *b)
{
	return b->names;
}

const char *const *cprof_native_block_types(const struct cprof_native_block *b)
{
	return b->types;
}

void cprof_native_block_string(struct cprof_native_block *b, size_t column, const char *s)
{
	size_t len = strlen(s);
	uint8_t bytes[10];

	g_byte_array_append(b->data[column], bytes, (guint)cprof_native_varint_bytes(bytes, len));
	g_byte_array_append(b->data[column], (const guint8 *)s, (guint)len);
}

void cprof_native_block_uint(struct cprof_native_block *b, size_t column, uint64_t value, int n)
{
	uint8_t bytes[8];

	cprof_native_le_bytes(bytes, value, n);
	g_byte_array_append(b->data[column], bytes, (guint)n);
}

size_t cprof_native_block_end_row(struct cprof_native_block *b)
{
	return ++b->rows;
}

void cprof_native_block_write(struct cprof_native_block *b, struct cprof_native_out *o)
{
	size_t i;

	if (b->rows == 0)
		return;
	cprof_native_block_head(o, b->columns, b->rows);
	for (i = 0; i < b->columns; i++) {
		cprof_native_column(o, b->names[i], b->types[i]);
		cprof_native_bytes(o, b->data[i]->data, b->data[i]->len);
		g_byte_array_set_size(b->data[i], 0);
	}
	b->rows = 0;
}

void cprof_native_block_free(struct cprof_native_block *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->columns; i++)
		g_byte_array_unref(b->data[i]);
	free(b->names);
	free(b->types);
	free(b->data);
	free(b);
}
