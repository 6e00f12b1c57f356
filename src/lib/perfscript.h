/* perfscript.h: Linux perf's samples, as the text of `perf script` or as
 * perf.data read through a `perf script` child. */
#ifndef CPROF_PERFSCRIPT_H
#define CPROF_PERFSCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "dist.h"
#include "base/input.h"
#include "keys.h"
#include "profile-core.h"
#include "base/util.h"

/* The distinct stacks of a perf profile and the names of their frames;
 * owned by the profile (cprof_profile_free frees them). */
struct cprof_perf;

/* True when the first `len` bytes of a text input begin the output of
 * `perf script`: a sample's header line (an event name) or its frames. */
bool cprof_perfscript_sniff(const unsigned char *data, size_t len);

/* True when the first `len` bytes are perf.data's magic, "PERFILE2". */
bool cprof_perfdata_sniff(const unsigned char *data, size_t len);

/* Reads the text of `perf script` from `in` into `profile`, its counts the
 * sample type options->sample_index names (NULL options or index: the
 * default; profile->sample_types lists them all), each frame's address
 * kept with options->addresses.  Returns 0, or -1 with `err` set (and
 * err->line). */
int cprof_perfscript_read(struct cprof_input *in, struct cprof_profile *profile,
			  const struct cprof_read_options *options, struct cprof_error *err);

/* Reads perf.data from `in` through `perf script` (from the PATH; standard
 * input is copied to a temporary file first), as cprof_perfscript_read
 * does.  Returns 0, or -1 with `err` set: perf missing (naming the
 * command to run), perf's failure (its first line on standard error). */
int cprof_perfdata_read(struct cprof_input *in, struct cprof_profile *profile,
			const struct cprof_read_options *options, struct cprof_error *err);

/* Adds the samples of a perf profile into `dist`, keyed as `options` say
 * (an unnamed PC by function, and every frame by address, as
 * "DSO+0xOFFSET": its offset in the file where perf's mappings or call
 * chains give it, else its address as printed).  Returns 0, or -1 with
 * `err` set naming what a key needs (--by=address without addresses or
 * not so read, --by=line without source lines, labels). */
int cprof_perf_to_dist(const struct cprof_profile *profile,
		       const struct cprof_key_options *options, struct cprof_dist *dist,
		       struct cprof_error *err);

/* Frees a perf profile's stacks; accepts NULL. */
void cprof_perf_free(struct cprof_perf *perf);

#endif
