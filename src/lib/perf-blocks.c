/* perf-blocks.c: the block threads of the perf script reader.  Past the
 * first sample, the text is cut after blank lines (where no sample is
 * open) into pairs of blocks: this thread parses the first into the
 * profile's tables while a second thread parses the other into tables of
 * its own, recording its samples in order; then the second is merged,
 * its frames and stacks interned and its samples counted one by one, so
 * that counts, periods, overflows, errors and their lines are those of
 * reading in one thread; its events are the profile's by name.  A block
 * whose reading depended on what came before it (whether samples have
 * headers) is parsed again here instead.  Where a chunk is cut follows
 * the two threads' speeds (balance): 3/5 of it here at first, since this
 * thread also merges. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "base/input.h"
#include "base/util.h"
#include "perf-int.h"
#include "perfscript.h"

enum { BLOCK_MIN = 256 << 10 };  /* text worth cutting */

struct sample_rec {
	uint64_t period;
	unsigned long long line;       /* the sample's header line, in the block */
	uint32_t stack;                /* its stack's id in the block's tables */
	bool has_period;
};

struct block {
	const char *text;
	size_t len;
	struct reader r;               /* over the block's own tables */
	struct cprof_error err;
	int status;
	struct sample_rec *recs;
	size_t num_recs, recs_cap;
	uint32_t *frame_ids;           /* the profile's id of each frame merged */
	size_t merged_frames;
	struct stack **stack_map;      /* the profile's entry of each stack merged */
	size_t merged_stacks;
	size_t merged_mmaps, merged_forks;
	uint32_t *event_map;           /* the profile's index of each of the thread's events */
	/* The thread: */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	bool has_job, job_done, quit;
	long long done_ns;             /* when the last job ended (CLOCK_MONOTONIC) */
	double share;                  /* of a chunk, this thread's: balance() */
};

void cprof_perf_record_sample(struct block *b, const struct stack *s, bool has_period,
			      uint64_t period, unsigned long long line)
{
	if (b->num_recs == b->recs_cap) {
		b->recs_cap = b->recs_cap ? 2 * b->recs_cap : 4096;
		b->recs = cprof_xrealloc(b->recs, b->recs_cap * sizeof(*b->recs));
	}
	b->recs[b->num_recs++] = (struct sample_rec){
		.period = period, .line = line, .stack = s->id, .has_period = has_period,
	};
}

/* Forgets the block thread's tables (what a block read that was then
 * parsed again in order). */
static void block_forget(struct block *b)
{
	cprof_perf_free(b->r.perf);
	b->r.perf = cprof_xcalloc(1, sizeof(*b->r.perf));
	cprof_perf_init(b->r.perf);
	cprof_perf_events_free(&b->r);
	b->r.last.valid = false;
	b->merged_frames = b->merged_stacks = b->merged_mmaps = b->merged_forks = 0;
}

/* Parses a block into the thread's tables (their frames and stacks kept
 * from block to block, as their entries in the profile's are), from an
 * empty state. */
static void parse_block(struct block *b)
{
	struct reader *r = &b->r;

	memset(&b->err, 0, sizeof(b->err));
	b->num_recs = 0;
	free(r->dropped_text);
	r->dropped_text = NULL;
	r->dropped = 0;
	r->last.valid = false;
	r->line_no = r->sample_line = 0;
	r->depth = 0;
	r->open = false;
	r->headers = -1;
	b->status = cprof_perf_parse_lines(r, b->text, b->len);
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void *block_main(void *arg)
{
	struct block *b = arg;

	pthread_mutex_lock(&b->lock);
	for (;;) {
		while (!b->has_job && !b->quit)
			pthread_cond_wait(&b->changed, &b->lock);
		if (b->quit)
			break;
		pthread_mutex_unlock(&b->lock);
		parse_block(b);
		pthread_mutex_lock(&b->lock);
		b->done_ns = now_ns();
		b->has_job = false;
		b->job_done = true;
		pthread_cond_broadcast(&b->changed);
	}
	pthread_mutex_unlock(&b->lock);
	return NULL;
}

/* A block and its thread; NULL (one thread reads) when no thread can be
 * made or CPROF_NO_THREADS is set. */
static struct block *block_start(const struct reader *r)
{
	struct block *b;
	pthread_attr_t attr;
	bool ok;

	if (getenv("CPROF_NO_THREADS"))
		return NULL;
	b = cprof_xcalloc(1, sizeof(*b));
	b->r.perf = cprof_xcalloc(1, sizeof(*b->r.perf));
	cprof_perf_init(b->r.perf);
	b->r.err = &b->err;
	b->r.block = b;
	b->r.addresses = r->addresses;
	b->share = 0.6;
	pthread_mutex_init(&b->lock, NULL);
	pthread_cond_init(&b->changed, NULL);
	ok = pthread_attr_init(&attr) == 0;
	ok = ok && pthread_attr_setstacksize(&attr, 256 << 10) == 0 &&
	     pthread_create(&b->thread, &attr, block_main, b) == 0;
	if (ok)
		pthread_attr_destroy(&attr);
	if (ok)
		return b;
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->changed);
	cprof_perf_free(b->r.perf);
	free(b);
	return NULL;
}

static void block_end(struct block *b)
{
	if (!b)
		return;
	pthread_mutex_lock(&b->lock);
	b->quit = true;
	pthread_cond_broadcast(&b->changed);
	pthread_mutex_unlock(&b->lock);
	pthread_join(b->thread, NULL);
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->changed);
	cprof_perf_free(b->r.perf);
	free(b->r.key);
	free(b->r.chain);
	free(b->r.held.chain);
	cprof_perf_events_free(&b->r);
	free(b->r.last.prefix);
	free(b->r.last.event);
	free(b->r.dropped_text);
	free(b->event_map);
	free(b->recs);
	free(b->frame_ids);
	free(b->stack_map);
	free(b);
}

static void block_give(struct block *b, const char *text, size_t len)
{
	b->text = text;
	b->len = len;
	pthread_mutex_lock(&b->lock);
	b->job_done = false;
	b->has_job = true;
	pthread_cond_broadcast(&b->changed);
	pthread_mutex_unlock(&b->lock);
}

static void block_wait(struct block *b)
{
	pthread_mutex_lock(&b->lock);
	while (!b->job_done)
		pthread_cond_wait(&b->changed, &b->lock);
	pthread_mutex_unlock(&b->lock);
}

/* True when the block read as it would have after what `r` read. */
static bool block_fits(const struct reader *r, const struct block *b)
{
	return b->r.headers < 0 || r->headers < 0 || b->r.headers == r->headers;
}

/* Interns the thread's new frames and stacks in r's tables. */
static void merge_tables(struct reader *r, struct block *b)
{
	const struct cprof_perf *from = b->r.perf;
	uint32_t event;
	size_t i, j;

	b->frame_ids = cprof_xrealloc(b->frame_ids, (from->num_frames + 1) * sizeof(*b->frame_ids));
	for (i = b->merged_frames; i < from->num_frames; i++) {
		const struct frame *f = from->frames[i];

		b->frame_ids[i] = cprof_perf_intern_frame(r->perf, f->hash, f->key, f->key_len,
							  f->sym_len, f->dso_len, f->srcline != NULL);
	}
	b->merged_frames = from->num_frames;
	b->event_map = cprof_xrealloc(b->event_map, (b->r.num_events + 1) * sizeof(*b->event_map));
	for (i = 0; i < b->r.num_events; i++)
		b->event_map[i] = cprof_perf_find_event(r, b->r.events[i].name, b->r.events[i].name_len);
	b->stack_map = cprof_xrealloc(b->stack_map, (from->stacks.len + 1) * sizeof(*b->stack_map));
	for (i = b->merged_stacks; i < from->stacks.len; i++) {
		const struct stack *s = from->stacks.items[i];

		if (r->chain_cap < s->depth) {
			r->chain_cap = s->depth;
			r->chain = cprof_xrealloc(r->chain, r->chain_cap * sizeof(*r->chain));
		}
		for (j = 0; j < s->depth; j++)
			r->chain[j] = b->frame_ids[s->frames[j]];
		event = b->event_map[s->event];
		b->stack_map[i] = cprof_perf_intern_stack(r->perf, r->chain, s->depth, event,
							  cprof_perf_stack_hash(r->chain, s->depth,
										event));
	}
	b->merged_stacks = from->stacks.len;
	for (i = b->merged_mmaps; from->mmaps && i < from->mmaps->len; i++) {
		struct mmap m = g_array_index(from->mmaps, struct mmap, i);

		m.path = g_strdup(m.path);
		if (!r->perf->mmaps)
			r->perf->mmaps = g_array_new(FALSE, FALSE, sizeof(struct mmap));
		g_array_append_val(r->perf->mmaps, m);
	}
	b->merged_mmaps = from->mmaps ? from->mmaps->len : 0;
	if (from->forks && b->merged_forks < from->forks->len) {
		if (!r->perf->forks)
			r->perf->forks = g_array_new(FALSE, FALSE, sizeof(struct fork));
		g_array_append_vals(r->perf->forks,
				    &g_array_index(from->forks, struct fork, b->merged_forks),
				    from->forks->len - b->merged_forks);
	}
	b->merged_forks = from->forks ? from->forks->len : 0;
	r->perf->has_dso |= from->has_dso;
	r->perf->has_srcline |= from->has_srcline;
}

/* Counts what the block read after what `r` read; -1 at the first error,
 * the block's own or an overflow, at its line. */
static int merge_block(struct reader *r, struct block *b)
{
	size_t i;
	int status = 0;

	if (!block_fits(r, b)) {
		block_forget(b);
		return cprof_perf_parse_lines(r, b->text, b->len);
	}
	merge_tables(r, b);
	for (i = 0; i < b->num_recs && status == 0; i++) {
		const struct sample_rec *rec = &b->recs[i];

		status = cprof_perf_count_sample(r, b->stack_map[rec->stack], rec->has_period,
						 rec->period, r->line_no + rec->line);
	}
	if (status < 0)
		return -1;
	if (r->headers < 0)
		r->headers = b->r.headers;
	if (b->r.dropped && !r->dropped) {
		r->dropped_line = r->line_no + b->r.dropped_line;
		r->dropped_text = b->r.dropped_text;
		b->r.dropped_text = NULL;
	}
	r->dropped += b->r.dropped;
	if (b->status < 0)
		return cprof_perf_fail(r, r->line_no + b->err.line, "%s", b->err.text);
	r->line_no += b->r.line_no;
	return 0;
}

/* The end of the last blank line ("\n\n") in data[from, len), or 0. */
static size_t last_blank(const unsigned char *data, size_t from, size_t len)
{
	const unsigned char *p = data + len;

	while ((size_t)(p - data) > from + 1) {
		p = memrchr(data + from, '\n', (size_t)(p - data) - from);
		if (!p)
			return 0;
		if ((size_t)(p - data) > from && p[-1] == '\n')
			return (size_t)(p - data) + 1;
	}
	return 0;
}

/* Moves this thread's share of a chunk towards the one that has both
 * threads end together, from the last chunk's: this thread took `mine` -
 * `given` for the part `share` of it, the block's thread (waking
 * included) b->done_ns - `given` for the rest.  Each thread's speed
 * depends on the text and on what else the machine runs: a fixed share
 * leaves one of them idle.  Where the text is cut never changes what is
 * read. */
static void balance(struct block *b, double share, long long given, long long mine)
{
	double here = (double)(mine - given) / share;
	double there = (double)(b->done_ns - given) / (1.0 - share), best;

	if (here <= 0 || there <= 0)
		return;
	best = there / (here + there);
	b->share = fmin(0.8, fmax(0.2, 0.7 * b->share + 0.3 * best));
}

/* Reads the whole lines of data[0, len) with `r`, a block of them in the
 * block's thread when the text can be cut after blank lines. */
static int read_some(struct reader *r, struct block *b, const unsigned char *data, size_t len)
{
	const char *text = (const char *)data;
	size_t half = 0, end = 0;
	long long given, mine;

	if (b && r->headers >= 0 && len > BLOCK_MIN) {
		half = last_blank(data, 0, (size_t)((double)len * b->share));
		end = half ? last_blank(data, half, len) : 0;
	}
	if (end <= half)
		return cprof_perf_parse_lines(r, text, len);
	given = now_ns();
	block_give(b, text + half, end - half);
	if (cprof_perf_parse_lines(r, text, half) < 0) {
		block_wait(b);
		return -1;
	}
	mine = now_ns();
	block_wait(b);
	balance(b, (double)half / (double)end, given, mine);
	if (merge_block(r, b) < 0)
		return -1;
	return cprof_perf_parse_lines(r, text + end, len - end);
}

/* Reads the text through to its end, all its whole lines buffered at a
 * time (a chunk of it, as the input reads); an error of reading comes
 * after the whole lines before it. */
int cprof_perf_read_lines(struct reader *r, struct cprof_input *in)
{
	struct block *b = block_start(r);
	struct cprof_error read_err = { { 0 }, 0 };
	size_t want = 1;
	int status = 0;

	for (;;) {
		long long got = cprof_input_fill(in, want, &read_err);
		const unsigned char *data = cprof_input_data(in);
		size_t avail = cprof_input_avail(in), whole = avail;
		bool last = got < 0 || in->eof;

		if (!last || got < 0) {
			const unsigned char *nl = avail ? memrchr(data, '\n', avail) : NULL;

			whole = nl ? (size_t)(nl - data) + 1 : 0;
		}
		want = avail - whole + 1;
		if (whole == 0 && !last)
			continue;      /* a line longer than what is buffered */
		if (read_some(r, b, data, whole) < 0) {
			status = -1;
			break;
		}
		cprof_input_skip(in, whole);
		if (got < 0)
			status = cprof_error_set(r->err, "%s", read_err.text);
		if (last)
			break;
	}
	block_end(b);
	return status;
}
