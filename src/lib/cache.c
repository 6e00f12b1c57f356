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
#include "util.h"

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

const char *cprof_cache_dir(void)
{
	static char *dir;
	static bool done;
	const char *env = getenv("CPROF_CACHE"), *base;

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
	if (dir && g_mkdir_with_parents(dir, 0700) != 0) {
		g_free(dir);
		dir = NULL;
	}
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
	char *path = g_build_filename(dir, name, NULL);
	unsigned char *buf = NULL;
	struct header h;
	struct stat st;
	int fd;

	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	g_free(path);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < HEADER_SIZE ||
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

/* Removes the least recently used entries until the rest fit the bound,
 * and temporary files a killed run left more than an hour ago. */
static void evict(const char *dir)
{
	GArray *entries = g_array_new(FALSE, FALSE, sizeof(struct entry));
	uint64_t total = 0, bound = cache_bound();
	time_t now = time(NULL);
	struct dirent *d;
	DIR *dp = opendir(dir);
	guint i;

	if (!dp) {
		g_array_free(entries, TRUE);
		return;
	}
	while ((d = readdir(dp)) != NULL) {
		bool is_entry = g_str_has_suffix(d->d_name, CACHE_SUFFIX);
		bool is_tmp = strstr(d->d_name, CACHE_TMP) != NULL;
		struct stat st;
		struct entry e;

		if ((!is_entry && !is_tmp) || fstatat(dirfd(dp), d->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (is_tmp) {
			if (now - st.st_mtime > 3600)
				(void)unlinkat(dirfd(dp), d->d_name, 0);
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

			if (unlinkat(dirfd(dp), e->name, 0) == 0 || errno == ENOENT)
				total -= e->size;
		}
	}
	for (i = 0; i < entries->len; i++)
		g_free(g_array_index(entries, struct entry, i).name);
	g_array_free(entries, TRUE);
	closedir(dp);
}

void cprof_cache_store(const char *dir, const char *name, const void *key, size_t key_len,
		       const void *payload, size_t len)
{
	char *path = g_build_filename(dir, name, NULL);
	char *tmp = g_strdup_printf("%s" CACHE_TMP "XXXXXX", path);
	struct header h;
	int fd;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, sizeof(h.magic));
	h.version = CACHE_VERSION;
	h.key_len = (uint32_t)key_len;
	h.payload_len = len;
	h.order = CACHE_ORDER;
	h.checksum = checksum(&h, key, key_len, payload, len);
	fd = key_len <= UINT32_MAX ? g_mkstemp_full(tmp, O_RDWR | O_CLOEXEC, 0600) : -1;
	if (fd >= 0) {
		bool ok = write_all(fd, &h, sizeof(h)) && write_all(fd, key, key_len) &&
			  write_all(fd, payload, len);

		if (close(fd) != 0 || !ok || rename(tmp, path) != 0)
			(void)unlink(tmp);
		else
			evict(dir);
	}
	g_free(tmp);
	g_free(path);
}
