/* folded.h: the folded stacks format ("root;...;leaf COUNT" lines): its
 * reader, its escapes and its writer. */
#ifndef CPROF_FOLDED_H
#define CPROF_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/input.h"
#include "profile-core.h"

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

/* What decides how folded counts are read where nothing says: the
 * lines, their least nonzero count (for the rule's benchmark), the greatest common divisor of every
 * count and each column's total (the second 0 with one count a line). */
struct cprof_folded_counts {
	size_t stacks;
	uint64_t least, divisor, total[2];
};

/* No lines yet. */
#define CPROF_FOLDED_COUNTS_INIT { 0, UINT64_MAX, 0, { 0, 0 } }

/* Adds a line of counts `a` and `b` (0 for a line of one count). */
void cprof_folded_counts_add(struct cprof_folded_counts *counts, uint64_t a, uint64_t b);

/* How folded counts are read where no line or option says. */
enum cprof_folded_units {
	CPROF_FOLDED_SAMPLES,  /* the counts are samples */
	CPROF_FOLDED_PERIOD,   /* samples of their divisor (a fixed period summed) */
	CPROF_FOLDED_UNKNOWN,  /* not samples: value/unknown, no verdict */
};

/* The rule (bench/folded-units, bench/STATS.md): two stacks or more
 * whose counts share a divisor of CPROF_FOLDED_PERIOD_LEAST or more are
 * samples of that period; else two stacks or more in a column of more
 * than CPROF_FOLDED_MOST_SAMPLES in all are no samples; else samples. */
enum cprof_folded_units cprof_folded_units(const struct cprof_folded_counts *counts);

/* The least divisor read as a period. */
#define CPROF_FOLDED_PERIOD_LEAST 1000

/* More samples than a recording takes (10^7: three hours of one CPU at
 * perf's 999 Hz, a day of py-spy's 100 Hz). */
#define CPROF_FOLDED_MOST_SAMPLES 10000000

/* The "# cprof: [period=N ]sample_type=TYPE/UNIT" line (with its newline)
 * that tells cprof what folded counts of `sample_type` (NULL:
 * samples/count) sampled at `period_us` (when has_period) are, `counts`
 * what the lines written hold; NULL when they need none (samples of no
 * known period that read back as samples).  The caller frees it. */
char *cprof_folded_comment(const char *sample_type, bool has_period, uint64_t period_us,
			   const struct cprof_folded_counts *counts);

/* Writes the folded line "KEY COUNT\n" (with `two_counts`, "KEY COUNT
 * COUNT_B\n", difffolded.pl's) to `out`, KEY escaped so that the line
 * reads back as that key and those counts: what cprof_put_escaped
 * escapes, and a leading '#', trailing blanks and the blank before a
 * number that ends KEY, each as \xNN (cprof_unescape undoes them). */
void cprof_folded_put_line(FILE *out, const char *key, uint64_t count, bool two_counts,
			   uint64_t count_b);

#endif
