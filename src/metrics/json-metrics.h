/* json-metrics.h: the JSON shapes of cprof-entropy and cprof-diff, as
 * doc/interface.md gives them. */
#ifndef CPROF_JSON_METRICS_H
#define CPROF_JSON_METRICS_H

#include <stdbool.h>

#include <jansson.h>

#include "judge.h"
#include "stats.h"

/* The cprof-entropy object of one input, named `source`; with `header`
 * false, without the "cprof" and "version" members (an item of
 * "profiles"). */
json_t *cprof_json_entropy(const char *source, enum cprof_by by, enum cprof_base base,
			   const struct cprof_entropy *entropy, bool header);

/* The cprof-entropy object of several inputs: their objects (as
 * cprof_json_entropy without header gives them; the reference is stolen)
 * and the stability summary. */
json_t *cprof_json_entropy_many(enum cprof_by by, enum cprof_base base, json_t *profiles,
				const struct cprof_stability *stability);

/* The cprof-diff object comparing `a` (named `source_a`) and `b`.  The
 * entropies are NULL for a cumulative distribution (printed as null).
 * With a `judgement`, the significance fields too: the options, verdict,
 * test and manhattan_null (not for a --cum difference), each entry's
 * p_value, q_value and ci, and the warnings. */
json_t *cprof_json_diff(const char *source_a, const char *source_b, enum cprof_by by, size_t k,
			enum cprof_keys keys, const struct cprof_diff *diff, uint64_t total_a,
			uint64_t total_b, const double *entropy_a, const double *entropy_b,
			const struct cprof_judgement *judgement);

#endif
