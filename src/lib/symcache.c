/* symcache.c: the symbolizer's entries in the symbol cache (cache.c keeps
 * the files).  An entry holds, for one
 * file and one way of asking (inline frames or not, lines or not), the
 * file's PT_LOAD segments and every answer found so far: the frames of
 * each link-time address, names demangled and made valid UTF-8.  It is
 * named after the file's build-id (its path where it has none) and the
 * way of asking, and stored under a key that says all an answer depends
 * on: the build-id and size of the file (or its path, size, mtime, device
 * and inode), and the size and mtime of each debug file libdwfl could
 * pick for it.  Any difference is a miss; the entry is then rebuilt. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <xxhash.h>

#include <glib.h>

#include "cache.h"
#include "base/hash.h"
#include "symbolize-int.h"
#include "base/util.h"

enum { CACHE_MAX_FRAMES = 64 };

static void stat_line(GString *key, const char *what, const char *path, bool absent_too)
{
	struct stat st;

	if (stat(path, &st) == 0)
		g_string_append_printf(key, "%s %s %lld %lld.%09ld %llu %llu\n", what, path,
				       (long long)st.st_size, (long long)st.st_mtim.tv_sec,
				       st.st_mtim.tv_nsec, (unsigned long long)st.st_dev,
				       (unsigned long long)st.st_ino);
	else if (absent_too)
		g_string_append_printf(key, "%s %s absent\n", what, path);
}

/* Sets dso->cache_name and dso->cache_key for `file`; false (and neither
 * set) when it cannot be told apart from another (it cannot be read). */
static bool cache_identify(struct cprof_symbolizer *s, struct dso *dso, const char *file)
{
	char *debuglink = NULL, *id, *abs, *dir, **paths, **p;
	GString *key;
	struct stat st;

	if (stat(file, &st) != 0)
		return false;
	id = cprof_symbolize_file_ids(file, &debuglink);
	abs = g_canonicalize_filename(file, NULL);
	dir = g_path_get_dirname(abs);
	paths = g_strsplit(s->debuginfo_path, ":", -1);
	key = g_string_new("cprof symbol cache 1\n");
	g_string_append_printf(key, "inline %d lines %d\n", s->options.inline_frames,
			       s->options.lines);
	if (id)
		g_string_append_printf(key, "build-id %s size %lld\n", id, (long long)st.st_size);
	else
		stat_line(key, "file", abs, true);
	/* Where libdwfl's standard search may find a debug file. */
	for (p = paths; *p; p++) {
		const char *d = **p == '-' || **p == '+' ? *p + 1 : *p;
		char *c;

		if (d[0] == '/' && id) {
			c = g_strdup_printf("%s/.build-id/%.2s/%s.debug", d, id, id + 2);
			stat_line(key, "debug", c, false);
			g_free(c);
		}
		if (!debuglink)
			continue;
		c = d[0] == '/' ? g_build_filename(d, dir, debuglink, NULL)
				: g_build_filename(dir, d, debuglink, NULL);
		stat_line(key, "debug", c, false);
		g_free(c);
	}
	dso->cache_name = g_strdup_printf("%016llx.sym",
		(unsigned long long)XXH3_64bits_withSeed(id ? id : abs, strlen(id ? id : abs),
							 (uint64_t)s->options.inline_frames << 1 |
								 s->options.lines));
	dso->cache_key = key;
	g_strfreev(paths);
	g_free(dir);
	g_free(abs);
	g_free(debuglink);
	free(id);
	return true;
}

static void put64(GByteArray *out, uint64_t v)
{
	g_byte_array_append(out, (const guint8 *)&v, sizeof(v));
}

static void put32(GByteArray *out, uint32_t v)
{
	g_byte_array_append(out, (const guint8 *)&v, sizeof(v));
}

static uint32_t string_ref(GHashTable *offsets, GString *strings, const char *text)
{
	gpointer found;

	if (!text)
		return 0;
	if (!g_hash_table_lookup_extended(offsets, text, NULL, &found)) {
		found = GSIZE_TO_POINTER(strings->len + 1);
		g_string_append_len(strings, text, (gssize)strlen(text) + 1);
		g_hash_table_insert(offsets, (gpointer)text, found);
	}
	return (uint32_t)GPOINTER_TO_SIZE(found);
}

void cprof_symcache_save(struct cprof_symbolizer *s, struct dso *dso)
{
	GByteArray *out;
	GHashTable *offsets;
	GString *strings;
	GHashTableIter iter;
	gpointer value;
	size_t i;

	if (!s->cache_dir || !dso->cache_name || !dso->dirty || !dso->usable || !dso->answers)
		return;
	out = g_byte_array_new();
	offsets = g_hash_table_new(g_direct_hash, g_direct_equal);
	strings = g_string_new(NULL);
	put64(out, dso->num_segments);
	for (i = 0; i < dso->num_segments; i++) {
		put64(out, dso->segments[i].vaddr);
		put64(out, dso->segments[i].offset);
		put64(out, dso->segments[i].filesz);
	}
	put64(out, g_hash_table_size(dso->answers));
	g_hash_table_iter_init(&iter, dso->answers);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		const struct answer *answer = value;

		put64(out, answer->vaddr);
		put64(out, answer->count);
		for (i = 0; i < answer->count; i++) {
			put32(out, string_ref(offsets, strings, answer->frames[i].function));
			put32(out, string_ref(offsets, strings, answer->frames[i].file));
			put32(out, (uint32_t)answer->frames[i].line);
			put32(out, 0);
		}
	}
	put64(out, strings->len);
	g_byte_array_append(out, (const guint8 *)strings->str, strings->len);
	cprof_cache_store(s->cache_dir, dso->cache_name, dso->cache_key->str, dso->cache_key->len,
			  out->data, out->len);
	g_string_free(strings, TRUE);
	g_hash_table_destroy(offsets);
	g_byte_array_free(out, TRUE);
}

struct reader {
	const unsigned char *data;
	size_t len, pos;
	bool bad;
};

static uint64_t get64(struct reader *r)
{
	uint64_t v = 0;

	if (r->len - r->pos < sizeof(v))
		r->bad = true;
	else
		memcpy(&v, r->data + r->pos, sizeof(v)), r->pos += sizeof(v);
	return v;
}

static uint32_t get32(struct reader *r)
{
	uint32_t v = 0;

	if (r->len - r->pos < sizeof(v))
		r->bad = true;
	else
		memcpy(&v, r->data + r->pos, sizeof(v)), r->pos += sizeof(v);
	return v;
}

/* The interned string at reference `ref` (offset + 1) of the table, NULL
 * for 0; false when the reference is not the start of a valid string. */
static bool string_at(struct cprof_symbolizer *s, const char *strings, size_t len, uint32_t ref,
		      const char **text)
{
	*text = NULL;
	if (ref == 0)
		return true;
	if (ref > len || (ref > 1 && strings[ref - 2] != '\0') ||
	    !g_utf8_validate(strings + ref - 1, -1, NULL))
		return false;
	*text = cprof_strings_intern(s->names, strings + ref - 1);
	return true;
}

/* Where the parts of a cache entry are. */
struct cache_layout {
	uint64_t num_segments, num_answers;
	size_t frames_at;      /* the first answer */
	const char *strings;   /* the string table, at the end */
	uint64_t strings_len;
};

/* Walks the entry in r to find its parts; false when it is not whole. */
static bool find_layout(struct reader *r, struct cache_layout *l)
{
	uint64_t i;

	l->num_segments = get64(r);
	if (r->bad || l->num_segments > 64 || r->len - r->pos < l->num_segments * 24)
		return false;
	r->pos += l->num_segments * 24;
	l->num_answers = get64(r);
	l->frames_at = r->pos;
	for (i = 0; i < l->num_answers && !r->bad; i++) {
		uint64_t count;

		(void)get64(r);
		count = get64(r);
		if (r->bad || count > CACHE_MAX_FRAMES || r->len - r->pos < count * 16)
			return false;
		r->pos += count * 16;
	}
	l->strings_len = get64(r);
	if (r->bad || l->strings_len != r->len - r->pos || l->strings_len > UINT32_MAX ||
	    (l->strings_len > 0 && r->data[r->len - 1] != '\0'))
		return false;
	l->strings = (const char *)r->data + r->pos;
	return true;
}

/* The answer at r's position, or NULL when its strings or line are bad. */
static struct answer *cache_answer(struct cprof_symbolizer *s, struct reader *r,
				   const struct cache_layout *l)
{
	uint64_t vaddr = get64(r), count = get64(r), j;
	struct answer *answer = cprof_xmalloc(sizeof(*answer) + count * sizeof(answer->frames[0]));

	answer->vaddr = vaddr;
	answer->count = count;
	for (j = 0; j < count; j++) {
		struct cprof_symbol *frame = &answer->frames[j];
		bool ok = string_at(s, l->strings, l->strings_len, get32(r), &frame->function);

		ok = string_at(s, l->strings, l->strings_len, get32(r), &frame->file) && ok;
		frame->line = (int)get32(r);
		(void)get32(r);
		if (!ok || frame->line < 0) {
			free(answer);
			return NULL;
		}
	}
	return answer;
}

/* The answers of the entry by vaddr, or NULL when one is bad or two
 * have the same vaddr. */
static GHashTable *cache_answers(struct cprof_symbolizer *s, struct reader *r,
				 const struct cache_layout *l)
{
	GHashTable *answers = g_hash_table_new_full(cprof_int64_hash, g_int64_equal, NULL, free);
	uint64_t i;

	r->pos = l->frames_at;
	for (i = 0; i < l->num_answers; i++) {
		struct answer *answer = cache_answer(s, r, l);

		if (answer && g_hash_table_contains(answers, &answer->vaddr)) {
			free(answer);
			answer = NULL;
		}
		if (!answer) {
			g_hash_table_destroy(answers);
			return NULL;
		}
		g_hash_table_insert(answers, &answer->vaddr, answer);
	}
	return answers;
}

bool cprof_symcache_load(struct cprof_symbolizer *s, struct dso *dso, const char *file)
{
	struct reader r = { NULL, 0, 0, false };
	struct cache_layout layout;
	GHashTable *answers;
	void *payload;
	uint64_t i;

	if (!s->cache_dir || !cache_identify(s, dso, file))
		return false;
	payload = cprof_cache_load(s->cache_dir, dso->cache_name, dso->cache_key->str,
				   dso->cache_key->len, &r.len);
	if (!payload)
		return false;
	r.data = payload;
	if (!find_layout(&r, &layout))
		goto bad;
	r.pos = sizeof(uint64_t);
	dso->segments = cprof_xcalloc(layout.num_segments ? layout.num_segments : 1,
				      sizeof(*dso->segments));
	dso->num_segments = layout.num_segments;
	for (i = 0; i < layout.num_segments; i++) {
		dso->segments[i].vaddr = get64(&r);
		dso->segments[i].offset = get64(&r);
		dso->segments[i].filesz = get64(&r);
	}
	answers = cache_answers(s, &r, &layout);
	if (!answers)
		goto bad;
	dso->answers = answers;
	dso->usable = true;
	free(payload);
	return true;
bad:
	free(dso->segments);
	dso->segments = NULL;
	dso->num_segments = 0;
	free(payload);
	return false;
}
