/* input.c: a file operand or standard input, read through one buffer. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "util.h"

enum { INPUT_CHUNK = 1 << 20 };

int cprof_input_open(struct cprof_input *in, const char *name, struct cprof_error *err)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->name = name;
	cprof_set_context(name);
	in->fd = -1;
	if (strcmp(name, "-") == 0) {
		in->fd = STDIN_FILENO;
	} else {
		in->fd = open(name, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0)
			return cprof_error_set(err, "cannot open: %s", strerror(errno));
	}
	if (fstat(in->fd, &st) != 0) {
		cprof_error_set(err, "cannot stat: %s", strerror(errno));
		cprof_input_close(in);
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		cprof_error_set(err, "is a directory");
		cprof_input_close(in);
		return -1;
	}
	in->regular = S_ISREG(st.st_mode);
#ifdef F_SETPIPE_SZ
	/* A pipe of 64 KiB costs a context switch per 64 KiB: ask for more
	 * (an unprivileged process may get up to /proc/sys/fs/pipe-max-size). */
	if (S_ISFIFO(st.st_mode))
		(void)fcntl(in->fd, F_SETPIPE_SZ, INPUT_CHUNK);
#endif
	in->size = in->regular ? (uint64_t)st.st_size : 0;
	in->cap = INPUT_CHUNK;
	in->buf = cprof_xmalloc(in->cap);
	return 0;
}

void cprof_input_close(struct cprof_input *in)
{
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	in->fd = -1;
	free(in->buf);
	in->buf = NULL;
	in->cap = in->start = in->end = 0;
}

long long cprof_input_fill(struct cprof_input *in, size_t want, struct cprof_error *err)
{
	ssize_t got;

	while (cprof_input_avail(in) < want && !in->eof) {
		if (in->start > 0) {
			memmove(in->buf, in->buf + in->start, in->end - in->start);
			in->end -= in->start;
			in->start = 0;
		}
		if (in->cap - in->end < INPUT_CHUNK / 4 || in->cap < want) {
			size_t cap = in->cap;

			while (cap < want || cap - in->end < INPUT_CHUNK / 4) {
				if (cap > SIZE_MAX / 2)
					return cprof_error_set(err, "record too large at byte %llu",
							       (unsigned long long)in->offset);
				cap *= 2;
			}
			in->buf = cprof_xrealloc(in->buf, cap);
			in->cap = cap;
		}
		got = read(in->fd, in->buf + in->end, in->cap - in->end);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return cprof_error_set(err, "read error at byte %llu: %s",
					       (unsigned long long)(in->offset + cprof_input_avail(in)),
					       strerror(errno));
		}
		if (got == 0)
			in->eof = true;
		in->end += (size_t)got;
	}
	return (long long)cprof_input_avail(in);
}

long long cprof_input_line(struct cprof_input *in, const char **line, bool *has_nul,
			   struct cprof_error *err)
{
	size_t scanned = 0, len, avail;
	const unsigned char *data, *nl;
	long long got;

	*line = NULL;
	*has_nul = false;
	for (;;) {
		avail = cprof_input_avail(in);
		data = cprof_input_data(in);
		nl = avail > scanned ? memchr(data + scanned, '\n', avail - scanned) : NULL;
		if (nl || in->eof)
			break;
		scanned = avail;
		got = cprof_input_fill(in, avail + 1, err);
		if (got < 0)
			return -1;
	}
	avail = cprof_input_avail(in);
	if (!nl && avail == 0)
		return -1;
	len = nl ? (size_t)(nl - data) : avail;
	*line = (const char *)data;
	*has_nul = memchr(data, '\0', len) != NULL;
	cprof_input_skip(in, nl ? len + 1 : len);
	if (len > 0 && data[len - 1] == '\r')
		len--;
	return (long long)len;
}
