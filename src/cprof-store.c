/* cprof-store: profiles as dimensional rows in a database (a SQLite file,
 * or ClickHouse), loaded and asked for flat distributions. */
#include "config.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonout.h"
#include "lib/json.h"
#include "lib/load.h"
#include "lib/rows.h"
#include "lib/text.h"
#include "base/util.h"
#include "store/store-sched.h"
#include "store/store.h"
#include "store/watch-out.h"

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
	OPT_RATIO,
	OPT_LEVEL,
	OPT_SCHED,
	OPT_BASELINE,
	OPT_PERSIST,
	OPT_ALPHA,
	OPT_MIN_EFFECT,
	OPT_ATTRIBUTE,
	OPT_HTML,
};

#define DEFAULT_DB "cprof.db"
#define DEFAULT_DIMS "app,platform,build,host"

static void usage(int status)
{
	FILE *out = status == EXIT_OK ? stdout : stderr;

	fprintf(out,
		"usage: %s [--db DB] init [--dims NAME,...] [--cluster NAME]\n"
		"       %s [--db DB] load [--tag NAME=VALUE]... [--label NAME[=KEY]]...\n"
		"              [--date YYYY-MM-DD] [--by=KEY] [--sample-index=N|NAME|all]\n"
		"              [--no-symbolize] [--no-inline] [--symbols DIR] [--binary FILE]\n"
		"              [--sample-type TYPE/UNIT] [--period N] PROFILE...\n"
		"       %s [--db DB] query|top [-ct] [--where NAME=VALUE]... [--by=KEY]\n"
		"              [--group NAME,...] [--from DATE] [--to DATE] [-n N]\n"
		"              [--ratio NUMERATOR/DENOMINATOR [--level P] [--sched FLEET]]\n"
		"       %s [--db DB] watch [-t] [--where, --by, --group, --from, --to]\n"
		"              [--baseline 14] [--persist 2] [--alpha 0.01] [--min-effect 0.05]\n"
		"              [--attribute build] [--html FILE]: the days a key's share moved\n"
		"Keep profiles as rows with their dimensions; print flat distributions of them.\n"
		"  --db DB         a SQLite file (./cprof.db) or clickhouse://HOST[:PORT][/DB]\n"
		"  --dims LIST     the store's dimensions (default app,platform,build,host)\n"
		"  --cluster NAME  ClickHouse: a Distributed table over the cluster's shards\n"
		"  --tag N=V       a dimension's value for the profiles loaded\n"
		"  --label N[=K]   dimension N from each sample's profile.proto label K\n"
		"  --date DAY      their day (default: each file's modification day, UTC)\n"
		"  --where N=V     only rows with that value (repeated name: any of the values)\n"
		"  --group LIST    one flat per combination of these dimensions (JSON Lines)\n"
		"  --from, --to    the first and last day, inclusive\n"
		"  --ratio A/B     type A's counts over B's (a CPI), --level 0.95, --sched FLEET\n"
		"  -n, --top N     keep the first N entries (top: 10 by default)\n"
		"  -c, --compact   JSON on one line;  -t, --text  a table;  -h, -V  help, version\n",
		cprof_progname, cprof_progname, cprof_progname, cprof_progname);
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
				     CPROF_OPT_SYMBOLS, CPROF_OPT_BINARY, CPROF_OPT_SAMPLE_TYPE,
				     CPROF_OPT_PERIOD, 0 };
static const int query_options[] = { OPT_WHERE, OPT_GROUP, OPT_FROM, OPT_TO, CPROF_OPT_BY,
				     OPT_RATIO, OPT_LEVEL, OPT_SCHED, 'n', 'c', 't', 0 };
static const int watch_options[] = { OPT_WHERE, OPT_GROUP, OPT_FROM, OPT_TO, CPROF_OPT_BY,
				     OPT_BASELINE, OPT_PERSIST, OPT_ALPHA, OPT_MIN_EFFECT,
				     OPT_ATTRIBUTE, OPT_HTML, 't', 0 };

/* How the groups of a query are printed. */
struct query_output {
	const struct cprof_store_result *result;
	uint64_t top;
	bool compact, text;
};

/* Sets root's "group" (the `num` group names `names` and their values
 * `values`; none when num is 0) and "missing_shards" (the shards that did
 * not answer; none when `missing` is NULL). */
static void set_group(json_t *root, char **names, char **values, size_t num,
		      const struct cprof_ptrs *missing)
{
	size_t j;

	if (num) {
		json_t *group = json_object();

		for (j = 0; j < num; j++)
			cprof_json_set(group, names[j], cprof_json_string(values[j]));
		cprof_json_set(root, "group", group);
	}
	if (missing) {
		json_t *list = json_array();

		for (j = 0; j < missing->len; j++)
			if (json_array_append_new(list, cprof_json_string(missing->items[j])) < 0)
				cprof_die_oom();
		cprof_json_set(root, "missing_shards", list);
	}
}

/* Prints the flat of one group, as a table or JSON. */
static void print_group(const struct cprof_store_group *group, const struct query_output *out)
{
	const struct cprof_store_result *result = out->result;
	json_t *root;
	size_t j;

	if (out->text) {
		if (result->num_groups) {
			fputs("#", stdout);
			for (j = 0; j < result->num_groups; j++) {
				printf(" %s=", result->group_names[j]);
				cprof_put_text(stdout, group->values[j]);
			}
			fputs("\n", stdout);
		}
		cprof_text_flat(group->dist, (size_t)out->top);
		return;
	}
	root = cprof_json_flat(group->dist, (size_t)out->top);
	set_group(root, result->group_names, group->values, result->num_groups, result->missing);
	cprof_json_print(root, out->compact || result->num_groups > 0);
}

static void do_query(const char *url, const struct cprof_store_query_spec *spec, uint64_t top,
		     bool compact, bool text)
{
	struct cprof_store_result result;
	struct query_output out = { &result, top, compact, text };
	size_t i;

	cprof_store_query(url, spec, &result);
	if (result.missing)
		for (i = 0; i < result.missing->len; i++)
			cprof_warn("%s: shard %s did not answer: its profiles are left out",
				   url, (char *)result.missing->items[i]);
	for (i = 0; i < result.groups.len; i++)
		print_group(result.groups.items[i], &out);
	cprof_store_result_clear(&result);
}

/* --ratio's NUMERATOR/DENOMINATOR, TYPE/TYPE or TYPE/UNIT/TYPE/UNIT, as
 * two names into `names` (each newly allocated); dies on anything else. */
static void parse_ratio(const char *arg, char *names[2])
{
	size_t len = strlen(arg), slashes = 0, cut = 0, i;
	bool empty = len == 0 || arg[0] == '/' || arg[len - 1] == '/' || strstr(arg, "//");

	for (i = 0; i < len; i++)
		if (arg[i] == '/' && (++slashes == 1 || slashes == 2))
			cut = i;
	if (empty || (slashes != 1 && slashes != 3))
		cprof_die("--ratio: '%s': not NUMERATOR/DENOMINATOR (cycles/instructions, or "
			  "TYPE/UNIT/TYPE/UNIT)", arg);
	free(names[0]);
	free(names[1]);
	names[0] = cprof_xstrdup(arg);
	names[0][cut] = '\0';
	names[1] = cprof_xstrdup(arg + cut + 1);
}

/* A number, or null for NAN. */
static json_t *json_number_or_null(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

/* Sets the members of a ratio's entry (or whole) on `object`. */
static void set_ratio(json_t *object, const struct cprof_store_ratio_entry *e)
{
	cprof_json_set(object, "numerator", json_integer((json_int_t)e->numerator));
	cprof_json_set(object, "denominator", json_integer((json_int_t)e->denominator));
	cprof_json_set(object, "ratio", json_number_or_null(e->ratio));
	cprof_json_set(object, "low", json_number_or_null(e->low));
	cprof_json_set(object, "high", json_number_or_null(e->high));
}

/* The JSON of one group of a ratio's answer, its first `top` entries
 * (0: all). */
static json_t *ratio_json(const struct cprof_store_ratio_result *result,
			  const struct cprof_store_ratio_group *group, size_t top, const char *by)
{
	json_t *root = json_object(), *entries = json_array(), *item;
	size_t j;

	cprof_json_set(root, "cprof", cprof_json_string("ratio"));
	cprof_json_set(root, "version", json_integer(1));
	cprof_json_set(root, "by", cprof_json_string(by));
	cprof_json_set(root, "numerator_type", cprof_json_string(result->types[0]));
	cprof_json_set(root, "denominator_type", cprof_json_string(result->types[1]));
	cprof_json_set(root, "level", json_real(result->level));
	cprof_json_set(root, "profiles", json_integer((json_int_t)group->profiles));
	set_ratio(root, &group->whole);
	for (j = 0; j < group->num_entries && (!top || j < top); j++) {
		item = json_object();
		cprof_json_set(item, "key", cprof_json_string(group->entries[j].key));
		set_ratio(item, &group->entries[j]);
		if (json_array_append_new(entries, item) < 0)
			cprof_die_oom();
	}
	cprof_json_set(root, "entries", entries);
	set_group(root, result->group_names, group->values, result->num_groups, result->missing);
	return root;
}

/* Prints `x` in a column of the ratio's table, "-" for NAN. */
static void put_ratio(double x)
{
	if (isnan(x))
		printf("%10s ", "-");
	else
		printf("%10.4g ", x);
}

/* Prints one entry's line of a ratio's table. */
static void ratio_line(const struct cprof_store_ratio_entry *e, const char *key)
{
	put_ratio(e->ratio);
	put_ratio(e->low);
	put_ratio(e->high);
	printf("%14llu %14llu  ", (unsigned long long)e->numerator,
	       (unsigned long long)e->denominator);
	cprof_put_text(stdout, key);
	fputs("\n", stdout);
}

/* Prints one group of a ratio's answer as an aligned table. */
static void ratio_text(const struct cprof_store_ratio_result *result,
		       const struct cprof_store_ratio_group *group, size_t top)
{
	size_t j;

	fputs("#", stdout);
	for (j = 0; j < result->num_groups; j++) {
		printf(" %s=", result->group_names[j]);
		cprof_put_text(stdout, group->values[j]);
	}
	printf(" %s over %s, %zu profile%s, intervals at %g\n", result->types[0],
	       result->types[1], group->profiles, group->profiles == 1 ? "" : "s", result->level);
	printf("%10s %10s %10s %14s %14s  %s\n", "ratio", "low", "high", "numerator",
	       "denominator", "key");
	for (j = 0; j < group->num_entries && (!top || j < top); j++)
		ratio_line(&group->entries[j], group->entries[j].key);
	ratio_line(&group->whole, "(all)");
}

static void do_ratio(const char *url, const struct cprof_store_query_spec *spec,
		     const char *const names[2], double level, const struct query_output *out,
		     const char *sched)
{
	struct cprof_store_ratio_result result;
	size_t i;

	cprof_store_ratio(url, spec, names, level, &result);
	if (result.missing)
		for (i = 0; i < result.missing->len; i++)
			cprof_warn("%s: shard %s did not answer: its profiles are left out",
				   url, (char *)result.missing->items[i]);
	if (sched) {
		cprof_json_print(cprof_store_sched_problem(&result, sched), out->compact);
		cprof_store_ratio_result_clear(&result);
		return;
	}
	for (i = 0; i < result.groups.len; i++) {
		const struct cprof_store_ratio_group *group = result.groups.items[i];

		if (out->text)
			ratio_text(&result, group, (size_t)out->top);
		else
			cprof_json_print(ratio_json(&result, group, (size_t)out->top,
						    cprof_by_name(spec->by)),
					 out->compact || result.num_groups > 0);
	}
	cprof_store_ratio_result_clear(&result);
}

/* Says which groups of `result` have too few days for any split:
 * no change of theirs can be found, which status 0 alone would hide. */
static void warn_short(const struct cprof_store_watch_result *result,
		       const struct cprof_watch_settings *settings)
{
	size_t i, j, need = settings->baseline + settings->persist, size;
	char *name;
	FILE *out;

	for (i = 0; i < result->groups.len; i++) {
		const struct cprof_store_watch_group *g = result->groups.items[i];

		if (g->num_days >= need)
			continue;
		if (!(out = open_memstream(&name, &size)))
			cprof_die_oom();
		for (j = 0; j < result->num_groups; j++)
			fprintf(out, "%s%s=%s", j ? " " : "", result->group_names[j], g->values[j]);
		fputs(result->num_groups ? ": " : "", out);
		if (fclose(out) != 0)
			cprof_die_oom();
		cprof_warn("watch: %s%zu day%s, fewer than --baseline %zu and --persist %zu: "
			   "no day tested", name, g->num_days, g->num_days == 1 ? "" : "s",
			   settings->baseline, settings->persist);
		free(name);
	}
}

/* Prints the changes of `spec`'s profiles (and the page, when `html`);
 * returns the program's status: 1 when a change is a regression. */
static int do_watch(const char *url, const struct cprof_store_query_spec *spec,
		    const struct cprof_watch_settings *settings, const char *attribute,
		    const char *html, bool text)
{
	struct cprof_store_watch_result result;
	bool regression;
	size_t i;

	cprof_store_watch(url, spec, settings, attribute, &result);
	warn_short(&result, settings);
	if (result.missing)
		for (i = 0; i < result.missing->len; i++)
			cprof_warn("%s: shard %s did not answer: its profiles are left out",
				   url, (char *)result.missing->items[i]);
	if (html)
		cprof_watch_html(&result, settings, html);
	regression = cprof_watch_print(&result, text);
	cprof_store_watch_result_clear(&result);
	return regression ? 1 : EXIT_OK;
}

static const struct option long_options[] = {
	CPROF_LOAD_LONG_OPTIONS,
	CPROF_OUTPUT_LONG_OPTIONS,
	{ "alpha", required_argument, NULL, OPT_ALPHA },
	{ "attribute", required_argument, NULL, OPT_ATTRIBUTE },
	{ "baseline", required_argument, NULL, OPT_BASELINE },
	{ "cluster", required_argument, NULL, OPT_CLUSTER },
	{ "date", required_argument, NULL, OPT_DATE },
	{ "db", required_argument, NULL, OPT_DB },
	{ "dims", required_argument, NULL, OPT_DIMS },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "group", required_argument, NULL, OPT_GROUP },
	{ "help", no_argument, NULL, 'h' },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "level", required_argument, NULL, OPT_LEVEL },
	{ "min-effect", required_argument, NULL, OPT_MIN_EFFECT },
	{ "persist", required_argument, NULL, OPT_PERSIST },
	{ "ratio", required_argument, NULL, OPT_RATIO },
	{ "sched", required_argument, NULL, OPT_SCHED },
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
	char *ratio[2];                  /* --ratio: numerator, denominator; or NULL */
	const char *sched;               /* --sched FILE: the fleet's platforms and apps */
	double level;                    /* --level, or 0: not given */
	struct cprof_watch_settings watch;      /* watch's --baseline ... --min-effect */
	const char *attribute, *html;    /* watch's --attribute, --html */
	bool compact, text, top_given;
	uint64_t top;
	struct cprof_ptrs tags, wheres;  /* --tag, --where: struct cprof_tag * */
	struct cprof_ptrs labels;        /* --label FIELD=KEY: struct cprof_tag * */
	struct cprof_ptrs label_keys;    /* their KEYs, borrowed */
	int *given;                      /* each option given, in order */
	size_t num_given;
};

/* Takes one of watch's options into opts; dies on any other. */
static void watch_option(struct options *opts, int opt, char **argv)
{
	switch (opt) {
	case OPT_BASELINE:
		opts->watch.baseline = (size_t)cprof_option_u64("--baseline", optarg);
		if (opts->watch.baseline < 2 || opts->watch.baseline > 10000)
			cprof_die("--baseline: '%s': 2 to 10000 days", optarg);
		break;
	case OPT_PERSIST:
		opts->watch.persist = (size_t)cprof_option_u64("--persist", optarg);
		if (opts->watch.persist < 1 || opts->watch.persist > 10000)
			cprof_die("--persist: '%s': 1 to 10000 days", optarg);
		break;
	case OPT_ALPHA:
		opts->watch.alpha = cprof_option_double("--alpha", optarg);
		if (!(opts->watch.alpha > 0 && opts->watch.alpha < 1))
			cprof_die("--alpha: '%s': must be between 0 and 1 (0.01)", optarg);
		break;
	case OPT_MIN_EFFECT:
		opts->watch.min_effect = cprof_option_double("--min-effect", optarg);
		if (!(opts->watch.min_effect >= 0 && opts->watch.min_effect < 1e6))
			cprof_die("--min-effect: '%s': a relative move, 0 or more (0.05)", optarg);
		break;
	case OPT_ATTRIBUTE:
		opts->attribute = optarg;
		break;
	case OPT_HTML:
		if (!*optarg)
			cprof_die("--html: empty");
		opts->html = optarg;
		break;
	default:
		cprof_bad_option(opt, argv, long_options);
	}
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
		if (!cprof_store_cluster_ok(optarg))
			cprof_die("--cluster: '%s': not a cluster name", optarg);
		opts->cluster = optarg;
		break;
	case OPT_DATE:
		cprof_store_parse_day("--date", optarg, opts->date);
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
		cprof_store_parse_day("--from", optarg, opts->from);
		break;
	case OPT_GROUP:
		opts->group = optarg;
		break;
	case OPT_TAG:
		cprof_tag_parse(&opts->tags, "--tag", optarg, cprof_store_reserved);
		break;
	case OPT_LABEL:
		cprof_label_parse(&opts->labels, optarg, cprof_store_reserved);
		cprof_labels_read_options(&opts->labels, &opts->label_keys, &opts->loader.read);
		break;
	case OPT_TO:
		cprof_store_parse_day("--to", optarg, opts->to);
		break;
	case OPT_RATIO:
		parse_ratio(optarg, opts->ratio);
		break;
	case OPT_SCHED:
		opts->sched = optarg;
		break;
	case OPT_LEVEL:
		opts->level = cprof_option_double("--level", optarg);
		if (!(opts->level > 0 && opts->level < 1))
			cprof_die("--level: '%s': must be between 0 and 1 (0.95)", optarg);
		break;
	case OPT_WHERE:
		cprof_store_parse_where(&opts->wheres, optarg);
		break;
	default:
		watch_option(opts, opt, argv);
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
			opts->given[opts->num_given++] = opt;
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
		{ "watch", watch_options },
	};
	const struct allowed *command = NULL;
	size_t c;

	for (c = 0; c < sizeof(allowed) / sizeof(allowed[0]); c++)
		if (strcmp(name, allowed[c].command) == 0)
			command = &allowed[c];
	if (!command)
		cprof_die("'%s': not a command (init, load, query, top or watch)", name);
	return command;
}

/* Dies on the first option given that command does not take, and on
 * options that exclude each other. */
static void check_options(const struct options *opts, const struct allowed *command)
{
	size_t g;

	for (g = 0; g < opts->num_given; g++) {
		int o = opts->given[g];
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
	if (opts->level > 0 && !opts->ratio[0])
		cprof_die("--level: the level of --ratio's intervals, and no --ratio");
	if (opts->sched && !opts->ratio[0])
		cprof_die("--sched: the cpi of a problem is a --ratio (cycles/instructions), and no "
			  "--ratio");
	if (opts->sched && opts->text)
		cprof_die("--sched and --text exclude each other");
	if (opts->from[0] && opts->to[0] && strcmp(opts->from, opts->to) > 0)
		cprof_die("--from %s is after --to %s", opts->from, opts->to);
}

/* Runs command on its operands (argv[0] is the command's name); returns
 * the program's status. */
static int run_command(struct options *opts, const struct allowed *command, char **argv,
		       int argc)
{
	if (strcmp(command->command, "init") == 0) {
		if (argc > 1)
			cprof_die("init: takes no operand ('%s')", argv[1]);
		cprof_store_init(opts->db, opts->dims, opts->cluster);
	} else if (strcmp(command->command, "load") == 0) {
		cprof_store_load(opts->db, &opts->loader, &opts->tags, &opts->labels,
				 opts->date[0] ? opts->date : NULL, argv + 1, argc - 1);
	} else {
		if (argc > 1)
			cprof_die("%s: takes no operand ('%s')", command->command, argv[1]);
		if (strcmp(command->command, "top") == 0 && !opts->top_given)
			opts->top = 10;
		struct query_output out = { NULL, opts->top, opts->compact, opts->text };
		struct cprof_store_query_spec spec = {
			opts->loader.key.by, &opts->wheres, opts->group,
			opts->from[0] ? opts->from : NULL, opts->to[0] ? opts->to : NULL,
		};

		if (strcmp(command->command, "watch") == 0)
			return do_watch(opts->db, &spec, &opts->watch, opts->attribute, opts->html,
					opts->text);
		if (opts->ratio[0])
			do_ratio(opts->db, &spec, (const char *const *)opts->ratio,
				 opts->level > 0 ? opts->level : 0.95, &out, opts->sched);
		else
			do_query(opts->db, &spec, opts->top, opts->compact, opts->text);
	}
	return EXIT_OK;
}

int main(int argc, char **argv)
{
	struct options opts = { .dims = DEFAULT_DIMS, .watch = { 14, 2, 0.01, 0.05 } };
	const struct allowed *command;
	int first, status;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES " SQLite");
	cprof_loader_init(&opts.loader);
	opts.given = cprof_xcalloc((size_t)argc + 1, sizeof(*opts.given));
	opts.db = getenv("CPROF_STORE_DB");
	if (!opts.db || !*opts.db)
		opts.db = DEFAULT_DB;
	first = parse_options(argc, argv, &opts);
	argc -= first;
	argv += first;
	if (argc == 0)
		cprof_die("no command (init, load, query, top or watch; --help says more)");
	command = find_command(argv[0]);
	check_options(&opts, command);
	status = run_command(&opts, command, argv, argc);
	cprof_ptrs_clear(&opts.tags, cprof_tag_free);
	cprof_ptrs_clear(&opts.labels, cprof_tag_free);
	cprof_ptrs_clear(&opts.label_keys, NULL);
	cprof_ptrs_clear(&opts.wheres, cprof_tag_free);
	free(opts.ratio[0]);
	free(opts.ratio[1]);
	free(opts.given);
	cprof_loader_free(&opts.loader);
	return cprof_finish_output(status);
}
