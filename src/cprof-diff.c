/* cprof-diff: the Manhattan distance of the top-k entries of two profiles,
 * entry by entry. */
#include "config.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


#include "base/jsonout.h"
#include "lib/folded.h"
#include "lib/load.h"
#include "metrics/json-metrics.h"
#include "metrics/judge.h"
#include "metrics/options.h"
#include "metrics/stats.h"
#include "metrics/flame-svg.h"
#include "metrics/flame.h"
#include "metrics/svg.h"

enum { OPT_FAIL_ABOVE = 512, OPT_FAIL_DIFFERENT, OPT_FOLDED, OPT_SVG };

static void usage(void)
{
	printf("usage: %s [-chtV] [--svg | --folded] [-k N] [--keys union|a] [--alpha A]\n"
	       "       [--min-effect E] [--dispersion PHI] [--fail-different] [--fail-above T]\n"
	       "       [--by=KEY] [--cum] [--sample-index=N|NAME] [--tag-filter NAME=VALUE]\n"
	       "       [--no-symbolize] [--no-inline] [--no-cache] [--symbols DIR]\n"
	       "       [--binary FILE] [--sample-type TYPE/UNIT] [--period N] A B|AB\n"
	       "Print the Manhattan distance of the top-k entries of two profiles, and\n"
	       "whether they differ by more than sampling explains.\n"
	       "  -k N            compare the top N keys (default 10; 0: every key)\n"
	       "  --keys K        union (the top N of A and of B, the default) or a\n"
	       CPROF_SIGNIF_HELP
	       "  --dispersion PHI  the shares vary PHI times as much as sampling (default 1)\n"
	       "  --fail-different / --fail-above T  exit 1 if different / distance > T\n"
	       CPROF_LOAD_BY_HELP
	       CPROF_LOAD_SAMPLE_INDEX_HELP
	       "  --cum           count each key once in every sample holding it\n"
	       "  -c, --compact   JSON on one line;  -t, --text  a table instead of JSON\n"
	       "  --svg           a chart (by stack: a flame graph);  --folded  KEY A B lines\n"
	       CPROF_LOAD_SYMBOL_HELP
	       "  -h, --help      this help;  -V, --version  the version\n",
	       cprof_progname);
	exit(cprof_finish_output(EXIT_OK));
}

static void print_side(const char *name, const char *source, const struct cprof_dist *dist,
		       const double *entropy)
{
	const char *type = cprof_dist_sample_type(dist);

	printf("%s: ", name);
	cprof_put_text(stdout, source);
	printf(", %" PRIu64 " ", dist->total);
	cprof_put_text(stdout, strcmp(type, "samples/count") == 0 ? "samples" : type);
	printf(", ");
	if (entropy)
		printf("entropy %.6f bits\n", *entropy);
	else
		printf("entropy undefined (--cum)\n");
}

/* The verdict line and the test of a tested difference. */
static void print_verdict(const struct cprof_judgement *j)
{
	const struct cprof_gtest *g = &j->signif->gtest;

	printf("verdict %s at alpha %g (min effect %g, dispersion %g): %zu of %zu keys "
	       "changed significantly\n",
	       j->signif->different ? "DIFFERENT" : "same", j->options.alpha, j->options.min_effect,
	       j->options.dispersion, j->signif->significant, j->count);
	printf("G = %.2f on %lu df, p %.3g; manhattan by sampling alone: mean %.4f, "
	       "%g%% quantile %.4f\n",
	       g->statistic, g->df, g->p_value, j->null.mean, 100.0 * (1.0 - j->options.alpha),
	       j->null.quantile);
}

/* The mark of a tested key: "*" when moved; when not moved but its
 * interval excludes 0, why (cprof_key_note) in a word. */
static const char *key_mark(const struct cprof_key_signif *key)
{
	const char *note = cprof_key_note(key);

	if (key->significant)
		return "*";
	if (!note)
		return "";
	return strcmp(note, "below --min-effect") == 0 ? "<min-effect" : "not-signif";
}

/* One compared key; with a judgement, its q, interval, the interval's
 * level and its mark. */
static void print_entry(const struct cprof_diff_entry *e, const struct cprof_judgement *j)
{
	const struct cprof_key_signif *key = j ? cprof_judgement_key(j, e->key) : NULL;

	printf("%8.2f %8.2f %+8.2f %10" PRIu64 " %10" PRIu64, 100.0 * e->p_a, 100.0 * e->p_b,
	       100.0 * e->delta, e->count_a, e->count_b);
	if (key && !isnan(key->p_value))
		printf(" %9.2g %+7.2f %+7.2f %8.6g %-11s", key->q_value, 100.0 * key->ci_low,
		       100.0 * key->ci_high, 100.0 * key->ci_level, key_mark(key));
	else if (j && j->signif)
		printf(" %9s %7s %7s %8s %-11s", "-", "-", "-", "-", "");
	putchar(' ');
	cprof_put_text(stdout, e->key);
	putchar('\n');
}

/* What the marks and the levels of the intervals mean. */
static void print_legend(const struct cprof_judgement *j)
{
	printf("intervals at level%%: each excludes 0 exactly where its key's test rejects; the "
	       "%zu keys corrected at the false-coverage level of the %zu the correction "
	       "selected (1 - R alpha w / m)\n", j->signif->corrected, j->signif->selected);
	printf("* moved: q <= %g and |delta| >= %g; <min-effect: the interval excludes 0, the "
	       "change is below --min-effect\n", j->options.alpha, j->options.min_effect);
}

static void print_text(const char *const sources[2], const struct cprof_dist *a,
		       const struct cprof_dist *b, size_t k, enum cprof_keys keys,
		       const struct cprof_diff *diff, const double *entropy_a,
		       const double *entropy_b, const struct cprof_judgement *j)
{
	size_t i;

	print_side("a", sources[0], a, entropy_a);
	print_side("b", sources[1], b, entropy_b);
	cprof_put_by(stdout, a->by);
	printf("%s, ", a->cum ? " (cum)" : "");
	if (k == 0)
		printf("every key of %s", keys == CPROF_KEYS_A ? "a" : "a and b");
	else
		printf("the top %zu of %s", k, keys == CPROF_KEYS_A ? "a" : "a and of b");
	printf(": manhattan %.6f over %zu keys\n", diff->manhattan, diff->count);
	if (j->signif) {
		print_verdict(j);
		print_legend(j);
	}
	printf("%8s %8s %8s %10s %10s", "p_a%", "p_b%", "delta%", "count_a", "count_b");
	if (j->signif)
		printf(" %9s %7s %7s %8s %-11s", "q", "ci_lo%", "ci_hi%", "level%", "mark");
	printf(" %s\n", "key");
	for (i = 0; i < diff->count; i++)
		print_entry(&diff->entries[i], j);
}

/* Orders key pointers bytewise, for g_ptr_array_sort. */
static int compare_keys(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Prints the "# cprof:" line of A's sample type and the period both
 * have, when the counts of the `count` keys need it. */
static void print_folded_comment(const struct cprof_dist *a, const struct cprof_dist *b,
				 const struct cprof_ptrs *keys)
{
	bool has_period = a->has_period && b->has_period && a->period_us == b->period_us;
	struct cprof_folded_counts counts = CPROF_FOLDED_COUNTS_INIT;
	char *comment;
	size_t i;

	for (i = 0; i < keys->len; i++) {
		const struct cprof_entry *in_a = cprof_dist_find(a, keys->items[i]);
		const struct cprof_entry *in_b = cprof_dist_find(b, keys->items[i]);

		cprof_folded_counts_add(&counts, in_a ? in_a->count : 0, in_b ? in_b->count : 0);
	}
	comment = cprof_folded_comment(a->sample_type, has_period, a->period_us, &counts);
	if (comment)
		fputs(comment, stdout);
	free(comment);
}

/* Prints "KEY COUNT_A COUNT_B" for every key with samples in A or B, in
 * bytewise key order: the differential input of flamegraph.pl, after the
 * "# cprof:" line when the counts need it.  Every key, whatever -k
 * says. */
static void print_folded(const struct cprof_dist *a, const struct cprof_dist *b)
{
	struct cprof_ptrs keys = { 0 };
	size_t i;

	for (i = 0; i < a->entries.len; i++) {
		const struct cprof_entry *entry = a->entries.items[i];

		if (entry->count > 0)
			cprof_ptrs_add(&keys, entry->key);
	}
	for (i = 0; i < b->entries.len; i++) {
		const struct cprof_entry *entry = b->entries.items[i];
		const struct cprof_entry *in_a = cprof_dist_find(a, entry->key);

		if (entry->count > 0 && (!in_a || in_a->count == 0))
			cprof_ptrs_add(&keys, entry->key);
	}
	cprof_ptrs_sort(&keys, compare_keys);
	print_folded_comment(a, b, &keys);
	for (i = 0; i < keys.len; i++) {
		const char *key = keys.items[i];
		const struct cprof_entry *in_a = cprof_dist_find(a, key);
		const struct cprof_entry *in_b = cprof_dist_find(b, key);

		cprof_folded_put_line(stdout, key, in_a ? in_a->count : 0, true,
				      in_b ? in_b->count : 0);
	}
	cprof_ptrs_clear(&keys, NULL);
}

/* Draws the differential flame graph of two profiles by stack
 * (flame-svg.c), its frames tested under the judgement's options. */
static void print_flame(const char *const sources[2], const struct cprof_dist *a,
			const struct cprof_dist *b, const struct cprof_judgement *j)
{
	const char *type = cprof_dist_sample_type(b), *unit = strrchr(type, '/');
	struct cprof_flame_svg how = { NULL, "samples", CPROF_FLAME_MIN_WIDTH, false, false };
	struct cprof_flame *flame;
	char *title = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&title, &size);

	if (!mem)
		cprof_die_oom();
	fprintf(mem, "cprof-diff: A: %s vs B: %s", sources[0], sources[1]);
	if (fclose(mem) != 0)
		cprof_die_oom();
	if (strcmp(type, "samples/count") != 0 && unit)
		how.unit = unit + 1;
	how.title = title;
	flame = cprof_flame_diff(a, b, how.min_width / CPROF_FLAME_CHART,
				 j->signif ? &j->options : NULL);
	cprof_flame_svg(stdout, flame, &how);
	cprof_flame_free(flame);
	free(title);
}

/* What the program compares and prints, from its options. */
struct output {
	struct cprof_signif_options signif;
	enum cprof_keys keys;
	size_t k;
	bool compact, text, svg, folded;
	bool fail, fail_different;     /* --fail-above given, --fail-different */
	double fail_above;
};

/* Parses the options into `loader` and `out`; returns optind. */
static int parse_options(int argc, char **argv, struct cprof_loader *loader, struct output *out)
{
	static const struct option options[] = {
		CPROF_LOAD_LONG_OPTIONS,
		CPROF_LOAD_CUM_OPTION,
		CPROF_OUTPUT_LONG_OPTIONS,
		CPROF_SIGNIF_LONG_OPTIONS,
		{ "dispersion", required_argument, NULL, CPROF_OPT_DISPERSION },
		{ "fail-above", required_argument, NULL, OPT_FAIL_ABOVE },
		{ "fail-different", no_argument, NULL, OPT_FAIL_DIFFERENT },
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "help", no_argument, NULL, 'h' },
		{ "svg", no_argument, NULL, OPT_SVG },
		CPROF_COMPARE_LONG_OPTIONS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":chk:tV", options, NULL)) != -1) {
		if (cprof_loader_option(loader, opt, optarg) ||
		    cprof_output_option(opt, &out->compact, &out->text) ||
		    cprof_signif_option(opt, optarg, &out->signif) ||
		    cprof_compare_option(opt, optarg, &out->k, &out->keys))
			continue;
		switch (opt) {
		case 'h':
			usage();
			break;
		case OPT_FAIL_DIFFERENT:
			out->fail_different = true;
			break;
		case OPT_FOLDED:
			out->folded = true;
			break;
		case OPT_SVG:
			out->svg = true;
			break;
		case OPT_FAIL_ABOVE:
			out->fail_above = cprof_option_double("--fail-above", optarg);
			if (out->fail_above < 0)
				cprof_die("--fail-above: must not be negative: '%s'", optarg);
			out->fail = true;
			break;
		default:
			cprof_bad_option(opt, argv, options);
		}
	}
	return optind;
}

/* The output modes exclude each other: dies naming the first two given. */
static void check_output(const struct output *out)
{
	const char *given[4];
	size_t n = 0;

	if (out->compact)
		given[n++] = "--compact";
	if (out->text)
		given[n++] = "--text";
	if (out->svg)
		given[n++] = "--svg";
	if (out->folded)
		given[n++] = "--folded";
	if (n > 1)
		cprof_die("%s and %s exclude each other (see --help)", given[0], given[1]);
}

/* Reads A, then B keyed as A, into `a` and `b` (both from one two-count
 * folded file when the sources are the same pointer); dies unless both
 * are keyed alike and hold samples. */
static void read_inputs(struct cprof_loader *loader, const char *const sources[2],
			struct cprof_dist **a, struct cprof_dist **b)
{
	if (sources[0] == sources[1]) {
		cprof_loader_read_pair(loader, sources[0], a, b);
	} else {
		cprof_loader_read(loader, sources[0], a);
		/* B is keyed as A: a flat JSON A sets the keying of a raw B, and
		 * a flat B keyed otherwise is an error. */
		loader->key.by = (*a)->by;
		loader->key.cum = (*a)->cum;
		loader->key.by_given = true;
		cprof_loader_read(loader, sources[1], b);
	}
	if ((*a)->by != (*b)->by || (*a)->cum != (*b)->cum)
		cprof_die("%s: keyed by %s%s, but %s by %s%s", sources[1], cprof_by_name((*b)->by),
			  (*b)->cum ? " with --cum" : "", sources[0], cprof_by_name((*a)->by),
			  (*a)->cum ? " with --cum" : "");
	if ((*a)->total == 0)
		cprof_die("%s: no samples to compare", sources[0]);
	if ((*b)->total == 0)
		cprof_die("%s: no samples to compare", sources[1]);
}

/* Dies when --fail-different asks for a verdict that A and B cannot have. */
static void check_verdict(const struct output *out, const struct cprof_dist *a,
			  const struct cprof_dist *b)
{
	if (out->fail_different && a->cum)
		cprof_die("--fail-different: a --cum difference has no verdict (a sample counts "
			  "in many keys)");
	/* As cprof_judge decides: counts that are not samples are not tested. */
	if (out->fail_different && (cprof_dist_units_per_sample(a) == 0 ||
				    cprof_dist_units_per_sample(a) != cprof_dist_units_per_sample(b)))
		cprof_die("--fail-different: the counts are %s, not samples of a known period: "
			  "there is no verdict", cprof_dist_sample_type(a));
}

/* Warns when compared keys are missing from a truncated flat. */
static void warn_unknown(const char *source, const struct cprof_dist *dist, size_t unknown)
{
	if (unknown > 0)
		cprof_warn("%s: %zu compared keys are not among the entries of this truncated "
			   "flat (other: %" PRIu64 " samples); their p is taken as 0",
			   source, unknown, cprof_dist_other(dist));
}

/* The name of an operand in a message: "standard input" for -. */
static const char *operand_name(const char *source)
{
	return strcmp(source, "-") == 0 ? "standard input" : source;
}

/* The sides in the user's words, for the judgement's warnings: the
 * operands, "the first" and "the second" before them when they are one
 * name; the caller frees both. */
static void side_names(const char *const sources[2], char *names[2])
{
	const char *a = operand_name(sources[0]), *b = operand_name(sources[1]);
	bool same = strcmp(a, b) == 0;
	size_t i;

	for (i = 0; i < 2; i++) {
		const char *name = i == 0 ? a : b, *which = i == 0 ? "the first " : "the second ";
		size_t size = strlen(name) + (same ? strlen(which) : 0) + 1;

		names[i] = cprof_xmalloc(size);
		snprintf(names[i], size, "%s%s", same ? which : "", name);
	}
}

/* Compares A and B, prints the answer in the mode `out` asks for, and
 * returns the exit status. */
static int compare(const char *const sources[2], struct cprof_dist *a, struct cprof_dist *b,
		   const struct output *out)
{
	struct cprof_diff *diff, *shown;
	struct cprof_judgement *judgement;
	const double *entropy_a, *entropy_b;
	double entropy_values[2];
	char *names[2];
	int status;

	diff = cprof_diff_compute(a, b, out->k, out->keys);
	/* --folded prints every key: its warnings are of every key, while
	 * --fail-above still judges the distance of the top k. */
	shown = out->folded ? cprof_diff_compute(a, b, 0, CPROF_KEYS_UNION) : diff;
	entropy_a = cprof_entropy_bits(a, &entropy_values[0]);
	entropy_b = cprof_entropy_bits(b, &entropy_values[1]);
	warn_unknown(sources[0], a, shown->unknown_a);
	warn_unknown(sources[1], b, shown->unknown_b);
	side_names(sources, names);
	judgement = cprof_judge(a, b, shown, out->folded ? 0 : out->k,
				out->folded ? CPROF_KEYS_UNION : out->keys, &out->signif,
				(const char *const *)names);
	cprof_warnings_print(&judgement->warnings);
	if (out->text)
		print_text(sources, a, b, out->k, out->keys, diff, entropy_a, entropy_b, judgement);
	else if (out->svg && a->by == CPROF_BY_STACK && !a->cum)
		print_flame(sources, a, b, judgement);
	else if (out->svg)
		cprof_svg_diff(stdout, sources, a, b, out->k, out->keys, diff, judgement);
	else if (out->folded)
		print_folded(a, b);
	else
		cprof_json_print(cprof_json_diff(sources[0], sources[1], a->by, out->k, out->keys,
						 diff, a->total, b->total, entropy_a, entropy_b,
						 judgement),
				 out->compact);
	status = out->fail && diff->manhattan > out->fail_above ? EXIT_VERDICT : EXIT_OK;
	if (out->fail_different && judgement->signif->different)
		status = EXIT_VERDICT;
	cprof_judgement_free(judgement);
	free(names[0]);
	free(names[1]);
	if (shown != diff)
		cprof_diff_free(shown);
	cprof_diff_free(diff);
	return status;
}

int main(int argc, char **argv)
{
	struct cprof_loader loader;
	struct cprof_dist *a = NULL, *b = NULL;
	struct output out = { .signif = CPROF_SIGNIF_DEFAULTS, .keys = CPROF_KEYS_UNION, .k = 10 };
	const char *sources[2];
	int first, status;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES " " CPROF_METRICS_LIBRARIES);
	cprof_loader_init(&loader);
	first = parse_options(argc, argv, &loader, &out);
	argc -= first;
	argv += first;
	check_output(&out);
	if (argc != 2 && argc != 1)
		cprof_die("two profiles to compare needed, not %d (see --help)", argc);
	cprof_loader_check_operands((const char *const *)argv, argc);
	sources[0] = argv[0];
	sources[1] = argv[argc - 1];
	read_inputs(&loader, sources, &a, &b);
	check_verdict(&out, a, b);
	status = compare(sources, a, b, &out);
	cprof_dist_free(a);
	cprof_dist_free(b);
	cprof_loader_free(&loader);
	return cprof_finish_output(status);
}
