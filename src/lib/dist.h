/* dist.h: the flat distribution: counts per key, merged, sorted. */
#ifndef CPROF_DIST_H
#define CPROF_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ptrs.h"
#include "base/util.h"

enum cprof_by {
	CPROF_BY_FUNCTION,
	CPROF_BY_DSO,
	CPROF_BY_LINE,
	CPROF_BY_ADDRESS,
	CPROF_BY_STACK,
	CPROF_BY_LABEL,        /* the first --by=label:KEY of the run (see cprof_by_parse) */
};

/* The name of a --by value ("function", "label:worker"), and back; -1 for
 * an unknown name.  Parsing "label:KEY" (KEY non-empty, valid UTF-8)
 * gives CPROF_BY_LABEL + i, the same i for the same KEY throughout the
 * run, so that keyings compare equal as values. */
const char *cprof_by_name(enum cprof_by by);
int cprof_by_parse(const char *name);

/* Writes "by " and the name of `by` to `out`, the name escaped as keys
 * are (cprof_put_text): a label's name is the user's text. */
void cprof_put_by(FILE *out, enum cprof_by by);

/* Rewrites each ';' of the frame name s[0, len) as ':', in place: in a
 * --by=stack key ';' parts the frames, so a name holding one (a JVM
 * class, "Lcom/Foo;.run", in perf's maps) would read back as two frames.
 * stackcollapse-perf.pl makes the same change. */
void cprof_stack_frame_tidy(char *s, size_t len);

/* The KEY of a --by=label:KEY, or NULL for any other keying. */
const char *cprof_by_label_key(enum cprof_by by);

struct cprof_dist_index;

struct cprof_entry {
	char *key;             /* valid UTF-8, owned by the distribution */
	uint64_t count;
};

/* A flat distribution: counts per key, the total of samples (which may
 * exceed the sum of the counts when a truncated flat was read), and where
 * it came from. */
struct cprof_dist {
	enum cprof_by by;
	bool cum;
	uint64_t total;
	bool has_period;       /* every input agreed on period_us */
	uint64_t period_us;
	size_t num_inputs;     /* inputs merged in */
	struct cprof_ptrs sources;     /* char *, owned */
	struct cprof_ptrs entries;     /* struct cprof_entry *, owned */
	struct cprof_dist_index *index; /* key -> entry, private to dist.c */
	bool sorted;
	char *sample_type;     /* "TYPE/UNIT" of the counts, owned; NULL: samples/count */
	uint64_t key_bytes;    /* the bytes of the keys, a NUL each */
	uint64_t key_limit;    /* what they may take (0: no bound; cprof_dist_limit_keys) */
	bool over_limit;       /* a key was refused: past key_limit */
};

/* Returns an empty distribution; free it with cprof_dist_free. */
struct cprof_dist *cprof_dist_new(enum cprof_by by, bool cum);

/* Frees a distribution; accepts NULL. */
void cprof_dist_free(struct cprof_dist *dist);

/* Adds `count` samples to `key` (copied when new; must be valid UTF-8). */
struct cprof_entry *cprof_dist_add(struct cprof_dist *dist, const char *key, uint64_t count);

/* Bounds the bytes the keys take (a NUL each) at `bytes` (0: no bound):
 * past it, cprof_dist_add keeps no new key (it counts its samples in an
 * entry of no key, outside the entries) and sets over_limit. */
void cprof_dist_limit_keys(struct cprof_dist *dist, uint64_t bytes);

/* The bytes a new key may still take (its NUL included), UINT64_MAX when
 * there is no bound. */
uint64_t cprof_dist_key_room(const struct cprof_dist *dist);

/* Returns the entry of `key`, or NULL. */
struct cprof_entry *cprof_dist_find(const struct cprof_dist *dist, const char *key);

/* Records one more input's name (kept valid UTF-8, bad bytes replaced by
 * U+FFFD) and sampling period (has_period false when the input has none). */
void cprof_dist_note_input(struct cprof_dist *dist, const char *source, bool has_period,
			   uint64_t period_us);

/* The "TYPE/UNIT" of a distribution's counts ("samples/count" unless an
 * input said otherwise). */
const char *cprof_dist_sample_type(const struct cprof_dist *dist);

/* Records the sample type of one more input (NULL: samples/count): the
 * first sets it; returns -1 with `err` set when another differs. */
int cprof_dist_note_sample_type(struct cprof_dist *dist, const char *sample_type,
				struct cprof_error *err);

/* How many units of a distribution's counts one sample is: 1 for
 * samples/count, the period for a time unit (nanoseconds, microseconds,
 * milliseconds, seconds) when period_us is known; 0 when the counts are
 * not samples (bytes, objects, a time without a period). */
double cprof_dist_units_per_sample(const struct cprof_dist *dist);

/* Adds every count and the total of `from` into `into`. */
void cprof_dist_merge(struct cprof_dist *into, const struct cprof_dist *from);

/* Sorts the entries by count descending, then key ascending (bytewise). */
void cprof_dist_sort(struct cprof_dist *dist);

/* The samples of a distribution outside its entries (a flat truncated with
 * --top); 0 for a cumulative one. */
uint64_t cprof_dist_other(const struct cprof_dist *dist);

#endif
