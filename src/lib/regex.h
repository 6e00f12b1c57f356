/* regex.h: regular expressions in RE2's syntax and semantics (Go's
 * regexp, which pprof compiles drop_frames and keep_frames with), matched
 * in time linear in the text, whatever the pattern: a small C++ shim over
 * RE2 (regex.cc) that lets no exception reach C. */
#ifndef CPROF_REGEX_H
#define CPROF_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cprof_regex;

/* Compiles the NUL-terminated `pattern` (UTF-8, RE2's syntax, ^ and $ the
 * ends of the text).  Returns NULL when RE2 refuses it, with what is wrong
 * in `error` (of `error_size` bytes); dies on running out of memory. */
struct cprof_regex *cprof_regex_new(const char *pattern, char *error, size_t error_size);

/* True when `regex` matches somewhere in the `len` bytes at `text`. */
bool cprof_regex_matches(const struct cprof_regex *regex, const char *text, size_t len);

/* Frees a regex; accepts NULL. */
void cprof_regex_free(struct cprof_regex *regex);

#ifdef __cplusplus
}
#endif

#endif
