/* store-sqlite.c: cprof-store's embedded back end, a SQLite file. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include <glib.h>

#include "store.h"

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

static void init(struct cprof_store *store, const char *const *dims, size_t num_dims,
		 const char *cluster)
{
	GString *sql = g_string_new(NULL);
	char *joined, *q;
	size_t i;

	if (cluster)
		cprof_die("%s: --cluster: a SQLite store is one file, never a cluster", store->url);
	g_string_append(sql, "BEGIN;\nCREATE TABLE cprof_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
			     "CREATE TABLE rows (");
	for (i = 0; i < num_dims; i++)
		g_string_append_printf(sql, "\"%s\" TEXT NOT NULL, ", dims[i]);
	g_string_append(sql, "date TEXT NOT NULL, profile TEXT NOT NULL, load_id TEXT NOT NULL, "
			     "seq INTEGER NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, "
			     "count INTEGER NOT NULL, sample_type TEXT NOT NULL, "
			     "period_us INTEGER NOT NULL);\n"
			     "CREATE INDEX rows_by_date ON rows (kind, date);\n");
	joined = g_strjoinv(",", (char **)dims);
	q = quote(joined);
	g_string_append_printf(sql, "INSERT INTO cprof_meta VALUES ('dims', %s), ('version', '1');\nCOMMIT;", q);
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
static sqlite3_stmt *insert;
static const char *insert_load_id;

static void load_begin(struct cprof_store *store, const char *load_id)
{
	GString *sql = g_string_new("INSERT INTO rows (");
	size_t d;

	for (d = 0; d < store->num_dims; d++)
		g_string_append_printf(sql, "\"%s\", ", store->dims[d]);
	g_string_append(sql, CPROF_STORE_ROW_COLUMNS ") VALUES (");
	for (d = 0; d < store->num_dims + 9; d++)
		g_string_append(sql, d ? ", ?" : "?");
	g_string_append(sql, ")");
	exec(store, "BEGIN");
	if (sqlite3_prepare_v2(db_of(store), sql->str, -1, &insert, NULL) != SQLITE_OK)
		die_db(store, "insert");
	insert_load_id = load_id;
	g_string_free(sql, TRUE);
}

static void load_profile(struct cprof_store *store, const struct cprof_store_profile *prof)
{
	const char *kind = cprof_by_name(prof->dist->by);
	size_t d, i;

	for (i = 0; i < prof->dist->entries.len; i++) {
		const struct cprof_entry *entry = prof->dist->entries.items[i];
		int col = 1;

		for (d = 0; d < store->num_dims; d++)
			sqlite3_bind_text(insert, col++, prof->dims[d], -1, SQLITE_STATIC);
		sqlite3_bind_text(insert, col++, prof->date, -1, SQLITE_STATIC);
		sqlite3_bind_text(insert, col++, prof->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(insert, col++, insert_load_id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(insert, col++, prof->seq);
		sqlite3_bind_text(insert, col++, kind, -1, SQLITE_STATIC);
		sqlite3_bind_text(insert, col++, entry->key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(insert, col++, (sqlite3_int64)entry->count);
		sqlite3_bind_text(insert, col++, prof->sample_type, -1, SQLITE_STATIC);
		sqlite3_bind_int64(insert, col++, prof->period_us);
		if (sqlite3_step(insert) != SQLITE_DONE)
			die_db(store, "insert");
		sqlite3_reset(insert);
	}
}

static void load_commit(struct cprof_store *store, size_t profiles)
{
	sqlite3_finalize(insert);
	insert = NULL;
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

static char *visible(struct cprof_store *store)
{
	return NULL;
}

static struct cprof_ptrs *missing_shards(struct cprof_store *store)
{
	return NULL;
}

static void close_db(struct cprof_store *store)
{
	sqlite3_close(db_of(store));
}

void cprof_store_sqlite_open(struct cprof_store *store, const char *path, bool create)
{
	struct stat st;
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	if (!create && stat(path, &st) != 0)
		cprof_die("%s: no store here (cprof-store init makes one)", path);
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
	.init = init,
	.meta = meta,
	.load_begin = load_begin,
	.load_profile = load_profile,
	.load_commit = load_commit,
	.visible = visible,
	.select = select_rows,
	.quote = quote,
	.missing_shards = missing_shards,
	.close = close_db,
};
