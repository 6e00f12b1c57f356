/* outdir.h: where cprof-collect keeps each profile as received (--out),
 * with a line per profile in DIR/manifest.jsonl. */
#ifndef CPROF_COLLECT_OUTDIR_H
#define CPROF_COLLECT_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct cprof_outdir;

/* Opens the directory `dir` (made, with its parents, when missing), or
 * with `dir` NULL a temporary one that cprof_outdir_close removes with
 * what it holds.  Dies naming the directory when it cannot. */
struct cprof_outdir *cprof_outdir_open(const char *dir);

/* Keeps the `len` bytes at `data` as the file `name` of the directory,
 * whole or not at all (written aside, then renamed), and their SHA-256
 * in hex in `sha256`.  Returns the file's path (newly allocated), or
 * NULL with the reason in `error`. */
char *cprof_outdir_keep(struct cprof_outdir *out, const char *name, const unsigned char *data,
			size_t len, char sha256[65], char *error, size_t size);

/* The SHA-256 in hex of the file `path` into `sha256`; false with the
 * reason in `error` when it cannot be read. */
bool cprof_outdir_sha256_file(const char *path, char sha256[65], char *error, size_t size);

/* The directory's path. */
const char *cprof_outdir_path(const struct cprof_outdir *out);

/* Appends `line` (taken over) to the manifest, when the directory is not
 * a temporary one; dies when it cannot. */
void cprof_outdir_manifest(struct cprof_outdir *out, json_t *line);

/* Closes the manifest, removes a temporary directory; accepts NULL. */
void cprof_outdir_close(struct cprof_outdir *out);

#endif
