/* folded.h: the reader of folded stacks ("root;...;leaf COUNT" lines). */
#ifndef CPROF_FOLDED_H
#define CPROF_FOLDED_H

#include <stdbool.h>
#include <stddef.h>

#include "input.h"
#include "profile.h"

/* Reads folded stacks from `in` into `profile`: its distinct stacks and
 * total.  -1 with `err` set (and err->line) on bad input. */
int cprof_folded_read(struct cprof_input *in, struct cprof_profile *profile,
		      struct cprof_error *err);

/* True when `line` is a folded-stack line: frames, a space, a count. */
bool cprof_folded_line_ok(const char *line, size_t len);

#endif
