/* watch-out.c: cprof-store watch's answer as JSON Lines or a table; the
 * page is watch-html.c's. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "base/jsonout.h"
#include "base/util.h"
#include "watch-out.h"

/* The name of change c's key: NULL for entropy. */
static const char *key_name(const struct cprof_store_watch_group *g,
			    const struct cprof_watch_change *c)
{
	return c->key == SIZE_MAX ? NULL : g->keys[c->key];
}

static json_t *number_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *interval(const struct cprof_watch_level *l)
{
	json_t *pair = json_array();

	json_array_append_new(pair, number_or_null(l->low));
	json_array_append_new(pair, number_or_null(l->high));
	return pair;
}

static json_t *strings(char **values)
{
	json_t *list = json_array();

	for (; values && *values; values++)
		json_array_append_new(list, cprof_json_string(*values));
	return list;
}

/* The JSON object of change i of group g. */
static json_t *change_json(const struct cprof_store_watch_result *r,
			   const struct cprof_store_watch_group *g, size_t i)
{
	const struct cprof_watch_change *c = &g->changes[i];
	json_t *root = json_object(), *offsets;
	size_t j;

	for (j = 0; j < r->num_groups; j++)
		cprof_json_set(root, r->group_names[j], cprof_json_string(g->values[j]));
	cprof_json_set(root, "key", key_name(g, c) ? cprof_json_string(key_name(g, c)) : json_null());
	cprof_json_set(root, "date", cprof_json_string(g->days[c->day]));
	cprof_json_set(root, "kind", cprof_json_string(cprof_watch_kind_name(c->kind)));
	cprof_json_set(root, "before", number_or_null(c->before.value));
	cprof_json_set(root, "before_interval", interval(&c->before));
	cprof_json_set(root, "after", number_or_null(c->after.value));
	cprof_json_set(root, "after_interval", interval(&c->after));
	cprof_json_set(root, "ratio", number_or_null(c->ratio.value));
	cprof_json_set(root, "ratio_interval", interval(&c->ratio));
	cprof_json_set(root, "q_value", json_real(c->q_value));
	cprof_json_set(root, "days", json_integer((json_int_t)c->days));
	offsets = json_array();
	for (j = 0; j < c->num_offset; j++)
		json_array_append_new(offsets, cprof_json_string(g->keys[c->offset_by[j]]));
	cprof_json_set(root, "offset_by", offsets);
	if (r->attribute) {
		json_t *attr = json_object();

		cprof_json_set(attr, "before", strings(g->attr_before[i]));
		cprof_json_set(attr, "after", strings(g->attr_after[i]));
		cprof_json_set(root, r->attribute, attr);
	}
	return root;
}

/* Prints the values of `values` joined by commas, or "-". */
static void put_list(char **values)
{
	if (!values || !*values) {
		fputs("-", stdout);
		return;
	}
	for (; *values; values++)
		printf("%s%s", *values, values[1] ? "," : "");
}

/* One line of the table. */
static void change_line(const struct cprof_store_watch_result *r,
			const struct cprof_store_watch_group *g, size_t i)
{
	const struct cprof_watch_change *c = &g->changes[i];
	char ratio[32] = "-";
	size_t j;

	if (isfinite(c->ratio.value))
		snprintf(ratio, sizeof(ratio), "%.4g", c->ratio.value);
	for (j = 0; j < r->num_groups; j++)
		printf("%s=%s ", r->group_names[j], g->values[j]);
	printf("%-11s %-10s %10.6g %10.6g %8s %9.2g %4zu  ", cprof_watch_kind_name(c->kind),
	       g->days[c->day], c->before.value, c->after.value, ratio, c->q_value, c->days);
	fputs(key_name(g, c) ? key_name(g, c) : "(entropy)", stdout);
	for (j = 0; j < c->num_offset; j++)
		printf("%s%s", j ? ", " : " <- ", g->keys[c->offset_by[j]]);
	if (r->attribute) {
		printf("  %s ", r->attribute);
		put_list(g->attr_before[i]);
		fputs(" -> ", stdout);
		put_list(g->attr_after[i]);
	}
	fputs("\n", stdout);
}

bool cprof_watch_print(const struct cprof_store_watch_result *result, bool text)
{
	bool regression = false;
	size_t i, k;

	if (text)
		printf("%s%-11s %-10s %10s %10s %8s %9s %4s  %s\n", result->num_groups ? "# " : "",
		       "kind", "date", "before", "after", "ratio", "q", "days", "key");
	for (i = 0; i < result->groups.len; i++) {
		const struct cprof_store_watch_group *g = result->groups.items[i];

		for (k = 0; k < g->num_changes; k++) {
			regression |= g->changes[k].kind == CPROF_WATCH_REGRESSION;
			if (text)
				change_line(result, g, k);
			else
				cprof_json_print(change_json(result, g, k), true);
		}
	}
	return regression;
}
