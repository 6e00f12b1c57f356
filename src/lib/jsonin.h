/* jsonin.h: a JSON input parsed once with jansson, and the checks its
 * readers share. */
#ifndef CPROF_JSONIN_H
#define CPROF_JSONIN_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "base/input.h"
#include "base/util.h"

/* Parses the whole of `in` as one JSON document (duplicate keys refused).
 * Returns it (the caller json_decref()s it), or NULL with `err` set: the
 * read error, or the syntax error with its line, column and byte. */
json_t *cprof_json_load(struct cprof_input *in, struct cprof_error *err);

/* True, with *out set, when `value` is a JSON integer in [0, 2^63). */
bool cprof_json_whole(const json_t *value, uint64_t *out);

/* True when the string `value` holds no NUL character (jansson accepts
 * "\u0000", which a C string would cut short). */
bool cprof_json_no_nul(const json_t *value);

#endif
