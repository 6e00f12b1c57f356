/* folded.h: the reader of folded stacks ("root;...;leaf COUNT" lines). */
#ifndef CPROF_FOLDED_H
#define CPROF_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/input.h"
#include "profile.h"

/* Reads folded stacks from `in` into `profile`: its distinct stacks and
 * total, their sample type and period (from `options`, NULL for none, and
 * the "# cprof:" line), and the notes of what was forgiven (blank and
 * comment lines, CR LF, decimal counts) or assumed (a period from the
 * counts).  -1 with `err` set (and err->line) on bad input. */
int cprof_folded_read(struct cprof_input *in, struct cprof_profile *profile,
		      const struct cprof_read_options *options, struct cprof_error *err);

/* True when `line` is a folded-stack line: frames, a blank, a count (and
 * maybe a second count, as difffolded.pl writes). */
bool cprof_folded_line_ok(const char *line, size_t len);

/* Makes the second counts of a two-count profile its counts and total. */
void cprof_folded_take_second(struct cprof_profile *profile);

/* True when folded counts, `stacks` of them the least of which is
 * `least`, cannot be read as samples unless a line or an option says
 * they are: two stacks or more, each of CPROF_FOLDED_NOT_SAMPLES or more. */
bool cprof_folded_not_samples(size_t stacks, uint64_t least);

/* The counts every stack of a folded input reaches when it holds no
 * sample counts (stackcollapse-perf.pl sums perf's periods). */
#define CPROF_FOLDED_NOT_SAMPLES 1000

/* The "# cprof: [period=N ]sample_type=TYPE/UNIT" line (with its newline)
 * that tells cprof what folded counts of `sample_type` (NULL:
 * samples/count) sampled at `period_us` (when has_period) are, `stacks`
 * lines the least of whose counts is `least`; NULL when they need none
 * (samples of no known period that read back as samples).  The caller
 * frees it. */
char *cprof_folded_comment(const char *sample_type, bool has_period, uint64_t period_us,
			   size_t stacks, uint64_t least);

#endif
