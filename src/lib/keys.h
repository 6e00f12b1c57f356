/* keys.h: the samples of a profile turned into the keys of a distribution. */
#ifndef CPROF_KEYS_H
#define CPROF_KEYS_H

#include <stdbool.h>

#include "dist.h"
#include "profile.h"
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

#endif
