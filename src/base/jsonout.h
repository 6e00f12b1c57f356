/* jsonout.h: JSON text from a jansson tree, numbers in their shortest form,
 * and the helpers every program builds and prints its JSON with.
 *
 * jansson prints every real with one fixed precision (%.17g), so 0.8 comes
 * out as 0.80000000000000004.  The contract wants the shortest decimal that
 * reads back as the same double; this writer gives that, and lays out
 * everything else exactly as json_dumpf does (JSON_INDENT(2) or
 * JSON_COMPACT, keys in insertion order, jansson's escapes).
 */
#ifndef CPROF_JSONOUT_H
#define CPROF_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Room for any double written by cprof_format_double, with its NUL. */
#define CPROF_DOUBLE_CHARS 32

/* Writes finite `value` into buf with the fewest significant digits that
 * strtod reads back as the same double: positional from 1e-4 to 1e16, else
 * with an exponent, shaped as jansson shapes reals ("600.0", "0.8", "1e-5",
 * "1.5e20"); returns its length. */
int cprof_format_double(char buf[CPROF_DOUBLE_CHARS], double value);

/* Writes `root` to `out` as JSON text: indented by 2, or on one line when
 * `compact`; no trailing newline.  Allocates nothing, so a failure can only
 * be the stream's (see ferror). */
void cprof_json_dump(FILE *out, const json_t *root, bool compact);

/* The items of one array written as they are made rather than held in
 * the tree: the array `placeholder` of the tree (empty) is written with
 * the items `next` returns, in turn, until it returns NULL; each item
 * need stay valid only until the next call (one object may be reused). */
struct cprof_json_stream {
	const json_t *placeholder;
	const json_t *(*next)(void *ctx);
	void *ctx;
};

/* cprof_json_dump with the array of `stream` (NULL: none) streamed. */
void cprof_json_dump_stream(FILE *out, const json_t *root, bool compact,
			    const struct cprof_json_stream *stream);

/* Prints `root` on standard output, pretty or on one line, and frees it. */
void cprof_json_print(json_t *root, bool compact);

/* Sets member `name` of `object` to `value`, taking over the reference
 * to `value`; dies on exhaustion, of which a NULL `value` (a failed
 * json_* constructor) is taken to be a sign. */
void cprof_json_set(json_t *object, const char *name, json_t *value);

/* A JSON string from a C string that is valid UTF-8; dies on exhaustion. */
json_t *cprof_json_string(const char *s);

#endif
