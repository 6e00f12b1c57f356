/* outdir.c: profiles kept as received, each written aside and renamed,
 * and the manifest's lines (GChecksum's SHA-256). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "base/jsonout.h"
#include "base/util.h"
#include "outdir.h"

struct cprof_outdir {
	char *path;
	bool temporary;
	FILE *manifest;
};

struct cprof_outdir *cprof_outdir_open(const char *dir)
{
	struct cprof_outdir *out = cprof_xcalloc(1, sizeof(*out));
	GError *gerr = NULL;

	if (!dir) {
		out->path = g_dir_make_tmp("cprof-collect.XXXXXX", &gerr);
		if (!out->path)
			cprof_die("a temporary directory: %s", gerr->message);
		out->temporary = true;
		return out;
	}
	if (g_mkdir_with_parents(dir, 0777) != 0)
		cprof_die("--out: %s: %s", dir, strerror(errno));
	out->path = g_strdup(dir);
	{
		char *name = g_build_filename(dir, "manifest.jsonl", NULL);

		out->manifest = fopen(name, "a");
		if (!out->manifest)
			cprof_die("--out: %s: %s", name, strerror(errno));
		g_free(name);
	}
	return out;
}

static void hex_of(GChecksum *sum, char sha256[65])
{
	snprintf(sha256, 65, "%s", g_checksum_get_string(sum));
}

/* Writes all `len` bytes to `fd`; false on an error (errno set). */
static bool write_all(int fd, const unsigned char *data, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		data += n;
		len -= (size_t)n;
	}
	return true;
}

char *cprof_outdir_keep(struct cprof_outdir *out, const char *name, const unsigned char *data,
			size_t len, char sha256[65], char *error, size_t size)
{
	char *path = g_build_filename(out->path, name, NULL);
	char *aside = g_strdup_printf("%s/.%s.part", out->path, name);
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	int fd = open(aside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	bool ok = fd >= 0 && write_all(fd, data, len);

	if (fd >= 0 && close(fd) != 0)
		ok = false;
	if (ok && access(path, F_OK) == 0) {
		errno = EEXIST;
		ok = false;
	}
	if (ok && rename(aside, path) != 0)
		ok = false;
	if (!ok) {
		snprintf(error, size, "cannot keep %s: %s", path, strerror(errno));
		if (fd >= 0)
			unlink(aside);
		g_free(path);
		path = NULL;
	} else {
		g_checksum_update(sum, data, (gssize)len);
		hex_of(sum, sha256);
	}
	g_checksum_free(sum);
	g_free(aside);
	if (!path)
		return NULL;
	{
		char *copy = cprof_xstrdup(path);

		g_free(path);
		return copy;
	}
}

bool cprof_outdir_sha256_file(const char *path, char sha256[65], char *error, size_t size)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	FILE *in = fopen(path, "rb");
	unsigned char buf[65536];
	size_t n;
	bool ok;

	if (!in) {
		snprintf(error, size, "%s: %s", path, strerror(errno));
		g_checksum_free(sum);
		return false;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		g_checksum_update(sum, buf, (gssize)n);
	ok = !ferror(in);
	if (!ok)
		snprintf(error, size, "%s: a read error", path);
	else
		hex_of(sum, sha256);
	fclose(in);
	g_checksum_free(sum);
	return ok;
}

const char *cprof_outdir_path(const struct cprof_outdir *out)
{
	return out->path;
}

void cprof_outdir_manifest(struct cprof_outdir *out, json_t *line)
{
	if (out->manifest) {
		cprof_json_dump(out->manifest, line, true);
		fputc('\n', out->manifest);
		if (fflush(out->manifest) != 0 || ferror(out->manifest))
			cprof_die("--out: %s/manifest.jsonl: %s", out->path, strerror(errno));
	}
	json_decref(line);
}

/* Removes the temporary directory and the files in it. */
static void remove_tree(const char *path)
{
	GDir *dir = g_dir_open(path, 0, NULL);
	const char *name;

	if (dir) {
		while ((name = g_dir_read_name(dir))) {
			char *file = g_build_filename(path, name, NULL);

			g_unlink(file);
			g_free(file);
		}
		g_dir_close(dir);
	}
	g_rmdir(path);
}

void cprof_outdir_close(struct cprof_outdir *out)
{
	if (!out)
		return;
	if (out->manifest && fclose(out->manifest) != 0)
		cprof_die("--out: %s/manifest.jsonl: %s", out->path, strerror(errno));
	if (out->temporary)
		remove_tree(out->path);
	g_free(out->path);
	free(out);
}
