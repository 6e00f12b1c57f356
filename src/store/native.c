/* native.c: ClickHouse's Native format, written to a file descriptor. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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
