/* flatjson.h: the reader of cprof's own flat JSON, the other half of json.c. */
#ifndef CPROF_FLATJSON_H
#define CPROF_FLATJSON_H

#include <jansson.h>

#include "profile-core.h"
#include "base/util.h"

/* Reads the parsed flat JSON document `root` (a JSON object naming
 * "cprof"; not taken over) into profile->flat.  -1 with `err` set to the
 * JSON path of the fault. */
int cprof_flatjson_take(json_t *root, struct cprof_profile *profile, struct cprof_error *err);

#endif
