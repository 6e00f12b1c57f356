/* store-watch.c: cprof-store watch: one grouped query gives each day's
 * sum of each key per group (the database sums the rows), and a second,
 * asked at once, each profile's total and attribute from the profiles
 * table; src/store/watch.c finds the changes of each group's series. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "lib/rows.h"
#include "store.h"
#include "store-int.h"

/* One profile of a group: its day, its samples, its attribute's value. */
struct wprofile {
	char *date;
	char *attr;
	double total;
};

/* A group while the rows come. */
struct wgroup {
	char **values;
	GHashTable *profiles;          /* load, name, type -> struct wprofile * */
	GHashTable *cells;             /* key "\n" date -> uint64_t * */
	GHashTable *keys;              /* key -> NULL */
	GHashTable *days;              /* date -> NULL */
};

struct watch_query {
	struct cprof_store *store;
	size_t num_groups;
	bool attr;                     /* an attribute column follows the type */
	GHashTable *groups;            /* group values -> struct wgroup * */
	char *type;                    /* the first sample type seen */
};

static void free_wprofile(void *data)
{
	struct wprofile *p = data;

	g_free(p->date);
	g_free(p->attr);
	g_free(p);
}

static void free_wgroup(void *data)
{
	struct wgroup *g = data;

	g_strfreev(g->values);
	g_hash_table_destroy(g->profiles);
	g_hash_table_destroy(g->cells);
	g_hash_table_destroy(g->keys);
	g_hash_table_destroy(g->days);
	g_free(g);
}

static struct wgroup *wgroup_of(struct watch_query *q, const char *const *values)
{
	GString *id = g_string_new(NULL);
	struct wgroup *g;

	cprof_store_id_append(id, values, q->num_groups);
	g = g_hash_table_lookup(q->groups, id->str);
	if (g) {
		g_string_free(id, TRUE);
		return g;
	}
	g = g_new0(struct wgroup, 1);
	g->values = cprof_store_values_dup(values, q->num_groups);
	g->profiles = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, free_wprofile);
	g->cells = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, g_free);
	g->keys = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, NULL);
	g->days = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, NULL);
	g_hash_table_insert(q->groups, g_string_free(id, FALSE), g);
	return g;
}

/* The profile of `v` (date, load, name, type, attribute), made when new. */
static struct wprofile *wprofile_of(struct watch_query *q, struct wgroup *g,
				    const char *const *v)
{
	GString *id = g_string_new(NULL);
	struct wprofile *p;

	cprof_store_id_append(id, v + 1, 3);
	p = g_hash_table_lookup(g->profiles, id->str);
	if (p) {
		g_string_free(id, TRUE);
		return p;
	}
	p = g_new0(struct wprofile, 1);
	p->date = g_strdup(v[0]);
	p->attr = q->attr ? g_strdup(v[4] ? v[4] : "") : NULL;
	g_hash_table_insert(g->profiles, g_string_free(id, FALSE), p);
	if (!g_hash_table_contains(g->days, v[0]))
		g_hash_table_add(g->days, g_strdup(v[0]));
	return p;
}

/* Takes a profile: the groups' values, the date, load, profile, sample
 * type, the attribute (when asked) and its total. */
static void add_profile(void *data, const char *const *values, size_t count)
{
	struct watch_query *q = data;
	const char *const *v = values + q->num_groups;
	const char *n_text = v[q->attr ? 5 : 4];
	uint64_t n;

	if (!v[0] || !v[3] || !cprof_parse_u64(n_text ? n_text : "", &n))
		cprof_die("%s: a profile without a day, a sample type or a total", q->store->url);
	if (!q->type)
		q->type = g_strdup(v[3]);
	else if (strcmp(q->type, v[3]) != 0)
		cprof_die("%s: watch: profiles of sample types %s and %s: pick one with "
			  "--where sample_type=TYPE/UNIT", q->store->url, q->type, v[3]);
	wprofile_of(q, wgroup_of(q, values), v)->total += (double)n;
}

/* Takes a row: the groups' values, the date, a key and its count that
 * day. */
static void add_row(void *data, const char *const *values, size_t count)
{
	struct watch_query *q = data;
	const char *const *v = values + q->num_groups;
	const char *key = v[1];
	struct wgroup *g;
	uint64_t n, *cell;
	char *id;

	if (!v[0] || !key || !cprof_parse_u64(v[2] ? v[2] : "", &n))
		cprof_die("%s: a row without a day, a key or a count", q->store->url);
	g = wgroup_of(q, values);
	if (!g_hash_table_contains(g->days, v[0]))
		g_hash_table_add(g->days, g_strdup(v[0]));
	if (!g_hash_table_contains(g->keys, key))
		g_hash_table_add(g->keys, g_strdup(key));
	id = g_strdup_printf("%s\n%s", key, v[0]);
	cell = g_hash_table_lookup(g->cells, id);
	if (!cell) {
		cell = g_new0(uint64_t, 1);
		g_hash_table_insert(g->cells, id, cell);
	} else {
		g_free(id);
	}
	*cell += n;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The keys of `table`, sorted, NULL-ended (the strings borrowed). */
static char **sorted_keys(GHashTable *table, size_t *n)
{
	char **keys = (char **)g_hash_table_get_keys_as_array(table, NULL);

	*n = g_hash_table_size(table);
	qsort(keys, *n, sizeof(*keys), str_cmp);
	return keys;
}

static size_t index_of(char **sorted, size_t n, const char *s)
{
	char **at = bsearch(&s, sorted, n, sizeof(*sorted), str_cmp);

	return (size_t)(at - sorted);
}

/* Fills out's days, keys and sums from g. */
static void build_series(struct wgroup *g, struct cprof_store_watch_group *out)
{
	char **days = sorted_keys(g->days, &out->num_days), **keys = sorted_keys(g->keys, &out->num_keys);
	GHashTableIter iter;
	gpointer k, v;
	size_t d, i, *fill;

	out->days = g_new0(char *, out->num_days + 1);
	for (d = 0; d < out->num_days; d++)
		out->days[d] = g_strdup(days[d]);
	out->keys = g_new0(char *, out->num_keys + 1);
	for (i = 0; i < out->num_keys; i++)
		out->keys[i] = g_strdup(keys[i]);
	out->counts = g_new0(uint64_t, out->num_keys * out->num_days + 1);
	out->totals = g_new0(uint64_t, out->num_days + 1);
	g_hash_table_iter_init(&iter, g->cells);
	while (g_hash_table_iter_next(&iter, &k, &v)) {
		char *nl = strchr(k, '\n');
		size_t key, day;

		*nl = '\0';
		key = index_of(out->keys, out->num_keys, k);
		day = index_of(out->days, out->num_days, nl + 1);
		*nl = '\n';
		out->counts[key * out->num_days + day] += *(uint64_t *)v;
		out->totals[day] += *(uint64_t *)v;
	}
	out->num_profiles = g_hash_table_size(g->profiles);
	out->day_start = g_new0(size_t, out->num_days + 1);
	out->profile_totals = g_new0(double, out->num_profiles + 1);
	out->profile_attrs = g_new0(char *, out->num_profiles + 1);
	g_hash_table_iter_init(&iter, g->profiles);
	while (g_hash_table_iter_next(&iter, NULL, &v))
		out->day_start[index_of(out->days, out->num_days, ((struct wprofile *)v)->date) + 1]++;
	for (d = 0; d < out->num_days; d++)
		out->day_start[d + 1] += out->day_start[d];
	fill = g_new0(size_t, out->num_days + 1);
	memcpy(fill, out->day_start, out->num_days * sizeof(*fill));
	g_hash_table_iter_init(&iter, g->profiles);
	while (g_hash_table_iter_next(&iter, NULL, &v)) {
		struct wprofile *p = v;
		size_t at = fill[index_of(out->days, out->num_days, p->date)]++;

		out->profile_totals[at] = p->total;
		out->profile_attrs[at] = p->attr ? g_strdup(p->attr) : NULL;
	}
	g_free(fill);
	g_free(days);
	g_free(keys);
}

/* The distinct attribute values of the profiles of days [from, to),
 * sorted, NULL-ended. */
static char **attr_values(const struct cprof_store_watch_group *g, size_t from, size_t to)
{
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	char **sorted, **out;
	size_t i, n;

	for (i = g->day_start[from]; i < g->day_start[to]; i++)
		if (g->profile_attrs[i])
			g_hash_table_add(seen, g->profile_attrs[i]);
	sorted = sorted_keys(seen, &n);
	out = g_new0(char *, n + 1);
	for (i = 0; i < n; i++)
		out[i] = g_strdup(sorted[i]);
	g_free(sorted);
	g_hash_table_destroy(seen);
	return out;
}

/* The group's series, its changes and their attribute values. */
static struct cprof_store_watch_group *finish_group(struct wgroup *g, bool attr,
						    const struct cprof_watch_settings *settings)
{
	struct cprof_store_watch_group *out = g_new0(struct cprof_store_watch_group, 1);
	struct cprof_watch_series series;
	size_t i;

	out->values = g->values;
	g->values = NULL;
	build_series(g, out);
	series = (struct cprof_watch_series){ out->num_days, out->num_keys, out->counts,
					      out->totals, out->profile_totals, out->day_start };
	out->num_changes = cprof_watch_detect(&series, settings, &out->changes);
	out->attr_before = g_new0(char **, out->num_changes + 1);
	out->attr_after = g_new0(char **, out->num_changes + 1);
	for (i = 0; attr && i < out->num_changes; i++) {
		size_t day = out->changes[i].day;

		out->attr_before[i] = attr_values(out, day - settings->baseline, day);
		out->attr_after[i] = attr_values(out, day, out->num_days);
	}
	return out;
}

/* One group's series and changes, as a thread pool's task. */
struct finish_task {
	struct wgroup *in;
	bool attr;
	const struct cprof_watch_settings *settings;
	struct cprof_store_watch_group *out;
};

static void finish_task(gpointer data, gpointer unused)
{
	struct finish_task *task = data;

	(void)unused;
	task->out = finish_group(task->in, task->attr, task->settings);
}

/* Each of q's groups finished into result->groups (in no order): the
 * groups are independent, so they are tested side by side, a thread a
 * processor (one at a time when the pool cannot be had). */
static void finish_groups(struct watch_query *q, const struct cprof_watch_settings *settings,
			  struct cprof_store_watch_result *result)
{
	size_t n = g_hash_table_size(q->groups), i = 0;
	struct finish_task *tasks = g_new0(struct finish_task, n + 1);
	guint threads = MIN((guint)n, g_get_num_processors());
	GThreadPool *pool = NULL;
	GHashTableIter iter;
	gpointer value;

	if (threads > 1)
		pool = g_thread_pool_new(finish_task, NULL, (gint)threads, TRUE, NULL);
	g_hash_table_iter_init(&iter, q->groups);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		tasks[i] = (struct finish_task){ value, q->attr, settings, NULL };
		if (!pool || !g_thread_pool_push(pool, &tasks[i], NULL))
			finish_task(&tasks[i], NULL);
		i++;
	}
	if (pool)
		g_thread_pool_free(pool, FALSE, TRUE);
	for (i = 0; i < n; i++)
		cprof_ptrs_add(&result->groups, tasks[i].out);
	g_free(tasks);
}

/* A watched group's values, for cprof_store_sort_groups. */
static char **group_values(const void *item)
{
	return ((const struct cprof_store_watch_group *)item)->values;
}

/* The attribute: --attribute's dimension, else build when the store has
 * one, else none (NULL); dies on an --attribute the store does not have. */
static const char *attribute_of(struct cprof_store *store, const char *asked)
{
	const char *want = asked ? asked : "build";
	GString *dims;
	size_t i;

	for (i = 0; i < store->num_dims; i++)
		if (strcmp(store->dims[i], want) == 0)
			return store->dims[i];
	if (!asked)
		return NULL;
	dims = g_string_new(NULL);
	for (i = 0; i < store->num_dims; i++)
		g_string_append_printf(dims, "%s%s", i ? ", " : "", store->dims[i]);
	cprof_die("--attribute: '%s': not a dimension of %s (%s)", asked, store->url, dims->str);
}

/* The SELECT of the profiles that meet `where`: the columns `cols`
 * (`n`), then their totals (newly allocated). */
static char *profiles_sql(struct cprof_store *store, char **cols, size_t n, const char *where)
{
	GString *sql = cprof_store_select_text(store, (const char *const *)cols, n);

	g_string_append_printf(sql, "total AS c%zu FROM profiles WHERE %s", n, where);
	return g_string_free(sql, FALSE);
}

/* Runs the watch's two queries, at once, into q's groups: each day's sum
 * of each key per group, and each profile's total.  `joined`: a --where
 * names a column of the profile. */
static void select_sums(struct watch_query *q, char **group_names, const char *attr,
			const char *where, bool joined)
{
	struct cprof_store *store = q->store;
	size_t g = q->num_groups, i;
	char **cols = g_new0(char *, g + 6);
	struct cprof_store_query ask[2] = {
		{ NULL, g + (attr ? 6 : 5), add_profile, q },
		{ NULL, g + 3, add_row, q },
	};

	for (i = 0; i < g; i++) {
		cols[i] = g_strdup_printf("\"%s\"", group_names[i]);
		joined = joined || strcmp(group_names[i], "profile") == 0 ||
			 strcmp(group_names[i], "sample_type") == 0;
	}
	cols[g] = g_strdup("\"date\"");
	cols[g + 1] = g_strdup("\"load_id\"");
	cols[g + 2] = g_strdup("\"profile\"");
	cols[g + 3] = g_strdup("\"sample_type\"");
	if (attr)
		cols[g + 4] = g_strdup_printf("\"%s\"", attr);
	ask[0].sql = profiles_sql(store, cols, g + (attr ? 5 : 4), where);
	/* keys_sql gives each group's values as text itself: the date is
	 * grouped as it is stored. */
	ask[1].sql = store->ops->keys_sql(store, (const char *const *)cols, g + 1, where, joined);
	store->ops->select_all(store, ask, 2);
	g_free((char *)ask[0].sql);
	g_free((char *)ask[1].sql);
	g_strfreev(cols);
}

/* Whether a --where of `wheres` names a column of the profile. */
static bool wheres_joined(const struct cprof_ptrs *wheres)
{
	size_t i;

	for (i = 0; i < wheres->len; i++) {
		const char *name = ((struct cprof_tag *)wheres->items[i])->name;

		if (strcmp(name, "profile") == 0 || strcmp(name, "sample_type") == 0)
			return true;
	}
	return false;
}

void cprof_store_watch(const char *url, const struct cprof_store_query_spec *spec,
		       const struct cprof_watch_settings *settings, const char *attribute,
		       struct cprof_store_watch_result *result)
{
	struct cprof_store *store = cprof_store_open(url, false);
	char **group_names = spec->group ? g_strsplit(spec->group, ",", -1) : g_new0(char *, 1);
	struct watch_query q = { store, g_strv_length(group_names), false, NULL, NULL };
	const char *attr = attribute_of(store, attribute);
	GString *where;

	where = cprof_store_where_sql(store, spec->by, spec->wheres, spec->from, spec->to);
	cprof_store_check_groups(store, group_names, q.num_groups, spec->group);
	q.attr = attr != NULL;
	q.groups = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, free_wgroup);
	select_sums(&q, group_names, attr, where->str, wheres_joined(spec->wheres));
	memset(result, 0, sizeof(*result));
	result->group_names = group_names;
	result->num_groups = q.num_groups;
	result->attribute = attr ? g_strdup(attr) : NULL;
	result->missing = store->ops->missing_shards(store);
	finish_groups(&q, settings, result);
	if (result->groups.len == 0)
		cprof_die("%s: no profile matches", url);
	cprof_store_sort_groups(result->groups.items, result->groups.len, q.num_groups,
				group_values);
	g_hash_table_destroy(q.groups);
	g_free(q.type);
	g_string_free(where, TRUE);
	cprof_store_close(store);
}

static void free_watch_group(void *data)
{
	struct cprof_store_watch_group *g = data;
	size_t i;

	for (i = 0; i < g->num_changes; i++) {
		g_strfreev(g->attr_before[i]);
		g_strfreev(g->attr_after[i]);
	}
	g_free(g->attr_before);
	g_free(g->attr_after);
	cprof_watch_free(g->changes, g->num_changes);
	for (i = 0; i < g->num_profiles; i++)
		g_free(g->profile_attrs[i]);
	g_free(g->profile_attrs);
	g_free(g->profile_totals);
	g_free(g->day_start);
	g_free(g->counts);
	g_free(g->totals);
	g_strfreev(g->days);
	g_strfreev(g->keys);
	g_strfreev(g->values);
	g_free(g);
}

void cprof_store_watch_result_clear(struct cprof_store_watch_result *result)
{
	g_strfreev(result->group_names);
	g_free(result->attribute);
	cprof_ptrs_clear(&result->groups, free_watch_group);
	cprof_store_missing_free(result->missing);
	memset(result, 0, sizeof(*result));
}
