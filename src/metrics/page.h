/* page.h: the page of cprof-regress --html: one self-contained HTML file
 * (no network, no external script) for a CI job to publish: the verdict
 * in a sentence, the keys that moved in a table that sorts, the
 * differential flame graph (flame-svg.h), the baselines' dispersion. */
#ifndef CPROF_PAGE_H
#define CPROF_PAGE_H

#include <stdbool.h>
#include <stdio.h>

#include "judge.h"
#include "lib/dist.h"
#include "stats.h"

/* What the page shows of one regression check. */
struct cprof_page {
	const char *dir;                       /* the baselines' directory, any bytes */
	const char *candidate;                 /* the candidate's name */
	bool distance_rule;                    /* --rule distance: the threshold decides */
	bool different;                        /* the verdict */
	double noise, threshold;               /* --rule distance's figures */
	size_t num_baselines;
	char *const *baseline_names;
	struct cprof_dist *const *baselines;
	const struct cprof_dist *base;         /* the baselines merged */
	const struct cprof_dist *cand;
	const struct cprof_diff *diff;         /* base against cand */
	const struct cprof_judgement *judgement;
	/* The same by stack, for the flame graph (NULL: none drawn). */
	const struct cprof_dist *stack_base;
	const struct cprof_dist *stack_cand;
};

/* Writes the page of `page` to `out`. */
void cprof_page_regress(FILE *out, const struct cprof_page *page);

#endif
