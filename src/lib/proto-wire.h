/* proto-wire.h: the bytes of a profile.proto (the input itself, or its
 * gzip stream inflated as it is read, at most 1 GiB of it) and the
 * protobuf wire format's primitives.  Only the proto*.c files use it. */
#ifndef CPROF_PROTO_WIRE_H
#define CPROF_PROTO_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>
#include <zlib.h>

#include "base/util.h"

struct cprof_input;

/* The bytes of the profile: the input itself, or its gzip stream inflated. */
struct cprof_pb_source {
	struct cprof_input *in;
	struct cprof_error *err;
	bool gzip;
	bool z_open;
	bool z_end;            /* the compressed stream has ended */
	z_stream z;
	unsigned char *buf;
	size_t cap, start, end;
	uint64_t offset;       /* offset of buf[start] in the inflated bytes */
	uint64_t produced;     /* bytes inflated so far */
};

/* protobuf-c's allocator for unpacking: it dies on exhaustion, so a NULL
 * unpack is a malformed message, never a lack of memory. */
extern ProtobufCAllocator cprof_pb_allocator;

/* Starts reading a profile from `in` (gzip when its first bytes say so);
 * returns 0, or -1 with `err` set.  cprof_pb_source_close ends it. */
int cprof_pb_source_open(struct cprof_pb_source *s, struct cprof_input *in,
			 struct cprof_error *err);

/* Frees what the source holds; `s` may be open or not. */
void cprof_pb_source_close(struct cprof_pb_source *s);

/* The offset of the first buffered byte in the (inflated) profile. */
uint64_t cprof_pb_offset(const struct cprof_pb_source *s);

/* The buffered bytes, valid until the next fill or skip. */
const unsigned char *cprof_pb_data(const struct cprof_pb_source *s);

/* Consumes `n` buffered bytes. */
void cprof_pb_skip(struct cprof_pb_source *s, size_t n);

/* Buffers at least `want` bytes when the profile has them; returns how
 * many are buffered (fewer only at the end), or -1 with the error set. */
long long cprof_pb_fill(struct cprof_pb_source *s, size_t want);

/* Decodes a varint from p[0, len): its length in bytes, 0 when the bytes
 * end first, -1 when it runs past ten bytes or 64 bits. */
static inline int cprof_pb_varint(const unsigned char *p, size_t len, uint64_t *out)
{
	uint64_t value = 0;
	size_t i;

	if (len > 0 && p[0] < 0x80) {  /* the common case: one byte */
		*out = p[0];
		return 1;
	}
	for (i = 0; i < len && i < 10; i++) {
		value |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			if (i == 9 && p[i] > 1)
				return -1;
			*out = value;
			return (int)i + 1;
		}
	}
	return i == 10 ? -1 : 0;
}

/* Takes a varint from [*p, end) into *out, advancing *p; false when
 * it is malformed or runs past end. */
static inline bool cprof_pb_take_varint(const unsigned char **p, const unsigned char *end, uint64_t *out)
{
	int n = cprof_pb_varint(*p, (size_t)(end - *p), out);

	if (n <= 0)
		return false;
	*p += n;
	return true;
}

/* Takes a length and checks it stays inside [*p, end). */
bool cprof_pb_take_length(const unsigned char **p, const unsigned char *end, uint64_t *len);

/* Skips a value of wire type `wire` at [*p, end); false when malformed. */
bool cprof_pb_skip_value(const unsigned char **p, const unsigned char *end, unsigned wire);

#endif
