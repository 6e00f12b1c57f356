/* store-ratio.c: the ratio of two sample types' counts over a query's
 * profiles, per key and in all, with its interval (cprof-store query
 * --ratio): a key's CPI is its cycles over its instructions. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_cdf.h>

#include "base/hash.h"
#include "store.h"
#include "store-int.h"

/* The counts of one key (or of a group's every key) over its profiles,
 * and the sum of squares its interval needs. */
struct sums {
	uint64_t count[2];     /* the numerator's and the denominator's */
	double squares;        /* over the profiles i: (a_i - R b_i)^2, R = a / b */
	size_t profiles;       /* the profiles holding it (a cell of counts) */
};

/* The counts of one key, or of every key, in one profile. */
struct cell {
	uint64_t count[2];
	struct sums *sums;     /* its key's, or its group's */
};

struct rgroup {
	char **values;
	GHashTable *keys;      /* key -> struct sums * */
	GHashTable *cells;     /* profile and key -> struct cell *: a key's counts */
	GHashTable *profiles;  /* profile -> struct cell *: every key's counts */
	struct sums whole;
};

struct ratio_query {
	struct cprof_store *store;
	size_t num_groups;
	const char *types[2];  /* the sample types TYPE/UNIT of the ratio */
	GHashTable *groups;    /* group values -> struct rgroup * */
	GPtrArray *stored;     /* the profiles' sample types, char * */
};

static void free_rgroup(void *data)
{
	struct rgroup *group = data;

	g_strfreev(group->values);
	g_hash_table_destroy(group->keys);
	g_hash_table_destroy(group->cells);
	g_hash_table_destroy(group->profiles);
	free(group);
}

static struct rgroup *rgroup_of(struct ratio_query *query, const char *const *values)
{
	GString *id = g_string_new(NULL);
	struct rgroup *group;

	cprof_store_id_append(id, values, query->num_groups);
	group = g_hash_table_lookup(query->groups, id->str);
	if (group) {
		g_string_free(id, TRUE);
		return group;
	}
	group = cprof_xcalloc(1, sizeof(*group));
	group->values = cprof_store_values_dup(values, query->num_groups);
	group->keys = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, g_free);
	group->cells = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, g_free);
	group->profiles = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, g_free);
	g_hash_table_insert(query->groups, g_string_free(id, FALSE), group);
	return group;
}

/* The cell of `table` under `id` (taken over), made for `sums` when new. */
static struct cell *cell_of(GHashTable *table, char *id, struct sums *sums)
{
	struct cell *cell = g_hash_table_lookup(table, id);

	if (cell) {
		g_free(id);
		return cell;
	}
	cell = g_new0(struct cell, 1);
	cell->sums = sums;
	g_hash_table_insert(table, id, cell);
	return cell;
}

/* Takes a row: the groups' values, the profile's load and name, its
 * sample type, a key and its count. */
static void add_row(void *data, const char *const *values, size_t count)
{
	struct ratio_query *query = data;
	struct rgroup *group = rgroup_of(query, values);
	const char *const *v = values + query->num_groups;
	const char *key = v[3];
	struct sums *sums;
	GString *id;
	uint64_t n;
	int which;

	if (!key || !v[2] || !cprof_parse_u64(v[4] ? v[4] : "", &n))
		cprof_die("%s: a row without a key or a count", query->store->url);
	which = strcmp(v[2], query->types[0]) == 0 ? 0 : 1;
	sums = g_hash_table_lookup(group->keys, key);
	if (!sums) {
		sums = g_new0(struct sums, 1);
		g_hash_table_insert(group->keys, g_strdup(key), sums);
	}
	sums->count[which] += n;
	group->whole.count[which] += n;
	id = g_string_new(NULL);
	cprof_store_id_append(id, v, 2);
	cell_of(group->profiles, g_strdup(id->str), &group->whole)->count[which] += n;
	cprof_store_id_append(id, &key, 1);
	cell_of(group->cells, g_string_free(id, FALSE), sums)->count[which] += n;
}

/* Adds each cell's (a_i - R b_i)^2 to its sums, R its sums' ratio. */
static void add_squares(GHashTable *cells)
{
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, cells);
	while (g_hash_table_iter_next(&iter, NULL, &value)) {
		const struct cell *cell = value;
		struct sums *sums = cell->sums;
		double d;

		if (cell->count[0] || cell->count[1])
			sums->profiles++;
		if (!sums->count[1])
			continue;
		d = (double)cell->count[0] -
		    (double)sums->count[0] / (double)sums->count[1] * (double)cell->count[1];
		sums->squares += d * d;
	}
}

/* The entry of `sums`: the ratio, and its interval at `level` when two
 * profiles or more hold it and neither count is 0.  The ratio
 * estimator's variance over the n profiles that hold it (a sample of the
 * fleet; a profile without the key adds nothing to the sum of squares,
 * and counting it would forge degrees of freedom: a key of one profile
 * would have an interval of width 0), n/(n-1) sum (a_i - R b_i)^2 / b^2,
 * taken to the log scale by the delta method, so that the interval stays
 * positive; Student's t of n-1 degrees. */
static struct cprof_store_ratio_entry entry_of(const struct sums *sums, double level)
{
	struct cprof_store_ratio_entry e = { NULL, sums->count[0], sums->count[1], NAN, NAN, NAN };
	size_t n = sums->profiles;
	double var, se, t;

	if (!sums->count[1])
		return e;
	e.ratio = (double)sums->count[0] / (double)sums->count[1];
	if (n < 2 || !sums->count[0])
		return e;
	var = (double)n / (double)(n - 1) * sums->squares /
	      ((double)sums->count[1] * (double)sums->count[1]);
	se = sqrt(var > 0 ? var : 0) / e.ratio;
	t = gsl_cdf_tdist_Pinv((1 + level) / 2, (double)(n - 1));
	e.low = e.ratio * exp(-t * se);
	e.high = e.ratio * exp(t * se);
	return e;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct cprof_store_ratio_entry *x = a, *y = b;

	if (x->numerator != y->numerator)
		return x->numerator > y->numerator ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* The public group of `group`, its entries most numerator first. */
static struct cprof_store_ratio_group *finish_group(struct rgroup *group, double level)
{
	struct cprof_store_ratio_group *out = cprof_xcalloc(1, sizeof(*out));
	GHashTableIter iter;
	gpointer key, value;
	size_t i = 0;

	add_squares(group->cells);
	add_squares(group->profiles);
	out->values = group->values;
	group->values = NULL;
	out->profiles = g_hash_table_size(group->profiles);
	out->whole = entry_of(&group->whole, level);
	out->num_entries = g_hash_table_size(group->keys);
	out->entries = cprof_xcalloc(out->num_entries + 1, sizeof(*out->entries));
	g_hash_table_iter_init(&iter, group->keys);
	while (g_hash_table_iter_next(&iter, &key, &value)) {
		out->entries[i] = entry_of(value, level);
		out->entries[i++].key = cprof_xstrdup(key);
	}
	qsort(out->entries, out->num_entries, sizeof(*out->entries), entry_cmp);
	return out;
}

static void add_type(void *data, const char *const *values, size_t count)
{
	struct ratio_query *query = data;

	if (values[0])
		g_ptr_array_add(query->stored, g_strdup(values[0]));
}

/* Whether `name` names the sample type `type` (TYPE/UNIT): the whole,
 * its TYPE, or its TYPE without perf's ":MODIFIERS". */
static bool names_type(const char *name, const char *type)
{
	const char *slash = strrchr(type, '/');
	size_t len = slash ? (size_t)(slash - type) : strlen(type);
	const char *colon = memchr(type, ':', len);

	if (strcmp(name, type) == 0)
		return true;
	if (strlen(name) == len && strncmp(name, type, len) == 0)
		return true;
	return colon && strlen(name) == (size_t)(colon - type) &&
	       strncmp(name, type, (size_t)(colon - type)) == 0;
}

/* The one sample type of the profiles `name` names; dies on none or two. */
static const char *resolve_type(const struct ratio_query *query, const char *name)
{
	GPtrArray *stored = query->stored;
	const char *found = NULL;
	char *list;
	guint i;

	for (i = 0; i < stored->len; i++) {
		const char *type = g_ptr_array_index(stored, i);

		if (!names_type(name, type))
			continue;
		if (found)
			cprof_die("--ratio: '%s' names two sample types, %s and %s: name one as "
				  "TYPE/UNIT", name, found, type);
		found = type;
	}
	if (found)
		return found;
	g_ptr_array_add(stored, NULL);
	list = g_strjoinv(", ", (char **)stored->pdata);
	cprof_die("%s: --ratio: no profile of sample type %s (the profiles': %s)",
		  query->store->url, name, list);
}

static int type_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fills query->types from `names`: the sample types of the profiles
 * `where` selects that they name. */
static void resolve_types(struct ratio_query *query, const char *const names[2],
			  const char *where)
{
	struct cprof_store *store = query->store;
	struct cprof_store_query ask = { NULL, 1, add_type, query };
	int i;

	ask.sql = g_strdup_printf("SELECT DISTINCT sample_type AS c0 FROM profiles WHERE %s", where);
	store->ops->select_all(store, &ask, 1);
	g_free((char *)ask.sql);
	if (query->stored->len == 0)
		cprof_die("%s: no profile matches", store->url);
	qsort(query->stored->pdata, query->stored->len, sizeof(gpointer), type_cmp);
	for (i = 0; i < 2; i++)
		query->types[i] = resolve_type(query, names[i]);
	if (strcmp(query->types[0], query->types[1]) == 0)
		cprof_die("--ratio: %s and %s both name %s", names[0], names[1], query->types[0]);
}

/* Runs the SELECT of the counts of each key of the two types, per
 * group and profile, into query's groups. */
static void select_counts(struct ratio_query *query, char **group_names, const char *where)
{
	struct cprof_store *store = query->store;
	size_t g = query->num_groups, i;
	char **cols = g_new0(char *, g + 4);
	char *qa = store->ops->quote(query->types[0]), *qb = store->ops->quote(query->types[1]);
	char *both = g_strdup_printf("%s AND sample_type IN (%s, %s)", where, qa, qb);
	struct cprof_store_query ask = { NULL, g + 5, add_row, query };

	for (i = 0; i < g; i++)
		cols[i] = g_strdup_printf("\"%s\"", group_names[i]);
	cols[g] = g_strdup_printf("\"%s\"", store->ops->load_column);
	cols[g + 1] = g_strdup("\"profile\"");
	cols[g + 2] = g_strdup("\"sample_type\"");
	ask.sql = store->ops->keys_sql(store, (const char *const *)cols, g + 3, both, true);
	store->ops->select_all(store, &ask, 1);
	g_free((char *)ask.sql);
	g_free(both);
	free(qa);
	free(qb);
	g_strfreev(cols);
}

/* A ratio group's values, for cprof_store_sort_groups. */
static char **group_values(const void *item)
{
	return ((const struct cprof_store_ratio_group *)item)->values;
}

/* Moves query's groups, finished, into result in the order of values. */
static void finish_groups(struct ratio_query *query, struct cprof_store_ratio_result *result)
{
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, query->groups);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		cprof_ptrs_add(&result->groups, finish_group(value, result->level));
	if (result->groups.len == 0)
		cprof_die("%s: no profile matches", query->store->url);
	cprof_store_sort_groups(result->groups.items, result->groups.len, query->num_groups,
				group_values);
}

void cprof_store_ratio(const char *url, const struct cprof_store_query_spec *spec,
		       const char *const names[2], double level,
		       struct cprof_store_ratio_result *result)
{
	struct cprof_store *store = cprof_store_open(url, false);
	char **group_names = spec->group ? g_strsplit(spec->group, ",", -1) : g_new0(char *, 1);
	struct ratio_query query = { store, g_strv_length(group_names), { NULL, NULL }, NULL, NULL };
	GString *where;
	size_t i;

	for (i = 0; i < query.num_groups; i++)
		if (strcmp(group_names[i], "sample_type") == 0)
			cprof_die("--group: '%s': --ratio is of two sample types, not one a group",
				  spec->group);
	where = cprof_store_where_sql(store, spec->by, spec->wheres, spec->from, spec->to);
	cprof_store_check_groups(store, group_names, query.num_groups, spec->group);
	query.groups = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, free_rgroup);
	query.stored = g_ptr_array_new_with_free_func(g_free);
	resolve_types(&query, names, where->str);
	select_counts(&query, group_names, where->str);
	*result = (struct cprof_store_ratio_result){
		group_names, query.num_groups,
		{ cprof_xstrdup(query.types[0]), cprof_xstrdup(query.types[1]) }, level, { 0 },
		store->ops->missing_shards(store) };
	finish_groups(&query, result);
	g_hash_table_destroy(query.groups);
	g_ptr_array_free(query.stored, TRUE);
	g_string_free(where, TRUE);
	cprof_store_close(store);
}

static void free_ratio_group(void *data)
{
	struct cprof_store_ratio_group *group = data;
	size_t i;

	for (i = 0; i < group->num_entries; i++)
		free(group->entries[i].key);
	free(group->entries);
	g_strfreev(group->values);
	free(group);
}

void cprof_store_ratio_result_clear(struct cprof_store_ratio_result *result)
{
	g_strfreev(result->group_names);
	free(result->types[0]);
	free(result->types[1]);
	cprof_ptrs_clear(&result->groups, free_ratio_group);
	cprof_store_missing_free(result->missing);
	memset(result, 0, sizeof(*result));
}
