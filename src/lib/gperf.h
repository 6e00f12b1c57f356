/* gperf.h: the reader of gperftools CPU profiles (the binary format of
 * libprofiler). */
#ifndef CPROF_GPERF_H
#define CPROF_GPERF_H

#include <stdbool.h>
#include <stddef.h>

#include "base/input.h"
#include "profile-core.h"

/* Reads a gperftools CPU profile from `in`, positioned at its first byte,
 * into `profile`: its distinct stacks, total, period and mappings.  -1
 * with `err` set ("truncated record at byte 4096") on bad input. */
int cprof_gperf_read(struct cprof_input *in, struct cprof_profile *profile,
		     struct cprof_error *err);

/* True when the bytes at the start of an input may begin a gperftools
 * profile (they are the reader's to judge then); `len` bytes are given. */
bool cprof_gperf_sniff(const unsigned char *data, size_t len);

#endif
