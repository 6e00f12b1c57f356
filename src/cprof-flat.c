/* cprof-flat: read profiles, merge them, print the flat distribution. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>

#include "load.h"

enum { OPT_FOLDED = 512 };

static void usage(int status)
{
	FILE *out = status == EXIT_OK ? stdout : stderr;

	fprintf(out,
		"usage: %s [-chtV] [--by=KEY] [--cum] [-n N] [--folded] [--no-cache]\n"
		"       [--no-symbolize] [--no-inline] [--symbols DIR] [--binary FILE] [FILE ...]\n"
		"Print the flat normalized distribution of CPU profiles as JSON.\n"
		CPROF_LOAD_BY_HELP
		"  --cum           count each key once in every sample holding it\n"
		"  -n, --top N     keep the first N entries\n"
		"  -c, --compact   JSON on one line\n"
		"  -t, --text      an aligned table instead of JSON\n"
		"      --folded    KEY COUNT lines instead of JSON\n"
		CPROF_LOAD_SYMBOL_HELP
		"  -h, --help      this help;  -V, --version  the version\n",
		cprof_progname);
	exit(status);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		CPROF_LOAD_LONG_OPTIONS,
		CPROF_LOAD_CUM_OPTION,
		CPROF_OUTPUT_LONG_OPTIONS,
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "help", no_argument, NULL, 'h' },
		{ "top", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const stdin_only[] = { "-" };
	struct cprof_loader loader;
	struct cprof_dist *dist = NULL;
	const char *const *inputs;
	bool compact = false, text = false, folded = false;
	uint64_t top = 0;
	int opt, i, count;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES);
	cprof_loader_init(&loader);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":chn:tV", options, NULL)) != -1) {
		if (cprof_loader_option(&loader, opt, optarg) ||
		    cprof_output_option(opt, &compact, &text))
			continue;
		switch (opt) {
		case 'h':
			usage(EXIT_OK);
			break;
		case 'n':
			top = cprof_option_u64("--top", optarg);
			if (top == 0)
				cprof_die("--top: must be at least 1");
			break;
		case OPT_FOLDED:
			folded = true;
			break;
		default:
			cprof_bad_option(opt, argv, options);
		}
	}
	argc -= optind;
	argv += optind;
	if (text && folded)
		cprof_die("--text and --folded exclude each other");

	inputs = argc > 0 ? (const char *const *)argv : stdin_only;
	count = argc > 0 ? argc : 1;
	cprof_loader_check_operands(inputs, count);
	for (i = 0; i < count; i++)
		cprof_loader_read(&loader, inputs[i], &dist);

	if (text)
		cprof_text_flat(dist, (size_t)top);
	else if (folded)
		cprof_folded_flat(dist, (size_t)top);
	else
		cprof_json_print(cprof_json_flat(dist, (size_t)top), compact);
	cprof_dist_free(dist);
	cprof_loader_free(&loader);
	return cprof_finish_output(EXIT_OK);
}
