/* input.c: a file operand or standard input, read through one buffer.
 *
 * Past its first chunk, an input is read ahead by a thread of its own:
 * while the caller works through one buffer, the thread reads the next
 * chunk into another, and the two are swapped (the unread end of the
 * first copied in front of the second) when the caller asks for more.
 * The bytes, their order, every offset and every message are those of
 * reading in the caller's thread.  A mapped window would save the copy,
 * but on the project's machine (a paravirtualized guest) each newly
 * mapped page costs more than copying it: bench/RESULTS.md.  The two
 * buffers of an input read ahead are a huge page each where the system
 * gives them (cprof_pages_alloc): a gigabyte read through 4 KiB pages
 * cost that guest an eighth more time, in the kernel's copy and in the
 * parse, for the walks of its page tables. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"
#include "input.h"
#include "util.h"

enum {
	AHEAD_ROOM = 64 << 10,  /* room for the unread end in front of a chunk */
	INPUT_CHUNK = (2 << 20) - AHEAD_ROOM,  /* with its room, a huge page */
	PIPE_SIZE = 1 << 20,    /* /proc/sys/fs/pipe-max-size's default */
};

struct cprof_read_ahead {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	int wake[2];           /* a pipe: written to once, to end a wait in read */
	unsigned char *spare;  /* the thread's buffer: AHEAD_ROOM + INPUT_CHUNK */
	size_t spare_cap;      /* bytes, in pages (cprof_pages_alloc) */
	/* Under the lock: */
	bool go;               /* the thread may fill spare */
	bool ready;            /* spare holds `got` bytes after AHEAD_ROOM */
	bool stop;
	size_t got;
	bool at_eof;           /* the thread met the end of the input */
	int error;             /* errno of a failed read, after the bytes got */
	/* The caller's: */
	bool done;             /* at_eof or error taken: the thread has ended */
	int pending_error;
};

/* Waits until fd can be read or the wake pipe is written to; false for
 * the wake (the caller stops), with *error set when poll itself failed.
 * The thread is never cancelled: a cancelled thread's stack is unwound
 * past the sanitizers' and the C library's bookkeeping. */
static bool wait_readable(int fd, int wake, int *error)
{
	struct pollfd p[2] = { { .fd = fd, .events = POLLIN }, { .fd = wake, .events = POLLIN } };

	for (;;) {
		int n = poll(p, 2, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*error = errno;
			return false;
		}
		return p[1].revents == 0;
	}
}

static bool read_chunk(int fd, int wake, unsigned char *buf, size_t *got, int *error)
{
	*got = 0;
	*error = 0;
	/* A pipe gives 64 KiB or so a read: gather a quarter chunk at least. */
	while (*got < INPUT_CHUNK / 4) {
		ssize_t n;

		if (!wait_readable(fd, wake, error))
			return false;
		n = read(fd, buf + *got, INPUT_CHUNK - *got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*error = errno;
			return false;
		}
		if (n == 0)
			return false;
		*got += (size_t)n;
	}
	return true;
}

static void *ahead_main(void *arg)
{
	struct cprof_input *in = arg;
	struct cprof_read_ahead *r = in->ahead;
	bool more = true;

	while (more) {
		unsigned char *buf;
		size_t got;
		int error;

		pthread_mutex_lock(&r->lock);
		while (!r->go && !r->stop)
			pthread_cond_wait(&r->changed, &r->lock);
		if (r->stop) {
			pthread_mutex_unlock(&r->lock);
			break;
		}
		r->go = false;
		buf = r->spare;
		pthread_mutex_unlock(&r->lock);

		more = read_chunk(in->fd, r->wake[0], buf + AHEAD_ROOM, &got, &error);

		pthread_mutex_lock(&r->lock);
		r->got = got;
		r->error = error;
		r->at_eof = !more && !error;
		r->ready = true;
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
	}
	return NULL;
}

/* The reading thread needs little stack: it asks for AHEAD_STACK, not
 * the default (8 MiB, the stack limit), so that it takes no address space
 * a program under `ulimit -v` needs, and the main thread's stack can still
 * grow (a stack that cannot grow is a SIGSEGV, not an allocation failure
 * cprof can report). */
enum { AHEAD_STACK = 256 << 10 };

static bool create_thread(struct cprof_read_ahead *r, struct cprof_input *in)
{
	pthread_attr_t attr;
	bool ok;

	if (pthread_attr_init(&attr) != 0)
		return false;
	ok = pthread_attr_setstacksize(&attr, AHEAD_STACK) == 0 &&
	     pthread_create(&r->thread, &attr, ahead_main, in) == 0;
	pthread_attr_destroy(&attr);
	return ok;
}

/* Frees the input's buffer, of whichever kind. */
static void buf_free(struct cprof_input *in)
{
	if (in->pages)
		cprof_pages_free(in->buf, in->cap);
	else
		free(in->buf);
}

/* Makes room for `cap` bytes, the bytes buffered kept: past a chunk and
 * its room, from malloc, whose realloc moves a large block's pages
 * rather than copying them (an input read whole, as cprof-sched's, would
 * otherwise need its old and new buffer at once). */
static void buf_grow(struct cprof_input *in, size_t cap)
{
	size_t avail = in->end - in->start;
	unsigned char *buf;

	if (!in->pages) {
		in->buf = cprof_xrealloc(in->buf, cap);
		in->cap = cap;
		return;
	}
	buf = cprof_xmalloc(cap);
	memcpy(buf, in->buf + in->start, avail);
	buf_free(in);
	in->buf = buf;
	in->cap = cap;
	in->pages = false;
	in->start = 0;
	in->end = avail;
}

/* Starts reading ahead; false (and reading stays in this thread) when no
 * thread can be made. */
static bool ahead_start(struct cprof_input *in)
{
	struct cprof_read_ahead *r = cprof_xcalloc(1, sizeof(*r));

	if (getenv("CPROF_NO_THREADS"))
		goto fail;
	if (pipe2(r->wake, O_CLOEXEC) != 0)
		goto fail;
	r->spare_cap = AHEAD_ROOM + INPUT_CHUNK;
	r->spare = cprof_pages_alloc(r->spare_cap);
	r->go = true;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->changed, NULL);
	in->ahead = r;
	if (create_thread(r, in))
		return true;
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->changed);
	close(r->wake[0]);
	close(r->wake[1]);
	in->ahead = NULL;
fail:
	cprof_pages_free(r->spare, r->spare_cap);
	free(r);
	return false;
}

static void ahead_end(struct cprof_input *in)
{
	struct cprof_read_ahead *r = in->ahead;

	if (!r)
		return;
	if (!r->done) {
		pthread_mutex_lock(&r->lock);
		r->stop = true;
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
		/* It may wait for a pipe that never ends: wake it. */
		(void)!write(r->wake[1], "", 1);
	}
	pthread_join(r->thread, NULL);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->changed);
	close(r->wake[0]);
	close(r->wake[1]);
	cprof_pages_free(r->spare, r->spare_cap);
	free(r);
	in->ahead = NULL;
}

/* Takes the next chunk the thread read (waiting for it); returns 0, or -1
 * with `err` set, as a read in this thread would have failed. */
static long long ahead_take(struct cprof_input *in, struct cprof_error *err)
{
	struct cprof_read_ahead *r = in->ahead;
	size_t left = in->end - in->start, got;
	int error;
	bool at_eof;

	if (r->pending_error) {
		errno = r->pending_error;
		return cprof_error_set(err, "read error at byte %llu: %s",
				       (unsigned long long)(in->offset + left), strerror(errno));
	}
	pthread_mutex_lock(&r->lock);
	while (!r->ready)
		pthread_cond_wait(&r->changed, &r->lock);
	r->ready = false;
	got = r->got;
	error = r->error;
	at_eof = r->at_eof;
	pthread_mutex_unlock(&r->lock);

	if (left <= AHEAD_ROOM && got > 0) {
		unsigned char *mine;

		memcpy(r->spare + AHEAD_ROOM - left, in->buf + in->start, left);
		/* The caller's buffer becomes the thread's: a chunk and its
		 * room in pages, or else (the first, from malloc, or one grown
		 * for a long record) a new one. */
		if (!in->pages || in->cap != r->spare_cap) {
			buf_free(in);
			in->buf = cprof_pages_alloc(r->spare_cap);
			in->cap = r->spare_cap;
		}
		mine = r->spare;
		r->spare = in->buf;
		in->buf = mine;
		in->pages = true;
		in->start = AHEAD_ROOM - left;
		in->end = AHEAD_ROOM + got;
	} else if (got > 0) {
		if (in->start > 0) {
			memmove(in->buf, in->buf + in->start, left);
			in->end = left;
			in->start = 0;
		}
		if (in->cap - in->end < got) {
			size_t cap = in->cap;

			while (cap - in->end < got)
				cap *= 2;
			buf_grow(in, cap);
		}
		memcpy(in->buf + in->end, r->spare + AHEAD_ROOM, got);
		in->end += got;
	}
	if (error || at_eof) {
		r->done = true;
		r->pending_error = error;
		in->eof = at_eof;
	} else {
		pthread_mutex_lock(&r->lock);
		r->go = true;
		pthread_cond_broadcast(&r->changed);
		pthread_mutex_unlock(&r->lock);
	}
	return 0;
}

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
		(void)fcntl(in->fd, F_SETPIPE_SZ, PIPE_SIZE);
#endif
	in->size = in->regular ? (uint64_t)st.st_size : 0;
	in->cap = AHEAD_ROOM + INPUT_CHUNK;
	in->buf = cprof_xmalloc(in->cap);
	return 0;
}

int cprof_input_replace(struct cprof_input *in, int fd, struct cprof_error *err)
{
	struct stat st;

	ahead_end(in);
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	in->fd = fd;
	if (lseek(fd, 0, SEEK_SET) != 0 || fstat(fd, &st) != 0)
		return cprof_error_set(err, "cannot read a converted copy: %s", strerror(errno));
	in->regular = true;
	in->size = (uint64_t)st.st_size;
	in->start = in->end = 0;
	in->offset = 0;
	in->eof = false;
	return 0;
}

void cprof_input_close(struct cprof_input *in)
{
	ahead_end(in);
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	in->fd = -1;
	buf_free(in);
	in->buf = NULL;
	in->pages = false;
	in->cap = in->start = in->end = 0;
}

long long cprof_input_fill(struct cprof_input *in, size_t want, struct cprof_error *err)
{
	ssize_t got;

	while (in->ahead && cprof_input_avail(in) < want && !in->eof) {
		struct cprof_read_ahead *r = in->ahead;

		if (r->done && !r->pending_error)
			break;
		if (ahead_take(in, err) < 0)
			return -1;
		if (r->done && !r->pending_error) {
			ahead_end(in);
			break;
		}
	}
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
			buf_grow(in, cap);
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
		/* More than a chunk: the rest is read ahead, on another core. */
		if (!in->eof && in->offset + in->end - in->start > INPUT_CHUNK &&
		    in->cap >= AHEAD_ROOM + INPUT_CHUNK && ahead_start(in))
			return cprof_input_fill(in, want, err);
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
	in->line_cr = len > 0 && data[len - 1] == '\r';
	if (in->line_cr)
		len--;
	return (long long)len;
}
