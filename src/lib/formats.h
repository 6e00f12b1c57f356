/* formats.h: the profile formats cprof does not read, named by their first
 * bytes, with the command that converts one into a format it reads. */
#ifndef CPROF_FORMATS_H
#define CPROF_FORMATS_H

#include <stddef.h>

#include "base/util.h"

/* A format cprof does not read. */
struct cprof_foreign {
	const char *name;      /* "a Java Flight Recording (JFR)" */
	const char *hint;      /* the command that converts it, FILE standing
				* for the input; or why none does */
};

/* The format the first `len` bytes of an input show it to be when it is
 * one cprof does not read (cheap checks of the first bytes and lines;
 * a JSON document that names "cprof" is never one), or NULL.  The answer
 * is static. */
const struct cprof_foreign *cprof_format_foreign(const unsigned char *data, size_t len);

/* Records in `err` (replacing an error it holds) that the input `source`
 * is `format`, which cprof does not read: its name and its hint, FILE
 * replaced by `source` (unless standard input, "-").  Returns -1. */
int cprof_format_refuse(const struct cprof_foreign *format, const char *source,
			struct cprof_error *err);

#endif
