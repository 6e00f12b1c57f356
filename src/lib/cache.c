/* cache.c: a directory of checksummed files that outlive the process.
 *
 * An entry is one file: a header (magic, format version, the lengths, an
 * XXH3 checksum over all the rest), the key it was stored under and the
 * payload.  Nothing in it is trusted before all of that has been checked;
 * what fails a check is only a miss. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>
#include <glib.h>

#include "cache.h"
#include "base/util.h"

#define CACHE_MAGIC "cprofsc\n"
enum {
	CACHE_VERSION = 1,
	HEADER_SIZE = 40,
};
#define CACHE_ORDER UINT64_C(0x0102030405060708) /* this host's byte order */
#define CACHE_MAX_ENTRY ((uint64_t)1 << 30)
#define CACHE_DEFAULT_BOUND ((uint64_t)64 << 20)
#define CACHE_SUFFIX ".sym"
#define CACHE_TMP ".tmp."

struct header {
	char magic[8];
	uint32_t version;
	uint32_t key_len;
	uint64_t payload_len;
	uint64_t order;
	uint64_t checksum;     /* of the 32 bytes above, the key and the payload */
};

/* Why the directory open at `fd` is not to be trusted, or NULL: it must
 * be a directory (not a symlink to one: opened with O_NOFOLLOW), the
 * user's own, and writable by no one else. */
static const char *untrusted(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return strerror(errno);
	if (!S_ISDIR(st.st_mode))
		return "not a directory";
	if (st.st_uid != geteuid())
		return "owned by another user";
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return "writable by others";
	return NULL;
}

/* Opens the cache directory `dir` when it is to be trusted; -1 (errno
 * set, *why too when it is there but untrusted) when not. */
static int open_dir(const char *dir, const char **why)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	*why = NULL;
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			*why = "a symbolic link or not a directory";
		return -1;
	}
	if ((*why = untrusted(fd)) != NULL) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

const char *cprof_cache_dir(void)
{
	static char *dir;
	static bool done;
	const char *env = getenv("CPROF_CACHE"), *base, *why = NULL;
	char *parent;
	int fd;

	if (done)
		return dir;
	done = true;
	if (env && strcmp(env, "off") == 0)
		return NULL;
	base = getenv("XDG_CACHE_HOME");
	if (base && base[0] == '/')
		dir = g_build_filename(base, "cprof", NULL);
	else if ((base = getenv("HOME")) && base[0] == '/')
		dir = g_build_filename(base, ".cache", "cprof", NULL);
	if (!dir)
		return NULL;
	parent = g_path_get_dirname(dir);
	if (g_mkdir_with_parents(parent, 0700) == 0 && (mkdir(dir, 0700) == 0 || errno == EEXIST))
		fd = open_dir(dir, &why);
	else
		fd = -1;
	g_free(parent);
	if (fd < 0) {
		if (why)
			cprof_warn("%s: %s: the symbol cache is off for this run", dir, why);
		g_free(dir);
		dir = NULL;
		return NULL;
	}
	close(fd);
	return dir;
}

static uint64_t checksum(const struct header *h, const void *key, size_t key_len,
			 const void *payload, size_t len)
{
	XXH3_state_t *state = XXH3_createState();
	uint64_t sum;

	if (!state)
		cprof_die_oom();
	XXH3_64bits_reset(state);
	XXH3_64bits_update(state, h, offsetof(struct header, checksum));
	XXH3_64bits_update(state, key, key_len);
	XXH3_64bits_update(state, payload, len);
	sum = XXH3_64bits_digest(state);
	XXH3_freeState(state);
	return sum;
}

static bool read_all(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t got = read(fd, (char *)buf + done, len - done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return false;
		done += (size_t)got;
	}
	return true;
}

static bool write_all(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t put = write(fd, (const char *)buf + done, len - done);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return false;
		done += (size_t)put;
	}
	return true;
}

void *cprof_cache_load(const char *dir, const char *name, const void *key, size_t key_len,
		       size_t *len)
{
	unsigned char *buf = NULL;
	const char *why;
	struct header h;
	struct stat st;
	int dir_fd, fd;

	*len = 0;
	dir_fd = open_dir(dir, &why);
	if (dir_fd < 0)
		return NULL;
	/* A FIFO must not block, a symlink must not lead elsewhere. */
	fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(dir_fd);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size < HEADER_SIZE ||
	    (uint64_t)st.st_size > CACHE_MAX_ENTRY || !read_all(fd, &h, sizeof(h)) ||
	    memcmp(h.magic, CACHE_MAGIC, sizeof(h.magic)) != 0 || h.version != CACHE_VERSION ||
	    h.order != CACHE_ORDER || h.key_len != key_len ||
	    (uint64_t)st.st_size != HEADER_SIZE + (uint64_t)h.key_len + h.payload_len)
		goto miss;
	buf = cprof_xmalloc((size_t)st.st_size - HEADER_SIZE + 1);
	if (!read_all(fd, buf, (size_t)st.st_size - HEADER_SIZE) ||
	    memcmp(buf, key, key_len) != 0 ||
	    checksum(&h, buf, key_len, buf + key_len, (size_t)h.payload_len) != h.checksum)
		goto miss;
	/* Used now: the eviction removes the entries used least recently. */
	(void)futimens(fd, NULL);
	close(fd);
	memmove(buf, buf + key_len, (size_t)h.payload_len);
	*len = (size_t)h.payload_len;
	return buf;
miss:
	free(buf);
	close(fd);
	return NULL;
}

struct entry {
	char *name;
	uint64_t size;
	struct timespec used;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	return (x->used.tv_nsec > y->used.tv_nsec) - (x->used.tv_nsec < y->used.tv_nsec);
}

static uint64_t cache_bound(void)
{
	const char *env = getenv("CPROF_CACHE_SIZE");
	uint64_t bound;
	char *end;

	if (!env || !*env)
		return CACHE_DEFAULT_BOUND;
	errno = 0;
	bound = g_ascii_strtoull(env, &end, 10);
	if (errno != 0 || end == env)
		return CACHE_DEFAULT_BOUND;
	switch (*end) {
	case 'G': bound <<= 10; /* fall through */
	case 'M': bound <<= 10; /* fall through */
	case 'K': bound <<= 10; end++; break;
	default: break;
	}
	return *end ? CACHE_DEFAULT_BOUND : bound;
}

/* Whether `name` is one the cache writes: an entry (16 hex digits and
 * CACHE_SUFFIX) or, with *tmp set, the temporary file of one. */
static bool own_name(const char *name, bool *tmp)
{
	size_t i;

	for (i = 0; i < 16; i++)
		if (!g_ascii_isxdigit(name[i]))
			return false;
	if (strncmp(name + 16, CACHE_SUFFIX, sizeof(CACHE_SUFFIX) - 1) != 0)
		return false;
	name += 16 + sizeof(CACHE_SUFFIX) - 1;
	*tmp = *name != '\0';
	return !*tmp || (strncmp(name, CACHE_TMP, sizeof(CACHE_TMP) - 1) == 0 &&
			 strlen(name) == sizeof(CACHE_TMP) - 1 + 6);
}

/* Removes the least recently used entries until the rest fit the bound,
 * and temporary files a killed run left more than an hour ago: only
 * files of the cache's own names, regular and the user's own, removed
 * through the directory's descriptor (a symlink is never followed). */
static void evict(int dir_fd)
{
	GArray *entries = g_array_new(FALSE, FALSE, sizeof(struct entry));
	uint64_t total = 0, bound = cache_bound();
	time_t now = time(NULL);
	struct dirent *d;
	int list_fd = dup(dir_fd);
	DIR *dp = list_fd >= 0 ? fdopendir(list_fd) : NULL;
	guint i;

	if (!dp) {
		if (list_fd >= 0)
			close(list_fd);
		g_array_free(entries, TRUE);
		return;
	}
	while ((d = readdir(dp)) != NULL) {
		struct stat st;
		struct entry e;
		bool is_tmp;

		if (!own_name(d->d_name, &is_tmp) ||
		    fstatat(dir_fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (is_tmp) {
			if (now - st.st_mtime > 3600)
				(void)unlinkat(dir_fd, d->d_name, 0);
			continue;
		}
		e.name = g_strdup(d->d_name);
		e.size = (uint64_t)st.st_size;
		e.used = st.st_mtim;
		total += e.size;
		g_array_append_val(entries, e);
	}
	if (total > bound) {
		g_array_sort(entries, entry_cmp);
		for (i = 0; i < entries->len && total > bound; i++) {
			struct entry *e = &g_array_index(entries, struct entry, i);

			if (unlinkat(dir_fd, e->name, 0) == 0 || errno == ENOENT)
				total -= e->size;
		}
	}
	for (i = 0; i < entries->len; i++)
		g_free(g_array_index(entries, struct entry, i).name);
	g_array_free(entries, TRUE);
	closedir(dp);
}

/* Creates a new temporary file for the entry `name` in the directory
 * open at `dir_fd`, 0600; its name into tmp (room for the name and 14
 * bytes).  Returns the descriptor, or -1. */
static int create_tmp(int dir_fd, const char *name, char *tmp, size_t size)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	int tries, i, fd;

	for (tries = 0; tries < 100; tries++) {
		char suffix[7];

		for (i = 0; i < 6; i++)
			suffix[i] = letters[g_random_int_range(0, (gint32)sizeof(letters) - 1)];
		suffix[6] = '\0';
		snprintf(tmp, size, "%s" CACHE_TMP "%s", name, suffix);
		fd = openat(dir_fd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

void cprof_cache_store(const char *dir, const char *name, const void *key, size_t key_len,
		       const void *payload, size_t len)
{
	char tmp[256];
	const char *why;
	struct header h;
	int dir_fd, fd;

	if (strlen(name) + sizeof(CACHE_TMP) + 7 > sizeof(tmp) || key_len > UINT32_MAX)
		return;
	dir_fd = open_dir(dir, &why);
	if (dir_fd < 0)
		return;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, sizeof(h.magic));
	h.version = CACHE_VERSION;
	h.key_len = (uint32_t)key_len;
	h.payload_len = len;
	h.order = CACHE_ORDER;
	h.checksum = checksum(&h, key, key_len, payload, len);
	fd = create_tmp(dir_fd, name, tmp, sizeof(tmp));
	if (fd >= 0) {
		bool ok = write_all(fd, &h, sizeof(h)) && write_all(fd, key, key_len) &&
			  write_all(fd, payload, len);

		if (close(fd) != 0 || !ok || renameat(dir_fd, tmp, dir_fd, name) != 0)
			(void)unlinkat(dir_fd, tmp, 0);
		else
			evict(dir_fd);
	}
	close(dir_fd);
}
