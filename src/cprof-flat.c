/* cprof-flat: read profiles, merge them, print the flat distribution. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/load.h"
#include "lib/pprof-write.h"
#include "lib/rows.h"
#include "lib/text.h"

enum { OPT_FOLDED = 512, OPT_PPROF, OPT_ROWS, OPT_TAG, OPT_LABEL };

/* Fields of every row, never tags. */
static const char *const row_fields[] = { "profile", "by", "key", "count", NULL };

/* What the program prints, from its options. */
struct output {
	bool compact, text, folded, pprof, rows;
	uint64_t top;
	struct cprof_ptrs tags;        /* --tag: struct cprof_tag * */
	struct cprof_ptrs labels;      /* --label: struct cprof_tag *, FIELD=KEY */
	struct cprof_ptrs label_keys;  /* their KEYs, borrowed */
};

static void usage(int status)
{
	FILE *out = status == EXIT_OK ? stdout : stderr;

	fprintf(out,
		"usage: %s [-chtV] [--by=KEY] [--cum] [-n N] [--folded | --pprof]\n"
		"       [--sample-index=N|NAME] [--no-symbolize] [--no-inline] [--no-cache]\n"
		"       [--symbols DIR] [--binary FILE] [--tag-filter NAME=VALUE]\n"
		"       [--sample-type TYPE/UNIT] [--period N]\n"
		"       [--rows [--tag NAME=VALUE]... [--label NAME[=KEY]]...] [FILE ...]\n"
		"Print the flat normalized distribution of CPU profiles as JSON.\n"
		CPROF_LOAD_BY_HELP
		CPROF_LOAD_SAMPLE_INDEX_HELP
		"  --cum           count each key once in every sample holding it\n"
		"  -n, --top N     keep the first N entries\n"
		"  -c, --compact   JSON on one line\n"
		"  -t, --text      an aligned table instead of JSON\n"
		"      --folded    KEY COUNT lines instead of JSON\n"
		"      --pprof     gzip-compressed profile.proto instead (never to a terminal)\n"
		"      --rows      JSON Lines, one row per key of each input, not merged;\n"
		"                  --tag NAME=VALUE adds a field to every row, --label\n"
		"                  NAME[=KEY] the value of a profile.proto label\n"
		CPROF_LOAD_SYMBOL_HELP
		"  -h, --help      this help;  -V, --version  the version\n",
		cprof_progname);
	exit(status);
}

/* Parses the options into `loader` and `out`; returns optind. */
static int parse_options(int argc, char **argv, struct cprof_loader *loader, struct output *out)
{
	static const struct option options[] = {
		CPROF_LOAD_LONG_OPTIONS,
		CPROF_LOAD_CUM_OPTION,
		CPROF_OUTPUT_LONG_OPTIONS,
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "pprof", no_argument, NULL, OPT_PPROF },
		{ "help", no_argument, NULL, 'h' },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "rows", no_argument, NULL, OPT_ROWS },
		{ "tag", required_argument, NULL, OPT_TAG },
		{ "top", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":chn:tV", options, NULL)) != -1) {
		if (cprof_loader_option(loader, opt, optarg) ||
		    cprof_output_option(opt, &out->compact, &out->text))
			continue;
		switch (opt) {
		case 'h':
			usage(EXIT_OK);
			break;
		case 'n':
			out->top = cprof_option_u64("--top", optarg);
			if (out->top == 0)
				cprof_die("--top: must be at least 1");
			break;
		case OPT_FOLDED:
			out->folded = true;
			break;
		case OPT_PPROF:
			out->pprof = true;
			break;
		case OPT_ROWS:
			out->rows = true;
			break;
		case OPT_TAG:
			cprof_tag_parse(&out->tags, "--tag", optarg, row_fields);
			break;
		case OPT_LABEL:
			cprof_label_parse(&out->labels, optarg, row_fields);
			break;
		default:
			cprof_bad_option(opt, argv, options);
		}
	}
	return optind;
}

/* Dies on output options that exclude each other. */
static void check_output(const struct output *out, const struct cprof_loader *loader)
{
	if (out->text && out->folded)
		cprof_die("--text and --folded exclude each other");
	if (out->pprof && (out->text || out->folded || out->compact))
		cprof_die("--pprof and --%s exclude each other",
			  out->text ? "text" : out->folded ? "folded" : "compact");
	if (out->pprof && loader->key.cum)
		cprof_die("--pprof: a --cum distribution is not a profile (a sample counts in many "
			  "keys)");
	if (out->pprof && out->top)
		cprof_die("--pprof writes every key: --top does not apply");
	if (out->pprof && isatty(STDOUT_FILENO))
		cprof_die("--pprof: standard output is a terminal; redirect it to a file");
	if (out->rows && (out->text || out->folded || out->compact || out->top || out->pprof ||
			  loader->key.cum))
		cprof_die("--rows excludes --text, --folded, --compact, --top, --pprof and --cum");
	if (out->tags.len && !out->rows)
		cprof_die("--tag: only with --rows");
	if (out->labels.len && !out->rows)
		cprof_die("--label: only with --rows");
	cprof_labels_check(&out->tags, &out->labels);
}

/* Reads each input on its own (split by its --label values) and prints
 * its rows. */
static void print_rows(struct cprof_loader *loader, const char *const *inputs, int count,
		       struct output *out)
{
	struct cprof_ptrs parts = { 0 };
	size_t from, j;
	int i;

	cprof_labels_read_options(&out->labels, &out->label_keys, &loader->read);
	for (i = 0; i < count; i++) {
		from = parts.len;
		cprof_loader_read_parts(loader, inputs[i], &parts);
		for (j = from; j < parts.len; j++) {
			struct cprof_part *part = parts.items[j];

			part->input = (size_t)i;
			cprof_rows_check(part->dist);
		}
	}
	cprof_rows_print((struct cprof_part **)parts.items, parts.len, &out->tags, &out->labels);
	cprof_ptrs_clear(&parts, cprof_part_free);
	cprof_ptrs_clear(&out->label_keys, NULL);
}

/* Reads and merges the inputs and prints the distribution. */
static void print_flat(struct cprof_loader *loader, const char *const *inputs, int count,
		       const struct output *out)
{
	struct cprof_dist *dist = NULL;
	int i;

	for (i = 0; i < count; i++)
		cprof_loader_read(loader, inputs[i], &dist);
	if (out->pprof) {
		struct cprof_error err = { { 0 }, 0 };

		if (cprof_pprof_write(stdout, dist, &err) < 0)
			cprof_die("%s", err.text);
	} else if (out->text) {
		cprof_text_flat(dist, (size_t)out->top);
	} else if (out->folded) {
		cprof_folded_flat(dist, (size_t)out->top);
	} else {
		cprof_json_print_flat(dist, (size_t)out->top, out->compact);
	}
	cprof_dist_free(dist);
}

int main(int argc, char **argv)
{
	static const char *const stdin_only[] = { "-" };
	struct cprof_loader loader;
	struct output out = { 0 };
	const char *const *inputs;
	int count, first;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES);
	cprof_loader_init(&loader);
	first = parse_options(argc, argv, &loader, &out);
	check_output(&out, &loader);
	inputs = first < argc ? (const char *const *)argv + first : stdin_only;
	count = first < argc ? argc - first : 1;
	cprof_loader_check_operands(inputs, count);
	if (out.rows)
		print_rows(&loader, inputs, count, &out);
	else
		print_flat(&loader, inputs, count, &out);
	cprof_ptrs_clear(&out.tags, cprof_tag_free);
	cprof_ptrs_clear(&out.labels, cprof_tag_free);
	cprof_loader_free(&loader);
	return cprof_finish_output(EXIT_OK);
}
