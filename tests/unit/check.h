/* check.h: the assertion of the unit tests, included by each (every
 * function static: one copy per test program). */
#ifndef CPROF_TESTS_CHECK_H
#define CPROF_TESTS_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* Checks that failed so far; main returns 1 when any did. */
static int failures;

/* Counts a failure and prints "FAIL: " and the message unless `ok`. */
static void check(bool ok, const char *what, ...) __attribute__((format(printf, 2, 3)));

static void check(bool ok, const char *what, ...)
{
	va_list ap;

	if (ok)
		return;
	va_start(ap, what);
	fprintf(stderr, "FAIL: ");
	vfprintf(stderr, what, ap);
	fputc('\n', stderr);
	va_end(ap);
	failures++;
}

#endif
