/* flame-svg.h: a flame graph (flame.h) drawn as one self-contained SVG
 * document, its script inside: hovering a frame shows its name and
 * figures, clicking zooms to it (and "Reset zoom" back), "Search" (or
 * ?s=REGEX in the file's URL) highlights the frames whose names match a
 * regular expression and shows the share they hold together.  With
 * scripts off the picture is whole: every frame a group with a <title>
 * (its name, count and share), drawn at its place, its name fitted. */
#ifndef CPROF_FLAME_SVG_H
#define CPROF_FLAME_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "flame.h"

/* The width of the frames' area, in pixels: a minimum width of W pixels
 * is a share of W / CPROF_FLAME_CHART of the root. */
#define CPROF_FLAME_CHART 1180.0

/* The least width of a frame, in pixels, unless told (flamegraph.pl's). */
#define CPROF_FLAME_MIN_WIDTH 0.1

/* How to draw. */
struct cprof_flame_svg {
	const char *title;     /* the first line, any bytes */
	const char *unit;      /* what a count is: "samples", "bytes" */
	double min_width;      /* the pixels the frames were merged below */
	bool icicle;           /* the root at the top, callees below */
	bool embedded;         /* inside an HTML page: no XML declaration */
};

/* Writes the picture of `flame` to `out`; a difference in colours of its
 * frames' tests, with a legend saying what they mean. */
void cprof_flame_svg(FILE *out, const struct cprof_flame *flame, const struct cprof_flame_svg *how);

#endif
