/* rows.c: profiles as dimensional rows, one per key of each profile. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "jsonout.h"
#include "json.h"
#include "rows.h"

bool cprof_tag_name_ok(const char *name)
{
	size_t i, len = strlen(name);

	if (len == 0 || len > 64 || !(name[0] == '_' || (name[0] >= 'a' && name[0] <= 'z')))
		return false;
	for (i = 1; i < len; i++)
		if (!(name[i] == '_' || (name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= '0' && name[i] <= '9')))
			return false;
	return true;
}

void cprof_tag_parse(struct cprof_ptrs *tags, const char *option, const char *arg,
		     const char *const *reserved)
{
	const char *eq = strchr(arg, '=');
	struct cprof_tag *tag;
	char *name;
	guint i;

	if (!eq)
		cprof_die("%s: '%s': not NAME=VALUE", option, arg);
	name = g_strndup(arg, (gsize)(eq - arg));
	if (!cprof_tag_name_ok(name)) {
		g_free(name);
		cprof_die("%s: '%s': NAME must match [a-z_][a-z0-9_]*", option, arg);
	}
	for (; reserved && *reserved; reserved++)
		if (strcmp(name, *reserved) == 0) {
			g_free(name);
			cprof_die("%s: '%s': %s is a field of every row, not a tag", option, arg,
				  *reserved);
		}
	for (i = 0; i < tags->len; i++)
		if (strcmp(((struct cprof_tag *)tags->items[i])->name, name) == 0) {
			g_free(name);
			cprof_die("%s: '%s': a tag given twice", option, arg);
		}
	if (!g_utf8_validate(eq + 1, -1, NULL)) {
		g_free(name);
		cprof_die("%s: '%s': VALUE is not valid UTF-8", option, arg);
	}
	tag = cprof_xmalloc(sizeof(*tag));
	tag->name = cprof_xstrdup(name);
	tag->value = cprof_xstrdup(eq + 1);
	g_free(name);
	cprof_ptrs_add(tags, tag);
}

void cprof_tag_free(void *data)
{
	struct cprof_tag *tag = data;

	if (!tag)
		return;
	free(tag->name);
	free(tag->value);
	free(tag);
}

void cprof_rows_check(const struct cprof_dist *dist)
{
	const char *source = dist->sources.len ? dist->sources.items[0] : "-";

	if (dist->cum)
		cprof_die("%s: a cumulative flat (cum true) has no rows that sum to its total",
			  source);
	if (cprof_dist_other(dist) > 0)
		cprof_die("%s: a flat cut by --top (other > 0) has no rows that sum to its total",
			  source);
}

/* Profiles by name, bytewise, then by their place among the operands. */
static int by_source(const void *a, const void *b)
{
	const struct cprof_dist *x = *(struct cprof_dist *const *)a;
	const struct cprof_dist *y = *(struct cprof_dist *const *)b;
	int c = strcmp(x->sources.items[0], y->sources.items[0]);

	if (c)
		return c;
	return x->num_inputs < y->num_inputs ? -1 : x->num_inputs > y->num_inputs;
}

void cprof_rows_print(struct cprof_dist **dists, size_t count, const struct cprof_ptrs *tags)
{
	size_t d, i;
	guint t;

	/* num_inputs is 1 in each: borrow it for the operand's place. */
	for (d = 0; d < count; d++)
		dists[d]->num_inputs = d;
	qsort(dists, count, sizeof(*dists), by_source);
	for (d = 0; d < count; d++) {
		struct cprof_dist *dist = dists[d];

		cprof_dist_sort(dist);
		for (i = 0; i < dist->entries.len; i++) {
			const struct cprof_entry *entry = dist->entries.items[i];
			json_t *row = json_object();

			if (!row)
				cprof_die_oom();
			cprof_json_set(row, "profile", cprof_json_string(dist->sources.items[0]));
			cprof_json_set(row, "by", json_string(cprof_by_name(dist->by)));
			cprof_json_set(row, "key", cprof_json_string(entry->key));
			cprof_json_set(row, "count", json_integer((json_int_t)entry->count));
			for (t = 0; t < tags->len; t++) {
				const struct cprof_tag *tag = tags->items[t];

				cprof_json_set(row, tag->name, cprof_json_string(tag->value));
			}
			cprof_json_dump(stdout, row, true);
			fputc('\n', stdout);
			json_decref(row);
		}
		dists[d]->num_inputs = 1;
	}
}
