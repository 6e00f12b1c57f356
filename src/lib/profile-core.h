/* profile-core.h: what every reader fills and shares: the profile read
 * whole, its stacks, the options of reading, and the sample-type picker.
 * Readers include this; the dispatcher that calls them is profile.h. */
#ifndef CPROF_PROFILE_CORE_H
#define CPROF_PROFILE_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "maps.h"
#include "base/ptrs.h"
#include "base/util.h"

enum cprof_format {
	CPROF_FORMAT_GPERF,    /* gperftools binary CPU profile */
	CPROF_FORMAT_FOLDED,   /* folded stacks */
	CPROF_FORMAT_FLAT,     /* cprof flat JSON */
	CPROF_FORMAT_PPROF,    /* pprof's profile.proto (proto.h) */
	CPROF_FORMAT_HEAP,     /* gperftools heap profile, legacy text (heap.h) */
	CPROF_FORMAT_PERF,     /* Linux perf: perf script's text or perf.data (perfscript.h) */
	CPROF_FORMAT_SPEEDSCOPE, /* speedscope's JSON (speedscope.h) */
	CPROF_FORMAT_CPUPROFILE, /* V8's .cpuprofile (cpuprofile.h) */
};

/* A distinct call chain of a binary profile and its summed count. */
struct cprof_stack {
	uint64_t count;
	const uint64_t *pcs;   /* leaf first, as in the file: points to storage */
	uint64_t hash;
	uint32_t depth;
	uint64_t storage[];
};

/* A distinct folded stack ("root;...;leaf") and its summed count (and
 * its second count, on the lines of a two-count file). */
struct cprof_folded_stack {
	uint64_t count;
	uint64_t count_b;
	char frames[];
};

struct cprof_calltree;
struct cprof_dist;
struct cprof_perf;

/* One input read whole: binary and folded profiles keep their distinct
 * stacks (memory grows with those, never with the file's size); a flat
 * JSON input is a distribution already. */
struct cprof_profile {
	const char *source;    /* the operand; not owned */
	uint64_t bytes;        /* read from the input (before any inflating) */
	enum cprof_format format;
	bool has_period;
	uint64_t period_us;
	uint64_t total;        /* samples */
	struct cprof_ptrs stacks;      /* binary: struct cprof_stack *, distinct, owned */
	struct cprof_arena stack_arena; /* where a reader that uses it keeps its stacks */
	bool stacks_in_arena;          /* the stacks are in stack_arena, not each malloc'd */
	struct cprof_ptrs folded;      /* folded: struct cprof_folded_stack *, distinct, owned */
	bool two_counts;       /* folded: "KEY COUNT_A COUNT_B" lines (difffolded.pl's) */
	uint64_t total_b;      /* their second counts' total */
	struct cprof_ptrs notes;       /* char *, owned: what the reader forgave or
					* assumed, "LINE: what" or "what", for
					* the caller to print after the input's name */
	struct cprof_maps maps;
	struct cprof_dist *flat;       /* flat JSON */
	bool replaced_utf8;    /* names were not valid UTF-8 */
	char *sample_type;     /* "TYPE/UNIT" of the counts, owned; NULL: samples/count */
	struct cprof_ptrs sample_types; /* char *, owned: every "TYPE/UNIT" the input
					 * offers, in --sample-index's numbering
					 * (perf, profile.proto); empty: sample_type alone */
	bool exact_pcs;        /* no PC is a return address: none is looked up at PC-1 */
	/* pprof's DropFrames and KeepFrames (prune.h): the frames of function
	 * names matching drop_frames, not keep_frames, are cut with all
	 * beneath them; static strings, or NULL: none. */
	const char *drop_frames, *keep_frames;
	struct cprof_locations *locations; /* profile.proto: stacks hold their indexes */
	const char **labels;   /* --by=label:KEY: the key of stacks[i] (g_free the array) */
	/* The values of the options' row_labels the samples of stacks[i]
	 * carry: row_labels[i * num_row_labels + j] (NULL: none), interned;
	 * NULL when none were asked or the format has no labels. */
	const char **row_labels;
	struct cprof_perf *perf;       /* perf: its stacks and frames, owned */
	struct cprof_calltree *calltree; /* speedscope, .cpuprofile: owned */
};

/* The options of reading an input beyond its name. */
struct cprof_read_options {
	const char *sample_index;      /* --sample-index N|NAME, or NULL: the default */
	const char *const *tag_filters; /* --tag-filter KEY=VALUE: samples must match each */
	size_t num_tag_filters;
	const char *label_key;         /* --by=label:KEY: the KEY, or NULL */
	const char *const *row_labels; /* --rows --label NAME: the NAMEs */
	size_t num_row_labels;
	const char *binary;            /* --binary FILE: a profile without maps is its
					* link-time addresses; or NULL */
	const char *sample_type;       /* --sample-type TYPE/UNIT of folded counts, or NULL */
	bool has_period;               /* --period given: */
	double period;                 /* in the sample type's time unit, else nanoseconds */
	bool two_counts;               /* a two-count folded input may be read */
	bool addresses;                /* --by=address: perf keeps each frame's address */
};

/* Picks which of the `n` sample types (types[i]/units[i]) a profile's
 * counts are, as pprof's -sample_index does: `request` a number or a
 * type's name (an "inuse_" prefix may be left off the type), or NULL for
 * the type named `default_type` (NULL or "": none), else the last.
 * Returns the index, or -1 with `err` set listing the choices. */
int cprof_sample_index_pick(const char *const *types, const char *const *units, size_t n,
			    const char *default_type, const char *request,
			    struct cprof_error *err);

#endif
