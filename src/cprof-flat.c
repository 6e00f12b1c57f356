/* cprof-flat: read profiles, merge them, print the flat distribution. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>

#include "load.h"
#include "rows.h"

enum { OPT_FOLDED = 512, OPT_ROWS, OPT_TAG };

/* Fields of every row, never tags. */
static const char *const row_fields[] = { "profile", "by", "key", "count", NULL };

static void usage(int status)
{
	FILE *out = status == EXIT_OK ? stdout : stderr;

	fprintf(out,
		"usage: %s [-chtV] [--by=KEY] [--cum] [-n N] [--folded]\n"
		"       [--sample-index=N|NAME] [--no-symbolize] [--no-inline] [--symbols DIR]\n"
		"       [--binary FILE] [--rows [--tag NAME=VALUE]...] [FILE ...]\n"
		"Print the flat normalized distribution of CPU profiles as JSON.\n"
		CPROF_LOAD_BY_HELP
		CPROF_LOAD_SAMPLE_INDEX_HELP
		"  --cum           count each key once in every sample holding it\n"
		"  -n, --top N     keep the first N entries\n"
		"  -c, --compact   JSON on one line\n"
		"  -t, --text      an aligned table instead of JSON\n"
		"      --folded    KEY COUNT lines instead of JSON\n"
		"      --rows      JSON Lines, one row per key of each input, not merged\n"
		"      --tag NAME=VALUE  a field of every row (repeatable)\n"
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
		{ "rows", no_argument, NULL, OPT_ROWS },
		{ "tag", required_argument, NULL, OPT_TAG },
		{ "top", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const stdin_only[] = { "-" };
	struct cprof_loader loader;
	struct cprof_dist *dist = NULL;
	const char *const *inputs;
	GPtrArray *tags = g_ptr_array_new_with_free_func(cprof_tag_free);
	bool compact = false, text = false, folded = false, rows = false;
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
		case OPT_ROWS:
			rows = true;
			break;
		case OPT_TAG:
			cprof_tag_parse(tags, "--tag", optarg, row_fields);
			break;
		default:
			cprof_bad_option(opt, argv, options);
		}
	}
	argc -= optind;
	argv += optind;
	if (text && folded)
		cprof_die("--text and --folded exclude each other");
	if (rows && (text || folded || compact || top || loader.key.cum))
		cprof_die("--rows excludes --text, --folded, --compact, --top and --cum");
	if (tags->len && !rows)
		cprof_die("--tag: only with --rows");

	inputs = argc > 0 ? (const char *const *)argv : stdin_only;
	count = argc > 0 ? argc : 1;
	cprof_loader_check_operands(inputs, count);
	if (rows) {
		struct cprof_dist **dists = cprof_xcalloc((size_t)count, sizeof(*dists));

		for (i = 0; i < count; i++) {
			cprof_loader_read(&loader, inputs[i], &dists[i]);
			cprof_rows_check(dists[i]);
		}
		cprof_rows_print(dists, (size_t)count, tags);
		for (i = 0; i < count; i++)
			cprof_dist_free(dists[i]);
		free(dists);
		g_ptr_array_free(tags, TRUE);
		cprof_loader_free(&loader);
		return cprof_finish_output(EXIT_OK);
	}
	for (i = 0; i < count; i++)
		cprof_loader_read(&loader, inputs[i], &dist);

	if (text)
		cprof_text_flat(dist, (size_t)top);
	else if (folded)
		cprof_folded_flat(dist, (size_t)top);
	else
		cprof_json_print(cprof_json_flat(dist, (size_t)top), compact);
	cprof_dist_free(dist);
	g_ptr_array_free(tags, TRUE);
	cprof_loader_free(&loader);
	return cprof_finish_output(EXIT_OK);
}
