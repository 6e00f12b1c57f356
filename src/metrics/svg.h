/* svg.h: the pictures of cprof-diff --svg and cprof-entropy --svg.
 *
 * Each is one self-contained SVG document (no script, no external file,
 * no library): the figures come in plain structs, and every name is
 * written escaped for XML, its invalid UTF-8 bytes and the characters XML
 * cannot hold (control characters, U+FFFE, U+FFFF) drawn as U+FFFD.
 * Sizes are fixed (12px text, 20px rows); a name wider than 60 columns is
 * cut, visibly (an ellipsis), and given whole in its row's <title>. */
#ifndef CPROF_SVG_H
#define CPROF_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "judge.h"
#include "stats.h"

/* Writes the picture of `diff` (of `a` and `b`, named `sources`, as
 * cprof_diff_compute made it with `k` and `keys`) to `out`: one row per
 * compared key, its name, a bar from a centre axis for its delta (gained
 * right, lost left), and when the judgement `j` tested it its interval
 * as a whisker and a mark when it moved; the sources, totals and distance
 * in the title, and a legend saying what alpha and q are. */
void cprof_svg_diff(FILE *out, const char *const sources[2], const struct cprof_dist *a,
		    const struct cprof_dist *b, size_t k, enum cprof_keys keys,
		    const struct cprof_diff *diff, const struct cprof_judgement *j);

/* One profile of cprof-entropy: its name and its entropy (a se of NaN:
 * no band). */
struct cprof_svg_profile {
	const char *source;    /* the operand, any bytes */
	struct cprof_entropy entropy;
};

/* What the picture of several entropies shows. */
struct cprof_svg_entropy {
	const char *by;
	const char *unit;      /* "bits", "nats", "hartleys" */
	const struct cprof_svg_profile *profiles;
	size_t count;
	const struct cprof_stability *stability;  /* NULL: one profile */
};

/* Writes the picture of `entropy` to `out`: one row per profile, its
 * entropy as a point on a common axis with its band of +-1.96 se, the
 * mean and the band of +-sd across the rows, the stability figures in
 * the title. */
void cprof_svg_entropy(FILE *out, const struct cprof_svg_entropy *entropy);

#endif
