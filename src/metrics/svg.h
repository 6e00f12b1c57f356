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

/* One compared key of a difference. */
struct cprof_svg_bar {
	const char *key;
	uint64_t count_a;
	uint64_t count_b;
	double p_a;
	double p_b;
	double delta;          /* p_b - p_a */
	bool tested;           /* q_value and the interval exist */
	double q_value;
	double ci_low;         /* the interval of delta at level ci_level */
	double ci_high;
	double ci_level;       /* (signif.h: consistent with the test) */
	bool significant;      /* changed significantly: marked */
	const char *note;      /* cprof_key_note: why an interval without 0 is not marked */
};

/* What the picture of a difference shows. */
struct cprof_svg_diff {
	const char *source_a;  /* the operands, any bytes */
	const char *source_b;
	const char *by;        /* the --by name */
	bool cum;
	bool stacks;           /* keys are call chains: cut a long one at its root end */
	uint64_t total_a;
	uint64_t total_b;
	size_t k;              /* 0: every key */
	bool keys_a;           /* the top k of A alone (--keys a) */
	double manhattan;
	/* The significance figures; when `tested` is false (a --cum
	 * difference) no bar has an interval or a mark. */
	bool tested;
	double alpha;
	double min_effect;
	double dispersion;
	bool different;
	size_t keys;           /* keys of A or B */
	size_t corrected;      /* keys in the correction */
	size_t significant;    /* keys that changed significantly */
	double null_mean;      /* manhattan by sampling alone: its mean */
	double null_quantile;  /* and its 1 - alpha quantile */
	const struct cprof_svg_bar *bars;  /* in the order drawn, top first */
	size_t count;
};

/* Writes the picture of `diff` to `out`: one row per bar, its key's name,
 * a bar from a centre axis for its delta (gained right, lost left), its
 * interval as a whisker and a mark when significant, the sources, totals
 * and distance in the title, and a legend saying what alpha and q are. */
void cprof_svg_diff(FILE *out, const struct cprof_svg_diff *diff);

/* One profile of cprof-entropy. */
struct cprof_svg_profile {
	const char *source;    /* the operand, any bytes */
	double entropy;
	double entropy_mm;
	double se;             /* NaN: no band */
	uint64_t total;
	size_t entries;
	bool lower_bound;
};

/* What the picture of several entropies shows. */
struct cprof_svg_entropy {
	const char *by;
	const char *unit;      /* "bits", "nats", "hartleys" */
	const struct cprof_svg_profile *profiles;
	size_t count;
	bool has_stability;    /* the figures below exist (several profiles) */
	double mean;
	double sd;
	double min;
	double max;
	double cv;
	double sampling_sd;
};

/* Writes the picture of `entropy` to `out`: one row per profile, its
 * entropy as a point on a common axis with its band of +-1.96 se, the
 * mean and the band of +-sd across the rows, the stability figures in
 * the title. */
void cprof_svg_entropy(FILE *out, const struct cprof_svg_entropy *entropy);

#endif
