/* cprof-flat: read profiles, merge them, print the flat distribution. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/json.h"
#include "lib/load.h"
#include "lib/pprof-write.h"
#include "lib/rows.h"
#include "lib/text.h"
#include "metrics/flame-svg.h"
#include "metrics/flame.h"
#include "metrics/stats.h"

enum { OPT_FOLDED = 512, OPT_PPROF, OPT_ROWS, OPT_TAG, OPT_LABEL, OPT_SVG, OPT_ICICLE,
       OPT_MIN_WIDTH };

/* Fields of every row, never tags. */
static const char *const row_fields[] = { "profile", "by", "key", "count", NULL };

/* What the program prints, from its options. */
struct output {
	bool compact, text, folded, pprof, rows, svg, icicle;
	uint64_t top;
	double min_width;              /* --min-width, pixels; < 0: not given */
	struct cprof_ptrs tags;        /* --tag: struct cprof_tag * */
	struct cprof_ptrs labels;      /* --label: struct cprof_tag *, FIELD=KEY */
	struct cprof_ptrs label_keys;  /* their KEYs, borrowed */
};

static void usage(int status)
{
	FILE *out = status == EXIT_OK ? stdout : stderr;

	fprintf(out,
		"usage: %s [-chtV] [--by=KEY] [--cum] [-n N] [--folded | --pprof | --svg]\n"
		"       [--sample-index=N|NAME] [--no-symbolize] [--no-inline] [--no-cache]\n"
		"       [--symbols DIR] [--binary FILE] [--tag-filter NAME=VALUE] [--icicle]\n"
		"       [--sample-type TYPE/UNIT] [--period N] [--min-width PX]\n"
		"       [--rows [--tag NAME=VALUE]... [--label NAME[=KEY]]...] [FILE ...]\n"
		"Print the flat normalized distribution of CPU profiles as JSON.\n"
		CPROF_LOAD_BY_HELP
		CPROF_LOAD_SAMPLE_INDEX_HELP
		"  --cum           count each key once in every sample holding it\n"
		"  -n, --top N     keep the first N entries\n"
		"  -c, --compact   JSON on one line;  -t, --text  an aligned table instead\n"
		"      --folded    KEY COUNT lines instead of JSON\n"
		"      --pprof     gzip-compressed profile.proto instead (never to a terminal)\n"
		"      --svg       a flame graph (search, zoom); --icicle  the root on top;\n"
		"                  --min-width PX  narrower frames merged (default 0.1)\n"
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
		{ "min-width", required_argument, NULL, OPT_MIN_WIDTH },
		{ "pprof", no_argument, NULL, OPT_PPROF },
		{ "help", no_argument, NULL, 'h' },
		{ "icicle", no_argument, NULL, OPT_ICICLE },
		{ "label", required_argument, NULL, OPT_LABEL },
		{ "rows", no_argument, NULL, OPT_ROWS },
		{ "svg", no_argument, NULL, OPT_SVG },
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
		case OPT_SVG:
			out->svg = true;
			break;
		case OPT_ICICLE:
			out->icicle = true;
			break;
		case OPT_MIN_WIDTH:
			out->min_width = cprof_option_double("--min-width", optarg);
			if (!(out->min_width >= 0))
				cprof_die("--min-width: must not be negative: '%s'", optarg);
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

/* Dies on the options --svg does not take; keys it by stack. */
static void check_svg(struct output *out, struct cprof_loader *loader)
{
	if ((out->icicle || out->min_width >= 0) && !out->svg)
		cprof_die("--%s: only with --svg", out->icicle ? "icicle" : "min-width");
	if (!out->svg)
		return;
	if (out->text || out->folded || out->compact || out->pprof || out->rows || out->top)
		cprof_die("--svg excludes --text, --folded, --compact, --pprof, --rows and --top");
	if (loader->key.cum)
		cprof_die("--svg: a flame graph counts each sample once; --cum does not apply");
	if (loader->key.by_given && loader->key.by != CPROF_BY_STACK)
		cprof_die("--svg draws stacks: --by=%s does not apply (--by=stack is the default)",
			  cprof_by_name(loader->key.by));
	loader->key.by = CPROF_BY_STACK;
	if (out->min_width < 0)
		out->min_width = CPROF_FLAME_MIN_WIDTH;
}

/* The unit a count of `dist` is in, as a flame graph says it. */
static const char *count_unit(const struct cprof_dist *dist)
{
	const char *type = cprof_dist_sample_type(dist), *unit = strrchr(type, '/');

	return strcmp(type, "samples/count") == 0 || !unit ? "samples" : unit + 1;
}

/* Draws `dist` as a flame graph (flame-svg.c). */
static void print_svg(const struct cprof_dist *dist, const struct output *out)
{
	struct cprof_flame_svg how = { NULL, count_unit(dist), out->min_width, out->icicle, false };
	struct cprof_flame *flame;
	char *title = NULL;
	size_t size = 0, i;
	FILE *mem = open_memstream(&title, &size);

	if (dist->by != CPROF_BY_STACK)
		cprof_die("%s: keyed by %s: --svg draws stacks", (const char *)dist->sources.items[0],
			  cprof_by_name(dist->by));
	if (!mem)
		cprof_die_oom();
	fputs("cprof-flat:", mem);
	for (i = 0; i < dist->sources.len && i < 4; i++)
		fprintf(mem, " %s", (const char *)dist->sources.items[i]);
	if (dist->sources.len > 4)
		fprintf(mem, " and %zu more", dist->sources.len - 4);
	if (fclose(mem) != 0)
		cprof_die_oom();
	how.title = title;
	flame = cprof_flame_build(dist, out->min_width / CPROF_FLAME_CHART);
	cprof_flame_svg(stdout, flame, &how);
	cprof_flame_free(flame);
	free(title);
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
	} else if (out->svg) {
		print_svg(dist, out);
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
	struct output out = { .min_width = -1 };
	const char *const *inputs;
	int count, first;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES " " CPROF_METRICS_LIBRARIES);
	cprof_loader_init(&loader);
	first = parse_options(argc, argv, &loader, &out);
	check_svg(&out, &loader);
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
