/* pprof-write.h: a flat distribution written as pprof's profile.proto
 * (cprof-flat --pprof). */
#ifndef CPROF_PPROF_WRITE_H
#define CPROF_PPROF_WRITE_H

#include <stdio.h>

#include "dist.h"
#include "base/util.h"

/* Writes `dist` onto `out` as gzip-compressed profile.proto: a sample per
 * key (a --by=stack key split into its frames), of its count, with the
 * dist's sample type and period.  Returns 0, or -1 with `err` set (a --cum
 * distribution). */
int cprof_pprof_write(FILE *out, struct cprof_dist *dist, struct cprof_error *err);

#endif
