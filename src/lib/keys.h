/* keys.h: the samples of a profile turned into the keys of a distribution. */
#ifndef CPROF_KEYS_H
#define CPROF_KEYS_H

#include <stdbool.h>

#include "dist.h"
#include "profile-core.h"
#include "base/util.h"

struct cprof_symbolizer;

/* How samples become keys: the options every reading program shares. */
struct cprof_key_options {
	enum cprof_by by;
	bool cum;
	bool by_given;         /* --by or --cum was asked for explicitly */
	bool symbolize;        /* false: every PC as if no symbol were found */
	bool inline_frames;    /* expand inlined functions (DWARF) */
	struct cprof_symbolizer *symbolizer; /* NULL when not symbolizing */
};

/* Adds the samples of `profile` into `dist`, keyed as `options` say (a
 * flat JSON input keeps its own keys: when it is the first input and no
 * --by was given, `dist` takes its by and cum).  Returns 0, or -1 with
 * `err` set (a --by the format cannot give). */
int cprof_profile_to_dist(struct cprof_profile *profile, const struct cprof_key_options *options,
			  struct cprof_dist *dist, struct cprof_error *err);

/* The one builder of --by=stack keys, for every reader whose samples are
 * stacks of named frames: a key is its frames' names joined by ';', root
 * first, a ';' inside a name written ':' (cprof_stack_frame_tidy). */
struct cprof_stack_keys;

/* A builder; free it with cprof_stack_keys_free. */
struct cprof_stack_keys *cprof_stack_keys_new(void);

/* Frees a builder; accepts NULL. */
void cprof_stack_keys_free(struct cprof_stack_keys *keys);

/* Starts the key of one stack, to go into `dist` (whose room for keys
 * bounds it: cprof_dist_key_room). */
void cprof_stack_keys_begin(struct cprof_stack_keys *keys, const struct cprof_dist *dist);

/* Appends the frame `name`, outer frames first.  False once the key has
 * reached the room of the dist: the caller pushes no more (the key is
 * not built past it, so that its memory stays bounded). */
bool cprof_stack_keys_push(struct cprof_stack_keys *keys, const char *name);

/* Adds `count` to the key built in `dist`; past its room, adds nothing
 * and sets dist->over_limit. */
void cprof_stack_keys_end(struct cprof_stack_keys *keys, struct cprof_dist *dist,
			  uint64_t count);

/* --cum: adds `count` to each distinct name of names[0, n) once, equal
 * names being the same pointer (interned); reorders names. */
void cprof_keys_add_each_once(struct cprof_dist *dist, const char **names, size_t n,
			      uint64_t count);

#endif
