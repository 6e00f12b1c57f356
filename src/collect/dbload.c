/* dbload.c: each profile loaded by cprof_store_load in a child process:
 * the store dies on the first error (status 2, a line on standard
 * error), which here ends one load, named, and not the collector. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "lib/load.h"
#include "lib/rows.h"
#include "store/store.h"
#include "dbload.h"

struct cprof_dbload {
	char *url;
	char **dims;
	struct cprof_loader *loader;
};

/* The dimensions of the store `url`, as store.c's opening reads them. */
static char **store_dims(const char *url)
{
	struct cprof_store store = { 0 };
	char *dims, **out;

	store.url = (char *)url;
	if (strncmp(url, "clickhouse://", 13) == 0) {
		store.ops = &cprof_store_clickhouse;
		cprof_store_clickhouse_open(&store, url, false);
	} else {
		store.ops = &cprof_store_sqlite;
		cprof_store_sqlite_open(&store, url, false);
	}
	dims = store.ops->meta(&store, "dims");
	if (!dims)
		cprof_die("--db: %s: not a cprof store (cprof-store init makes one)", url);
	out = *dims ? g_strsplit(dims, ",", -1) : g_new0(char *, 1);
	free(dims);
	store.ops->close(&store);
	return out;
}

struct cprof_dbload *cprof_dbload_open(const char *url, struct cprof_loader *loader)
{
	struct cprof_dbload *db = cprof_xcalloc(1, sizeof(*db));

	db->url = cprof_xstrdup(url);
	db->dims = store_dims(url);
	db->loader = loader;
	return db;
}

bool cprof_dbload_is_dim(const struct cprof_dbload *db, const char *name)
{
	return g_strv_contains((const char *const *)db->dims, name);
}

/* The child: loads `path` and exits 0, or dies with status 2 and one
 * line on standard error. */
static void load_child(struct cprof_dbload *db, const char *path, const char *const *names,
		       const char *const *values, size_t count, const char *date)
{
	struct cprof_ptrs tags = { 0 }, labels = { 0 };
	char *operand = cprof_xstrdup(path);
	size_t i;

	for (i = 0; i < count; i++) {
		char *arg = g_strdup_printf("%s=%s", names[i], values[i]);

		cprof_tag_parse(&tags, "dimension", arg, cprof_store_reserved);
		g_free(arg);
	}
	cprof_store_load(db->url, db->loader, &tags, &labels, date, &operand, 1);
	fflush(stderr);
	_exit(0);
}

/* Reads the child's standard error from `fd` into `error` (its last
 * line, without the program's prefix). */
static void read_message(int fd, char *error, size_t size)
{
	char buf[4096];
	size_t len = 0;
	ssize_t n;
	char *line, *end;
	size_t prefix = strlen(cprof_progname) + 2;

	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += (size_t)n;
		if (len == sizeof(buf) - 1) {
			/* Keep the tail: the message that ended the child. */
			memmove(buf, buf + len / 2, len - len / 2);
			len -= len / 2;
		}
	}
	buf[len] = '\0';
	while (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	line = (end = strrchr(buf, '\n')) ? end + 1 : buf;
	if (strncmp(line, cprof_progname, prefix - 2) == 0 && strncmp(line + prefix - 2, ": ", 2) == 0)
		line += prefix;
	snprintf(error, size, "%s", line);
}

bool cprof_dbload_file(struct cprof_dbload *db, const char *path, const char *const *names,
		       const char *const *values, size_t count, const char *date, char *error,
		       size_t size)
{
	int fds[2], status = 0;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) != 0)
		cprof_die("a pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		cprof_die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		load_child(db, path, names, values, count, date);
	}
	close(fds[1]);
	read_message(fds[0], error, size);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		continue;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return true;
	if (!error[0])
		snprintf(error, size, "the load ended with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return false;
}

void cprof_dbload_close(struct cprof_dbload *db)
{
	if (!db)
		return;
	g_strfreev(db->dims);
	free(db->url);
	free(db);
}
