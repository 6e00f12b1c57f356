/* perf-data.c: perf.data read through a `perf script` child (standard
 * input copied to a temporary file first), its output read as
 * perfscript.c reads perf script's text. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "base/input.h"
#include "base/util.h"
#include "perf-int.h"
#include "perfscript.h"
#include "profile-core.h"

/* Copies what is left of `in` into a new temporary file; returns its
 * path (g_free it, and unlink the file), or NULL with `err` set. */
static char *copy_to_temp(struct cprof_input *in, struct cprof_error *err)
{
	char *path = g_build_filename(g_get_tmp_dir(), "cprof-perf-XXXXXX", NULL);
	int fd = g_mkstemp(path);
	long long got;

	if (fd < 0) {
		cprof_error_set(err, "cannot make a temporary file for perf.data: %s",
				strerror(errno));
		g_free(path);
		return NULL;
	}
	while ((got = cprof_input_fill(in, 1 << 20, err)) > 0) {
		const unsigned char *p = cprof_input_data(in);
		size_t left = (size_t)got;

		while (left > 0) {
			ssize_t w = write(fd, p, left);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				cprof_error_set(err, "cannot write a temporary file for perf.data: %s",
						w < 0 ? strerror(errno) : "short write");
				got = -1;
				break;
			}
			p += w;
			left -= (size_t)w;
		}
		if (got < 0)
			break;
		cprof_input_skip(in, (size_t)got);
	}
	close(fd);
	if (got < 0) {
		unlink(path);
		g_free(path);
		return NULL;
	}
	return path;
}

/* Starts `perf script -i PATH` (with the mappings, the forks, and each
 * sample's pid, by which an unnamed PC's address is made an offset in its file)
 * with its standard output on *out_fd and its standard error in the
 * file `err_fd`; returns its pid, or -1. */
static pid_t start_perf(const char *perf, const char *path, int err_fd, int *out_fd,
			struct cprof_error *err)
{
	char *argv[] = { (char *)perf, "script", "--show-mmap-events", "--show-task-events", "-F",
			 "+pid", "-i", (char *)path, NULL };
	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	sigset_t pipe_default;
	int fds[2], status;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return cprof_error_set(err, "cannot make a pipe for perf script: %s", strerror(errno));
	sigemptyset(&pipe_default);
	sigaddset(&pipe_default, SIGPIPE);
	if (posix_spawn_file_actions_init(&actions) != 0 || posix_spawnattr_init(&attr) != 0)
		cprof_die_oom();
	posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
	posix_spawnattr_setsigdefault(&attr, &pipe_default);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
	status = posix_spawnp(&pid, perf, &actions, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	posix_spawnattr_destroy(&attr);
	close(fds[1]);
	if (status != 0) {
		close(fds[0]);
		return cprof_error_set(err, "cannot run %s: %s", perf, strerror(status));
	}
	*out_fd = fds[0];
	return pid;
}

/* The first line perf wrote on its standard error (file `fd`). */
static void first_err_line(int fd, char *line, size_t size)
{
	ssize_t got;
	char *nl;

	line[0] = '\0';
	if (lseek(fd, 0, SEEK_SET) != 0)
		return;
	got = read(fd, line, size - 1);
	if (got <= 0)
		return;
	line[got] = '\0';
	while ((nl = strchr(line, '\n')) && nl == line)
		memmove(line, line + 1, strlen(line));
	if (nl)
		*nl = '\0';
	for (nl = line; *nl; nl++)
		if ((unsigned char)*nl < ' ')
			*nl = ' ';
}

/* Reads the output of `perf script -i PATH` into `profile`. */
static int run_perf(const char *perf, const char *path, const char *source,
		    struct cprof_profile *profile, const struct cprof_read_options *options,
		    struct cprof_error *err)
{
	char err_path[] = "/tmp/cprof-perf-err-XXXXXX", fd_path[64], first[300];
	struct cprof_input out;
	int err_fd, out_fd = -1, status, wstatus = 0;
	pid_t pid;

	err_fd = mkstemp(err_path);
	if (err_fd < 0)
		return cprof_error_set(err, "cannot make a temporary file: %s", strerror(errno));
	unlink(err_path);
	pid = start_perf(perf, path, err_fd, &out_fd, err);
	if (pid < 0) {
		close(err_fd);
		return -1;
	}
	snprintf(fd_path, sizeof(fd_path), "/proc/self/fd/%d", out_fd);
	status = cprof_input_open(&out, fd_path, err);
	close(out_fd);
	cprof_set_context(source);
	if (status == 0) {
		out.name = source;
		status = cprof_perf_read_text(&out, profile, options, true, err);
		cprof_input_close(&out);
	}
	if (status < 0)
		kill(pid, SIGTERM);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (status == 0 && !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)) {
		first_err_line(err_fd, first, sizeof(first));
		cprof_error_set(err, "perf script failed: %s",
				first[0] ? first : WIFSIGNALED(wstatus) ? strsignal(WTERMSIG(wstatus))
									: "no message");
		status = -1;
	}
	close(err_fd);
	return status;
}

int cprof_perfdata_read(struct cprof_input *in, struct cprof_profile *profile,
			const struct cprof_read_options *options, struct cprof_error *err)
{
	char *perf = g_find_program_in_path("perf"), *temp = NULL;
	const char *path = in->name;
	int status;

	profile->format = CPROF_FORMAT_PERF;
	if (!perf) {
		if (strcmp(in->name, "-") == 0)
			return cprof_error_set(err, "perf.data needs perf on the PATH (Debian: "
						    "linux-perf), or its text: perf script -i FILE "
						    "> FILE.txt");
		return cprof_error_set(err, "perf.data needs perf on the PATH (Debian: linux-perf), "
					    "or its text: perf script -i %s > %s.txt",
				       in->name, in->name);
	}
	if (strcmp(in->name, "-") == 0) {
		temp = copy_to_temp(in, err);
		if (!temp) {
			g_free(perf);
			return -1;
		}
		path = temp;
	}
	status = run_perf(perf, path, in->name, profile, options, err);
	if (temp)
		unlink(temp);
	g_free(temp);
	g_free(perf);
	return status;
}
