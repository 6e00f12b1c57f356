/* input.h: a file operand or standard input read through a buffer. */
#ifndef CPROF_INPUT_H
#define CPROF_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* A value a reader's scanner worked out for the record at `offset` of
 * the input, on the thread that reads ahead (gperf.c: the hash of its
 * PCs), so that the caller need not. */
struct cprof_input_hint {
	uint64_t offset;
	uint64_t value;
};

enum { CPROF_SCAN_HEAD = 16 };

/* Where a walk through the records stands between two runs of bytes. */
struct cprof_input_scan {
	uint64_t next;         /* the offset of the next record; UINT64_MAX: stopped */
	unsigned char head[CPROF_SCAN_HEAD]; /* its first bytes, when a run ended in them */
	size_t head_len;
};

/* Walks the records in the `len` bytes at `data`, those of offsets
 * [offset, offset + len) of the input, from s->next on (or from the
 * record whose first s->head_len bytes ended the run before), writing a
 * hint for each of the first `max` records wholly among them (0: walk
 * only), and returns how many it wrote; leaves `s` where the next run
 * takes it up, or stopped at bytes that are no record it knows.  It
 * touches nothing but its arguments (it runs on either thread). */
typedef size_t cprof_input_scanner(struct cprof_input_scan *s, const unsigned char *data,
				   size_t len, uint64_t offset, struct cprof_input_hint *hints,
				   size_t max);

/* A file operand ("-" is standard input) read through a buffer, so that a
 * profile of any size is read in bounded memory. */
struct cprof_input {
	const char *name;      /* as given; not owned */
	int fd;
	bool regular;          /* a regular file: `size` is known */
	uint64_t size;
	unsigned char *buf;
	size_t cap;
	size_t start;          /* buffered bytes are buf[start, end) */
	size_t end;
	uint64_t offset;       /* file offset of buf[start] */
	bool eof;
	struct cprof_read_ahead *ahead; /* the thread reading ahead, or NULL */
	cprof_input_scanner *scanner;  /* NULL: none (see cprof_input_scan) */
	struct cprof_input_scan scan;  /* the reading thread's while it reads a chunk */
	struct cprof_input_hint *hints; /* of the chunk read ahead taken last */
	size_t hints_len, hints_pos;
};

/* Opens `name` ("-" for standard input) for reading; -1 with `err` set
 * when it cannot be. */
int cprof_input_open(struct cprof_input *in, const char *name, struct cprof_error *err);

/* Closes the file and frees the buffer; accepts a closed input. */
void cprof_input_close(struct cprof_input *in);

/* Buffers at least `want` bytes past the current position when the file
 * has them.  Returns the number of bytes buffered (less than `want` only
 * at end of file), or -1 with `err` set on a read error. */
long long cprof_input_fill(struct cprof_input *in, size_t want, struct cprof_error *err);

/* Consumes `n` buffered bytes. */
static inline void cprof_input_skip(struct cprof_input *in, size_t n)
{
	in->start += n;
	in->offset += n;
}

static inline const unsigned char *cprof_input_data(const struct cprof_input *in)
{
	return in->buf + in->start;
}

static inline size_t cprof_input_avail(const struct cprof_input *in)
{
	return in->end - in->start;
}

/* Has `scanner` walk the input's records from the current offset on, and
 * work out a hint for each record in the chunks read ahead on the second
 * thread; the caller then asks cprof_input_hint. */
void cprof_input_scan(struct cprof_input *in, cprof_input_scanner *scanner);

/* The hint for the record at `offset`, offsets asked in increasing
 * order: true with *value set, or false when there is none (work the
 * value out). */
static inline bool cprof_input_hint(struct cprof_input *in, uint64_t offset, uint64_t *value)
{
	while (in->hints_pos < in->hints_len && in->hints[in->hints_pos].offset < offset)
		in->hints_pos++;
	if (in->hints_pos == in->hints_len || in->hints[in->hints_pos].offset != offset)
		return false;
	*value = in->hints[in->hints_pos++].value;
	return true;
}

/* Reads the next line (without its newline, and without a final '\r').
 * Returns its length, or -1 at end of file or on error (then `err` is set
 * and *line is NULL); *line points into the buffer until the next call.
 * A line holding a NUL byte is returned with *has_nul set. */
long long cprof_input_line(struct cprof_input *in, const char **line, bool *has_nul,
			   struct cprof_error *err);

#endif
