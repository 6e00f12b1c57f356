/* store.c: the fleet store behind cprof-store: opening a store of either
 * back end, its init, a load of profiles as rows, and a query's groups. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <glib.h>

#include "base/hash.h"
#include "lib/load.h"
#include "lib/profile.h"
#include "lib/rows.h"
#include "store.h"
#include "store-int.h"

const char *const cprof_store_reserved[] = {
	"profile", "by", "key", "count", "date", "load_id", "seq", "kind", "sample_type",
	"period_us", "total", "num_keys", "load", "kind_id", "key_id", NULL,
};

void cprof_store_parse_day(const char *option, const char *arg, char out[11])
{
	unsigned year, month, day;
	char tail;

	if (strlen(arg) != 10 || arg[4] != '-' || arg[7] != '-' ||
	    sscanf(arg, "%4u-%2u-%2u%c", &year, &month, &day, &tail) != 3 ||
	    !g_date_valid_dmy((GDateDay)day, (GDateMonth)month, (GDateYear)year) || year < 1970 ||
	    year > 2105)
		cprof_die("%s: '%s': not a day YYYY-MM-DD (1970 to 2105)", option, arg);
	memcpy(out, arg, 11);
}

static void day_of(time_t t, char out[11])
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out, 11, "%Y-%m-%d", &tm);
}

static char *dims_list(const struct cprof_store *store)
{
	return g_strjoinv(", ", store->dims);
}

/* The index of dimension `name`, or -1. */
static int dim_index(const struct cprof_store *store, const char *name)
{
	size_t i;

	for (i = 0; i < store->num_dims; i++)
		if (strcmp(store->dims[i], name) == 0)
			return (int)i;
	return -1;
}

/* Dies unless the store's tables are of the version this program
 * writes and reads. */
static void check_version(struct cprof_store *store)
{
	char *version = store->ops->meta(store, "version");
	char line[64];

	if (version && strcmp(version, CPROF_STORE_VERSION) == 0) {
		free(version);
		return;
	}
	snprintf(line, sizeof(line), "%s", version ? version : "none");
	free(version);
	cprof_die("%s: a store of version %s, this program's is " CPROF_STORE_VERSION
		  " (cprof-store init a new one and load the profiles again)", store->url, line);
}

struct cprof_store *cprof_store_open(const char *url, bool create)
{
	struct cprof_store *store = cprof_xcalloc(1, sizeof(*store));
	char *dims;

	store->url = cprof_xstrdup(url);
	if (strncmp(url, "clickhouse://", 13) == 0) {
		store->ops = &cprof_store_clickhouse;
		cprof_store_clickhouse_open(store, url, create);
	} else {
		store->ops = &cprof_store_sqlite;
		cprof_store_sqlite_open(store, url, create);
	}
	if (create)
		return store;
	dims = store->ops->meta(store, "dims");
	if (!dims)
		cprof_die("%s: not a cprof store (cprof-store init makes one)", url);
	check_version(store);
	store->dims = *dims ? g_strsplit(dims, ",", -1) : g_new0(char *, 1);
	store->num_dims = g_strv_length(store->dims);
	free(dims);
	return store;
}

void cprof_store_close(struct cprof_store *store)
{
	if (!store)
		return;
	store->ops->close(store);
	g_strfreev(store->dims);
	free(store->url);
	free(store);
}

void cprof_store_init(const char *url, const char *dims_arg, const char *cluster)
{
	char **dims = g_strsplit(dims_arg, ",", -1);
	size_t n = g_strv_length(dims), i, j;
	struct cprof_store *store;

	for (i = 0; i < n; i++) {
		const char *const *r;

		if (!cprof_tag_name_ok(dims[i]))
			cprof_die("--dims: '%s': each NAME must match [a-z_][a-z0-9_]*", dims[i]);
		for (r = cprof_store_reserved; *r; r++)
			if (strcmp(*r, dims[i]) == 0)
				cprof_die("--dims: '%s': a column of every row, not a dimension",
					  dims[i]);
		for (j = 0; j < i; j++)
			if (strcmp(dims[i], dims[j]) == 0)
				cprof_die("--dims: '%s': named twice", dims[i]);
	}
	store = cprof_store_open(url, true);
	{
		char *there = store->ops->meta(store, "dims");

		if (there)
			cprof_die("%s: a cprof store already (dimensions %s)", url, there);
	}
	store->ops->init(store, (const char *const *)dims, n, cluster);
	cprof_store_close(store);
	g_strfreev(dims);
}

/* Dies unless each of `tags` (--tag or --label) names a dimension. */
static void check_dims(const struct cprof_store *store, const char *url, const char *option,
		       const struct cprof_ptrs *tags)
{
	guint t;

	for (t = 0; t < tags->len; t++) {
		const struct cprof_tag *tag = tags->items[t];

		if (dim_index(store, tag->name) < 0) {
			char *list = dims_list(store);

			cprof_die("%s: '%s=%s': %s is not a dimension of %s (%s)", option, tag->name,
				  tag->value, tag->name, url, list);
		}
	}
}

/* What a load gives every profile: the --tag values of the dimensions
 * ("" for the others), the --label dimensions, the date. */
struct load_dims {
	const char **values;   /* a value per dimension, for the part at hand */
	const char **tagged;   /* the --tag values, "" where none */
	int *label_dim;        /* the dimension of each --label */
	size_t num_labels;
	const char *date;      /* --date, or NULL */
};

/* The store's profile of `part` (of operand `name`, the seq-th). */
static void profile_of(struct cprof_store_profile *prof, const struct load_dims *dims,
		       struct cprof_store *store, const char *name, struct cprof_part *part,
		       uint32_t seq)
{
	struct stat st;
	size_t j;

	memcpy(dims->values, dims->tagged, store->num_dims * sizeof(*dims->values));
	for (j = 0; j < dims->num_labels; j++)
		if (part->values[j])
			dims->values[dims->label_dim[j]] = part->values[j];
	cprof_rows_check(part->dist);
	cprof_dist_sort(part->dist);
	prof->dist = part->dist;
	prof->name = part->dist->sources.items[0];
	if (dims->date)
		memcpy(prof->date, dims->date, 11);
	else if (strcmp(name, "-") != 0 && stat(name, &st) == 0)
		day_of(st.st_mtime, prof->date);
	else
		day_of(time(NULL), prof->date);
	prof->dims = dims->values;
	prof->seq = seq;
	prof->sample_type = cprof_dist_sample_type(part->dist);
	prof->period_us = part->dist->has_period ? (long long)part->dist->period_us : -1;
	prof->total = part->dist->total;
}

/* The dimensions' values of a load; allocated once the tags and labels
 * are known good, so that nothing is left unfreed by a refusal. */
static void load_dims_init(struct load_dims *dims, const struct cprof_store *store,
			   const struct cprof_ptrs *tags, const struct cprof_ptrs *labels,
			   const char *date)
{
	size_t i;

	dims->values = cprof_xcalloc(store->num_dims + 1, sizeof(*dims->values));
	dims->tagged = cprof_xcalloc(store->num_dims + 1, sizeof(*dims->tagged));
	dims->label_dim = cprof_xcalloc(labels->len + 1, sizeof(*dims->label_dim));
	dims->num_labels = labels->len;
	dims->date = date;
	for (i = 0; i < store->num_dims; i++)
		dims->tagged[i] = "";
	for (i = 0; i < tags->len; i++) {
		const struct cprof_tag *tag = tags->items[i];

		dims->tagged[dim_index(store, tag->name)] = tag->value;
	}
	for (i = 0; i < labels->len; i++)
		dims->label_dim[i] = dim_index(store, ((struct cprof_tag *)labels->items[i])->name);
}

/* How many sample types the input `name` has: the reader's list of them
 * (profile->sample_types), read once with the loader's options and the
 * reader's own pick of a type; 1 when it lists none (one type) or fails
 * (the load's read then says why). */
static size_t sample_types_of(const struct cprof_loader *loader, const char *name)
{
	struct cprof_read_options options = loader->read;
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_profile *profile;
	size_t n;

	options.sample_index = NULL;
	options.label_key = cprof_by_label_key(loader->key.by);
	profile = cprof_profile_read_with(name, &options, &err);
	if (!profile)
		return 1;
	n = profile->sample_types.len;
	cprof_profile_free(profile);
	return n ? n : 1;
}

/* Reads the input `name` into `parts`: its sample type `index` (a
 * number as text), or with index NULL the one the loader's options pick.
 * Each sample type of a profile is a profile of the load: the loader's
 * one-type-a-load rule is kept only without --sample-index=all. */
static void read_type(struct cprof_loader *loader, const char *name, const char *index,
		      struct cprof_ptrs *parts)
{
	const char *asked = loader->read.sample_index;

	if (!index) {
		cprof_loader_read_parts(loader, name, parts);
		return;
	}
	free(loader->sample_type);
	loader->sample_type = NULL;
	loader->read.sample_index = index;
	cprof_loader_read_parts(loader, name, parts);
	loader->read.sample_index = asked;
}

/* Whether the load stores every sample type of each profile. */
static bool all_types(const struct cprof_loader *loader)
{
	return loader->read.sample_index && strcmp(loader->read.sample_index, "all") == 0;
}

/* Loads the operand `name`, the `place`-th, each sample type (with
 * --sample-index=all) a profile of the load numbered from *seq on. */
static void load_operand(struct cprof_store *store, struct cprof_loader *loader,
			 const struct load_dims *dims, const char *name, uint32_t place,
			 uint32_t *seq)
{
	size_t types = all_types(loader) ? sample_types_of(loader, name) : 0, t = 0;

	do {
		struct cprof_ptrs parts = { 0 };
		char index[32];
		size_t p;

		snprintf(index, sizeof(index), "%zu", t);
		read_type(loader, name, types ? index : NULL, &parts);
		for (p = 0; p < parts.len; p++) {
			struct cprof_store_profile prof = { 0 };

			profile_of(&prof, dims, store, name, parts.items[p], *seq);
			prof.place = place;
			store->ops->load_profile(store, &prof);
		}
		cprof_ptrs_clear(&parts, cprof_part_free);
		(*seq)++;
	} while (++t < types);
}

void cprof_store_load(const char *url, struct cprof_loader *loader, const struct cprof_ptrs *tags,
		      const struct cprof_ptrs *labels, const char *date, char **operands, int count)
{
	struct cprof_store *store = cprof_store_open(url, false);
	struct load_dims dims;
	char *load_id;
	uint32_t seq = 0;
	int i;

	if (count == 0)
		cprof_die("load: no profile to load");
	cprof_loader_check_operands((const char *const *)operands, count);
	for (i = 0; i < count && all_types(loader); i++)
		if (strcmp(operands[i], "-") == 0)
			cprof_die("--sample-index=all: standard input reads once, a sample type a "
				  "reading: name a file");
	check_dims(store, url, "--tag", tags);
	check_dims(store, url, "--label", labels);
	cprof_labels_check(tags, labels);
	load_dims_init(&dims, store, tags, labels, date);
	/* Profiles are read one at a time and their rows sent on; none is
	 * seen by a query before the whole load is committed, and a profile
	 * that fails to read ends the program before that. */
	load_id = g_uuid_string_random();
	store->ops->load_begin(store, load_id);
	for (i = 0; i < count; i++)
		load_operand(store, loader, &dims, operands[i], (uint32_t)i, &seq);
	store->ops->load_commit(store, (size_t)seq);
	g_free(load_id);
	free(dims.values);
	free(dims.tagged);
	free(dims.label_dim);
	cprof_store_close(store);
}

/* A name --where and --group take: a dimension, date, profile or
 * sample_type; dies naming the option otherwise. */
static void check_name(const struct cprof_store *store, const char *option, const char *arg,
		       const char *name)
{
	char *list;

	if (dim_index(store, name) >= 0 || strcmp(name, "date") == 0 ||
	    strcmp(name, "profile") == 0 || strcmp(name, "sample_type") == 0)
		return;
	list = dims_list(store);
	cprof_die("%s: '%s': %s is not a dimension of %s (%s; date, profile, sample_type)", option,
		  arg, name, store->url, list);
}

/* A group of a query: its public part, and the profiles whose rows it
 * sums. */
struct group {
	struct cprof_store_group pub;
	GPtrArray *profiles;   /* struct source * */
};

struct source {
	char *profile;
	char *load_id;
	uint64_t seq;
	char *sample_type;
	long long period_us;
};

static void free_source(void *data)
{
	struct source *source = data;

	free(source->profile);
	free(source->load_id);
	free(source->sample_type);
	free(source);
}

struct query {
	struct cprof_store *store;
	enum cprof_by by;
	size_t num_groups;     /* --group names */
	GHashTable *groups;    /* group values, length-prefixed -> struct group */
};

void cprof_store_id_append(GString *id, const char *const *values, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		const char *v = values[i] ? values[i] : "";

		g_string_append_printf(id, "%zu:%s", strlen(v), v);
	}
}

char **cprof_store_values_dup(const char *const *values, size_t count)
{
	char **copy = g_new0(char *, count + 1);
	size_t i;

	for (i = 0; i < count; i++)
		copy[i] = g_strdup(values[i] ? values[i] : "");
	return copy;
}

static struct group *group_of(struct query *query, const char *const *values)
{
	GString *id = g_string_new(NULL);
	struct group *group;

	cprof_store_id_append(id, values, query->num_groups);
	group = g_hash_table_lookup(query->groups, id->str);
	if (group) {
		g_string_free(id, TRUE);
		return group;
	}
	group = cprof_xcalloc(1, sizeof(*group));
	group->pub.values = cprof_store_values_dup(values, query->num_groups);
	group->pub.dist = cprof_dist_new(query->by, false);
	group->profiles = g_ptr_array_new_with_free_func(free_source);
	g_hash_table_insert(query->groups, g_string_free(id, FALSE), group);
	return group;
}

static bool parse_count(const char *text, uint64_t *out)
{
	return text && cprof_parse_u64(text, out);
}

static void add_key(void *data, const char *const *values, size_t count)
{
	struct query *query = data;
	struct group *group = group_of(query, values);
	const char *key = values[query->num_groups];
	uint64_t n;

	if (!key || !parse_count(values[query->num_groups + 1], &n))
		cprof_die("%s: a row without a key or a count", query->store->url);
	cprof_dist_add(group->pub.dist, key, n);
	group->pub.dist->total += n;
}

static void add_source(void *data, const char *const *values, size_t count)
{
	struct query *query = data;
	struct group *group = group_of(query, values);
	const char *const *v = values + query->num_groups;
	struct source *source = cprof_xcalloc(1, sizeof(*source));

	source->profile = cprof_xstrdup(v[0] ? v[0] : "");
	source->load_id = cprof_xstrdup(v[1] ? v[1] : "");
	if (!parse_count(v[2], &source->seq))
		source->seq = 0;
	source->sample_type = cprof_xstrdup(v[3] ? v[3] : "samples/count");
	source->period_us = v[4] ? strtoll(v[4], NULL, 10) : -1;
	g_ptr_array_add(group->profiles, source);
}

static int source_cmp(const void *a, const void *b)
{
	const struct source *x = *(struct source *const *)a, *y = *(struct source *const *)b;
	int c = strcmp(x->profile, y->profile);

	if (c)
		return c;
	if ((c = strcmp(x->load_id, y->load_id)))
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* How cprof_store_sort_groups compares. */
struct values_order {
	size_t num_values;
	char **(*values_of)(const void *item);
};

static gint values_cmp(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct values_order *order = data;
	char **x = order->values_of(*(void *const *)a), **y = order->values_of(*(void *const *)b);
	size_t i;
	int c;

	for (i = 0; i < order->num_values; i++)
		if ((c = strcmp(x[i], y[i])))
			return c;
	return 0;
}

void cprof_store_sort_groups(void **items, size_t n, size_t num_values,
			     char **(*values_of)(const void *item))
{
	struct values_order order = { num_values, values_of };

	g_qsort_with_data(items, (gint)n, sizeof(void *), values_cmp, &order);
}

/* A query group's values, for cprof_store_sort_groups. */
static char **group_values(const void *item)
{
	return ((const struct group *)item)->pub.values;
}

static char *column_sql(const char *name)
{
	return g_strdup_printf("\"%s\"", name);
}

/* Appends " AND "NAME" IN (...)" for the --where values of the name of
 * wheres->items[w], unless an earlier --where named it already. */
static void where_in(struct cprof_store *store, GString *where, const struct cprof_ptrs *wheres,
		     guint w)
{
	const struct cprof_tag *tag = wheres->items[w];
	char *q;
	guint v;

	for (v = 0; v < w; v++)
		if (strcmp(((struct cprof_tag *)wheres->items[v])->name, tag->name) == 0)
			return;
	g_string_append_printf(where, " AND \"%s\" IN (", tag->name);
	for (v = w; v < wheres->len; v++) {
		const struct cprof_tag *other = wheres->items[v];

		if (strcmp(other->name, tag->name) != 0)
			continue;
		q = store->ops->quote(other->value);
		g_string_append_printf(where, "%s%s", v == w ? "" : ", ", q);
		free(q);
	}
	g_string_append(where, ")");
}

/* Appends " AND date OP 'DAY'" when day is given. */
static void where_day(struct cprof_store *store, GString *where, const char *op, const char *day)
{
	char *q;

	if (!day)
		return;
	q = store->ops->quote(day);
	g_string_append_printf(where, " AND date %s %s", op, q);
	free(q);
}

/* The WHERE clause of a query's rows; dies on a --where the store does
 * not know. */
GString *cprof_store_where_sql(struct cprof_store *store, enum cprof_by by,
			       const struct cprof_ptrs *wheres, const char *from, const char *to)
{
	GString *where = g_string_new(NULL);
	char *q;
	guint w;

	q = store->ops->where_kind(store, cprof_by_name(by));
	g_string_append(where, q);
	g_free(q);
	/* --where: values of one name are alternatives, names all apply. */
	for (w = 0; w < wheres->len; w++) {
		const struct cprof_tag *tag = wheres->items[w];
		char arg[256];

		snprintf(arg, sizeof(arg), "%s=%s", tag->name, tag->value);
		check_name(store, "--where", arg, tag->name);
		if (strcmp(tag->name, "date") == 0) {
			char day[11];

			cprof_store_parse_day("--where", tag->value, day);
		}
		where_in(store, where, wheres, w);
	}
	where_day(store, where, ">=", from);
	where_day(store, where, "<=", to);
	return where;
}

/* Dies on a --group name the store does not know or one named twice. */
void cprof_store_check_groups(const struct cprof_store *store, char **group_names,
			      size_t num_groups, const char *group_arg)
{
	size_t i, j;

	for (i = 0; i < num_groups; i++) {
		if (!*group_names[i])
			cprof_die("--group: '%s': an empty name", group_arg);
		check_name(store, "--group", group_arg, group_names[i]);
		for (j = 0; j < i; j++)
			if (strcmp(group_names[i], group_names[j]) == 0)
				cprof_die("--group: '%s': %s named twice", group_arg, group_names[i]);
	}
}

/* Whether `name` is a column of the profile rather than of its rows. */
static bool of_profile(const char *name)
{
	return strcmp(name, "profile") == 0 || strcmp(name, "sample_type") == 0;
}

GString *cprof_store_select_text(struct cprof_store *store, const char *const *cols, size_t n)
{
	GString *sql = g_string_new("SELECT ");
	size_t i;

	for (i = 0; i < n; i++) {
		char *text = store->ops->as_text(cols[i]);

		g_string_append_printf(sql, "%s AS c%zu, ", text, i);
		g_free(text);
	}
	return sql;
}

/* The SELECT of the profiles (a row per part of one split by --label)
 * that meet `where`: columns c0... the values of the `num_groups` columns
 * `groups` as text, then profile, load_id, seq, sample_type and
 * period_us (newly allocated). */
static char *sources_sql(struct cprof_store *store, const char *const *groups,
			 size_t num_groups, const char *where)
{
	GString *sql = cprof_store_select_text(store, groups, num_groups);
	size_t i = num_groups;

	g_string_append_printf(sql, "profile AS c%zu, load_id AS c%zu, seq AS c%zu, "
			       "sample_type AS c%zu, period_us AS c%zu FROM profiles WHERE %s",
			       i, i + 1, i + 2, i + 3, i + 4, where);
	return g_string_free(sql, FALSE);
}

/* Fills query's groups: the counts of each key, and the profiles of
 * each group (sources, sample type and period), asked at once.
 * `joined`: a --where names a column of the profile. */
static void select_groups(struct query *query, char **group_names, const GString *where,
			  bool joined)
{
	struct cprof_store *store = query->store;
	char **cols = g_new0(char *, query->num_groups + 1);
	struct cprof_store_query queries[2];
	size_t i;

	for (i = 0; i < query->num_groups; i++) {
		cols[i] = column_sql(group_names[i]);
		joined = joined || of_profile(group_names[i]);
	}
	/* The sources first: their few rows are read while the servers
	 * still sum the keys. */
	queries[0] = (struct cprof_store_query){
		sources_sql(store, (const char *const *)cols, query->num_groups, where->str),
		query->num_groups + 5, add_source, query };
	queries[1] = (struct cprof_store_query){
		store->ops->keys_sql(store, (const char *const *)cols, query->num_groups, where->str,
				     joined),
		query->num_groups + 2, add_key, query };
	store->ops->select_all(store, queries, 2);
	g_free((char *)queries[0].sql);
	g_free((char *)queries[1].sql);
	g_strfreev(cols);
}

/* The groups of query in the order of their values; dies when there is
 * none. */
static GPtrArray *sorted_groups(const struct query *query)
{
	GPtrArray *sorted = g_ptr_array_new();
	GHashTableIter iter;
	gpointer value;

	g_hash_table_iter_init(&iter, query->groups);
	while (g_hash_table_iter_next(&iter, NULL, &value))
		g_ptr_array_add(sorted, value);
	if (sorted->len == 0)
		cprof_die("%s: no profile matches", query->store->url);
	cprof_store_sort_groups(sorted->pdata, sorted->len, query->num_groups, group_values);
	return sorted;
}

/* Notes each profile of group, in order, as an input of its
 * distribution; dies on two sample types. */
static void note_sources(const char *url, struct group *group)
{
	struct cprof_error err = { { 0 }, 0 };
	size_t j;

	qsort(group->profiles->pdata, group->profiles->len, sizeof(gpointer), source_cmp);
	for (j = 0; j < group->profiles->len; j++) {
		const struct source *source = g_ptr_array_index(group->profiles, j);
		const struct source *before = j ? g_ptr_array_index(group->profiles, j - 1) : NULL;

		/* A profile split by --label has a row per part: one input. */
		if (before && before->seq == source->seq &&
		    strcmp(before->load_id, source->load_id) == 0)
			continue;

		cprof_dist_note_input(group->pub.dist, source->profile, source->period_us >= 0,
				      source->period_us >= 0 ? (uint64_t)source->period_us : 0);
		if (cprof_dist_note_sample_type(group->pub.dist, source->sample_type, &err) < 0)
			cprof_die("%s: %s: sample types %s and %s differ: pick one with "
				  "--where sample_type=TYPE/UNIT", url, source->profile,
				  cprof_dist_sample_type(group->pub.dist), source->sample_type);
	}
}

void cprof_store_query(const char *url, const struct cprof_store_query_spec *spec,
		       struct cprof_store_result *result)
{
	struct cprof_store *store = cprof_store_open(url, false);
	char **group_names = spec->group ? g_strsplit(spec->group, ",", -1) : g_new0(char *, 1);
	struct query query = { store, spec->by, g_strv_length(group_names), NULL };
	bool joined = false;
	GString *where;
	GPtrArray *sorted;
	size_t i;

	query.groups = g_hash_table_new_full(cprof_str_hash, g_str_equal, g_free, NULL);
	where = cprof_store_where_sql(store, spec->by, spec->wheres, spec->from, spec->to);
	for (i = 0; i < spec->wheres->len; i++)
		joined = joined || of_profile(((struct cprof_tag *)spec->wheres->items[i])->name);
	cprof_store_check_groups(store, group_names, query.num_groups, spec->group);
	select_groups(&query, group_names, where, joined);
	*result = (struct cprof_store_result){ group_names, query.num_groups, { 0 },
					       store->ops->missing_shards(store) };
	sorted = sorted_groups(&query);
	for (i = 0; i < sorted->len; i++) {
		struct group *group = g_ptr_array_index(sorted, i);

		note_sources(url, group);
		g_ptr_array_free(group->profiles, TRUE);
		cprof_ptrs_add(&result->groups, group);
	}
	g_ptr_array_free(sorted, TRUE);
	g_hash_table_destroy(query.groups);
	g_string_free(where, TRUE);
	cprof_store_close(store);
}

static void free_result_group(void *data)
{
	struct group *group = data;

	g_strfreev(group->pub.values);
	cprof_dist_free(group->pub.dist);
	free(group);
}

void cprof_store_missing_free(struct cprof_ptrs *missing)
{
	if (!missing)
		return;
	cprof_ptrs_clear(missing, free);
	free(missing);
}

void cprof_store_result_clear(struct cprof_store_result *result)
{
	g_strfreev(result->group_names);
	cprof_ptrs_clear(&result->groups, free_result_group);
	cprof_store_missing_free(result->missing);
	memset(result, 0, sizeof(*result));
}

void cprof_store_parse_where(struct cprof_ptrs *wheres, const char *arg)
{
	struct cprof_tag *tag;
	const char *eq = strchr(arg, '=');

	if (!eq)
		cprof_die("--where: '%s': not NAME=VALUE", arg);
	tag = cprof_xmalloc(sizeof(*tag));
	tag->name = g_strndup(arg, (gsize)(eq - arg));
	tag->value = cprof_xstrdup(eq + 1);
	/* Kept before any check, so that a refusal leaves nothing unreachable
	 * (LeakSanitizer runs at exit). */
	cprof_ptrs_add(wheres, tag);
	if (!cprof_tag_name_ok(tag->name))
		cprof_die("--where: '%s': NAME must match [a-z_][a-z0-9_]*", arg);
	if (!g_utf8_validate(tag->value, -1, NULL))
		cprof_die("--where: '%s': VALUE is not valid UTF-8", arg);
}

bool cprof_store_cluster_ok(const char *name)
{
	return cprof_tag_name_ok(name) ||
	       g_regex_match_simple("^[A-Za-z_][A-Za-z0-9_.-]*$", name, 0, 0);
}
