/* flatjson.h: the reader of cprof's own flat JSON, the other half of json.c. */
#ifndef CPROF_FLATJSON_H
#define CPROF_FLATJSON_H

#include <stdbool.h>
#include <stddef.h>

#include "input.h"
#include "profile.h"

#include <jansson.h>

#include "dist.h"

/* Reads a flat JSON document from `in` into profile->flat.  -1 with `err`
 * set (invalid JSON with its line, or the JSON path of the fault). */
int cprof_flatjson_read(struct cprof_input *in, struct cprof_profile *profile,
			struct cprof_error *err);

#endif
