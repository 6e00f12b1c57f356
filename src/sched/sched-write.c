/* sched-write.c: a solved scheduling problem as the contract's JSON or as
 * tables for people. */
#include "config.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonout.h"
#include "sched-int.h"

/* Output. */

static double platform_used(const struct cprof_sched *sched, int i)
{
	double used = 0.0;
	int k;

	for (k = sched->column_first[i]; k < sched->column_first[i + 1]; k++)
		used += sched->cost[k] * sched->x[k];
	return used;
}

static double utilization(const struct cprof_sched *sched, int i, double used)
{
	double capacity = sched->platforms[i].amount;

	return capacity > 0 ? used / capacity : 0.0;
}

/* array += value, taking the reference to `value`; a failure can only be
 * out of memory (jansson's allocator dies first, as cprof_json_set says). */
static void append(json_t *array, json_t *value)
{
	if (!array || json_array_append_new(array, value) != 0)
		cprof_die_oom();
}

/* A capacity as given: a whole number when it is one. */
static json_t *capacity_json(const struct named *platform)
{
	double c = platform->amount;

	if (c == floor(c) && c < 9007199254740992.0)
		return json_integer((json_int_t)c);
	return json_real(c);
}

/* Appends platform i's pairs to `assignment` and its object to
 * `platforms`. */
static void platform_json(const struct cprof_sched *sched, int i, json_t *assignment,
			  json_t *platforms)
{
	const struct named *platform = &sched->platforms[i];
	double used = platform_used(sched, i);
	json_t *item = json_object();
	int k;

	for (k = sched->column_first[i]; k < sched->column_first[i + 1]; k++) {
		json_t *pair;

		if (sched->x[k] == 0.0)
			continue;
		pair = json_object();
		cprof_json_set(pair, "platform", cprof_json_string(platform->name));
		cprof_json_set(pair, "app", cprof_json_string(sched->apps[sched->column_app[k]].name));
		cprof_json_set(pair, "load", json_real(sched->x[k]));
		append(assignment, pair);
	}
	cprof_json_set(item, "name", cprof_json_string(platform->name));
	cprof_json_set(item, "capacity", capacity_json(platform));
	cprof_json_set(item, "used", json_real(used));
	cprof_json_set(item, "utilization", json_real(utilization(sched, i, used)));
	append(platforms, item);
}

json_t *cprof_sched_json(const struct cprof_sched *sched)
{
	json_t *root = json_object(), *assignment, *platforms;
	double objective = 0.0;
	int i;

	cprof_json_set(root, "cprof", cprof_json_string("sched"));
	cprof_json_set(root, "version", json_integer(CPROF_SCHEMA_VERSION));
	cprof_json_set(root, "status", cprof_json_string(cprof_sched_status_name(sched->status)));
	if (sched->status == CPROF_SCHED_OPTIMAL) {
		assignment = json_array();
		platforms = json_array();
		for (i = 0; i < sched->num_platforms; i++) {
			platform_json(sched, i, assignment, platforms);
			objective += platform_used(sched, i);
		}
		cprof_json_set(root, "objective", json_real(objective));
		cprof_json_set(root, "assignment", assignment);
		cprof_json_set(root, "platforms", platforms);
	}
	return root;
}

static int name_width(const char *title, const char *name, int width)
{
	int len = (int)strlen(name);

	if (width < (int)strlen(title))
		width = (int)strlen(title);
	return len > width ? len : width;
}

/* The names of `count` things, escaped for a table (cprof_escape). */
static char **escaped_names(const struct named *items, int count)
{
	char **names = cprof_xcalloc((size_t)count + 1, sizeof(*names));
	int i;

	for (i = 0; i < count; i++)
		names[i] = cprof_escape(items[i].name);
	return names;
}

static void free_names(char **names, int count)
{
	int i;

	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

void cprof_sched_text(const struct cprof_sched *sched)
{
	int pw = 0, aw = 0, i, k;
	double objective = 0.0;
	char **platforms, **apps;

	if (sched->status != CPROF_SCHED_OPTIMAL) {
		printf("status %s\n", cprof_sched_status_name(sched->status));
		return;
	}
	platforms = escaped_names(sched->platforms, sched->num_platforms);
	apps = escaped_names(sched->apps, sched->num_apps);
	for (i = 0; i < sched->num_platforms; i++) {
		pw = name_width("platform", platforms[i], pw);
		objective += platform_used(sched, i);
	}
	for (i = 0; i < sched->num_apps; i++)
		aw = name_width("app", apps[i], aw);
	printf("status optimal, objective %.10g\n", objective);
	printf("%-*s %14s %14s %8s\n", pw, "platform", "capacity", "used", "util%");
	for (i = 0; i < sched->num_platforms; i++) {
		double used = platform_used(sched, i);

		printf("%-*s %14.10g %14.10g %7.2f%%\n", pw, platforms[i],
		       sched->platforms[i].amount, used,
		       100.0 * utilization(sched, i, used));
	}
	printf("\n%-*s %-*s %14s\n", pw, "platform", aw, "app", "load");
	for (i = 0; i < sched->num_platforms; i++)
		for (k = sched->column_first[i]; k < sched->column_first[i + 1]; k++) {
			double x = sched->x[k];

			if (x != 0.0)
				printf("%-*s %-*s %14.10g\n", pw, platforms[i], aw,
				       apps[sched->column_app[k]], x);
		}
	free_names(platforms, sched->num_platforms);
	free_names(apps, sched->num_apps);
}
