/* cprof-entropy: the Shannon entropy of profiles, and its stability over
 * several. */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonout.h"
#include "lib/load.h"
#include "metrics/json-metrics.h"
#include "metrics/judge.h"
#include "metrics/options.h"
#include "metrics/stats.h"
#include "metrics/svg.h"

enum { OPT_BASE = 512, OPT_SVG };

static void usage(void)
{
	printf("usage: %s [-chtV] [--svg] [--base 2|e|10] [--by=KEY] [--no-cache]\n"
	       "       [--sample-index=N|NAME] [--no-symbolize] [--no-inline] [--symbols DIR]\n"
	       "       [--binary FILE] [--tag-filter NAME=VALUE] [--sample-type TYPE/UNIT]\n"
	       "       [--period N] [FILE ...]\n"
	       "Print the Shannon entropy of each profile, and its stability over several.\n"
	       "  --base B        2 (bits, the default), e (nats) or 10 (hartleys)\n"
	       CPROF_LOAD_BY_HELP
	       CPROF_LOAD_SAMPLE_INDEX_HELP
	       "  -c, --compact   JSON on one line\n"
	       "  -t, --text      an aligned table instead of JSON\n"
	       "  --svg           an SVG chart of the entropies instead of JSON\n"
	       CPROF_LOAD_SYMBOL_HELP
	       "  -h, --help      this help;  -V, --version  the version\n",
	       cprof_progname);
	exit(cprof_finish_output(EXIT_OK));
}

/* One input's result, kept once its distribution is freed. */

static void print_text(const struct cprof_svg_profile *results, size_t count, enum cprof_by by,
		       enum cprof_base base, const struct cprof_stability *stability)
{
	size_t i;

	cprof_put_by(stdout, by);
	printf(", entropy in %s\n", cprof_base_unit(base));
	printf("%12s %10s %10s %10s %8s %12s  %s\n", "entropy", "mm", "se", "normalized",
	       "entries", "total", "source");
	for (i = 0; i < count; i++) {
		const struct cprof_entropy *e = &results[i].entropy;

		printf("%s%10.6f %10.6f %10.6f %10.6f %8zu %12" PRIu64 "  ",
		       e->lower_bound ? ">=" : "  ", e->entropy, e->entropy_mm, e->se, e->normalized,
		       e->entries, e->total);
		cprof_put_text(stdout, results[i].source);
		putchar('\n');
	}
	if (stability)
		printf("stability of %zu: mean %.6f, sd %.6f (sampling alone %.6f), min %.6f, "
		       "max %.6f, cv %.6f\n",
		       stability->n, stability->mean, stability->sd, stability->sampling_sd,
		       stability->min, stability->max, stability->cv);
	for (i = 0; i < count; i++)
		if (results[i].entropy.lower_bound) {
			printf(">= a lower bound: a truncated flat, its other samples "
			       "counted as one entry\n");
			break;
		}
}

/* Draws the entropies as an SVG chart (svg.c). */
static void print_svg(const struct cprof_svg_profile *results, size_t count, enum cprof_by by,
		      enum cprof_base base, const struct cprof_stability *stability)
{
	struct cprof_svg_entropy svg = { cprof_by_name(by), cprof_base_unit(base), results, count,
					 stability };

	cprof_svg_entropy(stdout, &svg);
}

/* What the program prints, from its options. */
struct output {
	enum cprof_base base;
	bool compact, text, svg;
};

/* Parses the options into `loader` and `out`; returns optind. */
static int parse_options(int argc, char **argv, struct cprof_loader *loader, struct output *out)
{
	static const struct option options[] = {
		CPROF_LOAD_LONG_OPTIONS,
		CPROF_LOAD_CUM_OPTION,
		{ "base", required_argument, NULL, OPT_BASE },
		CPROF_OUTPUT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ "svg", no_argument, NULL, OPT_SVG },
		{ NULL, 0, NULL, 0 },
	};
	int opt, parsed;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":chtV", options, NULL)) != -1) {
		if (opt == CPROF_OPT_CUM)
			cprof_die("--cum: inclusive counts sum past 1, so their entropy is undefined");
		if (cprof_loader_option(loader, opt, optarg) ||
		    cprof_output_option(opt, &out->compact, &out->text))
			continue;
		switch (opt) {
		case 'h':
			usage();
			break;
		case OPT_SVG:
			out->svg = true;
			break;
		case OPT_BASE:
			parsed = cprof_base_parse(optarg);
			if (parsed < 0)
				cprof_die("--base: must be 2, e or 10, not '%s'", optarg);
			out->base = (enum cprof_base)parsed;
			break;
		default:
			cprof_bad_option(opt, argv, options);
		}
	}
	return optind;
}

/* The output modes exclude each other. */
static void check_output(const struct output *out)
{
	if (out->compact && (out->text || out->svg))
		cprof_die("--compact and %s exclude each other (see --help)",
			  out->text ? "--text" : "--svg");
	if (out->text && out->svg)
		cprof_die("--text and --svg exclude each other (see --help)");
}

/* Reads each input and fills its result, its entropy in `values` and
 * its standard error in `se`; returns the key of the first. */
static enum cprof_by read_inputs(struct cprof_loader *loader, const char *const *inputs,
				 int count, enum cprof_base base, struct cprof_svg_profile *results,
				 double *values, double *se)
{
	enum cprof_by by = CPROF_BY_FUNCTION;
	int i;

	for (i = 0; i < count; i++) {
		struct cprof_error err = { { 0 }, 0 };
		struct cprof_dist *dist = NULL;

		cprof_loader_read(loader, inputs[i], &dist);
		if (cprof_entropy_compute(dist, base, &results[i].entropy, &err) < 0)
			cprof_die_input(inputs[i], &err);
		/* Every input is keyed as the first: a flat JSON first sets the
		 * keying of the raw profiles after it, and a flat keyed
		 * otherwise is an error. */
		if (i == 0) {
			by = dist->by;
			loader->key.by = dist->by;
			loader->key.cum = dist->cum;
			loader->key.by_given = true;
		}
		results[i].source = inputs[i];
		values[i] = results[i].entropy.entropy;
		se[i] = results[i].entropy.se;
		cprof_dist_free(dist);
	}
	return by;
}

/* Prints the JSON of one input, or of several with their stability. */
static void print_json(const struct cprof_svg_profile *results, size_t count, enum cprof_by by,
		       enum cprof_base base, const struct cprof_stability *stability, bool compact)
{
	json_t *profiles;
	size_t i;

	if (count == 1) {
		cprof_json_print(cprof_json_entropy(results[0].source, by, base, &results[0].entropy,
						    true),
				 compact);
		return;
	}
	profiles = json_array();
	if (!profiles)
		cprof_die_oom();
	for (i = 0; i < count; i++)
		if (json_array_append_new(profiles,
					  cprof_json_entropy(results[i].source, by, base,
							     &results[i].entropy, false)) != 0)
			cprof_die_oom();
	cprof_json_print(cprof_json_entropy_many(by, base, profiles, stability), compact);
}

int main(int argc, char **argv)
{
	static const char *const stdin_only[] = { "-" };
	struct cprof_loader loader;
	struct cprof_stability stability;
	struct output out = { .base = CPROF_BASE_2 };
	struct cprof_svg_profile *results;
	const char *const *inputs;
	enum cprof_by by;
	double *values, *se;
	int count, first;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES " " CPROF_METRICS_LIBRARIES);
	cprof_loader_init(&loader);
	first = parse_options(argc, argv, &loader, &out);
	check_output(&out);
	inputs = first < argc ? (const char *const *)argv + first : stdin_only;
	count = first < argc ? argc - first : 1;
	cprof_loader_check_operands(inputs, count);

	results = cprof_xcalloc((size_t)count, sizeof(*results));
	values = cprof_xcalloc((size_t)count, sizeof(*values));
	se = cprof_xcalloc((size_t)count, sizeof(*se));
	by = read_inputs(&loader, inputs, count, out.base, results, values, se);
	if (count > 1)
		cprof_stability_compute(values, se, (size_t)count, &stability);
	if (out.text)
		print_text(results, (size_t)count, by, out.base, count > 1 ? &stability : NULL);
	else if (out.svg)
		print_svg(results, (size_t)count, by, out.base, count > 1 ? &stability : NULL);
	else
		print_json(results, (size_t)count, by, out.base, &stability, out.compact);
	free(se);
	free(values);
	free(results);
	cprof_loader_free(&loader);
	return cprof_finish_output(EXIT_OK);
}
