/* store-sqlite.c: cprof-store's embedded back end, a SQLite file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include <glib.h>

#include "store.h"

/* The columns of the rows table after the dimensions, in this order. */
#define CPROF_STORE_ROW_COLUMNS "date, profile, load_id, seq, kind, key, count, sample_type, period_us"

/* The columns of the profiles table (a row per profile loaded: what a
 * query lists as its sources) after the dimensions, in this order. */
#define CPROF_STORE_PROFILE_COLUMNS \
	"date, profile, load_id, seq, kind, sample_type, period_us, total, num_keys"

static sqlite3 *db_of(struct cprof_store *store)
{
	return store->impl;
}

static void __attribute__((noreturn)) die_db(struct cprof_store *store, const char *what)
{
	cprof_die("%s: %s: %s", store->url, what,
		  store->impl ? sqlite3_errmsg(db_of(store)) : "cannot open");
}

static void exec(struct cprof_store *store, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db_of(store), sql, NULL, NULL, &msg) != SQLITE_OK) {
		char line[512];

		snprintf(line, sizeof(line), "%s", msg ? msg : "error");
		sqlite3_free(msg);
		cprof_die("%s: %s", store->url, line);
	}
}

static char *quote(const char *s)
{
	char *q = sqlite3_mprintf("%Q", s), *copy;

	if (!q)
		cprof_die_oom();
	copy = cprof_xstrdup(q);
	sqlite3_free(q);
	return copy;
}

/* Appends the CREATE TABLE of `table`: the dimensions, then `columns`. */
static void create_table(GString *sql, const char *table, const char *const *dims,
			 size_t num_dims, const char *columns)
{
	size_t i;

	g_string_append_printf(sql, "CREATE TABLE %s (", table);
	for (i = 0; i < num_dims; i++)
		g_string_append_printf(sql, "\"%s\" TEXT NOT NULL, ", dims[i]);
	g_string_append_printf(sql, "%s);\n", columns);
}

static void init(struct cprof_store *store, const char *const *dims, size_t num_dims,
		 const char *cluster)
{
	GString *sql = g_string_new(NULL);
	char *joined, *q;

	if (cluster)
		cprof_die("%s: --cluster: a SQLite store is one file, never a cluster", store->url);
	g_string_append(sql, "BEGIN;\nCREATE TABLE cprof_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);\n");
	create_table(sql, "rows", dims, num_dims,
		     "date TEXT NOT NULL, profile TEXT NOT NULL, load_id TEXT NOT NULL, "
		     "seq INTEGER NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, "
		     "count INTEGER NOT NULL, sample_type TEXT NOT NULL, period_us INTEGER NOT NULL");
	create_table(sql, "profiles", dims, num_dims,
		     "date TEXT NOT NULL, profile TEXT NOT NULL, load_id TEXT NOT NULL, "
		     "seq INTEGER NOT NULL, kind TEXT NOT NULL, sample_type TEXT NOT NULL, "
		     "period_us INTEGER NOT NULL, total INTEGER NOT NULL, num_keys INTEGER NOT NULL");
	g_string_append(sql, "CREATE INDEX rows_by_date ON rows (kind, date);\n"
			     "CREATE INDEX profiles_by_date ON profiles (kind, date);\n");
	joined = g_strjoinv(",", (char **)dims);
	q = quote(joined);
	g_string_append_printf(sql, "INSERT INTO cprof_meta VALUES ('dims', %s), "
			       "('version', '" CPROF_STORE_VERSION "');\nCOMMIT;", q);
	exec(store, sql->str);
	free(q);
	g_free(joined);
	g_string_free(sql, TRUE);
}

static char *meta(struct cprof_store *store, const char *name)
{
	sqlite3_stmt *stmt;
	char *value = NULL;

	if (sqlite3_prepare_v2(db_of(store), "SELECT value FROM cprof_meta WHERE name = ?", -1,
			       &stmt, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(stmt, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		value = cprof_xstrdup((const char *)sqlite3_column_text(stmt, 0));
	sqlite3_finalize(stmt);
	return value;
}

/* The load in progress: one transaction, all of it or (the process dying
 * before COMMIT) none of it. */
static sqlite3_stmt *insert_row, *insert_profile;
static const char *insert_load_id;

/* Prepares an INSERT into `table` of the dimensions and `count` more
 * columns, `columns`. */
static sqlite3_stmt *prepare_insert(struct cprof_store *store, const char *table,
				    const char *columns, size_t count)
{
	GString *sql = g_string_new(NULL);
	sqlite3_stmt *stmt;
	size_t d;

	g_string_printf(sql, "INSERT INTO %s (", table);
	for (d = 0; d < store->num_dims; d++)
		g_string_append_printf(sql, "\"%s\", ", store->dims[d]);
	g_string_append_printf(sql, "%s) VALUES (", columns);
	for (d = 0; d < store->num_dims + count; d++)
		g_string_append(sql, d ? ", ?" : "?");
	g_string_append(sql, ")");
	if (sqlite3_prepare_v2(db_of(store), sql->str, -1, &stmt, NULL) != SQLITE_OK)
		die_db(store, "insert");
	g_string_free(sql, TRUE);
	return stmt;
}

static void load_begin(struct cprof_store *store, const char *load_id)
{
	exec(store, "BEGIN");
	insert_row = prepare_insert(store, "rows", CPROF_STORE_ROW_COLUMNS, 9);
	insert_profile = prepare_insert(store, "profiles", CPROF_STORE_PROFILE_COLUMNS, 9);
	insert_load_id = load_id;
}

/* Binds the columns every table starts with (the dimensions, date,
 * profile, load_id, seq) to `stmt`; returns the next column. */
static int bind_profile(struct cprof_store *store, sqlite3_stmt *stmt,
			const struct cprof_store_profile *prof)
{
	int col = 1;
	size_t d;

	for (d = 0; d < store->num_dims; d++)
		sqlite3_bind_text(stmt, col++, prof->dims[d], -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, col++, prof->date, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, col++, prof->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, col++, insert_load_id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, col++, prof->seq);
	return col;
}

static void step(struct cprof_store *store, sqlite3_stmt *stmt)
{
	if (sqlite3_step(stmt) != SQLITE_DONE)
		die_db(store, "insert");
	sqlite3_reset(stmt);
}

static void load_profile(struct cprof_store *store, const struct cprof_store_profile *prof)
{
	const char *kind = cprof_by_name(prof->dist->by);
	size_t i;
	int col = bind_profile(store, insert_profile, prof);

	sqlite3_bind_text(insert_profile, col++, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(insert_profile, col++, prof->sample_type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(insert_profile, col++, prof->period_us);
	sqlite3_bind_int64(insert_profile, col++, (sqlite3_int64)prof->total);
	sqlite3_bind_int64(insert_profile, col++, (sqlite3_int64)prof->dist->entries.len);
	step(store, insert_profile);
	col = bind_profile(store, insert_row, prof);
	sqlite3_bind_text(insert_row, col + 3, prof->sample_type, -1, SQLITE_STATIC);
	sqlite3_bind_int64(insert_row, col + 4, prof->period_us);
	sqlite3_bind_text(insert_row, col, kind, -1, SQLITE_STATIC);
	for (i = 0; i < prof->dist->entries.len; i++) {
		const struct cprof_entry *entry = prof->dist->entries.items[i];

		sqlite3_bind_text(insert_row, col + 1, entry->key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(insert_row, col + 2, (sqlite3_int64)entry->count);
		step(store, insert_row);
	}
}

static void load_commit(struct cprof_store *store, size_t profiles)
{
	sqlite3_finalize(insert_row);
	sqlite3_finalize(insert_profile);
	insert_row = insert_profile = NULL;
	exec(store, "COMMIT");
}

static void select_rows(struct cprof_store *store, const char *sql, size_t columns,
			cprof_store_row_fn *fn, void *data)
{
	const char **values = cprof_xcalloc(columns ? columns : 1, sizeof(*values));
	sqlite3_stmt *stmt;
	size_t i;
	int rc;

	if (sqlite3_prepare_v2(db_of(store), sql, -1, &stmt, NULL) != SQLITE_OK)
		die_db(store, "query");
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		for (i = 0; i < columns; i++)
			values[i] = (const char *)sqlite3_column_text(stmt, (int)i);
		fn(data, values, columns);
	}
	if (rc != SQLITE_DONE)
		die_db(store, "query");
	sqlite3_finalize(stmt);
	free(values);
}

static char *where_kind(struct cprof_store *store, const char *kind)
{
	char *q = quote(kind), *sql = g_strdup_printf("kind = %s", q);

	free(q);
	return sql;
}

/* Every column is text already (a date too). */
static char *as_text(const char *column)
{
	return g_strdup(column);
}

/* The profiles' columns are in the rows too: keys_sql needs no join. */

static char *keys_sql(struct cprof_store *store, const char *const *groups, size_t num_groups,
		      const char *where, bool of_profile)
{
	GString *sql = g_string_new("SELECT "), *by = g_string_new(NULL);
	size_t i;

	for (i = 0; i < num_groups; i++) {
		g_string_append_printf(sql, "%s AS c%zu, ", groups[i], i);
		g_string_append_printf(by, "%s, ", groups[i]);
	}
	g_string_append_printf(sql, "key AS c%zu, sum(count) AS c%zu FROM rows WHERE %s GROUP BY %skey",
			       i, i + 1, where, by->str);
	g_string_free(by, TRUE);
	return g_string_free(sql, FALSE);
}

static void select_all(struct cprof_store *store, const struct cprof_store_query *queries,
		       size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		select_rows(store, queries[i].sql, queries[i].columns, queries[i].fn, queries[i].data);
}

static struct cprof_ptrs *missing_shards(struct cprof_store *store)
{
	return NULL;
}

static void close_db(struct cprof_store *store)
{
	sqlite3_close(db_of(store));
}

/* Creates the store's file 0600 (less where the umask says so) when it
 * is not there: SQLite would make it 0644, and its journal follows the
 * file's mode.  An existing file is SQLite's to judge. */
static void create_private(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

	if (fd >= 0)
		close(fd);
	else if (errno != EEXIST)
		cprof_die("%s: cannot create: %s", path, strerror(errno));
}

void cprof_store_sqlite_open(struct cprof_store *store, const char *path, bool create)
{
	struct stat st;
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	if (!create && stat(path, &st) != 0)
		cprof_die("%s: no store here (cprof-store init makes one)", path);
	if (create)
		create_private(path);
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s", db ? sqlite3_errmsg(db) : "cannot open");
		sqlite3_close(db);
		cprof_die("%s: %s", path, msg);
	}
	sqlite3_busy_timeout(db, 60000);
	store->impl = db;
}

const struct cprof_store_ops cprof_store_sqlite = {
	.name = "sqlite",
	.load_column = "load_id",
	.init = init,
	.meta = meta,
	.load_begin = load_begin,
	.load_profile = load_profile,
	.load_commit = load_commit,
	.where_kind = where_kind,
	.as_text = as_text,
	.keys_sql = keys_sql,
	.select_all = select_all,
	.quote = quote,
	.missing_shards = missing_shards,
	.close = close_db,
};
