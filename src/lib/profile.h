/* profile.h: one input read whole, its format detected by content: the
 * dispatcher above the readers (the types they share: profile-core.h). */
#ifndef CPROF_PROFILE_H
#define CPROF_PROFILE_H

#include "profile-core.h"

/* Reads the input `name` ("-" is standard input), detecting its format by
 * content.  Returns a profile the caller frees with cprof_profile_free, or
 * NULL with `err` set. */
struct cprof_profile *cprof_profile_read(const char *name, struct cprof_error *err);

/* cprof_profile_read with `options` (NULL: the defaults). */
struct cprof_profile *cprof_profile_read_with(const char *name,
					      const struct cprof_read_options *options,
					      struct cprof_error *err);

/* Frees a profile; accepts NULL. */
void cprof_profile_free(struct cprof_profile *profile);

#endif
