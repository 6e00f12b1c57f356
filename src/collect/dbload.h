/* dbload.h: profiles loaded into a cprof store (--db) one at a time,
 * through the store library's load, the code path of cprof-store load. */
#ifndef CPROF_COLLECT_DBLOAD_H
#define CPROF_COLLECT_DBLOAD_H

#include <stdbool.h>
#include <stddef.h>

struct cprof_dbload;
struct cprof_loader;

/* Opens the store `url` for loads by `loader` (not copied): reads its
 * dimensions; dies naming the store when it is none. */
struct cprof_dbload *cprof_dbload_open(const char *url, struct cprof_loader *loader);

/* Whether `name` is a dimension of the store. */
bool cprof_dbload_is_dim(const struct cprof_dbload *db, const char *name);

/* Loads the profile file `path` as one load, tagged with the `count`
 * dimensions `names` = `values` and dated `date` (YYYY-MM-DD): whole, or
 * not at all.  Returns true, or false with the reason in `error`. */
bool cprof_dbload_file(struct cprof_dbload *db, const char *path, const char *const *names,
		       const char *const *values, size_t count, const char *date, char *error,
		       size_t size);

/* Starts loading `path` as cprof_dbload_file does, in a child process,
 * and returns at once; one load runs at a time (dies when one runs). */
void cprof_dbload_start(struct cprof_dbload *db, const char *path, const char *const *names,
			const char *const *values, size_t count, const char *date);

/* The descriptor that becomes readable as the running load ends (or
 * writes), for poll; -1 when none runs. */
int cprof_dbload_fd(const struct cprof_dbload *db);

/* Whether the running load has ended (with `wait`, once it has): then
 * *ok says whether it loaded, `error` why not.  False when none runs or
 * it has not ended. */
bool cprof_dbload_reap(struct cprof_dbload *db, bool wait, bool *ok, char *error, size_t size);

/* Waits for a running load, then frees what `db` holds; accepts NULL. */
void cprof_dbload_close(struct cprof_dbload *db);

#endif
