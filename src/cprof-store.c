/* cprof-store: profiles as dimensional rows in a database (a SQLite file,
 * or ClickHouse), loaded and asked for flat distributions. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <glib.h>

#include "load.h"
#include "rows.h"
#include "store.h"
#include "json.h"
#include "text.h"

enum {
	OPT_DB = 600,
	OPT_DIMS,
	OPT_CLUSTER,
	OPT_TAG,
	OPT_LABEL,
	OPT_DATE,
	OPT_WHERE,
	OPT_GROUP,
	OPT_FROM,
	OPT_TO,
};

#define DEFAULT_DB "cprof.db"
#define DEFAULT_DIMS "app,platform,build,host"

/* Column names a dimension may not take. */
static const char *const reserved[] = {
	"profile", "by", "key", "count", "date", "load_id", "seq", "kind", "sample_type",
	"period_us", "total", "num_keys", "load", "kind_id", "key_id", NULL,
};

static void usage(int status)
{
	FILE *out = status == EXIT_OK ? stdout : stderr;

	fprintf(out,
		"usage: %s [--db DB] init [--dims NAME,...] [--cluster NAME]\n"
		"       %s [--db DB] load [--tag NAME=VALUE]... [--label NAME[=KEY]]...\n"
		"              [--date YYYY-MM-DD] [--by=KEY] [--sample-index=N|NAME]\n"
		"              [--no-symbolize] [--no-inline] [--symbols DIR] [--binary FILE]\n"
		"              PROFILE...\n"
		"       %s [--db DB] query|top [-ct] [--where NAME=VALUE]... [--by=KEY]\n"
		"              [--group NAME,...] [--from DATE] [--to DATE] [-n N]\n"
		"Keep profiles as rows with their dimensions; print flat distributions of them.\n"
		"  --db DB         a SQLite file (default ./cprof.db) or\n"
		"                  clickhouse://HOST[:PORT][/DATABASE]\n"
		"  --dims LIST     the store's dimensions (default app,platform,build,host)\n"
		"  --cluster NAME  ClickHouse: a Distributed table over the cluster's shards\n"
		"  --tag N=V       a dimension's value for the profiles loaded\n"
		"  --label N[=K]   dimension N from each sample's profile.proto label K\n"
		"  --date DAY      their day (default: each file's modification day, UTC)\n"
		"  --where N=V     only rows with that value (repeated name: any of the values)\n"
		"  --group LIST    one flat per combination of these dimensions (JSON Lines)\n"
		"  --from, --to    the first and last day, inclusive\n"
		"  -n, --top N     keep the first N entries (top: 10 by default)\n"
		"  -c, --compact   JSON on one line;  -t, --text  an aligned table\n"
		"  -h, --help      this help;  -V, --version  the version\n",
		cprof_progname, cprof_progname, cprof_progname);
	exit(status);
}

/* Options each subcommand takes, beyond --db. */
struct allowed {
	const char *command;
	const int *options;
};

static const int init_options[] = { OPT_DIMS, OPT_CLUSTER, 0 };
static const int load_options[] = { OPT_TAG, OPT_LABEL, OPT_DATE, CPROF_OPT_BY, CPROF_OPT_SAMPLE_INDEX,
				     CPROF_OPT_NO_SYMBOLIZE, CPROF_OPT_NO_INLINE,
				     CPROF_OPT_SYMBOLS, CPROF_OPT_BINARY, 0 };
static const int query_options[] = { OPT_WHERE, OPT_GROUP, OPT_FROM, OPT_TO, CPROF_OPT_BY,
				     'n', 'c', 't', 0 };

/* "YYYY-MM-DD", a real day, into out; dies naming the option otherwise. */
static void parse_day(const char *option, const char *arg, char out[11])
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

static void do_init(const char *url, const char *dims_arg, const char *cluster)
{
	char **dims = g_strsplit(dims_arg, ",", -1);
	size_t n = g_strv_length(dims), i, j;
	struct cprof_store *store;

	for (i = 0; i < n; i++) {
		const char *const *r;

		if (!cprof_tag_name_ok(dims[i]))
			cprof_die("--dims: '%s': each NAME must match [a-z_][a-z0-9_]*", dims[i]);
		for (r = reserved; *r; r++)
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

static void do_load(const char *url, struct cprof_loader *loader, const struct cprof_ptrs *tags,
		    const struct cprof_ptrs *labels, const char *date, char **operands, int count)
{
	struct cprof_store *store = cprof_store_open(url, false);
	struct load_dims dims;
	char *load_id;
	int i;

	if (count == 0)
		cprof_die("load: no profile to load");
	cprof_loader_check_operands((const char *const *)operands, count);
	check_dims(store, url, "--tag", tags);
	check_dims(store, url, "--label", labels);
	cprof_labels_check(tags, labels);
	load_dims_init(&dims, store, tags, labels, date);
	/* Profiles are read one at a time and their rows sent on; none is
	 * seen by a query before the whole load is committed, and a profile
	 * that fails to read ends the program before that. */
	load_id = g_uuid_string_random();
	store->ops->load_begin(store, load_id);
	for (i = 0; i < count; i++) {
		struct cprof_ptrs parts = { 0 };
		size_t p;

		cprof_loader_read_parts(loader, operands[i], &parts);
		for (p = 0; p < parts.len; p++) {
			struct cprof_store_profile prof = { 0 };

			profile_of(&prof, &dims, store, operands[i], parts.items[p], (uint32_t)i);
			store->ops->load_profile(store, &prof);
		}
		cprof_ptrs_clear(&parts, cprof_part_free);
	}
	store->ops->load_commit(store, (size_t)count);
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

struct group {
	char **values;         /* one per --group name */
	struct cprof_dist *dist;
	GPtrArray *profiles;   /* struct source * */
	char *sample_type;
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

static void free_group(void *data)
{
	struct group *group = data;

	g_strfreev(group->values);
	cprof_dist_free(group->dist);
	g_ptr_array_free(group->profiles, TRUE);
	free(group);
}

struct query {
	struct cprof_store *store;
	enum cprof_by by;
	size_t num_groups;     /* --group names */
	GHashTable *groups;    /* group values, length-prefixed -> struct group */
};

static struct group *group_of(struct query *query, const char *const *values)
{
	GString *id = g_string_new(NULL);
	struct group *group;
	size_t i;

	for (i = 0; i < query->num_groups; i++) {
		const char *v = values[i] ? values[i] : "";

		g_string_append_printf(id, "%zu:%s", strlen(v), v);
	}
	group = g_hash_table_lookup(query->groups, id->str);
	if (group) {
		g_string_free(id, TRUE);
		return group;
	}
	group = cprof_xcalloc(1, sizeof(*group));
	group->values = g_new0(char *, query->num_groups + 1);
	for (i = 0; i < query->num_groups; i++)
		group->values[i] = g_strdup(values[i] ? values[i] : "");
	group->dist = cprof_dist_new(query->by, false);
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
	cprof_dist_add(group->dist, key, n);
	group->dist->total += n;
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

static size_t num_groups_for_cmp;

static int group_cmp(const void *a, const void *b)
{
	const struct group *x = *(struct group *const *)a, *y = *(struct group *const *)b;
	size_t i;
	int c;

	for (i = 0; i < num_groups_for_cmp; i++)
		if ((c = strcmp(x->values[i], y->values[i])))
			return c;
	return 0;
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
static GString *where_sql(struct cprof_store *store, enum cprof_by by,
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

			parse_day("--where", tag->value, day);
		}
		where_in(store, where, wheres, w);
	}
	where_day(store, where, ">=", from);
	where_day(store, where, "<=", to);
	return where;
}

/* Dies on a --group name the store does not know or one named twice. */
static void check_groups(const struct cprof_store *store, char **group_names, size_t num_groups,
			 const char *group_arg)
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

/* The SELECT of the profiles (a row per part of one split by --label)
 * that meet `where`: columns c0... the values of the `num_groups` columns
 * `groups` as text, then profile, load_id, seq, sample_type and
 * period_us (newly allocated). */
static char *sources_sql(struct cprof_store *store, const char *const *groups,
			 size_t num_groups, const char *where)
{
	GString *sql = g_string_new("SELECT ");
	size_t i;

	for (i = 0; i < num_groups; i++) {
		char *text = store->ops->as_text(groups[i]);

		g_string_append_printf(sql, "%s AS c%zu, ", text, i);
		g_free(text);
	}
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
	num_groups_for_cmp = query->num_groups;
	qsort(sorted->pdata, sorted->len, sizeof(gpointer), group_cmp);
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

		cprof_dist_note_input(group->dist, source->profile, source->period_us >= 0,
				      source->period_us >= 0 ? (uint64_t)source->period_us : 0);
		if (cprof_dist_note_sample_type(group->dist, source->sample_type, &err) < 0)
			cprof_die("%s: %s: sample types %s and %s differ: pick one with "
				  "--where sample_type=TYPE/UNIT", url, source->profile,
				  cprof_dist_sample_type(group->dist), source->sample_type);
	}
}

/* How the groups of a query are printed. */
struct query_output {
	char **group_names;
	size_t num_groups;
	struct cprof_ptrs *missing;    /* shards that did not answer, or NULL */
	uint64_t top;
	bool compact, text;
};

/* Prints the flat of one group, as a table or JSON. */
static void print_group(const struct group *group, const struct query_output *out)
{
	json_t *root, *names;
	size_t j;

	if (out->text) {
		if (out->num_groups) {
			fputs("#", stdout);
			for (j = 0; j < out->num_groups; j++)
				printf(" %s=%s", out->group_names[j], group->values[j]);
			fputs("\n", stdout);
		}
		cprof_text_flat(group->dist, (size_t)out->top);
		return;
	}
	root = cprof_json_flat(group->dist, (size_t)out->top);
	if (out->num_groups) {
		names = json_object();
		for (j = 0; j < out->num_groups; j++)
			cprof_json_set(names, out->group_names[j],
				       cprof_json_string(group->values[j]));
		cprof_json_set(root, "group", names);
	}
	if (out->missing) {
		json_t *list = json_array();

		for (j = 0; j < out->missing->len; j++)
			json_array_append_new(list, cprof_json_string(out->missing->items[j]));
		cprof_json_set(root, "missing_shards", list);
	}
	cprof_json_print(root, out->compact || out->num_groups > 0);
}

static void do_query(const char *url, enum cprof_by by, struct cprof_ptrs *wheres, const char *group_arg,
		     const char *from, const char *to, uint64_t top, bool compact, bool text)
{
	struct cprof_store *store = cprof_store_open(url, false);
	char **group_names = group_arg ? g_strsplit(group_arg, ",", -1) : g_new0(char *, 1);
	struct query query = { store, by, g_strv_length(group_names), NULL };
	struct query_output out = { group_names, query.num_groups, NULL, top, compact, text };
	bool joined = false;
	GString *where;
	GPtrArray *sorted;
	size_t i;

	query.groups = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, free_group);
	where = where_sql(store, by, wheres, from, to);
	for (i = 0; i < wheres->len; i++)
		joined = joined || of_profile(((struct cprof_tag *)wheres->items[i])->name);
	check_groups(store, group_names, query.num_groups, group_arg);
	select_groups(&query, group_names, where, joined);
	out.missing = store->ops->missing_shards(store);
	sorted = sorted_groups(&query);
	for (i = 0; i < sorted->len; i++)
		note_sources(url, g_ptr_array_index(sorted, i));
	if (out.missing)
		for (i = 0; i < out.missing->len; i++)
			cprof_warn("%s: shard %s did not answer: its profiles are left out",
				   url, (char *)out.missing->items[i]);
	for (i = 0; i < sorted->len; i++)
		print_group(g_ptr_array_index(sorted, i), &out);
	if (out.missing) {
		cprof_ptrs_clear(out.missing, free);
		free(out.missing);
	}
	g_ptr_array_free(sorted, TRUE);
	g_hash_table_destroy(query.groups);
	g_strfreev(group_names);
	g_string_free(where, TRUE);
	cprof_store_close(store);
}

static const struct option long_options[] = {
	CPROF_LOAD_LONG_OPTIONS,
	CPROF_OUTPUT_LONG_OPTIONS,
	{ "cluster", required_argument, NULL, OPT_CLUSTER },
	{ "date", required_argument, NULL, OPT_DATE },
	{ "db", required_argument, NULL, OPT_DB },
	{ "dims", required_argument, NULL, OPT_DIMS },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "help", no_argument, NULL, 'h' },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "to", required_argument, NULL, OPT_TO },
	{ "top", required_argument, NULL, 'n' },
	{ "where", required_argument, NULL, OPT_WHERE },
	{ NULL, 0, NULL, 0 },
};

/* The options of the program, every subcommand's. */
struct options {
	struct cprof_loader loader;
	const char *db, *dims, *cluster, *group;
	char date[11], from[11], to[11];
	bool compact, text, top_given;
	uint64_t top;
	struct cprof_ptrs tags, wheres;  /* --tag, --where: struct cprof_tag * */
	struct cprof_ptrs labels;        /* --label FIELD=KEY: struct cprof_tag * */
	struct cprof_ptrs label_keys;    /* their KEYs, borrowed */
	GArray *given;                   /* int: each option given, in order */
};

/* Adds the NAME=VALUE of a --where to wheres; the name is checked
 * against the store once it is open. */
static void parse_where(struct cprof_ptrs *wheres, const char *arg)
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

/* Takes one option of the store's own (not the loader's nor the
 * output's) into opts. */
static void store_option(struct options *opts, int opt, char **argv)
{
	switch (opt) {
	case 'h':
		usage(EXIT_OK);
		break;
	case 'n':
		opts->top = cprof_option_u64("--top", optarg);
		if (opts->top == 0)
			cprof_die("--top: must be at least 1");
		opts->top_given = true;
		break;
	case OPT_CLUSTER:
		if (!cprof_tag_name_ok(optarg) && !g_regex_match_simple(
			    "^[A-Za-z_][A-Za-z0-9_.-]*$", optarg, 0, 0))
			cprof_die("--cluster: '%s': not a cluster name", optarg);
		opts->cluster = optarg;
		break;
	case OPT_DATE:
		parse_day("--date", optarg, opts->date);
		break;
	case OPT_DB:
		if (!*optarg)
			cprof_die("--db: empty");
		opts->db = optarg;
		break;
	case OPT_DIMS:
		opts->dims = optarg;
		break;
	case OPT_FROM:
		parse_day("--from", optarg, opts->from);
		break;
	case OPT_GROUP:
		opts->group = optarg;
		break;
	case OPT_TAG:
		cprof_tag_parse(&opts->tags, "--tag", optarg, reserved);
		break;
	case OPT_LABEL:
		cprof_label_parse(&opts->labels, optarg, reserved);
		cprof_labels_read_options(&opts->labels, &opts->label_keys, &opts->loader.read);
		break;
	case OPT_TO:
		parse_day("--to", optarg, opts->to);
		break;
	case OPT_WHERE:
		parse_where(&opts->wheres, optarg);
		break;
	default:
		cprof_bad_option(opt, argv, long_options);
	}
}

/* Parses the options into opts, noting each in opts->given; returns
 * optind. */
static int parse_options(int argc, char **argv, struct options *opts)
{
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":chn:tV", long_options, NULL)) != -1) {
		if (opt != ':' && opt != '?')
			g_array_append_val(opts->given, opt);
		if (cprof_loader_option(&opts->loader, opt, optarg) ||
		    cprof_output_option(opt, &opts->compact, &opts->text))
			continue;
		store_option(opts, opt, argv);
	}
	return optind;
}

/* The subcommand named `name`; dies on none. */
static const struct allowed *find_command(const char *name)
{
	static const struct allowed allowed[] = {
		{ "init", init_options },
		{ "load", load_options },
		{ "query", query_options },
		{ "top", query_options },
	};
	const struct allowed *command = NULL;
	size_t c;

	for (c = 0; c < sizeof(allowed) / sizeof(allowed[0]); c++)
		if (strcmp(name, allowed[c].command) == 0)
			command = &allowed[c];
	if (!command)
		cprof_die("'%s': not a command (init, load, query or top)", name);
	return command;
}

/* Dies on the first option given that command does not take, and on
 * options that exclude each other. */
static void check_options(const struct options *opts, const struct allowed *command)
{
	guint g;

	for (g = 0; g < opts->given->len; g++) {
		int o = g_array_index(opts->given, int, g);
		const int *ok;
		const struct option *named;

		if (o == OPT_DB || o == 'h' || o == 'V')
			continue;
		for (ok = command->options; *ok && *ok != o; ok++)
			continue;
		if (*ok)
			continue;
		for (named = long_options; named->name && named->val != o; named++)
			continue;
		if (o == 'n' || o == 'c' || o == 't')
			cprof_die("-%c: not an option of %s", o, command->command);
		cprof_die("--%s: not an option of %s", named->name ? named->name : "?",
			  command->command);
	}
	if (opts->text && opts->compact)
		cprof_die("--text and --compact exclude each other");
	if (opts->from[0] && opts->to[0] && strcmp(opts->from, opts->to) > 0)
		cprof_die("--from %s is after --to %s", opts->from, opts->to);
}

/* Runs command on its operands (argv[0] is the command's name). */
static void run_command(struct options *opts, const struct allowed *command, char **argv,
			int argc)
{
	if (strcmp(command->command, "init") == 0) {
		if (argc > 1)
			cprof_die("init: takes no operand ('%s')", argv[1]);
		do_init(opts->db, opts->dims, opts->cluster);
	} else if (strcmp(command->command, "load") == 0) {
		do_load(opts->db, &opts->loader, &opts->tags, &opts->labels,
			opts->date[0] ? opts->date : NULL, argv + 1, argc - 1);
	} else {
		if (argc > 1)
			cprof_die("%s: takes no operand ('%s')", command->command, argv[1]);
		if (strcmp(command->command, "top") == 0 && !opts->top_given)
			opts->top = 10;
		do_query(opts->db, opts->loader.key.by, &opts->wheres, opts->group,
			 opts->from[0] ? opts->from : NULL, opts->to[0] ? opts->to : NULL,
			 opts->top, opts->compact, opts->text);
	}
}

int main(int argc, char **argv)
{
	struct options opts = { .dims = DEFAULT_DIMS };
	const struct allowed *command;
	int first;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES " SQLite");
	cprof_loader_init(&opts.loader);
	opts.given = g_array_new(FALSE, FALSE, sizeof(int));
	opts.db = getenv("CPROF_STORE_DB");
	if (!opts.db || !*opts.db)
		opts.db = DEFAULT_DB;
	first = parse_options(argc, argv, &opts);
	argc -= first;
	argv += first;
	if (argc == 0)
		cprof_die("no command (init, load, query or top; --help says more)");
	command = find_command(argv[0]);
	check_options(&opts, command);
	run_command(&opts, command, argv, argc);
	cprof_ptrs_clear(&opts.tags, cprof_tag_free);
	cprof_ptrs_clear(&opts.labels, cprof_tag_free);
	cprof_ptrs_clear(&opts.label_keys, NULL);
	cprof_ptrs_clear(&opts.wheres, cprof_tag_free);
	g_array_free(opts.given, TRUE);
	cprof_loader_free(&opts.loader);
	return cprof_finish_output(EXIT_OK);
}
