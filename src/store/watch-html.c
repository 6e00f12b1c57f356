/* watch-html.c: cprof-store watch --html: the changes as a sortable table
 * and, for each, its key's share (or the group's entropy) day by day: a
 * point a day, the band of the before and after levels' intervals, the
 * change's day marked.  One file, no outside resource. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "metrics/stats.h"
#include "metrics/xml.h"
#include "watch-out.h"

#define WIDTH 720.0
#define HEIGHT 180.0
#define PAD 8.0
#define LEFT 72.0              /* the values' labels */
#define BOTTOM 20.0            /* the dates' */
#define LABEL_GAP 12.0         /* a value this close to one drawn is left out */
#define DATE_GAP 80.0          /* a date this close to the change's is left out */

static const char page_head[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>cprof-store watch</title>\n"
	"<style>body{font-family:sans-serif;margin:1em}table{border-collapse:collapse}"
	"th,td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left}"
	"th{cursor:pointer;background:#eee}.regression{color:#b00}.improvement{color:#070}"
	"svg{background:#fafafa;border:1px solid #ccc}svg text{font-size:11px;fill:#555}"
	".legend{color:#555;font-size:90%}</style>\n"
	"<script>function sortBy(n){var t=document.getElementById('changes'),"
	"b=t.tBodies[0],r=Array.prototype.slice.call(b.rows),d=t.dataset.dir==n?-1:1;"
	"t.dataset.dir=d==1?n:'';r.sort(function(x,y){var a=x.cells[n].dataset.v||"
	"x.cells[n].textContent,c=y.cells[n].dataset.v||y.cells[n].textContent,"
	"p=parseFloat(a),q=parseFloat(c);if(!isNaN(p)&&!isNaN(q))return d*(p-q);"
	"return d*a.localeCompare(c)});r.forEach(function(x){b.appendChild(x)})}</script>\n"
	"</head><body>\n<h1>cprof-store watch</h1>\n";

/* Row `key`'s value on day d: its share, or (SIZE_MAX) the entropy in bits. */
static double value_on(const struct cprof_store_watch_group *g, size_t key, size_t d)
{
	uint64_t *day;
	struct cprof_entropy e;
	size_t k;

	if (key != SIZE_MAX)
		return g->totals[d] ? (double)g->counts[key * g->num_days + d] /
				      (double)g->totals[d] : 0.0;
	day = cprof_xcalloc(g->num_keys + 1, sizeof(*day));
	for (k = 0; k < g->num_keys; k++)
		day[k] = g->counts[k * g->num_days + d];
	cprof_entropy_of_counts(day, g->num_keys, g->totals[d], CPROF_BASE_2, &e);
	free(day);
	return e.entropy_mm;
}

static double y_of(double v, double lo, double hi)
{
	return PAD + (HEIGHT - BOTTOM - PAD) * (hi > lo ? (hi - v) / (hi - lo) : 0.5);
}

static double x_of(size_t d, size_t n)
{
	return LEFT + (WIDTH - LEFT - PAD) * (n > 1 ? (double)d / (double)(n - 1) : 0.5);
}

/* The values on the left (the chart's top and bottom, the two levels in
 * their bands' colours) and the dates below (the first, the change's, the
 * last), each left out where it would touch one drawn before it. */
static void axes(FILE *out, const struct cprof_store_watch_group *g,
		 const struct cprof_watch_change *c, double lo, double hi)
{
	const double values[] = { c->before.value, c->after.value, hi, lo };
	const char *const colors[] = { "#36c", "#c33", "#555", "#555" };
	const size_t days[] = { c->day, 0, g->num_days - 1 };
	const char *const anchors[] = { "middle", "start", "end" };
	double drawn[4];
	size_t i, j, m = 0;

	fprintf(out, "<path d=\"M%.1f %.1fV%.1fH%.1f\" stroke=\"#999\" fill=\"none\"/>\n", LEFT,
		PAD, HEIGHT - BOTTOM, WIDTH - PAD);
	for (i = 0; i < 4; i++) {
		double y = y_of(values[i], lo, hi);

		for (j = 0; j < m && fabs(drawn[j] - y) >= LABEL_GAP; j++)
			continue;
		if (j < m || !isfinite(values[i]))
			continue;
		drawn[m++] = y;
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" style=\"fill:%s\">"
			"%.4g</text>\n", LEFT - 4, y + 4, colors[i], values[i]);
	}
	for (i = 0; i < 3; i++)
		if (i == 0 || fabs(x_of(days[i], g->num_days) - x_of(c->day, g->num_days)) > DATE_GAP)
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
				x_of(days[i], g->num_days), HEIGHT - 5, anchors[i],
				g->days[days[i]]);
}

/* A band from day `from` to day `to` (exclusive) around the level l. */
static void band(FILE *out, const struct cprof_watch_level *l, size_t from, size_t to,
		 size_t n, double lo, double hi, const char *color)
{
	double x0 = x_of(from, n), x1 = x_of(to > 0 ? to - 1 : 0, n);

	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		"fill-opacity=\"0.25\"/>\n", x0, y_of(l->high, lo, hi), fmax(x1 - x0, 2.0),
		fmax(y_of(l->low, lo, hi) - y_of(l->high, lo, hi), 1.0), color);
}

/* The chart of change c of group g. */
static void chart(FILE *out, const struct cprof_store_watch_group *g,
		  const struct cprof_watch_change *c, size_t baseline)
{
	size_t n = g->num_days, d, from = c->day >= baseline ? c->day - baseline : 0;
	double lo = INFINITY, hi = -INFINITY, *v = cprof_xcalloc(n + 1, sizeof(*v));

	for (d = 0; d < n; d++) {
		v[d] = value_on(g, c->key, d);
		lo = fmin(lo, v[d]);
		hi = fmax(hi, v[d]);
	}
	lo = fmin(lo, fmin(c->before.low, c->after.low));
	hi = fmax(hi, fmax(c->before.high, c->after.high));
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\">\n",
		WIDTH, HEIGHT);
	axes(out, g, c, lo, hi);
	band(out, &c->before, from, c->day, n, lo, hi, "#36c");
	band(out, &c->after, c->day, n, n, lo, hi, "#c33");
	fprintf(out, "<line class=\"day\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%.0f\" "
		"stroke=\"#000\" stroke-dasharray=\"4 3\"/>\n", x_of(c->day, n), x_of(c->day, n),
		HEIGHT - BOTTOM);
	for (d = 0; d < n; d++)
		fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\"><title>%s: %.6g</title>"
			"</circle>\n", x_of(d, n), y_of(v[d], lo, hi), g->days[d], v[d]);
	fputs("</svg>\n", out);
	free(v);
}

/* The NULL-ended `values`, escaped, with commas between. */
static void values_cell(FILE *out, char *const *values)
{
	size_t i;

	for (i = 0; values && values[i]; i++) {
		if (i)
			fputs(",", out);
		cprof_xml_escaped(out, values[i]);
	}
}

/* The table's row of change i of group g, numbered `id`. */
static void table_row(FILE *out, const struct cprof_store_watch_result *r,
		      const struct cprof_store_watch_group *g, size_t i, size_t id)
{
	const struct cprof_watch_change *c = &g->changes[i];
	size_t j;

	fprintf(out, "<tr class=\"%s\">", cprof_watch_kind_name(c->kind));
	for (j = 0; j < r->num_groups; j++) {
		fputs("<td>", out);
		cprof_xml_escaped(out, g->values[j]);
		fputs("</td>", out);
	}
	fprintf(out, "<td><a href=\"#c%zu\">", id);
	cprof_xml_escaped(out, c->key == SIZE_MAX ? "(entropy)" : g->keys[c->key]);
	fprintf(out, "</a></td><td>%s</td><td>%s</td><td>%.6g</td><td>%.6g</td>",
		g->days[c->day], cprof_watch_kind_name(c->kind), c->before.value, c->after.value);
	if (isfinite(c->ratio.value))
		fprintf(out, "<td data-v=\"%.6g\">%.4g</td>", c->ratio.value, c->ratio.value);
	else
		fputs("<td data-v=\"1e300\">-</td>", out);
	fprintf(out, "<td data-v=\"%g\">%.2g</td><td>%zu</td>", c->q_value, c->q_value, c->days);
	if (r->attribute) {
		fputs("<td>", out);
		values_cell(out, g->attr_before[i]);
		fputs(" &#8594; ", out);
		values_cell(out, g->attr_after[i]);
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

/* The heading and chart of change i of group g, numbered `id`. */
static void section(FILE *out, const struct cprof_store_watch_group *g, size_t i, size_t id,
		    size_t baseline)
{
	const struct cprof_watch_change *c = &g->changes[i];
	size_t j;

	fprintf(out, "<h2 id=\"c%zu\">%s: ", id, cprof_watch_kind_name(c->kind));
	cprof_xml_escaped(out, c->key == SIZE_MAX ? "(entropy)" : g->keys[c->key]);
	fprintf(out, " on %s", g->days[c->day]);
	for (j = 0; j < c->num_offset; j++) {
		fputs(j ? ", " : " (offset by ", out);
		cprof_xml_escaped(out, g->keys[c->offset_by[j]]);
	}
	fprintf(out, "%s</h2>\n", c->num_offset ? ")" : "");
	fprintf(out, "<p class=\"legend\">A point a day: %s (hover for its value). "
		"<span style=\"color:#36c\">&#9644;</span> before: the level over the %zu days "
		"before %s and its interval; <span style=\"color:#c33\">&#9644;</span> after: "
		"from %s on; dashed: the day of the change.</p>\n",
		c->key == SIZE_MAX ? "the group's entropy in bits" : "the key's share of the samples",
		baseline, g->days[c->day], g->days[c->day]);
	chart(out, g, c, baseline);
}

static void write_page(FILE *out, const struct cprof_store_watch_result *r, size_t baseline)
{
	const char *cols[] = { "key", "date", "kind", "before", "after", "ratio", "q", "days" };
	size_t i, k, j, n = 0, col = 0;

	fputs(page_head, out);
	fputs("<table id=\"changes\"><thead><tr>", out);
	for (j = 0; j < r->num_groups; j++) {
		fprintf(out, "<th onclick=\"sortBy(%zu)\">", col++);
		cprof_xml_escaped(out, r->group_names[j]);
		fputs("</th>", out);
	}
	for (j = 0; j < sizeof(cols) / sizeof(cols[0]); j++)
		fprintf(out, "<th onclick=\"sortBy(%zu)\">%s</th>", col++, cols[j]);
	if (r->attribute) {
		fprintf(out, "<th onclick=\"sortBy(%zu)\">", col++);
		cprof_xml_escaped(out, r->attribute);
		fputs("</th>", out);
	}
	fputs("</tr></thead><tbody>\n", out);
	for (i = 0; i < r->groups.len; i++)
		for (k = 0; k < ((struct cprof_store_watch_group *)r->groups.items[i])->num_changes; k++)
			table_row(out, r, r->groups.items[i], k, n++);
	fprintf(out, "</tbody></table>\n<p>%zu changes.</p>\n", n);
	n = 0;
	for (i = 0; i < r->groups.len; i++)
		for (k = 0; k < ((struct cprof_store_watch_group *)r->groups.items[i])->num_changes; k++)
			section(out, r->groups.items[i], k, n++, baseline);
	fputs("</body></html>\n", out);
}

void cprof_watch_html(const struct cprof_store_watch_result *result,
		      const struct cprof_watch_settings *settings, const char *path)
{
	FILE *out = fopen(path, "w");

	if (!out)
		cprof_die("--html: %s: %s", path, strerror(errno));
	write_page(out, result, settings->baseline);
	if (ferror(out) | fclose(out))
		cprof_die("--html: %s: %s", path, strerror(errno));
}
