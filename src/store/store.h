/* store.h: the databases cprof-store keeps profile rows in.  One interface,
 * two back ends: a SQLite file (store-sqlite.c) and a ClickHouse server or
 * cluster through clickhouse-client (store-clickhouse.c).  Every function
 * dies (status 2, naming the database) on any error. */
#ifndef CPROF_STORE_H
#define CPROF_STORE_H

#include <stdbool.h>

#include "lib/dist.h"
#include "base/ptrs.h"
#include "watch.h"

/* One profile of a load: its rows are the entries of `dist`. */
struct cprof_store_profile {
	const char *name;              /* the operand, valid UTF-8 */
	char date[11];                 /* YYYY-MM-DD */
	const char *const *dims;       /* a value per dimension of the store */
	uint32_t seq;                  /* its place in the load, a sample type a place */
	uint32_t place;                /* its operand's place in the load */
	struct cprof_dist *dist;       /* one profile, keyed as loaded */
	const char *sample_type;
	long long period_us;           /* -1: none */
	uint64_t total;                /* the sum of its rows' counts */
};

/* The version of the tables a store holds (its metadata's "version"):
 * 2 keeps a row per profile in a table of its own, "profiles"; 3 keeps
 * ClickHouse's rows without the profile's own columns (profile, load_id,
 * sample_type, period_us), which it joins from profiles. */
#define CPROF_STORE_VERSION "3"

struct cprof_store;

/* Called with each row of a SELECT: `values[i]` is column i as text
 * (NULL for SQL NULL), `count` columns. */
typedef void cprof_store_row_fn(void *data, const char *const *values, size_t count);

/* A SELECT whose columns are named c0, c1, ..., and what takes its rows. */
struct cprof_store_query {
	const char *sql;
	size_t columns;
	cprof_store_row_fn *fn;
	void *data;
};

struct cprof_store_ops {
	const char *name;      /* "sqlite" or "clickhouse" */
	const char *load_column;       /* the rows' column that tells their load */
	/* Creates the database's tables: `dims` the dimension names. */
	void (*init)(struct cprof_store *store, const char *const *dims, size_t num_dims,
		     const char *cluster);
	/* Returns a newly allocated value of the store's metadata, or NULL. */
	char *(*meta)(struct cprof_store *store, const char *name);
	/* Starts the load `load_id`: nothing of it is seen by a query until
	 * load_commit returns, and nothing ever when the program dies first. */
	void (*load_begin)(struct cprof_store *store, const char *load_id);
	/* Adds the rows of one profile to the load. */
	void (*load_profile)(struct cprof_store *store, const struct cprof_store_profile *profile);
	/* Makes the load of `profiles` profiles visible, whole. */
	void (*load_commit)(struct cprof_store *store, size_t profiles);
	/* The SQL condition the rows (and the profiles) of kind `kind` meet
	 * when their load is committed (newly allocated). */
	char *(*where_kind)(struct cprof_store *store, const char *kind);
	/* The SQL of column `column`'s values as text (newly allocated): a
	 * Date is not text on every back end. */
	char *(*as_text)(const char *column);
	/* The SELECT of the summed counts of each key of the rows that meet
	 * `where`, per values of the `num_groups` columns `groups`: columns
	 * c0... the groups' values as text, then the key, then the count
	 * (newly allocated).  `of_profile`: `where` or `groups` name a
	 * column of the profile (profile, sample_type), which a back end may
	 * keep in the profiles table only. */
	char *(*keys_sql)(struct cprof_store *store, const char *const *groups, size_t num_groups,
			  const char *where, bool of_profile);
	/* Runs the `count` SELECTs of `queries` (at once where the back end
	 * can), each as select does. */
	void (*select_all)(struct cprof_store *store, const struct cprof_store_query *queries,
			   size_t count);
	/* Quotes a string as an SQL literal of the back end (newly allocated). */
	char *(*quote)(const char *s);
	/* The shards that did not answer the last queries, as text ("2
	 * (127.0.0.1:9001)"), each string and the array newly allocated,
	 * or NULL when all did. */
	struct cprof_ptrs *(*missing_shards)(struct cprof_store *store);
	void (*close)(struct cprof_store *store);
};

/* Frees a list of the shards that did not answer (text, as
 * ops->missing_shards gives it); accepts NULL. */
void cprof_store_missing_free(struct cprof_ptrs *missing);

struct cprof_store {
	const struct cprof_store_ops *ops;
	char *url;             /* as given, for messages */
	size_t num_dims;
	char **dims;           /* the dimension names, after open */
	void *impl;
};

/* The names no dimension may take: the columns of every row; NULL-ended. */
extern const char *const cprof_store_reserved[];

/* Reads `arg` of `option` as a day YYYY-MM-DD (1970 to 2105) into `out`;
 * dies naming the option otherwise. */
void cprof_store_parse_day(const char *option, const char *arg, char out[11]);

/* Adds the NAME=VALUE of a --where (a struct cprof_tag, owned by
 * `wheres`) to `wheres`; dies on a malformed one.  The NAME is checked
 * against the store by cprof_store_query. */
void cprof_store_parse_where(struct cprof_ptrs *wheres, const char *arg);

/* Whether `name` may name a ClickHouse cluster (--cluster). */
bool cprof_store_cluster_ok(const char *name);

/* Creates the store `url` with the dimensions of the comma-separated
 * `dims` (and, on ClickHouse, its tables on `cluster`, or NULL); dies
 * on a bad name or a store already there. */
void cprof_store_init(const char *url, const char *dims, const char *cluster);

struct cprof_loader;

/* Loads the profiles `operands` (`count` of them) read by `loader` as
 * one load of rows: the --tag values `tags` and --label dimensions
 * `labels` (struct cprof_tag *), the day `date` or NULL (each file's
 * modification day).  Nothing of it is seen before the whole is
 * committed; dies on the first error. */
void cprof_store_load(const char *url, struct cprof_loader *loader, const struct cprof_ptrs *tags,
		      const struct cprof_ptrs *labels, const char *date, char **operands, int count);

/* What a query asks: the rows of kind `by` that meet every --where
 * (`wheres`, struct cprof_tag *: values of one name are alternatives),
 * between the days `from` and `to` (either NULL: open), summed per
 * values of the comma-separated `group` names (NULL: one group). */
struct cprof_store_query_spec {
	enum cprof_by by;
	const struct cprof_ptrs *wheres;
	const char *group;
	const char *from, *to;
};

/* One group of a query's answer. */
struct cprof_store_group {
	char **values;                 /* one per group name */
	struct cprof_dist *dist;       /* its keys' summed counts and sources */
};

/* A query's answer. */
struct cprof_store_result {
	char **group_names;            /* NULL-ended */
	size_t num_groups;
	struct cprof_ptrs groups;      /* struct cprof_store_group *, in order of values */
	struct cprof_ptrs *missing;    /* shards that did not answer (text), or NULL */
};

/* Answers `spec` from the store `url` into `result`, which the caller
 * clears with cprof_store_result_clear; dies on a bad name, on no
 * matching profile and on any error of the database. */
void cprof_store_query(const char *url, const struct cprof_store_query_spec *spec,
		       struct cprof_store_result *result);

/* Frees what `result` holds and leaves it empty. */
void cprof_store_result_clear(struct cprof_store_result *result);

/* One key of a ratio's answer, or its group's whole (key NULL). */
struct cprof_store_ratio_entry {
	char *key;
	uint64_t numerator, denominator;       /* the summed counts of each type */
	double ratio;          /* numerator / denominator; NAN when it is 0 */
	double low, high;      /* its interval at the level asked; NAN: none */
};

/* One group of a ratio's answer. */
struct cprof_store_ratio_group {
	char **values;                 /* one per group name */
	size_t profiles;               /* the profiles (load and name) whose rows it sums */
	struct cprof_store_ratio_entry whole;  /* every key's */
	struct cprof_store_ratio_entry *entries;       /* by numerator, most first */
	size_t num_entries;
};

/* The answer of a ratio. */
struct cprof_store_ratio_result {
	char **group_names;            /* NULL-ended */
	size_t num_groups;
	char *types[2];                /* the sample types TYPE/UNIT of numerator, denominator */
	double level;
	struct cprof_ptrs groups;      /* struct cprof_store_ratio_group *, in order of values */
	struct cprof_ptrs *missing;    /* shards that did not answer (text), or NULL */
};

/* Answers `spec` as the ratio of the counts of the sample type named
 * `names[0]` over those of `names[1]` (each TYPE/UNIT, or TYPE, with or
 * without a ":MODIFIERS" suffix), per key and in all, with an interval
 * at `level` (0 < level < 1) over the profiles as samples of a fleet
 * (the ratio estimator's delta method, on the log scale, Student's t);
 * into `result`, which the caller clears with
 * cprof_store_ratio_result_clear.  Dies as cprof_store_query does, and
 * on a name no sample type of the profiles has or that two have. */
void cprof_store_ratio(const char *url, const struct cprof_store_query_spec *spec,
		       const char *const names[2], double level,
		       struct cprof_store_ratio_result *result);

/* Frees what `result` holds and leaves it empty. */
void cprof_store_ratio_result_clear(struct cprof_store_ratio_result *result);

/* One group of a watch's answer: its series and changes. */
struct cprof_store_watch_group {
	char **values;                 /* one per group name */
	size_t num_days, num_keys, num_profiles;
	char **days, **keys;           /* sorted, NULL-ended */
	uint64_t *counts;              /* counts[key * num_days + day]: its profiles' sums */
	uint64_t *totals;              /* each day's samples */
	double *profile_totals;        /* each profile's samples, day by day */
	char **profile_attrs;          /* each profile's attribute value, or NULL */
	size_t *day_start;             /* day d's profiles: [day_start[d], day_start[d + 1]) */
	struct cprof_watch_change *changes;
	size_t num_changes;
	char ***attr_before, ***attr_after;    /* per change: the attribute's values
						* of its baseline days and of its days
						* from on (NULL-ended), or NULL */
};

/* A watch's answer. */
struct cprof_store_watch_result {
	char **group_names;            /* NULL-ended */
	size_t num_groups;
	char *attribute;               /* the dimension named before and after, or NULL */
	struct cprof_ptrs groups;      /* struct cprof_store_watch_group *, in order of values */
	struct cprof_ptrs *missing;    /* shards that did not answer (text), or NULL */
};

/* Answers `spec` as cprof-store watch: each group's profiles summed per
 * key and profile by one grouped query, their days' series and changes
 * under `settings` (src/store/watch.h), the dimension `attribute` (NULL:
 * build when the store has it) named before and after each change; into
 * `result`, cleared with cprof_store_watch_result_clear.  Dies as
 * cprof_store_query does, and on profiles of two sample types. */
void cprof_store_watch(const char *url, const struct cprof_store_query_spec *spec,
		       const struct cprof_watch_settings *settings, const char *attribute,
		       struct cprof_store_watch_result *result);

/* Frees what `result` holds and leaves it empty. */
void cprof_store_watch_result_clear(struct cprof_store_watch_result *result);

extern const struct cprof_store_ops cprof_store_sqlite;
extern const struct cprof_store_ops cprof_store_clickhouse;

/* Back ends' openers: fill store->impl; die when the database does not
 * answer or (unless `create`) holds no store. */
void cprof_store_sqlite_open(struct cprof_store *store, const char *path, bool create);
void cprof_store_clickhouse_open(struct cprof_store *store, const char *url, bool create);

#endif
