/* maps.c: the mapped-objects text that ends a gperftools profile. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "maps.h"
#include "base/util.h"

/* A maps line that expands past this is refused: no path is that long. */
enum { MAPS_LINE_MAX = PATH_MAX + 256 };
/* What expansion may add to the maps text, in all. */
#define MAPS_GROWTH_SLACK ((uint64_t)1 << 20)
enum { MAPS_GROWTH_FACTOR = 8 };

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_word(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '_';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Parses hex digits at *p (at most 16), advancing it; false when none. */
static bool parse_hex(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t value = 0;
	int digits = 0, d;

	while (s < end && (d = hex_digit(*s)) >= 0) {
		if (++digits > 16)
			return false;
		value = value << 4 | (uint64_t)d;
		s++;
	}
	if (digits == 0)
		return false;
	*p = s;
	*out = value;
	return true;
}

static bool skip_spaces(const char **p, const char *end)
{
	const char *s = *p;

	while (s < end && is_space(*s))
		s++;
	if (s == *p)
		return false;
	*p = s;
	return true;
}

bool cprof_dso_bracketed(const char *name)
{
	size_t len = strlen(name);

	return len >= 2 && name[0] == '[' && name[len - 1] == ']';
}

const char *cprof_dso_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (cprof_dso_bracketed(path))
		return path;
	return slash && slash[1] ? slash + 1 : path;
}

char *cprof_dso_unnamed(const char *basename)
{
	size_t len = strlen(basename);
	char *key;

	if (cprof_dso_bracketed(basename))
		return cprof_xstrdup(basename);
	key = cprof_xmalloc(len + 3);
	key[0] = '[';
	memcpy(key + 1, basename, len);
	memcpy(key + 1 + len, "]", 2);
	return key;
}

static void add_mapping(struct cprof_maps *maps, uint64_t start, uint64_t end, uint64_t offset,
			const char *path, size_t path_len)
{
	static const char deleted[] = " (deleted)";
	size_t deleted_len = sizeof(deleted) - 1;
	struct cprof_mapping *m;
	bool replaced = false;

	if (path_len > deleted_len &&
	    memcmp(path + path_len - deleted_len, deleted, deleted_len) == 0)
		path_len -= deleted_len;
	if (maps->count == maps->cap) {
		maps->cap = maps->cap ? maps->cap * 2 : 16;
		maps->mappings = cprof_xrealloc(maps->mappings, maps->cap * sizeof(*m));
	}
	m = &maps->mappings[maps->count++];
	m->start = start;
	m->end = end;
	m->offset = offset;
	m->link_time = false;
	m->path = cprof_utf8_sanitize(path, path_len, &replaced);
	m->basename = cprof_dso_basename(m->path);
	/* The file is found by its raw bytes; a NUL byte cannot name one. */
	m->file = replaced && !memchr(path, '\0', path_len) ? g_strndup(path, path_len) : m->path;
	maps->replaced_utf8 |= replaced;
}

/* "start-end perms offset [dev inode] [path]" at [p, end) into an
 * executable mapping of maps; any other line is left out. */
static void add_maps_entry(struct cprof_maps *maps, const char *p, const char *end)
{
	uint64_t start, stop, offset, dev;
	const char *path;
	size_t i, path_len;
	bool executable = false;

	if (!parse_hex(&p, end, &start) || p == end || *p++ != '-' || !parse_hex(&p, end, &stop) ||
	    !skip_spaces(&p, end) || end - p < 4)
		return;
	for (i = 0; i < 4; i++) {
		if (!strchr("-rwxps", p[i]))
			return;
		executable |= p[i] == 'x';
	}
	p += 4;
	if (!skip_spaces(&p, end) || !parse_hex(&p, end, &offset))
		return;
	skip_spaces(&p, end);
	path = p;
	if (parse_hex(&p, end, &dev) && p < end && *p == ':') {
		p++;
		if (!parse_hex(&p, end, &dev) || !skip_spaces(&p, end))
			return;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p < end && !is_space(*p))
			return;
		skip_spaces(&p, end);
		path = p;
	}
	path_len = (size_t)(end - path);
	while (path_len > 0 && is_space(path[path_len - 1]))
		path_len--;
	if (executable && stop > start)
		add_mapping(maps, start, stop, offset, path, path_len);
}

/* The value $NAME stands for, [name, name + len) a whole word: the last
 * build= path for $build, else the first NAME=VALUE definition. */
static const char *lookup(const struct cprof_maps *maps, const char *name, size_t len)
{
	char *key;
	const char *value;

	if (len == 5 && memcmp(name, "build", 5) == 0)
		return maps->build;
	if (!maps->vars)
		return NULL;
	key = g_strndup(name, len);
	value = g_hash_table_lookup(maps->vars, key);
	g_free(key);
	return value;
}

/* Appends `line` to `out` with each defined $NAME (NAME a whole word)
 * replaced by its value, in one pass: a value is not expanded again.  -1
 * with `err` set when the line grows past MAPS_LINE_MAX, or when all that
 * expansion has added to the maps text is past its bound. */
static int expand(struct cprof_maps *maps, const char *line, size_t len, GString *out,
		  struct cprof_error *err)
{
	size_t i = 0;

	while (i < len) {
		const char *dollar = memchr(line + i, '$', len - i);
		size_t at = dollar ? (size_t)(dollar - line) : len, word = 0;
		const char *value;

		g_string_append_len(out, line + i, (gssize)(at - i));
		if (!dollar)
			break;
		while (at + 1 + word < len && is_word(line[at + 1 + word]))
			word++;
		value = word ? lookup(maps, line + at + 1, word) : NULL;
		if (value)
			g_string_append(out, value);
		else
			g_string_append_len(out, dollar, (gssize)word + 1);
		i = at + 1 + word;
		if (out->len > MAPS_LINE_MAX)
			return cprof_error_set(err, "maps line expands past %d bytes (no path is that "
						    "long)", MAPS_LINE_MAX);
	}
	if (out->len > len)
		maps->grown += out->len - len;
	if (maps->grown > MAPS_GROWTH_SLACK + MAPS_GROWTH_FACTOR * maps->text_bytes)
		return cprof_error_set(err, "maps definitions expand the maps text past %d times "
					    "its size", MAPS_GROWTH_FACTOR);
	return 0;
}

/* "NAME=VALUE" (NAME a word, VALUE trimmed) defines $NAME for the lines
 * after it, as pprof reads the maps text; the first definition of a name
 * holds.  False when [p, end) is no definition (a mapping's "START-END"
 * is no word). */
static bool define(struct cprof_maps *maps, const char *p, const char *end)
{
	const char *eq = memchr(p, '=', (size_t)(end - p)), *name_end, *value;
	GHashTable *vars;
	char *name;

	if (!eq)
		return false;
	value = eq + 1;
	name_end = eq;
	while (name_end > p && is_space(name_end[-1]))
		name_end--;
	if (name_end == p)
		return false;
	for (name = (char *)p; name < name_end; name++)
		if (!is_word(*name))
			return false;
	while (value < end && is_space(*value))
		value++;
	if (!maps->vars)
		maps->vars = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, g_free);
	vars = maps->vars;
	name = g_strndup(p, (gsize)(name_end - p));
	if (g_hash_table_contains(vars, name))
		g_free(name);
	else
		g_hash_table_insert(vars, name, g_strndup(value, (gsize)(end - value)));
	return true;
}

/* pprof's brief form "START-END: PATH [(@OFFSET)]" (hex, 0x optional) at
 * [p, end) as an executable mapping; false when it is not that form. */
static bool add_brief(struct cprof_maps *maps, const char *p, const char *end)
{
	uint64_t start, stop, offset = 0;
	const char *path;
	size_t path_len;

	if (end - p > 2 && p[0] == '0' && p[1] == 'x')
		p += 2;
	if (!parse_hex(&p, end, &start) || p == end || *p++ != '-')
		return false;
	if (end - p > 2 && p[0] == '0' && p[1] == 'x')
		p += 2;
	if (!parse_hex(&p, end, &stop) || p == end || *p++ != ':')
		return false;
	skip_spaces(&p, end);
	path = p;
	while (p < end && !is_space(*p))
		p++;
	path_len = (size_t)(p - path);
	skip_spaces(&p, end);
	if (end - p > 2 && p[0] == '(' && p[1] == '@') {
		p += 2;
		if (end - p > 2 && p[0] == '0' && p[1] == 'x')
			p += 2;
		if (!parse_hex(&p, end, &offset))
			offset = 0;
	}
	if (stop > start)
		add_mapping(maps, start, stop, offset, path, path_len);
	return true;
}

int cprof_maps_add_line(struct cprof_maps *maps, const char *line, size_t len,
			struct cprof_error *err)
{
	const char *p = line, *end = line + len;
	GString *expanded = NULL;

	maps->text_bytes += len + 1;
	while (p < end && is_space(*p))
		p++;
	if ((size_t)(end - p) >= 6 && memcmp(p, "build=", 6) == 0) {
		const char *value = p + 6, *value_end = end;

		while (value_end > value && is_space(value_end[-1]))
			value_end--;
		g_free(maps->build);
		maps->build = g_strndup(value, (gsize)(value_end - value));
		return 0;
	}
	if ((maps->build || maps->vars) && memchr(p, '$', (size_t)(end - p))) {
		expanded = g_string_sized_new(len + 64);
		if (expand(maps, p, (size_t)(end - p), expanded, err) < 0) {
			g_string_free(expanded, TRUE);
			return -1;
		}
		p = expanded->str;
		end = p + expanded->len;
	}
	while (end > p && is_space(end[-1]))
		end--;
	if (p < end && !define(maps, p, end) && !add_brief(maps, p, end))
		add_maps_entry(maps, p, end);
	if (expanded)
		g_string_free(expanded, TRUE);
	return 0;
}

static int mapping_cmp(const void *a, const void *b)
{
	const struct cprof_mapping *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

void cprof_maps_finish(struct cprof_maps *maps)
{
	size_t i;

	for (i = 0; i < maps->count && !maps->main_path; i++) {
		const struct cprof_mapping *m = &maps->mappings[i];

		if (m->path[0] && m->path[0] != '[' && !strstr(m->basename, ".so"))
			maps->main_path = g_strdup(m->file);
	}
	if (maps->count > 1)
		qsort(maps->mappings, maps->count, sizeof(*maps->mappings), mapping_cmp);
}

void cprof_maps_add_link_time(struct cprof_maps *maps, const char *path)
{
	add_mapping(maps, 1, UINT64_MAX, 1, path, strlen(path));
	maps->mappings[maps->count - 1].link_time = true;
	g_free(maps->main_path);
	maps->main_path = g_strdup(maps->mappings[maps->count - 1].file);
}

const struct cprof_mapping *cprof_maps_find(const struct cprof_maps *maps, uint64_t addr)
{
	size_t lo = 0, hi = maps->count;

	/* The last mapping starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maps->mappings[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	if (addr < maps->mappings[lo - 1].end)
		return &maps->mappings[lo - 1];
	return NULL;
}

void cprof_maps_clear(struct cprof_maps *maps)
{
	size_t i;

	for (i = 0; i < maps->count; i++) {
		if (maps->mappings[i].file != maps->mappings[i].path)
			g_free(maps->mappings[i].file);
		free(maps->mappings[i].path);
	}
	free(maps->mappings);
	g_free(maps->build);
	g_free(maps->main_path);
	if (maps->vars)
		g_hash_table_destroy(maps->vars);
	memset(maps, 0, sizeof(*maps));
}
