/* local.h: a whole-machine profile of this machine (--local): perf record
 * -a -g for a round's seconds, as a child process beside the fetches. */
#ifndef CPROF_COLLECT_LOCAL_H
#define CPROF_COLLECT_LOCAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A perf record running. */
struct cprof_local {
	pid_t pid;
	int err_fd;            /* its standard error */
	char *path;            /* where it writes */
};

/* Starts `perf record -a -g` into `path` for `seconds`; false with the
 * reason in `error` when it cannot start. */
bool cprof_local_start(struct cprof_local *local, const char *path, long seconds, char *error,
		       size_t size);

/* Waits for the perf record of `local` to end; true when it wrote its
 * file, false with the reason (its last line on standard error) in
 * `error`. */
bool cprof_local_wait(struct cprof_local *local, char *error, size_t size);

#endif
