/* dbload.c: each profile loaded by cprof_store_load in a child process:
 * the store dies on the first error (status 2, a line on standard
 * error), which here ends one load, named, and not the collector. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
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
	pid_t pid;             /* the load running, or 0 */
	int err_fd;            /* its standard error */
	char msg[4096];        /* the tail of what it wrote there */
	size_t msg_len;
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

/* Reads what the running child wrote on its standard error, keeping the
 * tail; returns true at its end (EOF). */
static bool drain(struct cprof_dbload *db)
{
	for (;;) {
		ssize_t n = read(db->err_fd, db->msg + db->msg_len,
				 sizeof(db->msg) - 1 - db->msg_len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno != EAGAIN && errno != EWOULDBLOCK;
		if (n == 0)
			return true;
		db->msg_len += (size_t)n;
		if (db->msg_len == sizeof(db->msg) - 1) {
			/* Keep the tail: the message that ends the child. */
			memmove(db->msg, db->msg + db->msg_len / 2, db->msg_len - db->msg_len / 2);
			db->msg_len -= db->msg_len / 2;
		}
	}
}

/* The child's last line on standard error, without the program's
 * prefix, into `error`. */
static void last_line(struct cprof_dbload *db, char *error, size_t size)
{
	size_t len = db->msg_len, prefix = strlen(cprof_progname);
	char *line, *end;

	db->msg[len] = '\0';
	while (len > 0 && db->msg[len - 1] == '\n')
		db->msg[--len] = '\0';
	line = (end = strrchr(db->msg, '\n')) ? end + 1 : db->msg;
	if (strncmp(line, cprof_progname, prefix) == 0 && strncmp(line + prefix, ": ", 2) == 0)
		line += prefix + 2;
	snprintf(error, size, "%s", line);
}

void cprof_dbload_start(struct cprof_dbload *db, const char *path, const char *const *names,
			const char *const *values, size_t count, const char *date)
{
	int fds[2];

	if (db->pid > 0)
		cprof_die("a load started while another runs");
	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) != 0)
		cprof_die("a pipe: %s", strerror(errno));
	db->pid = fork();
	if (db->pid < 0)
		cprof_die("fork: %s", strerror(errno));
	if (db->pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		load_child(db, path, names, values, count, date);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK | O_CLOEXEC);
	fcntl(fds[0], F_SETFD, FD_CLOEXEC);
	db->err_fd = fds[0];
	db->msg_len = 0;
}

int cprof_dbload_fd(const struct cprof_dbload *db)
{
	return db->pid > 0 ? db->err_fd : -1;
}

bool cprof_dbload_reap(struct cprof_dbload *db, bool wait, bool *ok, char *error, size_t size)
{
	int status = 0;

	if (db->pid <= 0)
		return false;
	if (wait)
		fcntl(db->err_fd, F_SETFL, fcntl(db->err_fd, F_GETFL) & ~O_NONBLOCK);
	if (!drain(db))
		return false;
	close(db->err_fd);
	while (waitpid(db->pid, &status, 0) < 0 && errno == EINTR)
		continue;
	db->pid = 0;
	*ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	error[0] = '\0';
	if (!*ok)
		last_line(db, error, size);
	if (!*ok && !error[0])
		snprintf(error, size, "the load ended with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return true;
}

bool cprof_dbload_file(struct cprof_dbload *db, const char *path, const char *const *names,
		       const char *const *values, size_t count, const char *date, char *error,
		       size_t size)
{
	bool ok = false;

	cprof_dbload_start(db, path, names, values, count, date);
	cprof_dbload_reap(db, true, &ok, error, size);
	return ok;
}

void cprof_dbload_close(struct cprof_dbload *db)
{
	bool ok;
	char error[8];

	if (!db)
		return;
	cprof_dbload_reap(db, true, &ok, error, sizeof(error));
	g_strfreev(db->dims);
	free(db->url);
	free(db);
}
