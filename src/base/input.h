/* input.h: a file operand or standard input read through a buffer. */
#ifndef CPROF_INPUT_H
#define CPROF_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* A file operand ("-" is standard input) read through a buffer, so that a
 * profile of any size is read in bounded memory. */
struct cprof_input {
	const char *name;      /* as given; not owned */
	int fd;
	bool regular;          /* a regular file: `size` is known */
	uint64_t size;
	unsigned char *buf;
	size_t cap;
	bool pages;            /* buf is cprof_pages_alloc's (the input is read ahead) */
	size_t start;          /* buffered bytes are buf[start, end) */
	size_t end;
	uint64_t offset;       /* file offset of buf[start] */
	bool eof;
	bool line_cr;          /* the last line cprof_input_line read ended in "\r" */
	struct cprof_read_ahead *ahead; /* the thread reading ahead, or NULL */
};

/* Opens `name` ("-" for standard input) for reading; -1 with `err` set
 * when it cannot be. */
int cprof_input_open(struct cprof_input *in, const char *name, struct cprof_error *err);

/* Reads the regular file `fd` from its start in place of the input's
 * file (closed; nothing read ahead yet), under the same name; the input
 * owns fd.  -1 with `err` set when fd cannot be read. */
int cprof_input_replace(struct cprof_input *in, int fd, struct cprof_error *err);

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

/* Reads the next line (without its newline, and without a final '\r':
 * in->line_cr says whether there was one).
 * Returns its length, or -1 at end of file or on error (then `err` is set
 * and *line is NULL); *line points into the buffer until the next call.
 * A line holding a NUL byte is returned with *has_nul set. */
long long cprof_input_line(struct cprof_input *in, const char **line, bool *has_nul,
			   struct cprof_error *err);

#endif
