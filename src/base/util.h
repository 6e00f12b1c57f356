/* util.h: messages, errors that carry a place, checked allocation, option
 * parsing and --version: what every module and program uses. */
#ifndef CPROF_UTIL_H
#define CPROF_UTIL_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses, after diff(1): done, a negative verdict, trouble. */
enum { EXIT_OK = 0, EXIT_VERDICT = 1, EXIT_TROUBLE = 2 };

/* The "version" of every JSON document cprof writes. */
#define CPROF_SCHEMA_VERSION 1

/* What the readers link beyond GLib and jansson, for cprof_set_libraries. */
#define CPROF_READ_LIBRARIES "elfutils xxHash protobuf-c zlib"

/* An error found while reading or computing: the first one wins.  `text`
 * says what is wrong and where ("truncated record at byte 4096"); the
 * program prefixes its own name and the input's. */
struct cprof_error {
	char text[512];
	unsigned long long line;       /* 1-based line of a text input, or 0 */
};

extern const char *cprof_progname;

/* Sets the name messages are prefixed with, from argv[0], and ignores
 * SIGPIPE so that a closed standard output ends the program with status 2
 * rather than a signal.  Every main() calls it first. */
void cprof_set_progname(const char *argv0);

/* Records a formatted message in `err` unless it already holds one; always
 * returns -1 so that readers can `return cprof_error_set(...)`. */
int cprof_error_set(struct cprof_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records "WHERE: WHAT" in `err` as cprof_error_set does, `where` the
 * place of the fault (a JSON path, a file); returns -1. */
int cprof_error_at(struct cprof_error *err, const char *where, const char *what);

/* Prints "PROG: MESSAGE" on standard error. */
void cprof_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "PROG: MESSAGE" on standard error and exits with EXIT_TROUBLE. */
void cprof_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Prints "PROG: SOURCE: TEXT" (or "PROG: SOURCE:LINE: TEXT") for a reader's
 * error and exits with EXIT_TROUBLE. */
void cprof_die_input(const char *source, const struct cprof_error *err)
	__attribute__((noreturn));

/* Names the input being read in a message about running out of memory
 * (NULL: none); not copied. */
void cprof_set_context(const char *input);

/* Prints "PROG: INPUT: out of memory" with nothing but the stack and ends
 * the program with EXIT_TROUBLE, leaving standard output unflushed.  Every
 * allocation failure ends here: cprof's own, jansson's, GLib's, libdw's. */
void cprof_die_oom(void) __attribute__((noreturn));

/* Allocation that dies on exhaustion (cprof_die_oom); the caller frees with
 * free(). */
void *cprof_xmalloc(size_t size);
void *cprof_xcalloc(size_t count, size_t size);
void *cprof_xrealloc(void *ptr, size_t size);
char *cprof_xstrdup(const char *s);

/* getopt_long entries of the output options every program takes:
 * -c/--compact, -t/--text, -V/--version. */
#define CPROF_OUTPUT_LONG_OPTIONS                                \
	{ "compact", no_argument, NULL, 'c' },                   \
	{ "text", no_argument, NULL, 't' },                      \
	{ "version", no_argument, NULL, 'V' }

/* Takes one of the output options: sets *compact or *text, or prints the
 * version and exits; false when `opt` is none of them. */
bool cprof_output_option(int opt, bool *compact, bool *text);

/* Parses a whole decimal unsigned number; false on junk or overflow. */
bool cprof_parse_u64(const char *s, uint64_t *out);

/* Dies with one line for the option getopt_long refused (called with
 * opterr = 0 and an optstring starting with ':'): `opt` is what getopt_long
 * returned, ':' for a missing argument, else '?'; `longopts` its table. */
void cprof_bad_option(int opt, char *const *argv, const struct option *longopts)
	__attribute__((noreturn));

/* Parses the argument of a numeric option or dies naming the option. */
uint64_t cprof_option_u64(const char *option, const char *arg);
double cprof_option_double(const char *option, const char *arg);

/* Flushes standard output and returns `status`, or EXIT_TROUBLE with a
 * message when writing failed (a closed pipe is not worth a message). */
int cprof_finish_output(int status);

/* Names the libraries, beyond GLib and jansson, that --version lists for
 * this program ("elfutils xxHash GSL"); not copied. */
void cprof_set_libraries(const char *names);

/* Returns a newly allocated copy of `s` (of `len` bytes) that is valid
 * UTF-8, each invalid byte replaced by U+FFFD; *replaced is set when any
 * was. */
char *cprof_utf8_sanitize(const char *s, size_t len, bool *replaced);

/* Writes the `len` bytes at `s` to `out` as cprof's text shows a name, so
 * that no name can forge a line or drive a terminal: each C0 control byte
 * (tab, CR and LF among them), DEL, C1 control (U+0080 to U+009F) and
 * byte that is not UTF-8 as \xNN, and a backslash that would read as one
 * of those as \x5c (cprof_unescape undoes it).  A file format's own
 * escapes live with its reader. */
void cprof_put_escaped(FILE *out, const char *s, size_t len);

/* cprof_put_escaped of the NUL-terminated `s`. */
void cprof_put_text(FILE *out, const char *s);

/* cprof_put_escaped of the NUL-terminated `s` into a newly allocated
 * string. */
char *cprof_escape(const char *s);

/* Decodes each \xNN (two hex digits) of s[0, len) in place; returns the
 * new length. */
size_t cprof_unescape(char *s, size_t len);

/* True when the `len` bytes of `line` are spaces and tabs only (or none). */
bool cprof_blank_line(const char *line, size_t len);

#endif
