/* collect.c: the rounds of cprof-collect.  A round draws its targets
 * (sample.c), fetches each one's profiles (fetch.c), keeps each as
 * received (outdir.c), stops starting fetches once too many targets
 * failed, loads what it kept (dbload.c), and prints what came of it. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <jansson.h>

#include "base/hash.h"
#include "base/jsonout.h"
#include "lib/profile.h"
#include "collect.h"
#include "dbload.h"
#include "fetch.h"
#include "local.h"
#include "outdir.h"
#include "sample.h"

/* A kind of profile and its handler under the target's URL. */
struct kind {
	const char *name;
	unsigned bit;
	const char *path;
};

static const struct kind kinds[] = {
	{ "cpu", CPROF_KIND_CPU, "/debug/pprof/profile?seconds=" },
	{ "heap", CPROF_KIND_HEAP, "/debug/pprof/heap" },
	{ "allocs", CPROF_KIND_ALLOCS, "/debug/pprof/allocs" },
	{ "mutex", CPROF_KIND_MUTEX, "/debug/pprof/mutex" },
	{ "block", CPROF_KIND_BLOCK, "/debug/pprof/block" },
	{ "goroutine", CPROF_KIND_GOROUTINE, "/debug/pprof/goroutine" },
};
#define NUM_KINDS (sizeof(kinds) / sizeof(kinds[0]))

int cprof_collect_kinds(const char *list, unsigned *out, struct cprof_error *err)
{
	const char *p = list;

	*out = 0;
	for (;;) {
		size_t len = strcspn(p, ","), k;

		for (k = 0; k < NUM_KINDS; k++)
			if (strlen(kinds[k].name) == len && strncmp(p, kinds[k].name, len) == 0)
				break;
		if (k == NUM_KINDS)
			return cprof_error_set(err, "'%.*s': not a kind (cpu, heap, allocs, mutex, block, goroutine)",
					       (int)len, p);
		*out |= kinds[k].bit;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* A profile kept in a round, to load and to put in the manifest. */
struct kept {
	char *path, *file;
	const struct cprof_target *target;
	size_t index;                  /* the target's, or SIZE_MAX: --local */
	const char *kind;
	char time[32], date[11], sha256[65];
	size_t bytes;
	double seconds;
	int loaded;                    /* -1 not tried, 0 failed, 1 loaded */
};

struct round {
	const struct cprof_collect_options *opts;
	const struct cprof_targets *targets;
	struct cprof_outdir *out;
	struct cprof_dbload *db;
	const char *stamp;             /* the run's start, in file names */
	unsigned number;
	size_t chosen, done, fetches, ok;
	uint64_t bytes;
	bool *target_failed;
	size_t failed_targets;
	bool stopped;
	json_t *failed;
	struct kept *kept;
	size_t num_kept;
	size_t next_load;              /* the first kept not yet loading */
	struct kept *loading;          /* the one loading, or NULL */
	const char **fetch_kind;       /* per fetch */
	const size_t *machine;         /* per target: the first of its URL */
	struct cprof_fetch *all;
};

/* The time now, as ISO 8601 UTC and as its day. */
static void now_utc(char iso[32], char day[11])
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(iso, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (day)
		strftime(day, 11, "%Y-%m-%d", &tm);
}

static double monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* `seconds` to the millisecond, for JSON. */
static double round_to_ms(double seconds)
{
	return round(seconds * 1000) / 1000;
}

/* Adds a failure of `target` to the round. */
static void add_failure(struct round *round, const char *target, size_t index, const char *kind,
			const char *error)
{
	json_t *failure = json_object();
	bool replaced;
	/* A reason may quote a server's or a file's bytes: valid UTF-8 only. */
	char *text = cprof_utf8_sanitize(error, strlen(error), &replaced);

	cprof_json_set(failure, "target", cprof_json_string(target));
	cprof_json_set(failure, "kind", cprof_json_string(kind));
	cprof_json_set(failure, "error", cprof_json_string(text));
	free(text);
	json_array_append_new(round->failed, failure);
	if (index < round->targets->len && !round->target_failed[index]) {
		round->target_failed[index] = true;
		round->failed_targets++;
	}
}

static void progress(const struct round *round)
{
	if (!round->opts->progress)
		return;
	fprintf(stderr, "\r%s: round %u: %zu of %zu done, %zu failed\033[K", cprof_progname,
		round->number, round->done, round->fetches, json_array_size(round->failed));
	fflush(stderr);
}

/* Whether the file `path` is a profile the reading library reads (its
 * format detected by content, as every program detects it), without
 * symbolizing it; false with the reason in `error`. */
static bool readable(const char *path, char *error, size_t size)
{
	struct cprof_error err = { 0 };
	struct cprof_profile *profile = cprof_profile_read(path, &err);

	if (profile) {
		cprof_profile_free(profile);
		return true;
	}
	if (err.line)
		snprintf(error, size, "not a profile: line %llu: %s", err.line, err.text);
	else
		snprintf(error, size, "not a profile: %s", err.text);
	return false;
}

/* Keeps the body of `fetch`, ok, as a file of the round. */
static void keep(struct round *round, struct cprof_fetch *fetch, const char *kind)
{
	const struct cprof_target *target = &round->targets->items[fetch->target];
	struct kept *k = &round->kept[round->num_kept];
	char file[160], error[700];

	bool gzip = fetch->len >= 2 && fetch->data[0] == 0x1f && fetch->data[1] == 0x8b;

	snprintf(file, sizeof(file), "%s-r%u-t%llu-%s.%s", round->stamp, round->number,
		 target->line, kind, gzip ? "pb.gz" : "prof");
	memset(k, 0, sizeof(*k));
	now_utc(k->time, k->date);
	k->path = cprof_outdir_keep(round->out, file, fetch->data, fetch->len, k->sha256, error,
				    sizeof(error));
	if (!k->path) {
		add_failure(round, target->url, fetch->target, kind, error);
		return;
	}
	if (!readable(k->path, error, sizeof(error))) {
		add_failure(round, target->url, fetch->target, kind, error);
		unlink(k->path);
		free(k->path);
		return;
	}
	k->file = cprof_xstrdup(file);
	k->target = target;
	k->index = fetch->target;
	k->kind = kind;
	k->bytes = fetch->len;
	k->seconds = fetch->elapsed;
	round->bytes += fetch->len;
	round->num_kept++;
}

/* Whether the round's failed targets are more than its limit. */
static bool too_many_failures(const struct round *round)
{
	return round->opts->max_failures >= 0 &&
	       (double)round->failed_targets > round->opts->max_failures * (double)round->chosen;
}

static bool on_done(void *data, struct cprof_fetch *fetch)
{
	struct round *round = data;
	const char *kind = round->fetch_kind[fetch - round->all];

	round->done++;
	if (fetch->error)
		add_failure(round, round->targets->items[fetch->target].url, fetch->target, kind,
			    fetch->error);
	else
		keep(round, fetch, kind);
	free(fetch->data);
	fetch->data = NULL;
	free(fetch->error);
	fetch->error = NULL;
	progress(round);
	if (!round->stopped && too_many_failures(round))
		round->stopped = true;
	return !round->stopped;
}

/* The number of targets a round draws. */
static size_t round_size(const struct cprof_collect_options *opts, size_t n)
{
	size_t k;

	if (opts->count)
		return opts->count < n ? opts->count : n;
	k = (size_t)ceil(opts->fraction * (double)n - 1e-9);
	return k < 1 ? 1 : k > n ? n : k;
}

/* The fetches of the targets `chosen`: each kind of each, target by
 * target. */
static struct cprof_fetch *plan(struct round *round, const size_t *chosen, char ***urls)
{
	const struct cprof_collect_options *opts = round->opts;
	size_t per = 0, i, k, n = 0;
	struct cprof_fetch *fetches;

	for (k = 0; k < NUM_KINDS; k++)
		per += (opts->kinds & kinds[k].bit) != 0;
	fetches = cprof_xcalloc(round->chosen * per + 1, sizeof(*fetches));
	*urls = cprof_xcalloc(round->chosen * per + 1, sizeof(**urls));
	round->fetch_kind = cprof_xcalloc(round->chosen * per + 1, sizeof(*round->fetch_kind));
	for (i = 0; i < round->chosen; i++) {
		const struct cprof_target *target = &round->targets->items[chosen[i]];

		for (k = 0; k < NUM_KINDS; k++) {
			size_t len;
			bool cpu = kinds[k].bit == CPROF_KIND_CPU;

			if (!(opts->kinds & kinds[k].bit))
				continue;
			len = strlen(target->url) + strlen(kinds[k].path) + 24;
			(*urls)[n] = cprof_xmalloc(len);
			snprintf((*urls)[n], len, cpu ? "%s%s%ld" : "%s%s", target->url,
				 kinds[k].path, opts->seconds);
			fetches[n].url = (*urls)[n];
			fetches[n].target = chosen[i];
			fetches[n].machine = round->machine[chosen[i]];
			fetches[n].seconds = (cpu ? opts->seconds : 0) + opts->timeout;
			round->fetch_kind[n] = kinds[k].name;
			n++;
		}
	}
	round->fetches = n;
	return fetches;
}

/* Starts loading `k`: the target's dimensions that are the store's are
 * the tags of its load. */
static void load_start(struct round *round, struct kept *k)
{
	const struct cprof_target *t = k->target;
	const char **names = cprof_xcalloc(t->num_dims + 1, sizeof(*names));
	const char **values = cprof_xcalloc(t->num_dims + 1, sizeof(*values));
	size_t i, n = 0;

	for (i = 0; i < t->num_dims; i++)
		if (cprof_dbload_is_dim(round->db, t->dim_names[i])) {
			names[n] = t->dim_names[i];
			values[n++] = t->dim_values[i];
		}
	cprof_dbload_start(round->db, k->path, names, values, n, k->date);
	round->loading = k;
	free(names);
	free(values);
}

/* Takes the end of the running load, when it has ended (`wait`: once it
 * has); true when none runs any more. */
static bool load_reap(struct round *round, bool wait)
{
	struct kept *k = round->loading;
	char error[512], what[700];
	bool ok;

	if (!k)
		return true;
	if (!cprof_dbload_reap(round->db, wait, &ok, error, sizeof(error)))
		return false;
	round->loading = NULL;
	k->loaded = ok;
	if (!ok) {
		snprintf(what, sizeof(what), "not loaded into %s (kept as %s): %s", round->opts->db,
			 k->path, error);
		add_failure(round, k->target->url, k->index, k->kind, what);
	}
	return true;
}

/* Between fetches: the next load starts as the last ends, so that
 * loading overlaps collecting.  Returns the running load's descriptor. */
static int load_tick(void *data)
{
	struct round *round = data;

	if (!round->db)
		return -1;
	if (load_reap(round, false) && round->next_load < round->num_kept)
		load_start(round, &round->kept[round->next_load++]);
	return cprof_dbload_fd(round->db);
}

/* Loads what is left of the round's profiles, one after the other. */
static void load_rest(struct round *round)
{
	if (!round->db)
		return;
	for (;;) {
		load_reap(round, true);
		if (round->next_load == round->num_kept)
			return;
		load_start(round, &round->kept[round->next_load++]);
	}
}

/* The manifest's line of a kept profile. */
static json_t *manifest_line(const struct round *round, const struct kept *k, int loaded)
{
	json_t *line = json_object(), *dims = json_object();
	size_t i;

	cprof_json_set(line, "file", cprof_json_string(k->file));
	cprof_json_set(line, "target", cprof_json_string(k->target->url));
	for (i = 0; i < k->target->num_dims; i++)
		cprof_json_set(dims, k->target->dim_names[i],
			       cprof_json_string(k->target->dim_values[i]));
	if (k->target->line)
		cprof_json_set(line, "line", json_integer((json_int_t)k->target->line));
	cprof_json_set(line, "dims", dims);
	cprof_json_set(line, "kind", cprof_json_string(k->kind));
	cprof_json_set(line, "round", json_integer(round->number));
	cprof_json_set(line, "time", cprof_json_string(k->time));
	cprof_json_set(line, "seconds", json_real(round_to_ms(k->seconds)));
	cprof_json_set(line, "bytes", json_integer((json_int_t)k->bytes));
	cprof_json_set(line, "sha256", cprof_json_string(k->sha256));
	if (loaded >= 0)
		cprof_json_set(line, "loaded", json_boolean(loaded));
	return line;
}

/* Starts --local's perf record for the round; false (the failure added)
 * when it cannot. */
static bool local_start(struct round *round, const struct cprof_target *local,
			struct cprof_local *perf)
{
	char file[160], error[512];
	char *path;
	bool ok;

	snprintf(file, sizeof(file), "%s-r%u-local.perf.data", round->stamp, round->number);
	path = cprof_xmalloc(strlen(cprof_outdir_path(round->out)) + strlen(file) + 2);
	sprintf(path, "%s/%s", cprof_outdir_path(round->out), file);
	ok = cprof_local_start(perf, path, round->opts->seconds, error, sizeof(error));
	if (!ok)
		add_failure(round, local->url, SIZE_MAX, "perf", error);
	free(path);
	return ok;
}

/* Ends --local's perf record and keeps what it wrote. */
static void local_end(struct round *round, const struct cprof_target *local,
		      struct cprof_local *perf)
{
	struct kept *k = &round->kept[round->num_kept];
	char error[512];
	const char *file = strrchr(perf->path, '/') + 1;

	if (!cprof_local_wait(perf, error, sizeof(error)) ||
	    !cprof_outdir_sha256_file(perf->path, k->sha256, error, sizeof(error))) {
		add_failure(round, local->url, SIZE_MAX, "perf", error);
		unlink(perf->path);
		free(perf->path);
		return;
	}
	memset(k->time, 0, sizeof(k->time));
	now_utc(k->time, k->date);
	k->path = perf->path;
	k->file = cprof_xstrdup(file);
	k->target = local;
	k->index = SIZE_MAX;
	k->kind = "perf";
	{
		FILE *f = fopen(k->path, "rb");

		if (f && fseek(f, 0, SEEK_END) == 0)
			k->bytes = (size_t)ftell(f);
		if (f)
			fclose(f);
	}
	k->seconds = (double)round->opts->seconds;
	round->bytes += k->bytes;
	round->num_kept++;
}

/* Writes the manifest lines of what the round kept. */
static void finish_kept(struct round *round)
{
	size_t i;

	for (i = 0; i < round->num_kept; i++) {
		struct kept *k = &round->kept[i];

		round->ok += !round->db || k->loaded == 1;
		cprof_outdir_manifest(round->out, manifest_line(round, k, round->db ? k->loaded : -1));
		free(k->path);
		free(k->file);
	}
}

/* The JSON object of a round, printed. */
static void print_round(struct round *round, double seconds)
{
	json_t *root = json_object();
	size_t not_started = 0, i;

	for (i = 0; i < round->fetches; i++)
		not_started += !round->all[i].started;
	cprof_json_set(root, "round", json_integer(round->number));
	cprof_json_set(root, "seed", json_integer((json_int_t)round->opts->seed));
	cprof_json_set(root, "chosen", json_integer((json_int_t)round->chosen));
	cprof_json_set(root, "ok", json_integer((json_int_t)round->ok));
	cprof_json_set(root, "failed", round->failed);
	cprof_json_set(root, "stopped", json_boolean(round->stopped));
	cprof_json_set(root, "not_started", json_integer((json_int_t)not_started));
	cprof_json_set(root, "bytes", json_integer((json_int_t)round->bytes));
	cprof_json_set(root, "seconds", json_real(round_to_ms(seconds)));
	round->failed = NULL;
	cprof_json_print(root, true);
	fflush(stdout);
}

/* Runs round `round->number`: true when it stopped on failures. */
static bool run_round(struct round *round, struct cprof_sampler *sampler,
		      const struct cprof_target *local)
{
	const struct cprof_collect_options *opts = round->opts;
	size_t n = round->targets->len, i;
	size_t *chosen;
	char **urls;
	struct cprof_local perf;
	bool perf_running = false;
	double start = monotonic();
	struct cprof_fetch_limits limits = { opts->jobs, opts->max_bytes, opts->timeout };

	round->chosen = round_size(opts, n);
	chosen = cprof_xcalloc(round->chosen + 1, sizeof(*chosen));
	cprof_sampler_choose(sampler, n, round->chosen, chosen);
	round->target_failed = cprof_xcalloc(n + 1, sizeof(*round->target_failed));
	round->failed = json_array();
	round->all = plan(round, chosen, &urls);
	round->kept = cprof_xcalloc(round->fetches + 2, sizeof(*round->kept));
	if (local)
		perf_running = local_start(round, local, &perf);
	cprof_fetch_all(&limits, round->all, round->fetches, on_done, load_tick, round);
	if (perf_running)
		local_end(round, local, &perf);
	load_rest(round);
	if (opts->progress)
		fputs("\r\033[K", stderr);
	finish_kept(round);
	print_round(round, monotonic() - start);
	for (i = 0; i < round->fetches; i++)
		free(urls[i]);
	free(urls);
	free(round->all);
	free(round->fetch_kind);
	free(round->kept);
	free(round->target_failed);
	free(chosen);
	return round->stopped;
}

/* Each target's machine: the first target of its URL, so that lines of
 * one URL are never fetched at once (a Go service profiles its CPU for
 * one request at a time). */
static size_t *machines(const struct cprof_targets *targets)
{
	GHashTable *first = g_hash_table_new(cprof_str_hash, g_str_equal);
	size_t *machine = cprof_xcalloc(targets->len + 1, sizeof(*machine));
	size_t i;

	for (i = 0; i < targets->len; i++) {
		gpointer found;

		if (g_hash_table_lookup_extended(first, targets->items[i].url, NULL, &found)) {
			machine[i] = GPOINTER_TO_SIZE(found);
		} else {
			machine[i] = i;
			g_hash_table_insert(first, targets->items[i].url, GSIZE_TO_POINTER(i));
		}
	}
	g_hash_table_destroy(first);
	return machine;
}

/* Sleeps until `when` (monotonic seconds). */
static void sleep_until(double when)
{
	double left;

	while ((left = when - monotonic()) > 0) {
		struct timespec ts = { (time_t)left, (long)((left - (double)(time_t)left) * 1e9) };

		nanosleep(&ts, NULL);
	}
}

int cprof_collect_run(const struct cprof_collect_options *opts,
		      const struct cprof_targets *targets)
{
	struct round round = { .opts = opts, .targets = targets };
	struct cprof_sampler *sampler = cprof_sampler_new(opts->seed);
	struct cprof_target local = { 0 };
	char stamp[32], host[256] = "localhost";
	char *names[2] = { "host", NULL }, *values[2] = { host, NULL };
	bool any_stopped = false;
	double start = monotonic();
	unsigned r;

	{
		time_t now = time(NULL);
		struct tm tm;

		gmtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	}
	round.stamp = stamp;
	round.machine = machines(targets);
	round.out = cprof_outdir_open(opts->out);
	if (opts->db)
		round.db = cprof_dbload_open(opts->db, opts->loader);
	if (opts->local) {
		gethostname(host, sizeof(host) - 1);
		local.url = "local";
		local.dim_names = names;
		local.dim_values = values;
		local.num_dims = 1;
	}
	for (r = 1; r <= opts->rounds; r++) {
		if (r > 1)
			sleep_until(start + (r - 1) * opts->every);
		round.number = r;
		round.done = round.ok = round.failed_targets = 0;
		round.bytes = 0;
		round.stopped = false;
		round.num_kept = round.next_load = 0;
		round.loading = NULL;
		if (run_round(&round, sampler, opts->local ? &local : NULL))
			any_stopped = true;
	}
	cprof_dbload_close(round.db);
	cprof_outdir_close(round.out);
	cprof_sampler_free(sampler);
	free((size_t *)round.machine);
	return any_stopped ? EXIT_VERDICT : EXIT_OK;
}
