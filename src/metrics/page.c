/* page.c: cprof-regress's page, HTML written as text, its table sorted
 * by a small inline script, its flame graph an inline SVG. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "flame-svg.h"
#include "flame.h"
#include "page.h"
#include "xml.h"
#include "base/util.h"

/* A row of the table of keys. */
struct row {
	const char *key;
	double p_a, p_b, delta;
	const struct cprof_key_signif *signif; /* NULL: not tested */
};

static int row_cmp(const void *x, const void *y)
{
	const struct row *a = x, *b = y;

	if (fabs(a->delta) != fabs(b->delta))
		return fabs(a->delta) > fabs(b->delta) ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* The keys compared and the keys that moved significantly, by |delta|. */
static size_t gather_rows(const struct cprof_page *page, struct row **out)
{
	const struct cprof_judgement *j = page->judgement;
	const struct cprof_diff *diff = page->diff;
	struct row *rows = cprof_xcalloc(diff->count + j->count + 1, sizeof(*rows));
	GHashTable *compared = g_hash_table_new(g_str_hash, g_str_equal);
	size_t n = 0, i;

	for (i = 0; i < diff->count; i++)
		g_hash_table_add(compared, (gpointer)diff->entries[i].key);
	if (!j->signif) {
		for (i = 0; i < diff->count; i++, n++)
			rows[n] = (struct row){ diff->entries[i].key, diff->entries[i].p_a,
						diff->entries[i].p_b, diff->entries[i].delta, NULL };
	}
	for (i = 0; j->signif && i < j->count; i++) {
		const struct cprof_key_signif *s = &j->signif->keys[i];

		if (!s->significant && !g_hash_table_contains(compared, j->keys[i]))
			continue;
		rows[n].key = j->keys[i];
		rows[n].p_a = (double)j->pairs[i].count_a / (double)j->total_a;
		rows[n].p_b = (double)j->pairs[i].count_b / (double)j->total_b;
		rows[n].delta = rows[n].p_b - rows[n].p_a;
		rows[n++].signif = s->tested ? s : NULL;
	}
	g_hash_table_destroy(compared);
	qsort(rows, n, sizeof(*rows), row_cmp);
	*out = rows;
	return n;
}

static const char style[] =
	"body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 1.5em; "
	"color: #222; }\n"
	"h1 { font-size: 1.4em; } h1.different { color: #b0281a; } h1.same { color: #1d6b2f; }\n"
	"table { border-collapse: collapse; font-size: 0.9em; }\n"
	"th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; text-align: right; }\n"
	"td.key { text-align: left; font-family: DejaVu Sans Mono, Menlo, monospace; "
	"word-break: break-all; }\n"
	"th { cursor: pointer; background: #f2f2f2; user-select: none; }\n"
	"th:first-child { text-align: left; }\n"
	"th[aria-sort=ascending]::after { content: ' \\25B2'; }\n"
	"th[aria-sort=descending]::after { content: ' \\25BC'; }\n"
	"tr.significant td { font-weight: bold; }\n"
	".slower { color: #b0281a; } .faster { color: #1f5fa8; }\n";

/* Sorts a table by the data-v of the clicked column: numbers as
 * numbers, else as text; a second click reverses. */
static const char sort_script[] =
	"document.querySelectorAll('table.sort').forEach(function (table) {\n"
	"  table.querySelectorAll('th').forEach(function (th, col) {\n"
	"    th.addEventListener('click', function () {\n"
	"      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);\n"
	"      var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;\n"
	"      table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });\n"
	"      th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');\n"
	"      rows.sort(function (a, b) {\n"
	"        var x = a.cells[col].getAttribute('data-v'), y = b.cells[col].getAttribute('data-v');\n"
	"        var nx = parseFloat(x), ny = parseFloat(y);\n"
	"        return dir * (isNaN(nx) || isNaN(ny) ? x.localeCompare(y) : nx - ny);\n"
	"      });\n"
	"      rows.forEach(function (r) { body.appendChild(r); });\n"
	"    });\n"
	"  });\n"
	"});\n";

static void put_verdict(FILE *out, const struct cprof_page *page)
{
	const struct cprof_judgement *j = page->judgement;

	fprintf(out, "<h1 class=\"verdict %s\">", page->different ? "different" : "same");
	cprof_xml_escaped(out, page->candidate);
	if (page->distance_rule)
		fprintf(out, " is %s: its distance to the baselines, %.4f, is %s the threshold "
			"%.4f.", page->different ? "DIFFERENT" : "the same",
			page->diff->manhattan, page->different ? "above" : "within", page->threshold);
	else if (page->different)
		fprintf(out, " is DIFFERENT: %zu key%s moved more than the baselines' own noise "
			"explains.", j->signif->significant, j->signif->significant == 1 ? "" : "s");
	else
		fputs(" is the same: no key moved more than the baselines' own noise explains.", out);
	fputs("</h1>\n<p>", out);
	fprintf(out, "Candidate %" PRIu64 " samples against %zu baselines merged (%" PRIu64
		" samples) in <code>", page->cand->total, page->num_baselines, page->base->total);
	cprof_xml_escaped(out, page->dir);
	fputs("</code>, by ", out);
	cprof_xml_escaped(out, cprof_by_name(page->base->by));
	fprintf(out, "; distance %.4f", page->diff->manhattan);
	if (j->signif)
		fprintf(out, " (by noise alone: mean %.4f, %g%% quantile %.4f)", j->null.mean,
			100.0 * (1.0 - j->options.alpha), j->null.quantile);
	fputs(".</p>\n", out);
}

static void put_cell(FILE *out, const char *class, const char *value, const char *shown)
{
	fprintf(out, "<td%s%s%s data-v=\"", class ? " class=\"" : "", class ? class : "",
		class ? "\"" : "");
	cprof_xml_escaped(out, value);
	fputs("\">", out);
	cprof_xml_escaped(out, shown);
	fputs("</td>", out);
}

/* A number, shown with `decimals` (a sign when `sign`; %g when
 * negative), sorted by its value. */
static void put_number(FILE *out, double v, int decimals, bool sign)
{
	char value[64], shown[64];

	snprintf(value, sizeof(value), "%.17g", v);
	if (decimals < 0)
		snprintf(shown, sizeof(shown), "%.2g", v);
	else
		snprintf(shown, sizeof(shown), sign ? "%+.*f" : "%.*f", decimals, v);
	put_cell(out, NULL, isnan(v) ? "Infinity" : value, isnan(v) ? "-" : shown);
}

static void put_row(FILE *out, const struct row *r, const struct cprof_judgement *j)
{
	const struct cprof_key_signif *s = r->signif;
	char interval[96];

	fprintf(out, "<tr%s>", s && s->significant ? " class=\"significant\"" : "");
	put_cell(out, "key", r->key, r->key);
	put_number(out, 100.0 * r->p_a, 2, false);
	put_number(out, 100.0 * r->p_b, 2, false);
	put_number(out, 100.0 * r->delta, 2, true);
	snprintf(interval, sizeof(interval), "%+.2f to %+.2f (%.6g%%)",
		 s ? 100.0 * s->ci_low : 0.0, s ? 100.0 * s->ci_high : 0.0,
		 s ? 100.0 * s->ci_level : 0.0);
	put_cell(out, NULL, s ? interval : "", s ? interval : "-");
	put_number(out, s ? s->q_value : NAN, -1, false);
	if (s && s->significant)
		fprintf(out, "<td class=\"%s\" data-v=\"%s\">%s</td>",
			r->delta > 0 ? "slower" : "faster", r->delta > 0 ? "slower" : "faster",
			r->delta > 0 ? "slower" : "faster");
	else if (s && cprof_key_note(s))
		fprintf(out, "<td data-v=\"~\">noise: %s</td>", cprof_key_note(s));
	else
		fprintf(out, "<td data-v=\"~\">%s</td>", j->signif ? "noise" : "untested");
	fputs("</tr>\n", out);
}

static void put_keys(FILE *out, const struct cprof_page *page)
{
	const struct cprof_judgement *j = page->judgement;
	struct row *rows;
	size_t n = gather_rows(page, &rows), i;

	fputs("<h2>Keys</h2>\n<p>The keys compared and every key that moved significantly "
	      "(q ≤ α and |Δ| ≥ the least effect), in points of share; click a column to sort."
	      "</p>\n", out);
	if (j->signif)
		fprintf(out, "<p>α %g, least effect %g points; each interval of Δ at its level (in "
			"parentheses): the false-coverage level of the %zu keys the correction "
			"selected, 1 − R α w / m, so that it excludes 0 exactly where the key's test "
			"rejects.</p>\n", j->options.alpha, 100.0 * j->options.min_effect,
			j->signif->selected);
	fputs("<table class=\"sort keys\"><thead><tr><th>key</th><th>baselines %</th>"
	      "<th>candidate %</th><th>Δ points</th><th>interval</th><th>q</th><th>moved</th>"
	      "</tr></thead>\n<tbody>\n", out);
	for (i = 0; i < n; i++)
		put_row(out, &rows[i], j);
	fputs("</tbody></table>\n", out);
	for (i = 0; i < j->warnings.count; i++) {
		fputs("<p class=\"warning\">", out);
		cprof_xml_escaped(out, j->warnings.text[i]);
		fputs("</p>\n", out);
	}
	free(rows);
}

static void put_flame(FILE *out, const struct cprof_page *page)
{
	const struct cprof_judgement *j = page->judgement;
	struct cprof_flame_svg how = { "baselines merged (A) and candidate (B), by stack",
				       "samples", CPROF_FLAME_MIN_WIDTH, false, true };
	struct cprof_flame *flame;

	fputs("<h2>Differential flame graph</h2>\n", out);
	if (!page->stack_base) {
		fputs("<p>None: the inputs hold no stacks (a flat JSON keeps only its keys).</p>\n", out);
		return;
	}
	fputs("<p>Hover a frame for its figures, click to zoom, search by regular expression.</p>\n",
	      out);
	flame = cprof_flame_diff(page->stack_base, page->stack_cand,
				 how.min_width / CPROF_FLAME_CHART, j->signif ? &j->options : NULL);
	cprof_flame_svg(out, flame, &how);
	cprof_flame_free(flame);
}

static void put_baselines(FILE *out, const struct cprof_page *page)
{
	const struct cprof_judgement *j = page->judgement;
	size_t i;

	fputs("<h2>Baselines</h2>\n<p class=\"dispersion\">", out);
	if (j->signif)
		fprintf(out, "Dispersion %.3g: the baselines' shares vary %.3g times as much as "
			"sampling alone would make them (1: sampling alone); the tests and intervals "
			"above take it into account.", j->options.dispersion, j->options.dispersion);
	else
		fputs("No dispersion: the difference is not tested.", out);
	if (page->distance_rule)
		fprintf(out, " Noise (the largest distance of a baseline to the others merged) "
			"%.4f; threshold %.4f.", page->noise, page->threshold);
	fputs("</p>\n<table class=\"sort baselines\"><thead><tr><th>baseline</th><th>samples</th>"
	      "</tr></thead>\n<tbody>\n", out);
	for (i = 0; i < page->num_baselines; i++) {
		char count[32];

		snprintf(count, sizeof(count), "%" PRIu64, page->baselines[i]->total);
		fputs("<tr>", out);
		put_cell(out, "key", page->baseline_names[i], page->baseline_names[i]);
		put_cell(out, NULL, count, count);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n", out);
}

void cprof_page_regress(FILE *out, const struct cprof_page *page)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
	fputs(page->different ? "DIFFERENT: " : "same: ", out);
	cprof_xml_escaped(out, page->candidate);
	fprintf(out, " (cprof-regress)</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
	put_verdict(out, page);
	put_keys(out, page);
	put_flame(out, page);
	put_baselines(out, page);
	fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", sort_script);
}
