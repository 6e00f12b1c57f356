/* local.c: perf record -a -g as a child, its standard error kept in a
 * pipe for the message of a failure. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "local.h"

bool cprof_local_start(struct cprof_local *local, const char *path, long seconds, char *error,
		       size_t size)
{
	int fds[2];
	char secs[32];

	snprintf(secs, sizeof(secs), "%ld", seconds);
	memset(local, 0, sizeof(*local));
	if (pipe(fds) != 0) {
		snprintf(error, size, "a pipe: %s", strerror(errno));
		return false;
	}
	fflush(stdout);
	fflush(stderr);
	local->pid = fork();
	if (local->pid < 0) {
		snprintf(error, size, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	if (local->pid == 0) {
		int null = open("/dev/null", O_RDWR);

		close(fds[0]);
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execlp("perf", "perf", "record", "-a", "-g", "-q", "-o", path, "--", "sleep", secs,
		       (char *)NULL);
		fprintf(stderr, "perf: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	local->err_fd = fds[0];
	local->path = cprof_xstrdup(path);
	return true;
}

bool cprof_local_wait(struct cprof_local *local, char *error, size_t size)
{
	char buf[4096], *line, *end;
	size_t len = 0;
	ssize_t n;
	int status = 0;
	struct stat st;

	while ((n = read(local->err_fd, buf + len, sizeof(buf) - 1 - len)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += (size_t)n;
		if (len == sizeof(buf) - 1) {
			memmove(buf, buf + len / 2, len - len / 2);
			len -= len / 2;
		}
	}
	close(local->err_fd);
	while (waitpid(local->pid, &status, 0) < 0 && errno == EINTR)
		continue;
	buf[len] = '\0';
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	line = (end = strrchr(buf, '\n')) ? end + 1 : buf;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && stat(local->path, &st) == 0 &&
	    st.st_size > 0)
		return true;
	if (WIFEXITED(status))
		snprintf(error, size, "perf record -a -g: status %d%s%s", WEXITSTATUS(status),
			 *line ? ": " : "", line);
	else
		snprintf(error, size, "perf record -a -g: signal %d", WTERMSIG(status));
	return false;
}
