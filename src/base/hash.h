/* hash.h: hashes of what an input holds, keyed by a secret drawn once per
 * run, so that no input can be made to collide in cprof's tables; and
 * strings interned through them. */
#ifndef CPROF_HASH_H
#define CPROF_HASH_H

#include <stddef.h>
#include <stdint.h>

/* A 64-bit hash of the `len` bytes at `data` under the run's secret
 * (XXH3 with a secret and a seed), drawn from getrandom(2) the first time
 * a hash is asked for, or made of the decimal number CPROF_HASH_SEED
 * holds (for tests: no output depends on it). */
uint64_t cprof_hash(const void *data, size_t len);

/* cprof_hash of the 8 bytes of `value` (a PC, an id). */
uint64_t cprof_hash_u64(uint64_t value);

/* GLib's GHashFunc shape, for tables of input: the NUL-terminated string
 * at `key`, and the uint64_t (or int64_t) at `key` (with g_str_equal and
 * g_int64_equal). */
unsigned cprof_str_hash(const void *key);
unsigned cprof_int64_hash(const void *key);

/* Interned strings: equal strings are one pointer, valid until the set
 * is freed or cleared (GStringChunk's insert_const, whose table hashes
 * with the unkeyed g_str_hash). */
struct cprof_strings;

struct cprof_strings *cprof_strings_new(void);

/* The interned copy of the NUL-terminated `s`. */
const char *cprof_strings_intern(struct cprof_strings *strings, const char *s);

/* Forgets every string (their pointers become invalid). */
void cprof_strings_clear(struct cprof_strings *strings);

/* Frees the set and its strings; accepts NULL. */
void cprof_strings_free(struct cprof_strings *strings);

#endif
