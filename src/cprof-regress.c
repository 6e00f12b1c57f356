/* cprof-regress: fails a CI job when candidate profiles (one run, or
 * several runs of one build) differ from a directory of baseline profiles
 * by more than their own run-to-run noise explains; with --absolute, also
 * when the candidates take more or less CPU for the same work. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#include "base/jsonout.h"
#include "lib/load.h"
#include "metrics/cost.h"
#include "metrics/flame-svg.h"
#include "metrics/flame.h"
#include "metrics/json-metrics.h"
#include "metrics/judge.h"
#include "metrics/options.h"
#include "metrics/page.h"
#include "metrics/regress.h"
#include "metrics/stats.h"

enum { OPT_ABSOLUTE = 512, OPT_EFFECT, OPT_FACTOR, OPT_HTML, OPT_MARGIN, OPT_MIN_RATIO, OPT_RULE,
       OPT_SVG };

static void usage(void)
{
	printf("usage: %s [-chqV] [--rule test|distance] [--alpha A] [--min-effect E]\n"
	       "       [--effect point|interval] [--absolute] [--min-ratio R]\n"
	       "       [--factor F] [--margin M] [-k N] [--keys union|a] [--by=KEY] [--cum]\n"
	       "       [--sample-index=N|NAME] [--no-symbolize] [--no-inline] [--symbols DIR]\n"
	       "       [--binary FILE] [--no-cache] [--tag-filter NAME=VALUE] [--svg]\n"
	       "       [--sample-type T/U] [--period N] [--html FILE] BASELINE_DIR CANDIDATE...\n"
	       "Fail (exit 1) when CANDIDATE runs differ from BASELINE_DIR's beyond its noise.\n"
	       "  --rule R        test (default: each key against its own noise) or distance\n"
	       CPROF_SIGNIF_HELP
	       "  --effect E      point (default) or interval: what moving by min-effect means\n"
	       "  --absolute      judge samples per run too;  --min-ratio R  least change (0.02)\n"
	       "  --factor F, --margin M  distance rule: the threshold F x noise + M (2, 0.02)\n"
	       "  -k N, --keys K  compare the top N keys (10; 0: all) of union (default) or a\n"
	       CPROF_LOAD_BY_HELP
	       CPROF_LOAD_SAMPLE_INDEX_HELP
	       "  --cum  each key once a sample; --svg  a flame graph; --html FILE  a CI page\n"
	       "  -c, --compact   JSON on one line;  -q, --quiet  no report on standard error\n"
	       CPROF_LOAD_SYMBOL_HELP
	       "  -h, --help      this help;  -V, --version  the version\n",
	       cprof_progname);
	exit(cprof_finish_output(EXIT_OK));
}

/* The command line. */
struct settings {
	struct cprof_regress_options rule;  /* the rule and its figures (regress.h) */
	enum cprof_keys keys;
	bool compact;
	bool quiet;
	bool svg;              /* --svg: the flame graph on standard output */
	const char *html;      /* --html FILE */
};

/* Runs of one build (the baselines, or the candidates): their names and
 * distributions, and their merge. */
struct runs {
	size_t count;
	size_t allocated;
	char **names;
	struct cprof_dist **dists;
	struct cprof_dist *merged;
};

static void runs_add(struct runs *runs, char *path)
{
	if (runs->count == runs->allocated) {
		runs->allocated = runs->allocated ? 2 * runs->allocated : 8;
		runs->names = cprof_xrealloc(runs->names, runs->allocated * sizeof(*runs->names));
	}
	runs->names[runs->count++] = path;
}

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

/* Adds the regular files of `dir` not named with a leading dot, sorted. */
static void list_dir(const char *dir, struct runs *runs)
{
	struct dirent **entries;
	int n = scandir(dir, &entries, NULL, alphasort), i;

	if (n < 0)
		cprof_die("%s: cannot open: %s", dir, strerror(errno));
	for (i = 0; i < n; i++) {
		char *path;

		if (is_profile(dir, entries[i]->d_name, &path))
			runs_add(runs, path);
		free(entries[i]);
	}
	free(entries);
}

static void list_baselines(const char *dir, struct runs *base)
{
	list_dir(dir, base);
	if (base->count < 2)
		cprof_die("%s: %zu baseline profiles; at least 2 are needed to measure their noise",
			  dir, base->count);
}

/* The candidates: each operand a profile, or a directory of them. */
static void list_candidates(char **operands, int count, struct runs *cand)
{
	struct stat st;
	int i;

	for (i = 0; i < count; i++) {
		size_t before = cand->count;

		if (stat(operands[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			list_dir(operands[i], cand);
			if (cand->count == before)
				cprof_die("%s: no candidate profiles in the directory", operands[i]);
		} else {
			runs_add(cand, cprof_xstrdup(operands[i]));
		}
	}
}

/* Reads every run and merges them; the first run of the first set read
 * keys every other. */
static void read_runs(struct cprof_loader *loader, struct runs *runs)
{
	size_t i;

	runs->dists = cprof_xcalloc(runs->count, sizeof(*runs->dists));
	for (i = 0; i < runs->count; i++) {
		cprof_loader_read(loader, runs->names[i], &runs->dists[i]);
		if (i == 0) {
			loader->key.by = runs->dists[0]->by;
			loader->key.cum = runs->dists[0]->cum;
			loader->key.by_given = true;
			runs->merged = cprof_dist_new(runs->dists[0]->by, runs->dists[0]->cum);
		}
		if (runs->dists[i]->total == 0)
			cprof_die("%s: no samples to compare", runs->names[i]);
		cprof_dist_merge(runs->merged, runs->dists[i]);
	}
}

static void free_runs(struct runs *runs)
{
	size_t i;

	for (i = 0; i < runs->count; i++) {
		free(runs->names[i]);
		if (runs->dists)
			cprof_dist_free(runs->dists[i]);
	}
	free(runs->names);
	free(runs->dists);
	cprof_dist_free(runs->merged);
}

/* One regression check, read and judged. */
struct check {
	const char *dir;
	char *candidate;               /* the operands, as the JSON names them */
	struct runs base;
	struct runs cand;
	struct cprof_diff *diff;
	struct cprof_judgement *judgement;
	struct cprof_cost cost;        /* --absolute */
	double noise;                  /* --rule distance */
	double threshold;
	bool different;
};

/* The runs of both sides as regress.h's table, in raw counts (the
 * caller frees *counts, *totals and *group). */
static struct cprof_runs runs_table(const struct runs *base, const struct runs *cand,
				    uint64_t **counts, uint64_t **totals, unsigned char **group)
{
	struct cprof_pair *pairs;
	size_t keys, runs = base->count + cand->count, r, j;
	const char **names = cprof_diff_keys(base->merged, cand->merged, &keys, &pairs);
	struct cprof_runs table;

	*counts = cprof_xcalloc(keys * runs + 1, sizeof(**counts));
	*totals = cprof_xcalloc(runs, sizeof(**totals));
	*group = cprof_xcalloc(runs, 1);
	for (r = 0; r < runs; r++) {
		const struct cprof_dist *dist = r < base->count ? base->dists[r] :
					       cand->dists[r - base->count];

		(*group)[r] = r >= base->count;
		(*totals)[r] = dist->total;
		for (j = 0; j < keys; j++) {
			const struct cprof_entry *own = cprof_dist_find(dist, names[j]);

			(*counts)[j * runs + r] = own ? own->count : 0;
		}
	}
	free(pairs);
	free(names);
	table.counts = *counts;
	table.keys = keys;
	table.runs = runs;
	table.totals = *totals;
	table.group = *group;
	return table;
}

/* The baselines' dispersion (units a sample: the dispersion per sample)
 * and, for --rule distance, their own noise and the threshold. */
static void baseline_figures(struct check *c, struct settings *settings, double units)
{
	uint64_t *counts, *totals;
	unsigned char *group;
	struct cprof_runs table = runs_table(&c->base, &c->cand, &counts, &totals, &group);

	if (!c->base.merged->cum)
		settings->rule.signif.dispersion = cprof_regress_dispersion(&table, units);
	if (settings->rule.rule == CPROF_RULE_DISTANCE) {
		c->noise = cprof_regress_noise(&table, &settings->rule);
		c->threshold = cprof_regress_threshold(&settings->rule, c->noise);
	}
	free(group);
	free(totals);
	free(counts);
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
		fprintf(stderr, "  %+7.2f%% [%+.2f, %+.2f] at %.6g%% q %.2g  ",
			100.0 * moved[i].delta, 100.0 * moved[i].signif->ci_low,
			100.0 * moved[i].signif->ci_high, 100.0 * moved[i].signif->ci_level,
			moved[i].signif->q_value);
		cprof_put_text(stderr, moved[i].key);
		fputc('\n', stderr);
	}
	if (n > 20)
		fprintf(stderr, "  and %zu more\n", n - 20);
	free(moved);
}

/* The cost in words. */
static void report_cost(const struct check *c, const struct settings *settings)
{
	const struct cprof_cost *cost = &c->cost;

	fprintf(stderr, "%s: and by the cost (--absolute): the candidate%s %s %.3f\u00d7 the CPU "
		"of the baselines, %g%% interval "
		"%.3f to %.3f (%.6g against %.6g samples a run, p %.2g)%s\n", cprof_progname,
		c->cand.count > 1 ? "s" : "", c->cand.count > 1 ? "take" : "takes", cost->ratio,
		100.0 * (1.0 - settings->rule.signif.alpha), cost->ci_low, cost->ci_high, cost->candidate,
		cost->baseline, cost->p_value, cost->moved ? ": MOVED" : "");
}

/* The keys' rule: how many keys moved, and which; `decides` false when
 * it is context (under --rule distance). */
static void report_keys_rule(const struct check *c, bool decides)
{
	const struct cprof_judgement *j = c->judgement;
	size_t moved = j->signif->significant;

	fprintf(stderr, "%s: %s", cprof_progname, decides ? "judged by the keys (--rule test): " :
		"context, not judged (--rule distance judges the distance): by the keys, ");
	if (moved == 0) {
		fprintf(stderr, "no key moved more than the baselines' noise explains\n");
		return;
	}
	fprintf(stderr, "%zu key%s moved more than the baselines' noise explains (delta "
		"[interval] at its false-coverage level, q):\n", moved, moved == 1 ? "" : "s");
	report_keys(j, c->base.merged, c->cand.merged);
}

/* The distance's rule: the distance against its threshold. */
static void report_distance_rule(const struct check *c, const struct settings *settings)
{
	fprintf(stderr, "%s: judged by the distance (--rule distance): ", cprof_progname);
	cprof_put_text(stderr, c->candidate);
	fprintf(stderr, " is at %.4f from the baselines, %s the threshold %g x %.4f + %g = "
		"%.4f\n", c->diff->manhattan, c->diff->manhattan > c->threshold ? "past" :
		"within", settings->rule.factor, c->noise, settings->rule.margin, c->threshold);
}

/* The verdict, and what made it. */
static void report_verdict(const struct check *c, const struct settings *settings)
{
	bool distance = settings->rule.rule == CPROF_RULE_DISTANCE;
	bool rule_moved = distance ? c->diff->manhattan > c->threshold :
				     c->judgement->signif->different;
	bool cost = settings->rule.absolute && c->cost.moved;

	if (!c->different) {
		fprintf(stderr, "%s: same\n", cprof_progname);
		return;
	}
	fprintf(stderr, "%s: DIFFERENT: ", cprof_progname);
	if (rule_moved && !distance)
		fprintf(stderr, "%zu key%s moved", c->judgement->signif->significant,
			c->judgement->signif->significant == 1 ? "" : "s");
	fprintf(stderr, "%s%s%s\n", rule_moved && distance ? "the distance is past its threshold" :
		"", rule_moved && cost ? ", and " : "",
		!cost ? "" : rule_moved ? "the CPU a run takes moved" : distance ?
		"the CPU a run takes moved; the distance is within its threshold" :
		"the CPU a run takes moved; no key's share did");
}

/* What did not decide: the distance under --rule test, the keys under
 * --rule distance, and the baselines' figures. */
static void report_context(const struct check *c, const struct settings *settings)
{
	const struct cprof_judgement *j = c->judgement;

	if (settings->rule.rule == CPROF_RULE_TEST) {
		fprintf(stderr, "%s: context, not judged (--rule test judges the keys): ",
			cprof_progname);
		cprof_put_text(stderr, c->candidate);
		fprintf(stderr, " is at distance %.4f from the baselines; sampling alone gives "
			"a mean of %.4f, a %g%% quantile of %.4f\n", c->diff->manhattan,
			j->null.mean, 100.0 * (1.0 - settings->rule.signif.alpha), j->null.quantile);
	} else if (j->signif) {
		report_keys_rule(c, false);
	}
	fprintf(stderr, "%s: context: %zu baselines in ", cprof_progname, c->base.count);
	cprof_put_text(stderr, c->dir);
	if (j->signif)
		fprintf(stderr, ", dispersion %.3g (1: they vary as sampling alone would)",
			j->options.dispersion);
	if (c->cand.count > 1)
		fprintf(stderr, "; %zu candidate runs", c->cand.count);
	fputc('\n', stderr);
}

/* The report on standard error: what decided (the rule's figures, the
 * cost's), the verdict, then what did not decide and what limits the
 * answer. */
static void report(const struct check *c, const struct settings *settings)
{
	if (settings->rule.rule == CPROF_RULE_DISTANCE)
		report_distance_rule(c, settings);
	else
		report_keys_rule(c, true);
	if (settings->rule.absolute)
		report_cost(c, settings);
	report_verdict(c, settings);
	report_context(c, settings);
	cprof_warnings_print(&c->judgement->warnings);
}

/* The samples per run of `runs` (in samples), into a new array. */
static double *run_totals(const struct runs *runs, double units)
{
	double *totals = cprof_xcalloc(runs->count, sizeof(*totals));
	size_t i;

	for (i = 0; i < runs->count; i++)
		totals[i] = units > 0 ? (double)runs->dists[i]->total / units :
					(double)runs->dists[i]->total;
	return totals;
}

/* --absolute: the samples per run judged. */
static void judge_cost(struct check *c, const struct settings *settings, double units)
{
	double *base = run_totals(&c->base, units), *cand = run_totals(&c->cand, units);

	cprof_cost_compare(base, c->base.count, cand, c->cand.count, settings->rule.signif.alpha,
			   settings->rule.min_ratio, settings->rule.signif.effect_interval, &c->cost);
	free(cand);
	free(base);
}

/* Reads the baselines and the candidates, and judges them. */
static void run_check(struct check *c, struct cprof_loader *loader, struct settings *settings)
{
	struct cprof_replicates replicates;
	double units;
	const char *names[2] = { "the baselines", NULL };

	list_baselines(c->dir, &c->base);
	read_runs(loader, &c->base);
	read_runs(loader, &c->cand);
	if (c->base.merged->cum && settings->rule.rule == CPROF_RULE_TEST)
		cprof_die("--rule test: a --cum difference has no verdict (a sample counts in many "
			  "keys); use --rule distance");
	units = cprof_dist_units_per_sample(c->base.merged);
	if (settings->rule.rule == CPROF_RULE_TEST && units == 0)
		cprof_die("--rule test: the counts are %s, not samples of a known period: there is "
			  "no verdict; use --rule distance", cprof_dist_sample_type(c->base.merged));
	baseline_figures(c, settings, units);
	names[1] = c->cand.count > 1 ? "the candidates" : "the candidate";
	replicates.a = (const struct cprof_dist *const *)c->base.dists;
	replicates.count_a = c->base.count;
	replicates.b = (const struct cprof_dist *const *)c->cand.dists;
	replicates.count_b = c->cand.count;
	c->diff = cprof_diff_compute(c->base.merged, c->cand.merged, settings->rule.k,
				     settings->keys);
	c->judgement = cprof_judge_replicates(c->base.merged, c->cand.merged, c->diff,
					      settings->rule.k, settings->keys,
					      &settings->rule.signif, names, &replicates);
	if (settings->rule.absolute)
		judge_cost(c, settings, units);
	c->different = cprof_regress_different(&settings->rule, c->judgement->signif &&
					       c->judgement->signif->different,
					       c->diff->manhattan, c->threshold, &c->cost);
}

static json_t *cost_json(const struct cprof_cost *cost)
{
	json_t *object = json_object(), *ci = json_array();

	if (!object || !ci || json_array_append_new(ci, json_real(cost->ci_low)) != 0 ||
	    json_array_append_new(ci, json_real(cost->ci_high)) != 0)
		cprof_die_oom();
	cprof_json_set(object, "baseline", json_real(cost->baseline));
	cprof_json_set(object, "candidate", json_real(cost->candidate));
	cprof_json_set(object, "ratio", json_real(cost->ratio));
	cprof_json_set(object, "ci", ci);
	cprof_json_set(object, "p_value", json_real(cost->p_value));
	cprof_json_set(object, "moved", json_boolean(cost->moved));
	return object;
}

/* cprof-diff's object, of the merged baselines and the candidate, with
 * what the regression rule adds. */
static json_t *check_json(const struct check *c, const struct settings *settings)
{
	const struct cprof_dist *a = c->base.merged;
	double entropy[2];
	json_t *root = cprof_json_diff(c->dir, c->candidate, a->by, settings->rule.k,
				       settings->keys, c->diff, a->total, c->cand.merged->total,
				       cprof_entropy_bits(c->base.merged, &entropy[0]),
				       cprof_entropy_bits(c->cand.merged, &entropy[1]), c->judgement);

	cprof_json_set(root, "cprof", json_string("regress"));
	cprof_json_set(root, "rule",
		       json_string(settings->rule.rule == CPROF_RULE_TEST ? "test" : "distance"));
	cprof_json_set(root, "baselines", json_integer((json_int_t)c->base.count));
	cprof_json_set(root, "candidates", json_integer((json_int_t)c->cand.count));
	if (c->judgement->signif)
		cprof_json_set(root, "effect", json_string(settings->rule.signif.effect_interval ?
							  "interval" : "point"));
	if (!c->judgement->signif)
		cprof_json_set(root, "dispersion", json_null());
	cprof_json_set(root, "verdict", json_string(c->different ? "different" : "same"));
	if (settings->rule.rule == CPROF_RULE_DISTANCE) {
		cprof_json_set(root, "noise", json_real(c->noise));
		cprof_json_set(root, "threshold", json_real(c->threshold));
		cprof_json_set(root, "factor", json_real(settings->rule.factor));
		cprof_json_set(root, "margin", json_real(settings->rule.margin));
	}
	if (settings->rule.absolute) {
		cprof_json_set(root, "min_ratio", json_real(settings->rule.min_ratio));
		cprof_json_set(root, "cost", cost_json(&c->cost));
	}
	return root;
}

/* Reads `runs` again by stack, merged into *dist; returns the run that
 * holds no stacks (a flat JSON), `err` saying why, or NULL. */
static const char *read_runs_by_stack(struct cprof_loader *loader, const struct runs *runs,
				      struct cprof_dist **dist, struct cprof_error *err)
{
	size_t i;

	for (i = 0; i < runs->count; i++)
		if (cprof_loader_try_read(loader, runs->names[i], dist, err) < 0)
			return runs->names[i];
	return NULL;
}

/* The baselines and the candidates merged and keyed by stack, for a flame
 * graph: the check's own when it is keyed so, else read again.  Returns
 * the input that holds no stacks (a flat JSON), `err` saying why, or
 * NULL. */
static const char *read_stacks(const struct check *c, struct cprof_loader *loader,
			       struct cprof_dist **base, struct cprof_dist **cand,
			       struct cprof_error *err)
{
	const char *flat;

	*base = *cand = NULL;
	if (c->base.merged->by == CPROF_BY_STACK && !c->base.merged->cum) {
		*base = c->base.merged;
		*cand = c->cand.merged;
		return NULL;
	}
	loader->key.by = CPROF_BY_STACK;
	loader->key.cum = false;
	flat = read_runs_by_stack(loader, &c->base, base, err);
	return flat ? flat : read_runs_by_stack(loader, &c->cand, cand, err);
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
	struct cprof_page page = { c->dir, c->candidate, settings->rule.rule == CPROF_RULE_DISTANCE,
				   c->different, c->noise, c->threshold, c->base.count,
				   c->base.names, c->base.dists, c->base.merged, c->cand.merged,
				   c->diff, j, NULL, NULL };
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

/* The candidates' name in the JSON: the operand, or the operands joined
 * by spaces. */
static char *operands_name(char **operands, int count)
{
	size_t length = 1;
	char *name;
	int i;

	for (i = 0; i < count; i++)
		length += strlen(operands[i]) + 1;
	name = cprof_xmalloc(length);
	name[0] = '\0';
	for (i = 0; i < count; i++) {
		if (i > 0)
			strcat(name, " ");
		strcat(name, operands[i]);
	}
	return name;
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
	case OPT_ABSOLUTE:
		settings->rule.absolute = true;
		return true;
	case OPT_EFFECT:
		if (strcmp(arg, "point") != 0 && strcmp(arg, "interval") != 0)
			cprof_die("--effect: must be point or interval, not '%s'", arg);
		settings->rule.signif.effect_interval = strcmp(arg, "interval") == 0;
		return true;
	case OPT_FACTOR:
		settings->rule.factor = non_negative("--factor", arg);
		return true;
	case OPT_MARGIN:
		settings->rule.margin = non_negative("--margin", arg);
		return true;
	case OPT_SVG:
		settings->svg = true;
		return true;
	case OPT_HTML:
		settings->html = arg;
		return true;
	case OPT_MIN_RATIO:
		settings->rule.min_ratio = non_negative("--min-ratio", arg);
		return true;
	case OPT_RULE:
		if (strcmp(arg, "test") != 0 && strcmp(arg, "distance") != 0)
			cprof_die("--rule: must be test or distance, not '%s'", arg);
		settings->rule.rule = strcmp(arg, "test") == 0 ? CPROF_RULE_TEST :
								      CPROF_RULE_DISTANCE;
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
		{ "absolute", no_argument, NULL, OPT_ABSOLUTE },
		{ "effect", required_argument, NULL, OPT_EFFECT },
		{ "factor", required_argument, NULL, OPT_FACTOR },
		{ "help", no_argument, NULL, 'h' },
		{ "html", required_argument, NULL, OPT_HTML },
		CPROF_COMPARE_LONG_OPTIONS,
		{ "margin", required_argument, NULL, OPT_MARGIN },
		{ "min-ratio", required_argument, NULL, OPT_MIN_RATIO },
		{ "quiet", no_argument, NULL, 'q' },
		{ "rule", required_argument, NULL, OPT_RULE },
		{ "svg", no_argument, NULL, OPT_SVG },
		{ NULL, 0, NULL, 0 },
	};
	struct settings settings = { CPROF_REGRESS_DEFAULTS, CPROF_KEYS_UNION, false, false, false,
				     NULL };
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
		    cprof_signif_option(opt, optarg, &settings.rule.signif) ||
		    cprof_compare_option(opt, optarg, &settings.rule.k, &settings.keys) ||
		    own_option(opt, optarg, &settings))
			continue;
		cprof_bad_option(opt, argv, options);
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		cprof_die("a baseline directory and a candidate needed, not %d operand%s (see --help)",
			  argc, argc == 1 ? "" : "s");
	check.dir = argv[0];
	settings.rule.a_only = settings.keys == CPROF_KEYS_A;
	if (settings.svg && settings.compact)
		cprof_die("--svg and --compact exclude each other (see --help)");
	check.candidate = operands_name(argv + 1, argc - 1);
	list_candidates(argv + 1, argc - 1, &check.cand);
	run_check(&check, &loader, &settings);
	if (settings.svg || settings.html)
		draw(&check, &loader, &settings);
	if (!settings.svg)
		cprof_json_print(check_json(&check, &settings), settings.compact);
	if (!settings.quiet)
		report(&check, &settings);
	cprof_judgement_free(check.judgement);
	cprof_diff_free(check.diff);
	free_runs(&check.cand);
	free_runs(&check.base);
	free(check.candidate);
	cprof_loader_free(&loader);
	return cprof_finish_output(check.different ? EXIT_VERDICT : EXIT_OK);
}
