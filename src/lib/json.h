/* json.h: the JSON of a flat distribution, and JSON printing. */
#ifndef CPROF_JSON_H
#define CPROF_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "dist.h"
#include "util.h"

/* The JSON object of a flat distribution, sorted, with at most `top`
 * entries (0: all). */
json_t *cprof_json_flat(struct cprof_dist *dist, size_t top);

/* Prints the JSON of cprof_json_flat(dist, top) on standard output as
 * cprof_json_print does, without holding the entries as a tree: the
 * same text, one object reused for every entry. */
void cprof_json_print_flat(struct cprof_dist *dist, size_t top, bool compact);

/* Prints `root` on standard output, pretty or on one line, and frees it. */
void cprof_json_print(json_t *root, bool compact);

/* Sets member `name` of `object` to `value`, taking over the reference
 * to `value`; dies on exhaustion, of which a NULL `value` (a failed
 * json_* constructor) is taken to be a sign. */
void cprof_json_set(json_t *object, const char *name, json_t *value);

/* A JSON string from a C string that is valid UTF-8; dies on exhaustion. */
json_t *cprof_json_string(const char *s);

#endif
