/* proto-frames.c: profile.proto's drop_frames and keep_frames, regular
 * expressions over function names, applied as pprof's Profile.Prune
 * applies them: in each location, the outermost line whose function
 * (simplified) matches drop and not keep goes with the lines inlined
 * into it; the location is dropped when that is its outermost line.
 * Samples lose what is beneath such a location. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "proto-int.h"
#include "regex.h"

/* pprof's simplifyFunc: the name without a leading '.' and cut at its
 * first '(' that does not begin "(anonymous namespace)" or end
 * "operator()". */
static char *simplify(const char *name)
{
	static const char anon[] = "(anonymous namespace)", op[] = "operator()";
	const char *s = name[0] == '.' ? name + 1 : name;
	size_t i = 0, len = strlen(s);

	while (i < len) {
		if (strncmp(s + i, anon, sizeof(anon) - 1) == 0)
			i += sizeof(anon) - 1;
		else if (strncmp(s + i, op, sizeof(op) - 1) == 0)
			i += sizeof(op) - 1;
		else if (s[i] == '(')
			break;
		else
			i++;
	}
	return g_strndup(s, i);
}

/* The pattern at string `index` compiled as pprof compiles it, "^(" and
 * ")$" around it, or NULL: none (index 0), or refused, and said in r. */
static struct cprof_regex *compile_frames(struct cprof_proto_reader *r, int64_t index, uint64_t at,
					  const char *what)
{
	struct cprof_regex *regex;
	char *pattern, *text, error[256];

	if (index == 0)
		return NULL;
	text = cprof_proto_string_dup(r, index, NULL);
	pattern = g_strdup_printf("^(%s)$", text);
	regex = cprof_regex_new(pattern, error, sizeof(error));
	if (!regex)
		cprof_proto_fail(r, at, what, "bad regular expression '%s': %s", text, error);
	g_free(pattern);
	free(text);
	return regex;
}

/* The function name of a line for drop_frames and keep_frames, or NULL. */
static char *line_function(struct cprof_proto_reader *r, GHashTable *functions, const struct line *line)
{
	const struct function *f;
	size_t i = line->function_id ? cprof_proto_lookup(functions, line->function_id) : 0;
	size_t len;

	if (i == 0)
		return NULL;
	f = &g_array_index(r->functions, struct function, i - 1);
	cprof_proto_string_at(r, f->name, &len);
	if (len == 0)
		return NULL;
	return cprof_proto_string_dup(r, f->name, NULL);
}

int cprof_proto_prune_locations(struct cprof_proto_reader *r, GHashTable *functions)
{
	struct cprof_regex *drop, *keep = NULL;
	size_t i;

	drop = compile_frames(r, r->drop_frames, r->drop_at, "drop_frames");
	if (!drop)
		return r->err->text[0] ? -1 : 0;
	keep = compile_frames(r, r->keep_frames, r->keep_at, "keep_frames");
	if (!keep && r->err->text[0]) {
		cprof_regex_free(drop);
		return -1;
	}
	for (i = 0; i < r->locations->len; i++) {
		struct location *l = &g_array_index(r->locations, struct location, i);
		size_t j;

		for (j = l->n_lines; j-- > 0;) {
			const struct line *line = &g_array_index(r->lines, struct line, l->first_line + j);
			char *name = line_function(r, functions, line), *simple;
			bool matched = false;

			if (!name)
				continue;
			simple = simplify(name);
			matched = cprof_regex_matches(drop, simple, strlen(simple)) &&
				  !(keep && cprof_regex_matches(keep, simple, strlen(simple)));
			g_free(simple);
			free(name);
			if (!matched)
				continue;
			l->prune_beneath = true;
			if (j == l->n_lines - 1) {
				l->prune = true;
			} else {
				l->first_line += j + 1;
				l->n_lines -= j + 1;
			}
			break;
		}
	}
	cprof_regex_free(drop);
	cprof_regex_free(keep);
	return 0;
}

/* The locations [*from, depth) of a stack that pruning keeps: scanning
 * from the root, past the first frame that is not pruned, the first
 * pruned location cuts the stack (itself too when it goes whole). */
uint32_t cprof_proto_prune_stack(const struct cprof_proto_reader *r, const size_t *indexes, uint32_t depth)
{
	bool found_user = false;
	uint32_t i;

	for (i = depth; i-- > 0;) {
		const struct location *l = &g_array_index(r->locations, struct location, indexes[i]);

		if (!l->prune && !l->prune_beneath) {
			found_user = true;
			continue;
		}
		if (!found_user)
			continue;
		return l->prune ? i + 1 : i;
	}
	return 0;
}
