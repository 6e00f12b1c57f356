/* fetch.h: many HTTP(S) GETs at once through libcurl's multi interface,
 * each bounded in time and in bytes (as sent and as gzip inflates them),
 * following no redirect to another host. */
#ifndef CPROF_COLLECT_FETCH_H
#define CPROF_COLLECT_FETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One GET: what the caller asks, then what came of it. */
struct cprof_fetch {
	const char *url;       /* the whole URL, not copied */
	size_t target;         /* the caller's */
	size_t machine;        /* no two fetches of one machine run at once */
	long seconds;          /* the most the whole GET may take */
	bool started;
	unsigned char *data;   /* the body as received (owned: free), or NULL */
	size_t len;
	char *error;           /* why it failed (owned: free), or NULL */
	double elapsed;        /* its seconds, from its start */
};

struct cprof_fetch_limits {
	size_t jobs;           /* at most this many GETs at once (>= 1) */
	uint64_t max_bytes;    /* of a body, as received and inflated */
	long connect_seconds;  /* to connect */
};

/* Called when `fetch` ends, ok or not; returns false when no further
 * fetch is to start (those running end first). */
typedef bool cprof_fetch_done_fn(void *data, struct cprof_fetch *fetch);

/* Called at each turn of the loop, for the caller's own work; returns a
 * descriptor whose input is to wake the loop too, or -1. */
typedef int cprof_fetch_tick_fn(void *data);

/* Runs the `count` fetches, `limits->jobs` at a time, in order as their
 * machines are free, calling `done` as each ends and `tick` (or NULL) at
 * each turn; a fetch not started when `done` said stop keeps started
 * false.  Dies only when libcurl cannot start. */
void cprof_fetch_all(const struct cprof_fetch_limits *limits, struct cprof_fetch *fetches,
		     size_t count, cprof_fetch_done_fn *done, cprof_fetch_tick_fn *tick,
		     void *data);

/* Initializes libcurl (once, before any thread) and names its version. */
void cprof_fetch_global_init(void);

/* libcurl's version text, for --version. */
const char *cprof_fetch_version(void);

#endif
