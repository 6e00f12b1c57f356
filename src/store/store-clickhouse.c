/* store-clickhouse.c: cprof-store on a ClickHouse server or cluster, through
 * clickhouse-client (Native in, JSONEachRow out). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <jansson.h>

#include "native.h"
#include "store.h"
#include "store-batch.h"
#include "base/util.h"

struct server {
	char *host;
	char *port;
};

struct clickhouse {
	struct server server;  /* the one the URL names */
	char *database;
	char *cluster;         /* from the store's metadata, or NULL */
	bool no_database;      /* connect to "default" (to create the database) */
	GHashTable *meta;      /* the store's metadata, read once */
	GPtrArray *servers;    /* struct shard *: its cluster's, read with it */
	struct cprof_ptrs *missing;    /* the shards missing at the last select_all */
};

static struct clickhouse *ch_of(struct cprof_store *store)
{
	return store->impl;
}

/* The client's error, in one line: its "Code: N. ..." line when there is
 * one, else its first line. */
static char *client_error(int fd)
{
	char buf[4096], *line, *save = NULL, *pick = NULL;
	ssize_t n;

	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!pick && *line)
			pick = line;
		if (strstr(line, "Code: ")) {
			pick = strstr(line, "Code: ");
			break;
		}
	}
	return cprof_xstrdup(pick ? pick : "clickhouse-client failed");
}

struct client {
	pid_t pid;
	int err_fd;            /* the client's stderr, a temporary file */
	FILE *io;              /* its stdin (insert) or stdout (select) */
};

/* How a client is run: an INSERT on its command line, fed its data on a
 * pipe to its standard input; or any other statement read from its
 * standard input, a file, whatever its length (a command line holds
 * 128 KiB), and what it prints read from a pipe or thrown away. */
enum client_mode { CLIENT_INSERT, CLIENT_SELECT, CLIENT_RUN };

/* A new temporary file, unlinked, holding `text` (NULL: empty), at its
 * start. */
static int temp_file(struct cprof_store *store, const char *text)
{
	const char *tmpdir = getenv("TMPDIR");
	char *path;
	size_t len = text ? strlen(text) : 0, done = 0;
	int fd;

	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	path = g_strdup_printf("%s/cprof-store.XXXXXX", tmpdir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		cprof_die("%s: a temporary file in %s: %s", store->url, tmpdir, strerror(errno));
	unlink(path);
	g_free(path);
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			cprof_die("%s: a temporary file in %s: %s", store->url, tmpdir,
				  strerror(errno));
		done += (size_t)n;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* Starts clickhouse-client on `server` for `query` as `mode` says;
 * `setting`: one more of the client's options, or NULL.  Spawned, not
 * forked: a load's shard threads may hold malloc's locks, which a forked
 * child would inherit held.  A client that cannot run leaves its error
 * in err_fd and no process (pid -1). */
static void client_start(struct cprof_store *store, const struct server *server,
			 const char *query, enum client_mode mode, const char *setting,
			 struct client *client)
{
	const char *program = getenv("CPROF_CLICKHOUSE_CLIENT");
	bool writing = mode == CLIENT_INSERT;
	int fds[2], query_fd = writing ? -1 : temp_file(store, query), status;
	char *host, *port, *database = NULL;
	const char *argv[12];
	size_t n = 0;
	posix_spawn_file_actions_t actions;

	if (!program || !*program)
		program = "clickhouse-client";
	client->err_fd = temp_file(store, NULL);
	if (pipe2(fds, O_CLOEXEC) != 0)
		cprof_die("%s: pipe: %s", store->url, strerror(errno));
	argv[n++] = program;
	argv[n++] = host = g_strdup_printf("--host=%s", server->host);
	argv[n++] = port = g_strdup_printf("--port=%s", server->port);
	argv[n++] = ch_of(store)->no_database ? "--database=default" :
		    (database = g_strdup_printf("--database=%s", ch_of(store)->database));
	argv[n++] = "--skip_unavailable_shards=1";
	argv[n++] = "--insert_distributed_sync=1";
	argv[n++] = "--output_format_json_quote_64bit_integers=0";
	argv[n++] = "--max_insert_block_size=1048576";
	if (setting)
		argv[n++] = setting;
	if (writing) {
		argv[n++] = "--query";
		argv[n++] = query;
	}
	argv[n] = NULL;
	if (posix_spawn_file_actions_init(&actions) != 0)
		cprof_die_oom();
	posix_spawn_file_actions_adddup2(&actions, writing ? fds[0] : query_fd, 0);
	if (mode == CLIENT_SELECT)
		posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
	else
		posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&actions, client->err_fd, 2);
	status = posix_spawnp(&client->pid, program, &actions, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	g_free(host);
	g_free(port);
	g_free(database);
	if (status != 0) {
		client->pid = -1;
		dprintf(client->err_fd, "cannot run %s: %s\n", program, strerror(status));
	}
	if (query_fd >= 0)
		close(query_fd);
	close(fds[writing ? 0 : 1]);
	client->io = fdopen(fds[writing ? 1 : 0], writing ? "w" : "r");
	if (!client->io)
		cprof_die_oom();
}

/* Waits for the client; returns NULL when it succeeded, else its error
 * (newly allocated). */
static char *client_finish(struct client *client)
{
	char *error = NULL;
	int status;

	if (client->io)
		fclose(client->io);
	while (client->pid > 0 && waitpid(client->pid, &status, 0) < 0 && errno == EINTR)
		continue;
	if (client->pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		error = client_error(client->err_fd);
	close(client->err_fd);
	return error;
}

static void __attribute__((noreturn)) die_client(struct cprof_store *store,
						const struct server *server, char *error)
{
	if (strstr(error, "Code: 210.") || strstr(error, "Code: 209.") ||
	    strstr(error, "cannot run"))
		cprof_die("%s: %s:%s does not answer: %s", store->url, server->host, server->port,
			  error);
	cprof_die("%s: %s", store->url, error);
}

/* Runs a statement that returns nothing on `server`; returns its error or
 * NULL. */
static char *run_on(struct cprof_store *store, const struct server *server, const char *sql)
{
	struct client client;

	client_start(store, server, sql, CLIENT_RUN, NULL, &client);
	return client_finish(&client);
}

static void run(struct cprof_store *store, const struct server *server, const char *sql)
{
	char *error = run_on(store, server, sql);

	if (error)
		die_client(store, server, error);
}

static char *quote(const char *s)
{
	GString *q = g_string_new("'");

	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			g_string_append_c(q, '\\');
		g_string_append_c(q, *s);
	}
	g_string_append_c(q, '\'');
	return g_string_free(q, FALSE);
}

struct select_state {
	size_t columns;
	cprof_store_row_fn *fn;
	void *data;
	char **values;
	char *bad;
};

/* Runs a SELECT on `server` and hands each row to `fn`; returns the
 * client's error or NULL. */
/* Starts a SELECT on `server`, in JSONEachRow. */
static void select_start(struct cprof_store *store, const struct server *server, const char *sql,
			 struct client *client)
{
	char *query = g_strdup_printf("%s FORMAT JSONEachRow", sql);

	client_start(store, server, query, CLIENT_SELECT, NULL, client);
	g_free(query);
}

/* Column i of a JSON row as text (newly allocated), or NULL for null. */
static char *column_text(struct cprof_store *store, json_t *row, size_t i)
{
	char name[24];
	json_t *value;

	snprintf(name, sizeof(name), "c%zu", i);
	value = json_object_get(row, name);
	if (json_is_string(value))
		return cprof_xstrdup(json_string_value(value));
	if (json_is_integer(value))
		return g_strdup_printf("%" JSON_INTEGER_FORMAT, json_integer_value(value));
	if (value && !json_is_null(value))
		cprof_die("%s: clickhouse-client printed a column %s of an unexpected type",
			  store->url, name);
	return NULL;
}

/* Hands each row the client of a select_start prints to `fn`; returns
 * the client's error or NULL. */
static char *select_finish(struct cprof_store *store, struct client *client, size_t columns,
			   cprof_store_row_fn *fn, void *data)
{
	const char **values = cprof_xcalloc(columns ? columns : 1, sizeof(*values));
	char **texts = cprof_xcalloc(columns ? columns : 1, sizeof(*texts));
	char *line = NULL;
	size_t cap = 0, i;
	ssize_t len;

	while ((len = getline(&line, &cap, client->io)) > 0) {
		json_error_t jerr;
		json_t *row = json_loadb(line, (size_t)len, 0, &jerr);

		if (!row || !json_is_object(row))
			cprof_die("%s: clickhouse-client printed what is not a JSON row: %.60s",
				  store->url, line);
		for (i = 0; i < columns; i++) {
			free(texts[i]);
			texts[i] = column_text(store, row, i);
			values[i] = texts[i];
		}
		fn(data, values, columns);
		json_decref(row);
	}
	free(line);
	for (i = 0; i < columns; i++)
		free(texts[i]);
	free(texts);
	free(values);
	return client_finish(client);
}

/* Runs a SELECT on `server` and hands each row to `fn`; returns the
 * client's error or NULL. */
static char *select_on(struct cprof_store *store, const struct server *server, const char *sql,
		       size_t columns, cprof_store_row_fn *fn, void *data)
{
	struct client client;

	select_start(store, server, sql, &client);
	return select_finish(store, &client, columns, fn, data);
}

static void select_rows(struct cprof_store *store, const char *sql, size_t columns,
			cprof_store_row_fn *fn, void *data)
{
	char *error = select_on(store, &ch_of(store)->server, sql, columns, fn, data);

	if (error)
		die_client(store, &ch_of(store)->server, error);
}

struct shard {
	char *num;
	struct server server;
	long replica;
};

static void add_shard(void *data, const char *const *values, size_t count)
{
	struct shard *shard = cprof_xcalloc(1, sizeof(*shard));

	shard->num = cprof_xstrdup(values[0] ? values[0] : "");
	shard->server.host = cprof_xstrdup(values[1] ? values[1] : "");
	shard->server.port = cprof_xstrdup(values[2] ? values[2] : "");
	shard->replica = count > 3 && values[3] ? strtol(values[3], NULL, 10) : 0;
	g_ptr_array_add(data, shard);
}

static void free_shard(void *data)
{
	struct shard *shard = data;

	free(shard->num);
	free(shard->server.host);
	free(shard->server.port);
	free(shard);
}

/* The servers of `cluster` as the URL's server knows them, every replica
 * of every shard. */
static GPtrArray *cluster_servers(struct cprof_store *store, const char *cluster)
{
	GPtrArray *shards = g_ptr_array_new_with_free_func(free_shard);
	char *q = quote(cluster);
	char *sql = g_strdup_printf("SELECT toString(shard_num) AS c0, host_address AS c1, "
				    "toString(port) AS c2 FROM system.clusters WHERE cluster = %s "
				    "ORDER BY shard_num, replica_num", q);

	ch_of(store)->no_database = true;
	select_rows(store, sql, 3, add_shard, shards);
	ch_of(store)->no_database = false;
	g_free(sql);
	free(q);
	return shards;
}

/* Creates `table` of the dimensions and `columns` on `server`, ordered
 * by kind, the dimensions, the date and then `last`; on a cluster,
 * `table`_local and over it a Distributed `table` that puts a profile's
 * rows on one shard, so that a shard that does not answer takes whole
 * profiles out of an answer, never half. */
static void create_table(struct cprof_store *store, const struct server *server,
			 const char *table, const char *columns, const char *last,
			 const char *const *dims, size_t num_dims, const char *cluster)
{
	struct clickhouse *ch = ch_of(store);
	GString *cols = g_string_new(NULL), *order = g_string_new("kind");
	char *sql, *q;
	size_t i;

	for (i = 0; i < num_dims; i++) {
		g_string_append_printf(cols, "\"%s\" String, ", dims[i]);
		g_string_append_printf(order, ", \"%s\"", dims[i]);
	}
	g_string_append(cols, columns);
	g_string_append_printf(order, ", date, %s", last);
	sql = g_strdup_printf("CREATE TABLE %s%s (%s) ENGINE = MergeTree() PARTITION BY "
			      "toYYYYMM(date) ORDER BY (%s)", table, cluster ? "_local" : "",
			      cols->str, order->str);
	run(store, server, sql);
	g_free(sql);
	if (cluster) {
		q = quote(cluster);
		sql = g_strdup_printf("CREATE TABLE %s AS %s_local ENGINE = Distributed(%s, \"%s\", "
				      "%s_local, cityHash64(load, seq))", table, table, q,
				      ch->database, table);
		run(store, server, sql);
		g_free(sql);
		free(q);
	}
	g_string_free(cols, TRUE);
	g_string_free(order, TRUE);
}

/* Writes the store's metadata on one server. */
static void write_meta(struct cprof_store *store, const struct server *server,
		       const char *const *dims, const char *cluster, const char *shard)
{
	char *joined = g_strjoinv(",", (char **)dims), *qd = quote(joined);
	char *qc = quote(cluster ? cluster : ""), *qs = quote(shard ? shard : "");
	char *sql = g_strdup_printf("INSERT INTO cprof_meta VALUES ('dims', %s), ('version', '"
				    CPROF_STORE_VERSION "'), ('cluster', %s), ('shard', %s)",
				    qd, qc, qs);

	run(store, server, sql);
	g_free(sql);
	free(qc);
	free(qs);
	free(qd);
	g_free(joined);
}

/* Creates one server's database and tables. */
static void create_tables(struct cprof_store *store, const struct server *server,
			  const char *const *dims, size_t num_dims, const char *cluster,
			  const char *shard)
{
	struct clickhouse *ch = ch_of(store);
	char *sql = g_strdup_printf("CREATE DATABASE IF NOT EXISTS \"%s\"", ch->database);

	ch->no_database = true;
	run(store, server, sql);
	ch->no_database = false;
	g_free(sql);
	run(store, server, "CREATE TABLE cprof_meta (name String, value String) ENGINE = TinyLog");
	/* The committed loads: a query sees the rows of these only. */
	run(store, server, "CREATE TABLE loads (load_id String, load UInt64, time DateTime, "
			   "profiles UInt64, rows UInt64) ENGINE = MergeTree() ORDER BY load_id");
	/* A row carries its profile's load and seq, not the profile's own
	 * columns: those are in profiles, joined when a query names them.
	 * The rows are ordered by strings that a load can sort them by
	 * (load_profile sends them in this order, which spares the server
	 * its sort); key_id is what queries group by. */
	create_table(store, server, "rows",
		     "date Date, load UInt64, seq UInt32, kind String, key String, count UInt64, "
		     "key_id UInt64 DEFAULT cityHash64(key)",
		     "key", dims, num_dims, cluster);
	create_table(store, server, "profiles",
		     "date Date, profile String, load_id String, load UInt64, seq UInt32, "
		     "kind String, sample_type String, period_us Int64, total UInt64, num_keys UInt64",
		     "profile", dims, num_dims, cluster);
	write_meta(store, server, dims, cluster, shard);
}

static void init(struct cprof_store *store, const char *const *dims, size_t num_dims,
		 const char *cluster)
{
	struct clickhouse *ch = ch_of(store);
	GPtrArray *shards;
	guint i;

	if (!cluster) {
		create_tables(store, &ch->server, dims, num_dims, NULL, NULL);
		return;
	}
	shards = cluster_servers(store, cluster);
	if (shards->len == 0)
		cprof_die("%s: --cluster %s: no such cluster in the server's remote_servers",
			  store->url, cluster);
	for (i = 0; i < shards->len; i++) {
		const struct shard *shard = g_ptr_array_index(shards, i);

		create_tables(store, &shard->server, dims, num_dims, cluster, shard->num);
	}
	g_ptr_array_free(shards, TRUE);
}

static void collect_meta(void *data, const char *const *values, size_t count)
{
	struct clickhouse *ch = data;

	if (!values[0] || !values[1] || !values[2] || !values[3] || !values[4])
		return;
	if (strcmp(values[0], "") != 0) {
		g_hash_table_insert(ch->meta, g_strdup(values[0]), g_strdup(values[1]));
	} else {
		const char *const server[] = { values[1], values[2], values[3], values[4] };

		add_shard(ch->servers, server, 4);
	}
}

static int shard_cmp(const void *a, const void *b)
{
	const struct shard *x = *(struct shard *const *)a, *y = *(struct shard *const *)b;
	long nx = strtol(x->num, NULL, 10), ny = strtol(y->num, NULL, 10);

	return nx < ny ? -1 : nx > ny ? 1 : x->replica < y->replica ? -1 : x->replica > y->replica;
}

static char *meta(struct cprof_store *store, const char *name)
{
	struct clickhouse *ch = ch_of(store);
	const char *value;
	char *error;

	if (!ch->meta) {
		ch->meta = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
		ch->servers = g_ptr_array_new_with_free_func(free_shard);
		/* The store's cluster as the server knows it comes with it, in
		 * one call of the client. */
		error = select_on(store, &ch->server,
				  "SELECT name AS c0, value AS c1, '' AS c2, '' AS c3, 0 AS c4 "
				  "FROM cprof_meta UNION ALL SELECT '', toString(shard_num), "
				  "host_address, toString(port), replica_num FROM system.clusters "
				  "WHERE cluster IN (SELECT value FROM cprof_meta WHERE name = 'cluster')",
				  5, collect_meta, ch);
		if (error) {
			/* No such table or database: no store, which the caller says. */
			if (strstr(error, "Code: 60.") || strstr(error, "Code: 81.")) {
				free(error);
				g_hash_table_destroy(ch->meta);
				ch->meta = NULL;
				g_ptr_array_free(ch->servers, TRUE);
				ch->servers = NULL;
				return NULL;
			}
			die_client(store, &ch->server, error);
		}
	}
	g_ptr_array_sort(ch->servers, shard_cmp);
	value = g_hash_table_lookup(ch->meta, name);
	return value ? cprof_xstrdup(value) : NULL;
}

/* A block of ClickHouse's Native format (native.h), the client's cheapest
 * input, whose columns are filled a row at a time and sent when it holds
 * BLOCK_ROWS of them: the profiles of a load.  Their rows go in sorted
 * batches (store-batch.h), written a column at a time. */
#define BLOCK_ROWS 65536

/* The day number of "YYYY-MM-DD" (days since 1970-01-01). */
static uint16_t day_number(const char *date)
{
	unsigned y, m, d;
	GDate day, epoch;

	if (sscanf(date, "%4u-%2u-%2u", &y, &m, &d) != 3)
		return 0;
	g_date_clear(&day, 1);
	g_date_clear(&epoch, 1);
	g_date_set_dmy(&day, (GDateDay)d, (GDateMonth)m, (GDateYear)y);
	g_date_set_dmy(&epoch, 1, 1, 1970);
	return (uint16_t)g_date_days_between(&epoch, &day);
}

/* The columns of a table a load fills: the dimensions, then the rest. */
struct table_block {
	struct cprof_native_block *block;
	size_t *dims;          /* each column's number */
	size_t date, profile, load_id, load, seq, kind, sample_type, period_us, total, num_keys;
};

/* The rows table's columns, in the order cprof_batch_write writes their
 * values: only their names and types are used here (the INSERT, the
 * batch's column heads). */
static void rows_block(struct table_block *t, const struct cprof_store *store)
{
	size_t d;

	t->block = cprof_native_block_new(store->num_dims + 6);
	for (d = 0; d < store->num_dims; d++)
		cprof_native_block_add(t->block, store->dims[d], "String");
	cprof_native_block_add(t->block, "date", "Date");
	cprof_native_block_add(t->block, "load", "UInt64");
	cprof_native_block_add(t->block, "seq", "UInt32");
	cprof_native_block_add(t->block, "kind", "String");
	cprof_native_block_add(t->block, "key", "String");
	cprof_native_block_add(t->block, "count", "UInt64");
}

static void profiles_block(struct table_block *t, const struct cprof_store *store)
{
	size_t d;

	t->block = cprof_native_block_new(store->num_dims + 11);
	t->dims = cprof_xcalloc(store->num_dims ? store->num_dims : 1, sizeof(*t->dims));
	for (d = 0; d < store->num_dims; d++)
		t->dims[d] = cprof_native_block_add(t->block, store->dims[d], "String");
	t->date = cprof_native_block_add(t->block, "date", "Date");
	t->profile = cprof_native_block_add(t->block, "profile", "String");
	t->load_id = cprof_native_block_add(t->block, "load_id", "String");
	t->load = cprof_native_block_add(t->block, "load", "UInt64");
	t->seq = cprof_native_block_add(t->block, "seq", "UInt32");
	t->kind = cprof_native_block_add(t->block, "kind", "String");
	t->sample_type = cprof_native_block_add(t->block, "sample_type", "String");
	t->period_us = cprof_native_block_add(t->block, "period_us", "Int64");
	t->total = cprof_native_block_add(t->block, "total", "UInt64");
	t->num_keys = cprof_native_block_add(t->block, "num_keys", "UInt64");
}

/* The INSERT of a table_block's columns into `table` (its local table on
 * a cluster), in Native. */
static char *insert_sql(struct cprof_store *store, const char *table,
			const struct cprof_native_block *block)
{
	const char *const *names = cprof_native_block_names(block);
	GString *sql = g_string_new(NULL);
	size_t i;

	g_string_printf(sql, "INSERT INTO %s%s (", table, ch_of(store)->cluster ? "_local" : "");
	for (i = 0; i < cprof_native_block_columns(block); i++)
		g_string_append_printf(sql, "%s\"%s\"", i ? ", " : "", names[i]);
	g_string_append(sql, ") FORMAT Native");
	return g_string_free(sql, FALSE);
}

/* The rows of a load go to their client from a thread of their own, a
 * sender, which sorts and writes one batch while the load fills the
 * other: reading the profiles and sending their rows go on at once. */
struct sender {
	GThread *thread;
	GAsyncQueue *full, *empty;     /* batches to send, and sent */
	struct cprof_batch *batches[2], *filling;
};

static char end_of_rows;               /* in `full`: nothing more to send */

/* One INSERT client of a load and the block it is fed next (for the
 * rows, the names of the block's columns and a sender). */
struct stream {
	struct client client;
	bool open;
	struct table_block t;
	struct sender *sender;
	struct cprof_native_out out;                /* to the client */
	char *sql;
};

/* A load in progress: on each shard, one client for the rows and one
 * for the profiles, every shard's at work at once. */
struct loader_shard {
	struct server server;
	struct stream rows, profiles;
	struct client commit;  /* INSERT INTO loads, fed once all is sent */
	bool committing;
};

static struct {
	struct cprof_store *store;
	const char *load_id;
	uint64_t load;                          /* load_number(load_id) */
	struct loader_shard *shards;
	size_t num_shards;
	unsigned long long rows;
} loading;

static void kill_stream(struct stream *stream)
{
	if (!stream->open)
		return;
	kill(stream->client.pid, SIGKILL);
	waitpid(stream->client.pid, NULL, 0);
	stream->open = false;
}

/* At exit before the commit (a profile that did not read): kill the
 * clients before they see the end of their input, so that the servers
 * drop what they were sent.  Rows a server had written already (it
 * writes a part every million rows) are not seen by queries anyway:
 * their load is not in the loads table. */
static void kill_clients(void)
{
	size_t i;

	for (i = 0; i < loading.num_shards; i++) {
		kill_stream(&loading.shards[i].rows);
		kill_stream(&loading.shards[i].profiles);
		if (loading.shards[i].committing) {
			kill(loading.shards[i].commit.pid, SIGKILL);
			waitpid(loading.shards[i].commit.pid, NULL, 0);
			loading.shards[i].committing = false;
		}
	}
}

/* The first replica of each shard of the store's cluster, or its one
 * server, into loading.shards. */
static void loading_servers(struct cprof_store *store)
{
	struct clickhouse *ch = ch_of(store);
	GPtrArray *servers = ch->servers;
	const char *last = NULL;
	guint i;

	loading.shards = cprof_xcalloc(servers && servers->len ? servers->len : 1,
				       sizeof(*loading.shards));
	if (!ch->cluster) {
		loading.shards[0].server.host = cprof_xstrdup(ch->server.host);
		loading.shards[0].server.port = cprof_xstrdup(ch->server.port);
		loading.num_shards = 1;
		return;
	}
	for (i = 0; i < servers->len; i++) {
		const struct shard *shard = g_ptr_array_index(servers, i);

		if (last && strcmp(shard->num, last) == 0)
			continue;
		last = shard->num;
		loading.shards[loading.num_shards].server.host = cprof_xstrdup(shard->server.host);
		loading.shards[loading.num_shards].server.port = cprof_xstrdup(shard->server.port);
		loading.num_shards++;
	}
	if (loading.num_shards == 0)
		cprof_die("%s: cluster %s has no shard", store->url, ch->cluster);
}

/* The load's number, which rows carry in place of its id: the id's first
 * 16 hex digits (of a random UUID). */
static uint64_t load_number(const char *load_id)
{
	uint64_t n = 0;
	int digits = 0;
	const char *p;

	for (p = load_id; *p && digits < 16; p++) {
		if (!g_ascii_isxdigit(*p))
			continue;
		n = n << 4 | (uint64_t)g_ascii_xdigit_value(*p);
		digits++;
	}
	return n;
}

static void load_begin(struct cprof_store *store, const char *load_id)
{
	size_t i;

	loading.store = store;
	loading.load_id = load_id;
	loading.load = load_number(load_id);
	loading_servers(store);
	for (i = 0; i < loading.num_shards; i++) {
		struct loader_shard *shard = &loading.shards[i];

		rows_block(&shard->rows.t, store);
		shard->rows.sender = cprof_xcalloc(1, sizeof(*shard->rows.sender));
		shard->rows.sql = insert_sql(store, "rows", shard->rows.t.block);
		profiles_block(&shard->profiles.t, store);
		shard->profiles.sql = insert_sql(store, "profiles", shard->profiles.t.block);
	}
	atexit(kill_clients);
}

/* The sender's thread: writes the batches as they come, then closes the
 * client's input. */
static gpointer send_rows(gpointer data)
{
	struct stream *stream = data;
	struct sender *s = stream->sender;
	const struct cprof_native_block *columns = stream->t.block;
	void *b;

	while ((b = g_async_queue_pop(s->full)) != &end_of_rows) {
		cprof_batch_write(b, &stream->out, cprof_native_block_names(columns),
				  cprof_native_block_types(columns), loading.load);
		cprof_native_flush(&stream->out);
		g_async_queue_push(s->empty, b);
	}
	fclose(stream->client.io);
	stream->client.io = NULL;
	return NULL;
}

static void start_sender(struct stream *stream)
{
	struct sender *s = stream->sender;

	s->batches[0] = cprof_batch_new(loading.store->num_dims);
	s->batches[1] = cprof_batch_new(loading.store->num_dims);
	s->filling = s->batches[0];
	s->full = g_async_queue_new();
	s->empty = g_async_queue_new();
	g_async_queue_push(s->empty, s->batches[1]);
	s->thread = g_thread_new("cprof-store rows", send_rows, stream);
}

/* Waits for `stream`'s client, whose input is closed or whose sender
 * has stopped writing; dies with its error, or with the error of writing
 * to it, when there is one. */
static void wait_client(const struct server *server, struct stream *stream)
{
	int write_error = stream->out.error;
	char *error;

	stream->open = false;  /* waited for here: kill_clients leaves it */
	error = client_finish(&stream->client);
	if (error)
		die_client(loading.store, server, error);
	if (write_error)
		cprof_die("%s: %s:%s: writing to clickhouse-client: %s", loading.store->url,
			  server->host, server->port, strerror(write_error));
}

/* The batch to fill next: the one filling, or when `keys` more rows would
 * take it past a batch, the other, once it is sent.  A client gone (a
 * server's error) is seen there, as the sender found it writing that
 * one, and ends the load at once. */
static struct cprof_batch *batch_for(const struct server *server, struct stream *stream,
				     size_t keys)
{
	struct sender *s = stream->sender;

	if (cprof_batch_full(s->filling, keys)) {
		g_async_queue_push(s->full, s->filling);
		s->filling = g_async_queue_pop(s->empty);
		if (stream->out.error)
			wait_client(server, stream);
	}
	return s->filling;
}

/* Starts `stream`'s client, so that it is up when its first block is
 * sent.  The rows client keeps each block one part, as its sender
 * sorted it. */
static void open_stream(const struct server *server, struct stream *stream)
{
	if (stream->open)
		return;
	client_start(loading.store, server, stream->sql, CLIENT_INSERT,
		     stream->sender ? "--min_insert_block_size_rows=1" : NULL, &stream->client);
	stream->open = true;
	stream->out.fd = fileno(stream->client.io);
	if (stream->sender)
		start_sender(stream);
}

/* Ends a row of `stream`'s block, sending the block when it is full. */
static void end_row(struct stream *stream)
{
	if (cprof_native_block_end_row(stream->t.block) == BLOCK_ROWS)
		cprof_native_block_write(stream->t.block, &stream->out);
}

/* The columns every table starts with: the dimensions, date, load, seq. */
static void put_head(struct table_block *t, const struct cprof_store *store,
		     const char *const *dims, uint16_t day, uint32_t seq)
{
	size_t d;

	for (d = 0; d < store->num_dims; d++)
		cprof_native_block_string(t->block, t->dims[d], dims[d]);
	cprof_native_block_uint(t->block, t->date, day, 2);
	cprof_native_block_uint(t->block, t->load, loading.load, 8);
	cprof_native_block_uint(t->block, t->seq, seq, 4);
}

static void load_profile(struct cprof_store *store, const struct cprof_store_profile *prof)
{
	/* Profiles go round the shards, each whole to one, and the sample
	 * types of one operand to the same. */
	struct loader_shard *shard = &loading.shards[prof->place % loading.num_shards];
	struct table_block *t = &shard->profiles.t;
	const char *kind = cprof_by_name(prof->dist->by);
	size_t i, n = prof->dist->entries.len;
	uint16_t day = day_number(prof->date);
	struct cprof_batch *b;
	uint32_t head;

	open_stream(&shard->server, &shard->profiles);
	put_head(t, store, prof->dims, day, prof->seq);
	cprof_native_block_string(t->block, t->profile, prof->name);
	cprof_native_block_string(t->block, t->load_id, loading.load_id);
	cprof_native_block_string(t->block, t->kind, kind);
	cprof_native_block_string(t->block, t->sample_type, prof->sample_type);
	cprof_native_block_uint(t->block, t->period_us, (uint64_t)prof->period_us, 8);
	cprof_native_block_uint(t->block, t->total, prof->total, 8);
	cprof_native_block_uint(t->block, t->num_keys, n, 8);
	end_row(&shard->profiles);
	if (n == 0)
		return;
	open_stream(&shard->server, &shard->rows);
	b = batch_for(&shard->server, &shard->rows, n);
	head = cprof_batch_head(b, prof->dims, kind, day, prof->seq);
	for (i = 0; i < n; i++) {
		const struct cprof_entry *entry = prof->dist->entries.items[i];

		cprof_batch_add(b, head, entry->key, entry->count);
	}
	loading.rows += n;
}

/* Closes the client's input once what is left is sent: the profiles'
 * block here, the rows' last batch by their sender.  finish_stream
 * waits for it. */
static void close_stream(struct stream *stream)
{
	struct sender *s = stream->sender;

	if (!stream->open)
		return;
	if (!s) {
		cprof_native_block_write(stream->t.block, &stream->out);
		cprof_native_flush(&stream->out);
		fclose(stream->client.io);
		stream->client.io = NULL;
		return;
	}
	if (cprof_batch_rows(s->filling))
		g_async_queue_push(s->full, s->filling);
	g_async_queue_push(s->full, &end_of_rows);
}

static void free_sender(struct sender *s)
{
	if (s->thread) {
		cprof_batch_free(s->batches[0]);
		cprof_batch_free(s->batches[1]);
		g_async_queue_unref(s->full);
		g_async_queue_unref(s->empty);
	}
	free(s);
}

/* Waits for the stream's sender and client; dies on an error of either. */
static void finish_stream(const struct server *server, struct stream *stream)
{
	struct sender *s = stream->sender;

	if (stream->open) {
		if (s)
			g_thread_join(s->thread);
		wait_client(server, stream);
	}
	if (s)
		free_sender(s);
	cprof_native_block_free(stream->t.block);
	free(stream->t.dims);
	g_free(stream->sql);
}

/* Waits for the INSERT INTO loads of each shard, fed already; dies on
 * the first that failed, saying on how many shards the load is seen. */
static void finish_commits(struct cprof_store *store)
{
	size_t i, marked = 0;
	char *error;

	for (i = 0; i < loading.num_shards; i++) {
		struct loader_shard *shard = &loading.shards[i];

		shard->committing = false;
		error = client_finish(&shard->commit);
		if (error) {
			if (marked)
				cprof_die("%s: %s:%s: %s (load %s is seen on %zu of the %zu shards)",
					  store->url, shard->server.host, shard->server.port, error,
					  loading.load_id, marked, loading.num_shards);
			die_client(store, &shard->server, error);
		}
		marked++;
	}
}

static void load_commit(struct cprof_store *store, size_t profiles)
{
	char *q = quote(loading.load_id);
	size_t i;

	/* Every client's input is closed before any is waited for, so that
	 * the shards take their last blocks at once; the clients that commit
	 * start meanwhile, and are fed the load's row in the loads table only
	 * when every shard has all its rows.  Each shard learns the load is
	 * whole, so that its rows are seen even when another does not
	 * answer. */
	for (i = 0; i < loading.num_shards; i++) {
		struct loader_shard *shard = &loading.shards[i];

		close_stream(&shard->rows);
		close_stream(&shard->profiles);
		client_start(store, &shard->server, "INSERT INTO loads FORMAT Values", CLIENT_INSERT, NULL,
			     &shard->commit);
		shard->committing = true;
	}
	for (i = 0; i < loading.num_shards; i++) {
		finish_stream(&loading.shards[i].server, &loading.shards[i].rows);
		finish_stream(&loading.shards[i].server, &loading.shards[i].profiles);
	}
	for (i = 0; i < loading.num_shards; i++) {
		struct client *commit = &loading.shards[i].commit;

		fprintf(commit->io, "(%s, %" PRIu64 ", now(), %zu, %llu)\n", q, loading.load,
			profiles, loading.rows);
		fclose(commit->io);
		commit->io = NULL;
	}
	finish_commits(store);
	free(q);
	for (i = 0; i < loading.num_shards; i++) {
		free(loading.shards[i].server.host);
		free(loading.shards[i].server.port);
	}
	free(loading.shards);
	loading.shards = NULL;
	loading.num_shards = 0;
}

static void add_missing(void *data, const char *const *values, size_t count)
{
	struct cprof_ptrs *missing = data;

	/* One line per replica: a shard is missing when none answered, and
	 * is named once, by its first replica. */
	if (!values[0] || !values[3] || strcmp(values[3], "0") != 0)
		return;
	if (missing->len && g_str_has_prefix(missing->items[missing->len - 1],
					     values[0]) &&
	    ((char *)missing->items[missing->len - 1])[strlen(values[0])] == ' ')
		return;
	cprof_ptrs_add(missing, g_strdup_printf("%s (%s:%s)", values[0], values[1], values[2]));
}

/* The query of the shards that answer: each server wrote its shard's
 * number into its own cprof_meta at init, and the numbers that come back
 * are the shards that answered (newly allocated). */
static char *shards_sql(struct cprof_store *store)
{
	struct clickhouse *ch = ch_of(store);
	char *qc = quote(ch->cluster), *qd = quote(ch->database), *sql;

	sql = g_strdup_printf("SELECT toString(shard_num) AS c0, host_address AS c1, "
			      "toString(port) AS c2, toString(shard_num IN (SELECT toUInt32(value) "
			      "FROM cluster(%s, %s, 'cprof_meta') WHERE name = 'shard')) AS c3 "
			      "FROM system.clusters WHERE cluster = %s ORDER BY shard_num, replica_num",
			      qc, qd, qc);
	free(qc);
	free(qd);
	return sql;
}

/* The shards that did not answer: asked with the last select_all's
 * queries, or now. */
static struct cprof_ptrs *missing_shards(struct cprof_store *store)
{
	struct clickhouse *ch = ch_of(store);
	struct cprof_ptrs *missing = ch->missing;
	char *sql, *error;

	if (!ch->cluster)
		return NULL;
	ch->missing = NULL;
	if (!missing) {
		missing = cprof_xcalloc(1, sizeof(*missing));
		sql = shards_sql(store);
		error = select_on(store, &ch->server, sql, 4, add_missing, missing);
		if (error)
			die_client(store, &ch->server, error);
		g_free(sql);
	}
	if (missing->len == 0) {
		free(missing);
		return NULL;
	}
	return missing;
}

/* Starts every query at once, so that the servers work on all of them
 * while the first one's rows are read; on a cluster, the question of
 * which shards answered goes with them. */
static void select_all(struct cprof_store *store, const struct cprof_store_query *queries,
		       size_t count)
{
	struct clickhouse *ch = ch_of(store);
	struct client *clients = cprof_xcalloc(count + 1, sizeof(*clients));
	char *error, *shards = ch->cluster ? shards_sql(store) : NULL;
	size_t i;

	for (i = 0; i < count; i++)
		select_start(store, &ch->server, queries[i].sql, &clients[i]);
	if (shards)
		select_start(store, &ch->server, shards, &clients[count]);
	for (i = 0; i < count; i++) {
		error = select_finish(store, &clients[i], queries[i].columns, queries[i].fn,
				      queries[i].data);
		if (error)
			die_client(store, &ch->server, error);
	}
	if (shards) {
		/* The shards that answered this SELECT replace those of an
		 * earlier one (a ratio asks twice: the types, then the counts). */
		cprof_store_missing_free(ch->missing);
		ch->missing = cprof_xcalloc(1, sizeof(*ch->missing));
		error = select_finish(store, &clients[count], 4, add_missing, ch->missing);
		if (error)
			die_client(store, &ch->server, error);
		g_free(shards);
	}
	free(clients);
}

/* The kind's rows of the committed loads (the kind leads the tables'
 * order, so that only its parts of them are read).  A load is known by
 * its number, the first 64 bits of its id: a collision between two loads
 * is taken as impossible (see cprof-store(1)).  The database is named in
 * full: a shard runs the subquery in its own default database. */
static char *where_kind(struct cprof_store *store, const char *kind)
{
	char *q = quote(kind);
	char *sql = g_strdup_printf("kind = %s AND load IN (SELECT load FROM "
				    "\"%s\".loads)", q,
				    ch_of(store)->database);

	free(q);
	return sql;
}

/* The profiles' rows, with the profile's columns joined when they are
 * asked for.  On a cluster each shard joins its own profiles: a
 * profile's rows are on the shard of its row of profiles (load_profile
 * puts both on one). */
static char *rows_from(struct cprof_store *store, bool of_profile)
{
	struct clickhouse *ch = ch_of(store);

	if (!of_profile)
		return g_strdup("rows");
	return g_strdup_printf("rows ANY INNER JOIN (SELECT load, seq, profile, sample_type FROM "
			       "\"%s\".%s) USING (load, seq)", ch->database,
			       ch->cluster ? "profiles_local" : "profiles");
}

static char *as_text(const char *column)
{
	return g_strdup_printf("toString(%s)", column);
}

/* Grouped by the CityHash64 of the group's values and by key_id, the
 * CityHash64 of the key, computed at load: ClickHouse sums under two
 * 64-bit numbers several times faster than under strings.  A collision
 * (two keys, or two groups' values, with one hash) would merge them; see
 * cprof-store(1), BACK ENDS. */
static char *keys_sql(struct cprof_store *store, const char *const *groups, size_t num_groups,
		      const char *where, bool of_profile)
{
	GString *sql = g_string_new("SELECT "), *by = g_string_new(NULL);
	char *from = rows_from(store, of_profile);
	size_t i;

	for (i = 0; i < num_groups; i++) {
		g_string_append_printf(sql, "toString(any(%s)) AS c%zu, ", groups[i], i);
		g_string_append_printf(by, "%s%s", i ? ", " : "cityHash64(", groups[i]);
	}
	if (num_groups)
		g_string_append(by, "), ");
	g_string_append_printf(sql, "any(key) AS c%zu, sum(count) AS c%zu FROM %s WHERE %s "
			       "GROUP BY %skey_id", i, i + 1, from, where, by->str);
	g_string_free(by, TRUE);
	g_free(from);
	return g_string_free(sql, FALSE);
}

static void close_db(struct cprof_store *store)
{
	struct clickhouse *ch = ch_of(store);

	if (!ch)
		return;
	free(ch->server.host);
	free(ch->server.port);
	free(ch->database);
	free(ch->cluster);
	if (ch->meta)
		g_hash_table_destroy(ch->meta);
	if (ch->servers)
		g_ptr_array_free(ch->servers, TRUE);
	cprof_store_missing_free(ch->missing);
	free(ch);
}

void cprof_store_clickhouse_open(struct cprof_store *store, const char *url, bool create)
{
	const char *rest = url + strlen("clickhouse://"), *slash, *colon;
	struct clickhouse *ch = cprof_xcalloc(1, sizeof(*ch));
	const char *p;

	slash = strchr(rest, '/');
	if (!slash)
		slash = rest + strlen(rest);
	colon = memchr(rest, ':', (size_t)(slash - rest));
	ch->server.host = g_strndup(rest, (gsize)((colon ? colon : slash) - rest));
	ch->server.port = colon ? g_strndup(colon + 1, (gsize)(slash - colon - 1)) : g_strdup("9000");
	ch->database = g_strdup(*slash && slash[1] ? slash + 1 : "cprof");
	store->impl = ch;
	if (!*ch->server.host)
		cprof_die("%s: no host (clickhouse://HOST[:PORT][/DATABASE])", url);
	for (p = ch->server.port; *p; p++)
		if (*p < '0' || *p > '9')
			break;
	if (!*ch->server.port || *p || strlen(ch->server.port) > 5)
		cprof_die("%s: the port is not a number (clickhouse://HOST[:PORT][/DATABASE])", url);
	for (p = ch->database; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (p > ch->database && *p >= '0' && *p <= '9')))
			cprof_die("%s: the database name must match [A-Za-z_][A-Za-z0-9_]*", url);
	if (!create) {
		char *cluster = meta(store, "cluster");

		if (cluster && *cluster)
			ch->cluster = cluster;
		else
			free(cluster);
	}
}

const struct cprof_store_ops cprof_store_clickhouse = {
	.name = "clickhouse",
	.load_column = "load",
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
