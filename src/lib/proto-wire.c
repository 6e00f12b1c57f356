/* proto-wire.c: the bytes of a profile.proto, gzip-inflated as they are
 * read, and the protobuf wire format's primitives. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/input.h"
#include "proto-wire.h"
#include "base/util.h"

#define MAX_INFLATED ((uint64_t)1 << 30)   /* 1 GiB: a gzip stream inflating past it is refused */
/* Past 8 MiB inflated, a stream that has inflated more than 128 times the
 * bytes it came from is refused: profiles compress far less, and what the
 * reader keeps is bounded by the inflated bytes (proto.c charge()). */
#define RATIO_FREE ((uint64_t)8 << 20)
enum { MAX_RATIO = 128 };
enum { CHUNK = 1 << 16 };

static void *pb_alloc(void *data, size_t size)
{
	(void)data;
	return cprof_xmalloc(size ? size : 1);
}

static void pb_free(void *data, void *p)
{
	(void)data;
	free(p);
}

ProtobufCAllocator cprof_pb_allocator = { pb_alloc, pb_free, NULL };

uint64_t cprof_pb_offset(const struct cprof_pb_source *s)
{
	return s->gzip ? s->offset : s->in->offset;
}

const unsigned char *cprof_pb_data(const struct cprof_pb_source *s)
{
	return s->gzip ? s->buf + s->start : cprof_input_data(s->in);
}

void cprof_pb_skip(struct cprof_pb_source *s, size_t n)
{
	if (!s->gzip) {
		cprof_input_skip(s->in, n);
		return;
	}
	s->start += n;
	s->offset += n;
}

/* Starts the next gzip member, or ends the stream at the end of the file. */
static int next_member(struct cprof_pb_source *s)
{
	long long got = cprof_input_fill(s->in, 2, s->err);
	const unsigned char *data;

	if (got < 0)
		return -1;
	if (got == 0) {
		s->z_end = true;
		return 0;
	}
	data = cprof_input_data(s->in);
	if (got < 2 || data[0] != 0x1f || data[1] != 0x8b)
		return cprof_error_set(s->err, "junk after the gzip stream at byte %llu of the file",
				       (unsigned long long)s->in->offset);
	if (inflateReset(&s->z) != Z_OK)
		return cprof_error_set(s->err, "gzip: cannot restart at byte %llu of the file",
				       (unsigned long long)s->in->offset);
	return 0;
}

/* Moves the buffered bytes to the front of the buffer and grows it to
 * hold `want` bytes and a CHUNK more. */
static void src_make_room(struct cprof_pb_source *s, size_t want)
{
	if (s->start > 0) {
		memmove(s->buf, s->buf + s->start, s->end - s->start);
		s->end -= s->start;
		s->start = 0;
	}
	if (s->cap - s->end < CHUNK || s->cap < want) {
		size_t cap = s->cap ? s->cap : CHUNK;

		while (cap < want || cap - s->end < CHUNK)
			cap *= 2;
		s->buf = cprof_xrealloc(s->buf, cap);
		s->cap = cap;
	}
}

/* Inflates what the input holds into the room of the buffer, inflate's
 * code into *rc; returns 0, or -1 with the error set. */
static int src_inflate(struct cprof_pb_source *s, int *rc)
{
	size_t room, in_avail, consumed, produced;

	if (cprof_input_avail(s->in) == 0) {
		if (cprof_input_fill(s->in, 1, s->err) < 0)
			return -1;
		if (cprof_input_avail(s->in) == 0)
			return cprof_error_set(s->err, "truncated gzip stream at byte %llu of the file",
					       (unsigned long long)s->in->offset);
	}
	room = s->cap - s->end;
	if (room > MAX_INFLATED + 1 - s->produced)
		room = (size_t)(MAX_INFLATED + 1 - s->produced);
	if (room > UINT_MAX)
		room = UINT_MAX;
	in_avail = cprof_input_avail(s->in);
	if (in_avail > UINT_MAX)
		in_avail = UINT_MAX;
	s->z.next_in = (Bytef *)cprof_input_data(s->in);
	s->z.avail_in = (uInt)in_avail;
	s->z.next_out = s->buf + s->end;
	s->z.avail_out = (uInt)room;
	*rc = inflate(&s->z, Z_NO_FLUSH);
	consumed = in_avail - s->z.avail_in;
	produced = room - s->z.avail_out;
	cprof_input_skip(s->in, consumed);
	s->end += produced;
	s->produced += produced;
	if (s->produced > MAX_INFLATED)
		return cprof_error_set(s->err, "gzip stream inflates past 1 GiB at byte %llu "
					       "of the file: refused (a gzip bomb?)",
				       (unsigned long long)s->in->offset);
	if (s->produced > RATIO_FREE && s->produced / MAX_RATIO > s->in->offset)
		return cprof_error_set(s->err, "gzip stream inflates past %d times its size at "
					       "byte %llu of the file: refused (a gzip bomb?)",
				       MAX_RATIO, (unsigned long long)s->in->offset);
	return 0;
}

/* Buffers at least `want` bytes when the profile has them; returns how
 * many are buffered, or -1 with the error set. */
long long cprof_pb_fill(struct cprof_pb_source *s, size_t want)
{
	if (!s->gzip)
		return cprof_input_fill(s->in, want, s->err);
	while (s->end - s->start < want && !s->z_end) {
		int rc = Z_OK;

		src_make_room(s, want);
		if (src_inflate(s, &rc) < 0)
			return -1;
		if (rc == Z_STREAM_END) {
			if (next_member(s) < 0)
				return -1;
		} else if (rc == Z_MEM_ERROR) {
			cprof_die_oom();
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			return cprof_error_set(s->err, "bad gzip data at byte %llu of the file: %s",
					       (unsigned long long)s->in->offset,
					       s->z.msg ? s->z.msg : "inflate failed");
		}
	}
	return (long long)(s->end - s->start);
}

bool cprof_pb_take_length(const unsigned char **p, const unsigned char *end, uint64_t *len)
{
	return cprof_pb_take_varint(p, end, len) && *len <= (uint64_t)(end - *p);
}

bool cprof_pb_skip_value(const unsigned char **p, const unsigned char *end, unsigned wire)
{
	uint64_t value;
	size_t size = wire == 1 ? 8 : 4;

	switch (wire) {
	case 0:
		return cprof_pb_take_varint(p, end, &value);
	case 2:
		if (!cprof_pb_take_length(p, end, &value))
			return false;
		*p += value;
		return true;
	case 1:
	case 5:
		if ((size_t)(end - *p) < size)
			return false;
		*p += size;
		return true;
	default:
		return false;
	}
}

int cprof_pb_source_open(struct cprof_pb_source *s, struct cprof_input *in,
			 struct cprof_error *err)
{
	long long got = cprof_input_fill(in, 2, err);

	memset(s, 0, sizeof(*s));
	s->in = in;
	s->err = err;
	if (got < 0)
		return -1;
	if (got >= 2 && cprof_input_data(in)[0] == 0x1f && cprof_input_data(in)[1] == 0x8b) {
		s->gzip = true;
		if (inflateInit2(&s->z, 15 + 16) != Z_OK)
			cprof_die_oom();
		s->z_open = true;
	}
	return 0;
}

void cprof_pb_source_close(struct cprof_pb_source *s)
{
	if (s->z_open)
		inflateEnd(&s->z);
	free(s->buf);
	s->buf = NULL;
	s->z_open = false;
}
