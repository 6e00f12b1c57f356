/* profile.h: one input read whole, its format detected by content. */
#ifndef CPROF_PROFILE_H
#define CPROF_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "maps.h"
#include "ptrs.h"
#include "util.h"

enum cprof_format {
	CPROF_FORMAT_GPERF,    /* gperftools binary CPU profile */
	CPROF_FORMAT_FOLDED,   /* folded stacks */
	CPROF_FORMAT_FLAT,     /* cprof flat JSON */
};

/* A distinct call chain of a binary profile and its summed count. */
struct cprof_stack {
	uint64_t count;
	const uint64_t *pcs;   /* leaf first, as in the file: points to storage */
	uint64_t hash;
	uint32_t depth;
	uint64_t storage[];
};

/* A distinct folded stack ("root;...;leaf") and its summed count. */
struct cprof_folded_stack {
	uint64_t count;
	char frames[];
};

struct cprof_dist;

/* One input read whole: binary and folded profiles keep their distinct
 * stacks (memory grows with those, never with the file's size); a flat
 * JSON input is a distribution already. */
struct cprof_profile {
	const char *source;    /* the operand; not owned */
	enum cprof_format format;
	bool has_period;
	uint64_t period_us;
	uint64_t total;        /* samples */
	struct cprof_ptrs stacks;      /* binary: struct cprof_stack *, distinct, owned */
	struct cprof_ptrs folded;      /* folded: struct cprof_folded_stack *, distinct, owned */
	struct cprof_maps maps;
	struct cprof_dist *flat;       /* flat JSON */
	bool replaced_utf8;    /* names were not valid UTF-8 */
};

/* Reads the input `name` ("-" is standard input), detecting its format by
 * content.  Returns a profile the caller frees with cprof_profile_free, or
 * NULL with `err` set. */
struct cprof_profile *cprof_profile_read(const char *name, struct cprof_error *err);

/* Frees a profile; accepts NULL. */
void cprof_profile_free(struct cprof_profile *profile);

#endif
