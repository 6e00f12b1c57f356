/* test-input: reads FILE ("-": standard input) through src/input.c in
 * steps of pseudo-random sizes (a few bytes to three chunks asked for,
 * any part of it consumed) and writes the bytes consumed on standard
 * output, which must then equal the input; tests/input-ahead.test runs it
 * on files and pipes, built as usual and under ThreadSanitizer.
 *
 * The bytes are also taken as records (a head of 16 bytes, the first
 * giving the length, then 0 to 39 words) that a scanner walks: every
 * hint the input gives for a record must be its checksum, worked out
 * here again; the number of hints met goes to standard error. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cprof.h"

static uint64_t state = 88172645463325252ULL;

/* The length of the record whose head is at `head`. */
static uint64_t record_len(const unsigned char *head)
{
	return CPROF_SCAN_HEAD + 8 * (uint64_t)(head[0] % 40);
}

static uint64_t checksum(const unsigned char *record, uint64_t len)
{
	uint64_t sum = 1469598103934665603ULL, i;

	for (i = 0; i < len; i++)
		sum = (sum ^ record[i]) * 1099511628211ULL;
	return sum;
}

/* The scanner of those records (see cprof_input_scanner). */
static size_t scan(struct cprof_input_scan *s, const unsigned char *data, size_t len,
		   uint64_t offset, struct cprof_input_hint *hints, size_t max)
{
	uint64_t end = offset + len, rec;
	size_t n = 0, take;

	if (s->next < offset) {
		take = CPROF_SCAN_HEAD - s->head_len < len ? CPROF_SCAN_HEAD - s->head_len : len;
		memcpy(s->head + s->head_len, data, take);
		s->head_len += take;
		if (s->head_len < CPROF_SCAN_HEAD)
			return 0;
		s->head_len = 0;
		s->next += record_len(s->head);
	}
	while (s->next < end) {
		size_t pos = (size_t)(s->next - offset);

		if (len - pos < CPROF_SCAN_HEAD) {
			memcpy(s->head, data + pos, len - pos);
			s->head_len = len - pos;
			break;
		}
		rec = record_len(data + pos);
		if (n < max && rec <= len - pos) {
			hints[n].offset = s->next;
			hints[n++].value = checksum(data + pos, rec);
		}
		s->next += rec;
	}
	return n;
}

/* Checks the hints of the records wholly buffered from *next on; returns
 * false on a wrong one. */
static bool check_hints(struct cprof_input *in, uint64_t *next, unsigned long *met)
{
	const unsigned char *data = cprof_input_data(in);
	size_t avail = cprof_input_avail(in);
	uint64_t value, len;

	while (*next >= in->offset && *next - in->offset + CPROF_SCAN_HEAD <= avail) {
		const unsigned char *record = data + (*next - in->offset);

		len = record_len(record);
		if (*next - in->offset + len > avail)
			break;
		if (cprof_input_hint(in, *next, &value)) {
			if (value != checksum(record, len)) {
				fprintf(stderr, "FAIL: a wrong hint at byte %llu\n",
					(unsigned long long)*next);
				return false;
			}
			++*met;
		}
		*next += len;
	}
	return true;
}

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int main(int argc, char **argv)
{
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_input in;
	uint64_t consumed = 0, record = 0;
	unsigned long met = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: test-input FILE\n");
		return 2;
	}
	cprof_set_progname("test-input");
	if (cprof_input_open(&in, argv[1], &err) < 0) {
		fprintf(stderr, "test-input: %s\n", err.text);
		return 2;
	}
	cprof_input_scan(&in, scan);
	for (;;) {
		size_t want = next() % 4 == 0 ? (size_t)(next() % (3 << 20)) + 1
					       : (size_t)(next() % 4096) + 1;
		long long got;
		size_t take;

		/* The record at the front wholly buffered, or it is never checked. */
		if (record == in.offset && want < 16 + 8 * 39)
			want = 16 + 8 * 39;
		got = cprof_input_fill(&in, want, &err);

		if (got < 0) {
			fprintf(stderr, "test-input: %s\n", err.text);
			return 2;
		}
		if (got == 0)
			break;
		if ((size_t)got < want && !in.eof) {
			fprintf(stderr, "FAIL: %lld bytes for %zu before the end\n", got, want);
			return 1;
		}
		if (in.offset != consumed) {
			fprintf(stderr, "FAIL: offset %llu after %llu bytes\n",
				(unsigned long long)in.offset, (unsigned long long)consumed);
			return 1;
		}
		if (!check_hints(&in, &record, &met))
			return 1;
		take = (size_t)(next() % (uint64_t)got) + 1;
		/* Never past a record not checked yet, unless the input ends in it. */
		if (record > in.offset && take > record - in.offset)
			take = (size_t)(record - in.offset);
		else if (record == in.offset && !in.eof)
			take = 0;      /* the next step buffers the whole record */
		if (fwrite(cprof_input_data(&in), 1, take, stdout) != take)
			return 2;
		cprof_input_skip(&in, take);
		consumed += take;
	}
	cprof_input_close(&in);
	fprintf(stderr, "hints %lu\n", met);
	return fflush(stdout) == 0 ? 0 : 2;
}
