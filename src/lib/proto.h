/* proto.h: pprof's profile.proto, gzip-compressed or not, and the choice
 * of the value a profile's counts are (--sample-index). */
#ifndef CPROF_PROTO_H
#define CPROF_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dist.h"
#include "base/input.h"
#include "maps.h"
#include "profile-core.h"
#include "symbolize.h"
#include "base/util.h"

/* The locations of a profile.proto: the "PCs" of its stacks are indexes
 * into them.  Owned by the profile (cprof_profile_free frees them). */
struct cprof_locations;

/* True when the first `len` bytes of an input are a gzip stream's magic
 * (1f 8b) or begin a plain profile.proto (its first fields are well
 * formed, with field numbers and wire types a Profile has). */
bool cprof_proto_sniff(const unsigned char *data, size_t len);

/* Reads a profile.proto from `in` into `profile`, its counts the values
 * options->sample_index names (NULL: the default, as pprof picks it), only
 * the samples whose labels match every options->tag_filters, and with
 * options->label_key each stack's key in profile->labels (`options` may be
 * NULL).  Returns 0, or -1 with `err` set naming the place (byte offset,
 * message, field). */
int cprof_proto_read(struct cprof_input *in, struct cprof_profile *profile,
		     const struct cprof_read_options *options, struct cprof_error *err);

/* The location of index `index`: its address into *address, its frames
 * from the profile's own functions (innermost first) into *frames and
 * their number into *count (0: none, symbolize the address), and the
 * mapping that holds it, or NULL. */
const struct cprof_mapping *cprof_location_get(const struct cprof_locations *locations,
					       uint64_t index, uint64_t *address,
					       const struct cprof_symbol **frames, size_t *count);

/* Frees locations; accepts NULL. */
void cprof_locations_free(struct cprof_locations *locations);

#endif
