/* cache.h: a directory of checksummed files that outlive the process. */
#ifndef CPROF_CACHE_H
#define CPROF_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* The cache directory ($XDG_CACHE_HOME/cprof, else ~/.cache/cprof),
 * created 0700 on first need; NULL when CPROF_CACHE=off, when it cannot
 * be made, or (with one warning) when it is not to be trusted: a symlink,
 * another user's, or writable by group or others.  The string is owned
 * by the module. */
const char *cprof_cache_dir(void);

/* The payload of the entry `name` in `dir` (a directory still to be
 * trusted, the entry a regular file of the user's own, opened without
 * following a symlink or blocking on a FIFO) when its file is whole: the
 * format's magic and version, a length that adds up, the very `key` it
 * was stored under and a checksum that matches.  Returns a new buffer of
 * *len bytes, or NULL (no entry, or one not to be trusted). */
void *cprof_cache_load(const char *dir, const char *name, const void *key, size_t key_len,
		       size_t *len);

/* Stores `payload` as the entry `name` under `key`, through a temporary
 * file renamed over the old entry (concurrent runs never see half of
 * one), then removes the least recently used entries beyond the bound
 * (CPROF_CACHE_SIZE, default 64 MiB).  Failures are silent: a cache that
 * cannot be written is only slower. */
void cprof_cache_store(const char *dir, const char *name, const void *key, size_t key_len,
		       const void *payload, size_t len);

#endif
