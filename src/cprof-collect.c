/* cprof-collect: a random sample of a fleet's profiles, round after
 * round, from the targets' pprof HTTP handlers, kept as received and
 * loaded into a cprof store. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/collect.h"
#include "collect/fetch.h"
#include "collect/targets.h"
#include "lib/load.h"

enum {
	OPT_TARGETS = 600,
	OPT_FRACTION,
	OPT_COUNT,
	OPT_SEED,
	OPT_SECONDS,
	OPT_KIND,
	OPT_LOCAL,
	OPT_JOBS,
	OPT_TIMEOUT,
	OPT_MAX_BYTES,
	OPT_MAX_FAILURES,
	OPT_OUT,
	OPT_DB,
	OPT_ROUNDS,
	OPT_EVERY,
};

static void usage(int status)
{
	FILE *out = status == EXIT_OK ? stdout : stderr;

	fprintf(out,
		"usage: %s --targets FILE [--fraction F | --count N] [--seed S]\n"
		"         [--seconds S] [--kind LIST] [--local] [--jobs J] [--timeout T]\n"
		"         [--max-bytes B] [--max-failures F] [--out DIR] [--db DB]\n"
		"         [--rounds N] [--every DURATION] [--by=KEY] [--symbols DIR]\n"
		"         [--no-symbolize] [--no-inline]\n"
		"Profile a random sample of a fleet's targets over their pprof HTTP handlers.\n"
		"  --targets FILE  JSON Lines, {\"url\": \"http://HOST:PORT\", DIM: VALUE...}\n"
		"  --fraction F    each round draws this fraction of the targets (default 1)\n"
		"  --count N       ... or N of them;  --seed S  the draws' seed\n"
		"  --seconds S     a CPU profile's seconds (default 10)\n"
		"  --kind LIST     cpu,heap,allocs,mutex,block,goroutine (default cpu)\n"
		"  --local         and perf record -a -g of this machine, as long\n"
		"  --jobs J        collections at once (default 10)\n"
		"  --timeout T     seconds a collection may take beyond its own (default 30)\n"
		"  --max-bytes B   of a profile, received and inflated (default 67108864)\n"
		"  --max-failures F  stop a round once more than F of its targets failed\n"
		"  --out DIR       keep the profiles there, with DIR/manifest.jsonl\n"
		"  --db DB         load them into the cprof store DB\n"
		"  --rounds N      rounds (default 1);  --every DURATION  from start to start\n"
		CPROF_LOAD_BY_HELP
		"  --no-symbolize  PCs unnamed;  --no-inline  no inlined frames\n"
		"  --symbols DIR   look for binaries and debug files in DIR too\n"
		"  -h, --help      this help;  -V, --version  the version\n",
		cprof_progname);
	exit(status);
}

static const struct option long_options[] = {
	{ "by", required_argument, NULL, CPROF_OPT_BY },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "db", required_argument, NULL, OPT_DB },
	{ "every", required_argument, NULL, OPT_EVERY },
	{ "fraction", required_argument, NULL, OPT_FRACTION },
	{ "help", no_argument, NULL, 'h' },
	{ "jobs", required_argument, NULL, OPT_JOBS },
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "local", no_argument, NULL, OPT_LOCAL },
	{ "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
	{ "max-failures", required_argument, NULL, OPT_MAX_FAILURES },
	{ "no-inline", no_argument, NULL, CPROF_OPT_NO_INLINE },
	{ "no-symbolize", no_argument, NULL, CPROF_OPT_NO_SYMBOLIZE },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "seconds", required_argument, NULL, OPT_SECONDS },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "symbols", required_argument, NULL, CPROF_OPT_SYMBOLS },
	{ "targets", required_argument, NULL, OPT_TARGETS },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* A whole number of an option between `min` and `max`. */
static uint64_t option_range(const char *option, const char *arg, uint64_t min, uint64_t max)
{
	uint64_t v = cprof_option_u64(option, arg);

	if (v < min || v > max)
		cprof_die("%s: '%s': not between %llu and %llu", option, arg,
			  (unsigned long long)min, (unsigned long long)max);
	return v;
}

/* A fraction of an option, in (0, 1] (or [0, 1] when `zero`). */
static double option_fraction(const char *option, const char *arg, bool zero)
{
	double v = cprof_option_double(option, arg);

	if (!(v <= 1) || v < 0 || (!zero && v == 0))
		cprof_die("%s: '%s': not a fraction in %s, 1]", option, arg, zero ? "[0" : "(0");
	return v;
}

/* A duration: seconds, or a number with s, m or h. */
static double option_duration(const char *option, const char *arg)
{
	char *end;
	double v = strtod(arg, &end), unit = 1;

	if (end != arg && *end && !end[1] && strchr("smh", *end))
		unit = *end == 's' ? 1 : *end == 'm' ? 60 : 3600;
	else if (end == arg || *end)
		cprof_die("%s: '%s': not a duration (seconds, or N followed by s, m or h)", option,
			  arg);
	if (!(v >= 0) || v * unit > 1e7)
		cprof_die("%s: '%s': not a duration of at most 10000000 seconds", option, arg);
	return v * unit;
}

struct options {
	struct cprof_collect_options collect;
	const char *targets;
	bool fraction_given, count_given, seed_given, every_given;
};

static void take_option(struct options *opts, int opt, char **argv)
{
	struct cprof_collect_options *c = &opts->collect;
	struct cprof_error err = { 0 };

	switch (opt) {
	case 'h': usage(EXIT_OK); break;
	case OPT_COUNT:
		c->count = (size_t)option_range("--count", optarg, 1, 100000000);
		opts->count_given = true;
		break;
	case OPT_DB:
		if (!*optarg)
			cprof_die("--db: empty");
		c->db = optarg;
		break;
	case OPT_EVERY:
		c->every = option_duration("--every", optarg);
		opts->every_given = true;
		break;
	case OPT_FRACTION:
		c->fraction = option_fraction("--fraction", optarg, false);
		opts->fraction_given = true;
		break;
	case OPT_JOBS: c->jobs = (size_t)option_range("--jobs", optarg, 1, 10000); break;
	case OPT_KIND:
		if (cprof_collect_kinds(optarg, &c->kinds, &err) != 0)
			cprof_die("--kind: %s", err.text);
		break;
	case OPT_LOCAL: c->local = true; break;
	case OPT_MAX_BYTES:
		c->max_bytes = option_range("--max-bytes", optarg, 1, (uint64_t)1 << 40);
		break;
	case OPT_MAX_FAILURES: c->max_failures = option_fraction("--max-failures", optarg, true); break;
	case OPT_OUT:
		if (!*optarg)
			cprof_die("--out: empty");
		c->out = optarg;
		break;
	case OPT_ROUNDS: c->rounds = (unsigned)option_range("--rounds", optarg, 1, 1000000); break;
	case OPT_SECONDS: c->seconds = (long)option_range("--seconds", optarg, 1, 86400); break;
	case OPT_SEED:
		c->seed = option_range("--seed", optarg, 0, INT64_MAX);
		opts->seed_given = true;
		break;
	case OPT_TARGETS: opts->targets = optarg; break;
	case OPT_TIMEOUT: c->timeout = (long)option_range("--timeout", optarg, 1, 86400); break;
	default: cprof_bad_option(opt, argv, long_options);
	}
}

/* Dies on options that exclude each other or are missing. */
static void check_options(struct options *opts)
{
	struct cprof_collect_options *c = &opts->collect;

	if (!opts->targets)
		cprof_die("no --targets FILE (--help says more)");
	if (opts->fraction_given && opts->count_given)
		cprof_die("--fraction and --count exclude each other");
	if (!c->out && !c->db)
		cprof_die("nowhere to keep the profiles: --out DIR, --db DB or both");
	if (opts->every_given && c->rounds < 2)
		cprof_die("--every: only with --rounds N of 2 or more");
	if (!opts->seed_given)
		c->seed = ((uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid()) & 0xffffffffu;
}

int main(int argc, char **argv)
{
	struct options opts = { .collect = { .fraction = 1, .seconds = 10, .kinds = CPROF_KIND_CPU,
					     .jobs = 10, .timeout = 30,
					     .max_bytes = (uint64_t)64 << 20, .max_failures = -1,
					     .rounds = 1 } };
	struct cprof_loader loader;
	struct cprof_targets targets;
	struct cprof_error err = { 0 };
	int opt, status;
	bool compact = false, text = false;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES " SQLite GSL libcurl");
	cprof_loader_init(&loader);
	opts.collect.loader = &loader;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":hV", long_options, NULL)) != -1) {
		if (opt == 'V') {
			cprof_output_option(opt, &compact, &text);
			continue;
		}
		if (cprof_loader_option(&loader, opt, optarg))
			continue;
		take_option(&opts, opt, argv);
	}
	if (optind < argc)
		cprof_die("takes no operand ('%s'): the targets are --targets FILE", argv[optind]);
	check_options(&opts);
	if (cprof_targets_read(opts.targets, &targets, &err) != 0)
		cprof_die_input(strcmp(opts.targets, "-") == 0 ? "standard input" : opts.targets,
				&err);
	opts.collect.progress = isatty(STDERR_FILENO);
	cprof_fetch_global_init();
	status = cprof_collect_run(&opts.collect, &targets);
	cprof_targets_clear(&targets);
	cprof_loader_free(&loader);
	return cprof_finish_output(status);
}
