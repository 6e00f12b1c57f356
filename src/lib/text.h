/* text.h: a flat distribution as a table or as folded lines. */
#ifndef CPROF_TEXT_H
#define CPROF_TEXT_H

#include <stddef.h>

#include "dist.h"

/* Prints the aligned table of a flat distribution (at most `top` entries,
 * 0: all) on standard output. */
void cprof_text_flat(struct cprof_dist *dist, size_t top);

/* Prints "KEY COUNT" lines in flat order (at most `top`, 0: all), after
 * the "# cprof:" line that says what the counts are when they are not
 * plain samples (cprof_folded_comment). */
void cprof_folded_flat(struct cprof_dist *dist, size_t top);

#endif
