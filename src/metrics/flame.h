/* flame.h: the frames of a flame graph: the call tree that a profile's
 * stacks make (keys "root;...;leaf", as --by=stack keys them), each frame
 * as wide as its inclusive count, siblings in name order, the frames
 * narrower than a minimum width merged; for two profiles, each frame's
 * change of inclusive share tested as cprof-diff tests a key.  flame-svg.h
 * draws them. */
#ifndef CPROF_FLAME_H
#define CPROF_FLAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/dist.h"
#include "signif.h"

/* One frame as drawn. */
struct cprof_flame_frame {
	const char *name;      /* into a key of the distribution (not NUL-ended), or static */
	size_t name_len;
	size_t merged;         /* 0: one frame; else the narrow siblings this one stands for */
	uint32_t depth;        /* 0: the root, "all" */
	uint64_t offset;       /* its left edge from the root's, in counts of the drawn side */
	uint64_t count;        /* inclusive count of the drawn side (B of a difference) */
	uint64_t count_a;      /* inclusive count of A (a difference) */
	double delta;          /* a difference: its share in B less its share in A */
	bool tested;           /* q_value and the interval exist */
	double q_value;
	double ci_low;         /* the interval of delta at level ci_level */
	double ci_high;
	double ci_level;       /* (signif.h: consistent with the test) */
	bool significant;      /* q_value <= alpha and |delta| >= min_effect */
	const char *note;      /* cprof_key_note: why an interval without 0 is not marked */
};

/* The frames of a flame graph, in preorder (the root first, a frame
 * before its callees, the merged frame of a parent after its other
 * callees). */
struct cprof_flame {
	struct cprof_flame_frame *frames;
	size_t count;
	uint32_t max_depth;
	uint64_t total;        /* the drawn side's samples: the root's count */
	uint64_t total_a;      /* a difference: A's */
	size_t narrow;         /* frames merged or left out for their width */
	bool diff;             /* two profiles */
	bool tested;           /* a difference whose frames were tested */
	size_t corrected;      /* frames in the Benjamini-Hochberg correction */
	size_t significant;    /* frames that changed significantly */
	struct cprof_signif_options options;
};

/* The flame graph of `dist` (keyed by stack): frames narrower than
 * `min_share` of the root merged.  Its names point into `dist`, which
 * must outlive it.  Free it with cprof_flame_free. */
struct cprof_flame *cprof_flame_build(const struct cprof_dist *dist, double min_share);

/* The differential flame graph of `a` (the base) and `b` (the candidate,
 * whose counts set the widths), both keyed by stack: each frame's
 * inclusive counts in A and B tested as cprof_signif_compute tests a
 * key's (a two-proportion test, Benjamini-Hochberg over the frames drawn,
 * their counts in samples), under `options`; with `options` NULL, or
 * counts that are not samples of one period, nothing is tested. */
struct cprof_flame *cprof_flame_diff(const struct cprof_dist *a, const struct cprof_dist *b,
				     double min_share, const struct cprof_signif_options *options);

/* Frees a flame graph; accepts NULL. */
void cprof_flame_free(struct cprof_flame *flame);

#endif
