/* cprof-regress: fails a CI job when a candidate profile differs from a
 * directory of baseline profiles by more than their own run-to-run noise
 * explains. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#include "lib/json.h"
#include "lib/load.h"
#include "metrics/json-metrics.h"
#include "metrics/judge.h"
#include "metrics/flame-svg.h"
#include "metrics/flame.h"
#include "metrics/options.h"
#include "metrics/page.h"
#include "metrics/stats.h"

enum { OPT_FACTOR = 512, OPT_MARGIN, OPT_RULE, OPT_SVG, OPT_HTML };

enum rule { RULE_TEST, RULE_DISTANCE };

static void usage(void)
{
	printf("usage: %s [-chqV] [--rule test|distance] [--alpha A] [--min-effect E]\n"
	       "       [--factor F] [--margin M] [-k N] [--keys union|a] [--by=KEY] [--cum]\n"
	       "       [--sample-index=N|NAME] [--no-symbolize] [--no-inline] [--symbols DIR]\n"
	       "       [--binary FILE] [--no-cache] [--tag-filter NAME=VALUE] [--svg]\n"
	       "       [--sample-type T/U] [--period N] [--html FILE] BASELINE_DIR CANDIDATE\n"
	       "Fail (exit 1) when CANDIDATE differs from BASELINE_DIR's profiles beyond noise.\n"
	       "  --rule R        test (the default: per-key tests with the dispersion of the\n"
	       "                  baselines) or distance (FACTOR x noise + MARGIN)\n"
	       CPROF_SIGNIF_HELP
	       "  --factor F, --margin M  distance rule: the threshold F x noise + M (2, 0.02)\n"
	       "  -k N            compare the top N keys (default 10; 0: every key)\n"
	       "  --keys K        union (the default) or a (the top N of the baseline)\n"
	       CPROF_LOAD_BY_HELP
	       CPROF_LOAD_SAMPLE_INDEX_HELP
	       "  --cum           count each key once in every sample holding it\n"
	       "  -c, --compact   JSON on one line;  -q, --quiet  no report on standard error\n"
	       "  --svg           the flame graph, not JSON;  --html FILE  a page, to FILE\n"
	       CPROF_LOAD_SYMBOL_HELP
	       "  -h, --help      this help;  -V, --version  the version\n",
	       cprof_progname);
	exit(cprof_finish_output(EXIT_OK));
}

/* The command line. */
struct settings {
	enum rule rule;
	struct cprof_signif_options signif;
	double factor;
	double margin;
	size_t k;
	enum cprof_keys keys;
	bool compact;
	bool quiet;
	bool svg;              /* --svg: the flame graph on standard output */
	const char *html;      /* --html FILE */
};

/* The baselines: their names and distributions, and their merge. */
struct baselines {
	size_t count;
	char **names;
	struct cprof_dist **dists;
	struct cprof_dist *merged;
};

static bool is_profile(const char *dir, const char *name, char **path)
{
	struct stat st;

	if (name[0] == '.')
		return false;
	*path = cprof_xmalloc(strlen(dir) + strlen(name) + 2);
	sprintf(*path, "%s/%s", dir, name);
	if (stat(*path, &st) == 0 && S_ISREG(st.st_mode))
		return true;
	free(*path);
	return false;
}

/* The regular files of `dir` not named with a leading dot, sorted. */
static void list_baselines(const char *dir, struct baselines *base)
{
	struct dirent **entries;
	int n = scandir(dir, &entries, NULL, alphasort), i;

	if (n < 0)
		cprof_die("%s: cannot open: %s", dir, strerror(errno));
	base->names = cprof_xcalloc((size_t)n + 1, sizeof(*base->names));
	for (i = 0; i < n; i++) {
		char *path;

		if (is_profile(dir, entries[i]->d_name, &path))
			base->names[base->count++] = path;
		free(entries[i]);
	}
	free(entries);
	if (base->count < 2)
		cprof_die("%s: %zu baseline profiles; at least 2 are needed to measure their noise",
			  dir, base->count);
}

/* Reads every baseline, keyed as the first, and merges them. */
static void read_baselines(struct cprof_loader *loader, struct baselines *base)
{
	size_t i;

	base->dists = cprof_xcalloc(base->count, sizeof(*base->dists));
	for (i = 0; i < base->count; i++) {
		cprof_loader_read(loader, base->names[i], &base->dists[i]);
		if (i == 0) {
			loader->key.by = base->dists[0]->by;
			loader->key.cum = base->dists[0]->cum;
			loader->key.by_given = true;
			base->merged = cprof_dist_new(base->dists[0]->by, base->dists[0]->cum);
		}
		if (base->dists[i]->total == 0)
			cprof_die("%s: no samples to compare", base->names[i]);
		cprof_dist_merge(base->merged, base->dists[i]);
	}
}

static void free_baselines(struct baselines *base)
{
	size_t i;

	for (i = 0; i < base->count; i++) {
		free(base->names[i]);
		if (base->dists)
			cprof_dist_free(base->dists[i]);
	}
	free(base->names);
	free(base->dists);
	cprof_dist_free(base->merged);
}

/* The dispersion of the baselines: their runs x keys table, each run's
 * samples outside its listed entries (a truncated flat's other) one more
 * column. */
static double baseline_dispersion(const struct baselines *base)
{
	const struct cprof_dist *merged = base->merged;
	size_t keys = merged->entries.len + 1, i;
	uint64_t *table = cprof_xcalloc(base->count * keys, sizeof(*table));
	double phi;
	size_t j;

	for (i = 0; i < base->count; i++) {
		uint64_t listed = 0;

		for (j = 0; j < merged->entries.len; j++) {
			const struct cprof_entry *entry = merged->entries.items[j];
			const struct cprof_entry *own = cprof_dist_find(base->dists[i], entry->key);

			table[i * keys + j] = own ? own->count : 0;
			listed += table[i * keys + j];
		}
		table[i * keys + keys - 1] = base->dists[i]->total - listed;
	}
	phi = cprof_dispersion_estimate(table, base->count, keys);
	free(table);
	return phi;
}

/* The leave-one-out noise: the largest distance of a baseline to the
 * merge of the others. */
static double baseline_noise(const struct baselines *base, const struct settings *settings)
{
	double noise = 0.0;
	size_t i, j;

	for (i = 0; i < base->count; i++) {
		struct cprof_dist *rest = cprof_dist_new(base->merged->by, base->merged->cum);
		struct cprof_diff *diff;

		for (j = 0; j < base->count; j++)
			if (j != i)
				cprof_dist_merge(rest, base->dists[j]);
		diff = cprof_diff_compute(rest, base->dists[i], settings->k, settings->keys);
		noise = fmax(noise, diff->manhattan);
		cprof_diff_free(diff);
		cprof_dist_free(rest);
	}
	return noise;
}

/* A key of the report. */
struct moved {
	const char *key;
	double delta;
	const struct cprof_key_signif *signif;
};

static int moved_cmp(const void *x, const void *y)
{
	const struct moved *a = x, *b = y;

	if (fabs(a->delta) != fabs(b->delta))
		return fabs(a->delta) > fabs(b->delta) ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* The significant keys, by |delta| descending (20 at most), as lines of
 * the report. */
static void report_keys(const struct cprof_judgement *j, const struct cprof_dist *a,
			const struct cprof_dist *b)
{
	struct moved *moved = cprof_xcalloc(j->count + 1, sizeof(*moved));
	size_t i, n = 0;

	for (i = 0; i < j->count; i++) {
		if (!j->signif->keys[i].significant)
			continue;
		moved[n].key = j->keys[i];
		moved[n].delta = (double)j->pairs[i].count_b / (double)j->total_b -
				 (double)j->pairs[i].count_a / (double)j->total_a;
		moved[n++].signif = &j->signif->keys[i];
	}
	qsort(moved, n, sizeof(*moved), moved_cmp);
	for (i = 0; i < n && i < 20; i++) {
		fprintf(stderr, "  %+7.2f%% [%+.2f, %+.2f] q %.2g  ", 100.0 * moved[i].delta,
			100.0 * moved[i].signif->ci_low, 100.0 * moved[i].signif->ci_high,
			moved[i].signif->q_value);
		cprof_put_text(stderr, moved[i].key);
		fputc('\n', stderr);
	}
	if (n > 20)
		fprintf(stderr, "  and %zu more\n", n - 20);
	free(moved);
}

/* One regression check, read and judged. */
struct check {
	const char *dir;
	const char *candidate;
	struct baselines base;
	struct cprof_dist *dist;       /* the candidate */
	struct cprof_diff *diff;
	struct cprof_judgement *judgement;
	double noise;                  /* --rule distance */
	double threshold;
	bool different;
};

static void report(const struct check *c, const struct settings *settings)
{
	const struct cprof_judgement *j = c->judgement;

	fprintf(stderr, "%s: %zu baselines in ", cprof_progname, c->base.count);
	cprof_put_text(stderr, c->dir);
	if (j->signif)
		fprintf(stderr, ": dispersion %.3g (1: they vary as sampling alone would)",
			j->options.dispersion);
	fprintf(stderr, "\n%s: ", cprof_progname);
	cprof_put_text(stderr, c->candidate);
	fprintf(stderr, ": distance %.4f to the baselines", c->diff->manhattan);
	if (j->signif)
		fprintf(stderr, "; by noise alone: mean %.4f, %g%% quantile %.4f", j->null.mean,
			100.0 * (1.0 - settings->signif.alpha), j->null.quantile);
	fputc('\n', stderr);
	if (settings->rule == RULE_DISTANCE)
		fprintf(stderr, "%s: --rule distance: threshold %g x %.4f + %g = %.4f\n",
			cprof_progname, settings->factor, c->noise, settings->margin, c->threshold);
	if (!c->different) {
		fprintf(stderr, "%s: same\n", cprof_progname);
		return;
	}
	if (settings->rule == RULE_DISTANCE)
		fprintf(stderr, "%s: DIFFERENT: the candidate moved past the threshold\n",
			cprof_progname);
	else
		fprintf(stderr, "%s: DIFFERENT: %zu keys moved more than the baselines' noise "
			"explains (delta [interval at %g%%] q):\n", cprof_progname,
			j->signif->significant, 100.0 * (1.0 - settings->signif.alpha));
	if (j->signif)
		report_keys(j, c->base.merged, c->dist);
}

/* Reads the baselines and the candidate, and judges them. */
static void run_check(struct check *c, struct cprof_loader *loader, struct settings *settings)
{
	double units;

	list_baselines(c->dir, &c->base);
	read_baselines(loader, &c->base);
	cprof_loader_read(loader, c->candidate, &c->dist);
	if (c->dist->total == 0)
		cprof_die("%s: no samples to compare", c->candidate);
	if (c->base.merged->cum && settings->rule == RULE_TEST)
		cprof_die("--rule test: a --cum difference has no verdict (a sample counts in many "
			  "keys); use --rule distance");
	units = cprof_dist_units_per_sample(c->base.merged);
	if (settings->rule == RULE_TEST && units == 0)
		cprof_die("--rule test: the counts are %s, not samples of a known period: there is "
			  "no verdict; use --rule distance", cprof_dist_sample_type(c->base.merged));
	/* Pearson's X^2 grows with the unit of the counts: per sample, it is
	 * X^2 / units. */
	if (!c->base.merged->cum)
		settings->signif.dispersion = units > 1 ?
			fmax(1.0, baseline_dispersion(&c->base) / units) :
			baseline_dispersion(&c->base);
	c->diff = cprof_diff_compute(c->base.merged, c->dist, settings->k, settings->keys);
	c->judgement = cprof_judge(c->base.merged, c->dist, c->diff, settings->k, settings->keys,
				   &settings->signif);
	if (settings->rule == RULE_DISTANCE) {
		c->noise = baseline_noise(&c->base, settings);
		c->threshold = settings->factor * c->noise + settings->margin;
		c->different = c->diff->manhattan > c->threshold;
	} else {
		c->different = c->judgement->signif->different;
	}
}

/* cprof-diff's object, of the merged baselines and the candidate, with
 * what the regression rule adds. */
static json_t *check_json(const struct check *c, const struct settings *settings)
{
	const struct cprof_dist *a = c->base.merged;
	double entropy[2];
	json_t *root = cprof_json_diff(c->dir, c->candidate, a->by, settings->k, settings->keys,
				       c->diff, a->total, c->dist->total,
				       cprof_entropy_bits(c->base.merged, &entropy[0]),
				       cprof_entropy_bits(c->dist, &entropy[1]), c->judgement);

	cprof_json_set(root, "cprof", json_string("regress"));
	cprof_json_set(root, "rule",
		       json_string(settings->rule == RULE_TEST ? "test" : "distance"));
	cprof_json_set(root, "baselines", json_integer((json_int_t)c->base.count));
	if (!c->judgement->signif)
		cprof_json_set(root, "dispersion", json_null());
	cprof_json_set(root, "verdict", json_string(c->different ? "different" : "same"));
	if (settings->rule == RULE_DISTANCE) {
		cprof_json_set(root, "noise", json_real(c->noise));
		cprof_json_set(root, "threshold", json_real(c->threshold));
		cprof_json_set(root, "factor", json_real(settings->factor));
		cprof_json_set(root, "margin", json_real(settings->margin));
	}
	return root;
}

/* The baselines merged and the candidate keyed by stack, for a flame
 * graph: the check's own when it is keyed so, else read again.  Returns
 * the input that holds no stacks (a flat JSON), `err` saying why, or
 * NULL. */
static const char *read_stacks(const struct check *c, struct cprof_loader *loader,
			       struct cprof_dist **base, struct cprof_dist **cand,
			       struct cprof_error *err)
{
	size_t i;

	*base = *cand = NULL;
	if (c->base.merged->by == CPROF_BY_STACK && !c->base.merged->cum) {
		*base = c->base.merged;
		*cand = c->dist;
		return NULL;
	}
	loader->key.by = CPROF_BY_STACK;
	loader->key.cum = false;
	for (i = 0; i < c->base.count; i++)
		if (cprof_loader_try_read(loader, c->base.names[i], base, err) < 0)
			return c->base.names[i];
	if (cprof_loader_try_read(loader, c->candidate, cand, err) < 0)
		return c->candidate;
	return NULL;
}

/* Draws the check: its flame graph on standard output (--svg), its page
 * in a file (--html, without a flame graph when the inputs hold no
 * stacks). */
static void draw(const struct check *c, struct cprof_loader *loader,
		 const struct settings *settings)
{
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_dist *base, *cand;
	const struct cprof_judgement *j = c->judgement;
	struct cprof_page page = { c->dir, c->candidate, settings->rule == RULE_DISTANCE,
				   c->different, c->noise, c->threshold, c->base.count,
				   c->base.names, c->base.dists, c->base.merged, c->dist, c->diff,
				   j, NULL, NULL };
	const char *flat = read_stacks(c, loader, &base, &cand, &err);
	bool stacks = flat == NULL;
	FILE *out;

	if (settings->svg && !stacks)
		cprof_die("--svg: %s: %s: no stacks to draw", flat, err.text);
	if (settings->svg) {
		struct cprof_flame_svg how = { c->candidate, "samples", CPROF_FLAME_MIN_WIDTH,
					       false, false };
		struct cprof_flame *flame = cprof_flame_diff(base, cand,
							     how.min_width / CPROF_FLAME_CHART,
							     j->signif ? &j->options : NULL);

		cprof_flame_svg(stdout, flame, &how);
		cprof_flame_free(flame);
	}
	if (settings->html) {
		page.stack_base = stacks ? base : NULL;
		page.stack_cand = stacks ? cand : NULL;
		out = fopen(settings->html, "w");
		if (!out)
			cprof_die("%s: cannot write: %s", settings->html, strerror(errno));
		cprof_page_regress(out, &page);
		if (fclose(out) != 0)
			cprof_die("%s: cannot write: %s", settings->html, strerror(errno));
	}
	if (base != c->base.merged) {
		cprof_dist_free(base);
		cprof_dist_free(cand);
	}
}

static double non_negative(const char *option, const char *arg)
{
	double value = cprof_option_double(option, arg);

	if (value < 0)
		cprof_die("%s: must not be negative: '%s'", option, arg);
	return value;
}

/* Takes one option of cprof-regress's own; false when `opt` is not one. */
static bool own_option(int opt, const char *arg, struct settings *settings)
{
	switch (opt) {
	case 'q':
		settings->quiet = true;
		return true;
	case OPT_FACTOR:
		settings->factor = non_negative("--factor", arg);
		return true;
	case OPT_MARGIN:
		settings->margin = non_negative("--margin", arg);
		return true;
	case OPT_SVG:
		settings->svg = true;
		return true;
	case OPT_HTML:
		settings->html = arg;
		return true;
	case OPT_RULE:
		if (strcmp(arg, "test") != 0 && strcmp(arg, "distance") != 0)
			cprof_die("--rule: must be test or distance, not '%s'", arg);
		settings->rule = strcmp(arg, "test") == 0 ? RULE_TEST : RULE_DISTANCE;
		return true;
	default:
		return false;
	}
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		CPROF_LOAD_LONG_OPTIONS,
		CPROF_LOAD_CUM_OPTION,
		CPROF_OUTPUT_LONG_OPTIONS,
		CPROF_SIGNIF_LONG_OPTIONS,
		{ "factor", required_argument, NULL, OPT_FACTOR },
		{ "help", no_argument, NULL, 'h' },
		{ "html", required_argument, NULL, OPT_HTML },
		CPROF_COMPARE_LONG_OPTIONS,
		{ "margin", required_argument, NULL, OPT_MARGIN },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rule", required_argument, NULL, OPT_RULE },
		{ "svg", no_argument, NULL, OPT_SVG },
		{ NULL, 0, NULL, 0 },
	};
	struct settings settings = { RULE_TEST, CPROF_SIGNIF_DEFAULTS, 2.0, 0.02, 10,
				     CPROF_KEYS_UNION, false, false, false, NULL };
	struct cprof_loader loader;
	struct check check;
	bool text = false;
	int opt;

	cprof_set_progname(argv[0]);
	cprof_set_libraries(CPROF_READ_LIBRARIES " " CPROF_METRICS_LIBRARIES);
	cprof_loader_init(&loader);
	memset(&check, 0, sizeof(check));
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":chk:qtV", options, NULL)) != -1) {
		if (opt == 'h')
			usage();
		if (opt == 't')
			cprof_die("-t: cprof-regress prints JSON only (its report is on standard error)");
		if (cprof_loader_option(&loader, opt, optarg) ||
		    cprof_output_option(opt, &settings.compact, &text) ||
		    cprof_signif_option(opt, optarg, &settings.signif) ||
		    cprof_compare_option(opt, optarg, &settings.k, &settings.keys) ||
		    own_option(opt, optarg, &settings))
			continue;
		cprof_bad_option(opt, argv, options);
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		cprof_die("a baseline directory and a candidate needed, not %d operand%s (see --help)",
			  argc, argc == 1 ? "" : "s");
	check.dir = argv[0];
	check.candidate = argv[1];
	if (settings.svg && settings.compact)
		cprof_die("--svg and --compact exclude each other (see --help)");
	run_check(&check, &loader, &settings);
	if (settings.svg || settings.html)
		draw(&check, &loader, &settings);
	if (!settings.svg)
		cprof_json_print(check_json(&check, &settings), settings.compact);
	if (!settings.quiet) {
		cprof_warnings_print(&check.judgement->warnings);
		report(&check, &settings);
	}
	cprof_judgement_free(check.judgement);
	cprof_diff_free(check.diff);
	cprof_dist_free(check.dist);
	free_baselines(&check.base);
	cprof_loader_free(&loader);
	return cprof_finish_output(check.different ? EXIT_VERDICT : EXIT_OK);
}
