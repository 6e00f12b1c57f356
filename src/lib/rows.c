/* rows.c: profiles as dimensional rows, one per key of each profile. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/jsonout.h"
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

/* Appends the tag NAME=VALUE (a --tag, or a --label of `noun` "label")
 * to `tags`; dies naming the option and `shown`, the argument as given,
 * when NAME is malformed, reserved or given twice, or VALUE is not valid
 * UTF-8. */
static void add_tag(struct cprof_ptrs *tags, const char *option, const char *shown,
		    const char *name, const char *value, const char *const *reserved,
		    const char *noun)
{
	struct cprof_tag *tag;
	guint i;

	if (!cprof_tag_name_ok(name))
		cprof_die("%s: '%s': NAME must match [a-z_][a-z0-9_]*", option, shown);
	for (; reserved && *reserved; reserved++)
		if (strcmp(name, *reserved) == 0)
			cprof_die("%s: '%s': %s is a field of every row, not a %s", option, shown,
				  *reserved, noun);
	for (i = 0; i < tags->len; i++)
		if (strcmp(((struct cprof_tag *)tags->items[i])->name, name) == 0)
			cprof_die("%s: '%s': a %s given twice", option, shown, noun);
	if (!g_utf8_validate(value, -1, NULL))
		cprof_die("%s: '%s': VALUE is not valid UTF-8", option, shown);
	tag = cprof_xmalloc(sizeof(*tag));
	tag->name = cprof_xstrdup(name);
	tag->value = cprof_xstrdup(value);
	cprof_ptrs_add(tags, tag);
}

void cprof_tag_parse(struct cprof_ptrs *tags, const char *option, const char *arg,
		     const char *const *reserved)
{
	const char *eq = strchr(arg, '=');
	char name[72];

	if (!eq)
		cprof_die("%s: '%s': not NAME=VALUE", option, arg);
	/* Longer than a name may be: cut, and refused as malformed. */
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg < 71 ? eq - arg : 71), arg);
	add_tag(tags, option, arg, name, eq + 1, reserved, "tag");
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

void cprof_label_parse(struct cprof_ptrs *labels, const char *arg, const char *const *reserved)
{
	const char *eq = strchr(arg, '=');
	char name[72];

	if (eq && !eq[1])
		cprof_die("--label: '%s': an empty label KEY", arg);
	if (!eq)
		eq = arg + strlen(arg);
	/* Longer than a name may be: cut, and refused as malformed. */
	snprintf(name, sizeof(name), "%.*s", (int)(eq - arg < 71 ? eq - arg : 71), arg);
	add_tag(labels, "--label", arg, name, *eq ? eq + 1 : arg, reserved, "label");
}

void cprof_labels_read_options(const struct cprof_ptrs *labels, struct cprof_ptrs *keys,
			       struct cprof_read_options *read)
{
	size_t j;

	cprof_ptrs_clear(keys, NULL);
	for (j = 0; j < labels->len; j++)
		cprof_ptrs_add(keys, ((struct cprof_tag *)labels->items[j])->value);
	read->row_labels = (const char *const *)keys->items;
	read->num_row_labels = keys->len;
}

void cprof_labels_check(const struct cprof_ptrs *tags, const struct cprof_ptrs *labels)
{
	guint i, j;

	for (i = 0; i < labels->len; i++)
		for (j = 0; j < tags->len; j++) {
			const struct cprof_tag *label = labels->items[i], *tag = tags->items[j];

			if (strcmp(label->name, tag->name) == 0)
				cprof_die("--label: '%s': %s is a --tag too", label->name, tag->name);
		}
}

/* Two label values, absent first, then bytewise. */
static int value_cmp(const char *x, const char *y)
{
	if (!x || !y)
		return x ? 1 : y ? -1 : 0;
	return strcmp(x, y);
}

/* Parts by profile name, bytewise, then by their place among the
 * operands, then by their label values. */
static int by_source(const void *a, const void *b)
{
	const struct cprof_part *x = *(struct cprof_part *const *)a;
	const struct cprof_part *y = *(struct cprof_part *const *)b;
	int c = strcmp(x->dist->sources.items[0], y->dist->sources.items[0]);
	size_t j;

	if (c)
		return c;
	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	for (j = 0; j < x->num_values; j++)
		if ((c = value_cmp(x->values[j], y->values[j])))
			return c;
	return 0;
}

/* The row of one key of `part`. */
static json_t *row_of(const struct cprof_part *part, const struct cprof_entry *entry,
		      const struct cprof_ptrs *tags, const struct cprof_ptrs *labels)
{
	const struct cprof_dist *dist = part->dist;
	json_t *row = json_object();
	guint t;

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
	for (t = 0; t < labels->len && t < part->num_values; t++) {
		const struct cprof_tag *label = labels->items[t];

		cprof_json_set(row, label->name, part->values[t] ?
			       cprof_json_string(part->values[t]) : json_null());
	}
	return row;
}

void cprof_rows_print(struct cprof_part **parts, size_t count, const struct cprof_ptrs *tags,
		      const struct cprof_ptrs *labels)
{
	size_t p, i;

	qsort(parts, count, sizeof(*parts), by_source);
	for (p = 0; p < count; p++) {
		cprof_dist_sort(parts[p]->dist);
		for (i = 0; i < parts[p]->dist->entries.len; i++) {
			json_t *row = row_of(parts[p], parts[p]->dist->entries.items[i], tags, labels);

			cprof_json_dump(stdout, row, true);
			fputc('\n', stdout);
			json_decref(row);
		}
	}
}
