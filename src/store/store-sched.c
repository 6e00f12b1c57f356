/* store-sched.c: a ratio's answer grouped by platform and application,
 * as the cpi matrix of cprof-sched's problem. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "base/jsonout.h"
#include "base/util.h"
#include "store-sched.h"

/* The name of member `i` of the array `member` of the fleet's file, or
 * dies naming its path. */
static const char *member_name(const char *path, const char *member, json_t *item, size_t i)
{
	json_t *name = json_is_object(item) ? json_object_get(item, "name") : NULL;

	if (!json_is_string(name))
		cprof_die("--sched: %s: %s[%zu].name: must be a string", path, member, i);
	return json_string_value(name);
}

/* The array `member` of the fleet's file, each item an object with a
 * name no other item has; dies naming its path otherwise. */
static json_t *named_items(const char *path, json_t *fleet, const char *member)
{
	json_t *items = json_object_get(fleet, member);
	size_t i, j;

	if (!json_is_array(items) || json_array_size(items) == 0)
		cprof_die("--sched: %s: %s: must be an array of at least one object", path, member);
	for (i = 0; i < json_array_size(items); i++) {
		const char *name = member_name(path, member, json_array_get(items, i), i);

		for (j = 0; j < i; j++)
			if (strcmp(name, member_name(path, member, json_array_get(items, j), j)) == 0)
				cprof_die("--sched: %s: %s[%zu].name: '%s' again", path, member, i,
					  name);
	}
	return items;
}

/* Reads the fleet's file: an object with "platforms" and "apps". */
static json_t *read_fleet(const char *path)
{
	json_error_t error;
	json_t *fleet = json_load_file(path, JSON_REJECT_DUPLICATES, &error);

	if (!fleet && error.line < 0)   /* no line: the file did not open */
		cprof_die("--sched: %s", error.text);
	if (!fleet)
		cprof_die("--sched: %s:%d:%d: %s", path, error.line, error.column, error.text);
	if (!json_is_object(fleet))
		cprof_die("--sched: %s: must be a JSON object with platforms and apps", path);
	if (json_object_get(fleet, "cpi"))
		cprof_die("--sched: %s: cpi: given by the profiles, not by the file", path);
	return fleet;
}

/* The position of `name` among the names of `items`, or -1. */
static long find_item(json_t *items, const char *name)
{
	size_t i;

	for (i = 0; i < json_array_size(items); i++) {
		json_t *n = json_object_get(json_array_get(items, i), "name");

		if (strcmp(json_string_value(n), name) == 0)
			return (long)i;
	}
	return -1;
}

/* A matrix of nulls, `rows` by `cols`. */
static json_t *null_matrix(size_t rows, size_t cols)
{
	json_t *matrix = json_array();
	size_t i, j;

	for (i = 0; i < rows; i++) {
		json_t *row = json_array();

		for (j = 0; j < cols; j++)
			json_array_append_new(row, json_null());
		json_array_append_new(matrix, row);
	}
	return matrix;
}

/* Warns once of the groups whose platform or application the file does
 * not name, `left` of them, the first `first`. */
static void warn_left_out(const char *path, size_t left, const char *first)
{
	if (left)
		cprof_warn("--sched: %s names neither the platform nor the app of %zu group%s "
			   "of profiles (the first: %s): left out", path, left, left == 1 ? "" : "s",
			   first);
}

json_t *cprof_store_sched_problem(const struct cprof_store_ratio_result *result,
				  const char *path)
{
	json_t *fleet, *platforms, *apps, *cpi;
	size_t g, left = 0;
	char *first = NULL;

	if (result->num_groups != 2)
		cprof_die("--sched: needs --group PLATFORM,APP (two dimensions: the platform's, "
			  "then the application's)");
	fleet = read_fleet(path);
	platforms = named_items(path, fleet, "platforms");
	apps = named_items(path, fleet, "apps");
	cpi = null_matrix(json_array_size(platforms), json_array_size(apps));
	for (g = 0; g < result->groups.len; g++) {
		const struct cprof_store_ratio_group *group = result->groups.items[g];
		long i = find_item(platforms, group->values[0]);
		long j = find_item(apps, group->values[1]);

		if (i < 0 || j < 0) {
			if (!left++)
				first = g_strdup_printf("%s=%s %s=%s", result->group_names[0],
							group->values[0], result->group_names[1],
							group->values[1]);
			continue;
		}
		if (isfinite(group->whole.ratio) && group->whole.ratio > 0)
			json_array_set_new(json_array_get(cpi, (size_t)i), (size_t)j,
					   json_real(group->whole.ratio));
	}
	warn_left_out(path, left, first);
	g_free(first);
	cprof_json_set(fleet, "cpi", cpi);
	return fleet;
}
