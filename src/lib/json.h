/* json.h: the JSON of a flat distribution (base/jsonout.h prints it). */
#ifndef CPROF_JSON_H
#define CPROF_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "dist.h"

/* The JSON object of a flat distribution, sorted, with at most `top`
 * entries (0: all). */
json_t *cprof_json_flat(struct cprof_dist *dist, size_t top);

/* Prints the JSON of cprof_json_flat(dist, top) on standard output as
 * cprof_json_print does, without holding the entries as a tree: the
 * same text, one object reused for every entry. */
void cprof_json_print_flat(struct cprof_dist *dist, size_t top, bool compact);

#endif
