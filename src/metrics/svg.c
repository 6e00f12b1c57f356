/* svg.c: the pictures of cprof-diff --svg and cprof-entropy --svg, SVG
 * written as text.  Text widths are estimated, not measured (there is no
 * font here): 0.6 em a column, which fits the usual monospace fonts and
 * errs wide for proportional ones; a wide character (CJK) is two columns,
 * a combining one none. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"
#include "xml.h"
#include "base/util.h"

/* One compared key of a difference. */
struct svg_bar {
	const char *key;
	uint64_t count_a;
	uint64_t count_b;
	double p_a;
	double p_b;
	double delta;          /* p_b - p_a */
	bool tested;           /* q_value and the interval exist */
	double q_value;
	double ci_low;         /* the interval of delta at level ci_level */
	double ci_high;
	double ci_level;       /* (signif.h: consistent with the test) */
	bool significant;      /* changed significantly: marked */
	const char *note;      /* cprof_key_note: why an interval without 0 is not marked */
};

/* What the picture of a difference shows. */
struct svg_diff {
	const char *source_a;  /* the operands, any bytes */
	const char *source_b;
	const char *by;        /* the --by name */
	bool cum;
	bool stacks;           /* keys are call chains: cut a long one at its root end */
	uint64_t total_a;
	uint64_t total_b;
	size_t k;              /* 0: every key */
	bool keys_a;           /* the top k of A alone (--keys a) */
	double manhattan;
	/* The significance figures; when `tested` is false (a --cum
	 * difference) no bar has an interval or a mark. */
	bool tested;
	double alpha;
	double min_effect;
	double dispersion;
	bool different;
	size_t keys;           /* keys of A or B */
	size_t corrected;      /* keys in the correction */
	size_t significant;    /* keys that changed significantly */
	double null_mean;      /* manhattan by sampling alone: its mean */
	double null_quantile;  /* and its 1 - alpha quantile */
	const struct svg_bar *bars;  /* in the order drawn, top first */
	size_t count;
};


enum {
	FONT = 12,             /* names, values, ticks, legend */
	TITLE_FONT = 14,       /* the first line of the title */
	MARGIN = 16,
	ROW = 20,              /* the height of a row */
	BAR = 12,              /* the height of a bar */
	CHART = 560,           /* the width of the plot area */
	NAME_CAP = 60,         /* columns of a name before it is cut */
	SOURCE_CAP = 48,       /* columns of a file name in a title */
	WIDTH_CAP = 1600,      /* the widest picture: longer lines are cut */
};

#define COLUMN (0.6 * FONT)
#define TITLE_COLUMN (0.62 * TITLE_FONT)
#define MONO "DejaVu Sans Mono, Menlo, Consolas, monospace"
#define SANS "DejaVu Sans, Helvetica, Arial, sans-serif"

/* Gained, lost: strong when significant (or with no tests at all), pale
 * when not. */
#define GAIN "#c0392b"
#define GAIN_PALE "#efaaa2"
#define LOSS "#2166ac"
#define LOSS_PALE "#a9c9e8"
#define INK "#222222"

/* Writes `s` escaped, fitted to `max` columns. */
static void put_fitted(FILE *out, const char *s, size_t max, bool keep_end)
{
	cprof_xml_fit(out, s, max, keep_end, true);
}

/* The columns `s` takes once fitted to `max`. */
static size_t fitted_columns(const char *s, size_t max)
{
	size_t n = cprof_xml_columns(s);

	return n > max ? max : n;
}

/* A newly allocated formatted string; the caller frees it. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *format(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		cprof_die_oom();
	s = cprof_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

/* A file name as a title shows it: at most SOURCE_CAP columns, its end
 * kept (the file's own name). */
static char *source_name(const char *source)
{
	size_t size = 0;
	char *s = NULL;
	FILE *mem = open_memstream(&s, &size);

	if (!mem)
		cprof_die_oom();
	cprof_xml_fit(mem, source, SOURCE_CAP, true, false);
	if (fclose(mem) != 0)
		cprof_die_oom();
	return s;
}

/* The least round step (1, 2, 2.5 or 5 times a power of ten) that covers
 * `span` in at most `ticks` steps. */
static double nice_step(double span, int ticks)
{
	double raw = span / ticks, magnitude, fraction;

	if (!(raw > 0) || !isfinite(raw))
		return 1.0;
	magnitude = pow(10.0, floor(log10(raw)));
	fraction = raw / magnitude;
	if (fraction <= 1.0)
		return magnitude;
	if (fraction <= 2.0)
		return 2.0 * magnitude;
	if (fraction <= 2.5)
		return 2.5 * magnitude;
	if (fraction <= 5.0)
		return 5.0 * magnitude;
	return 10.0 * magnitude;
}

/* The decimals that print every multiple of `step` exactly. */
static int decimals_of(double step)
{
	int d = 0;

	while (d < 6 && fabs(step * pow(10.0, d) - round(step * pow(10.0, d))) > 1e-6)
		d++;
	return d;
}

static void header(FILE *out, double width, double height)
{
	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\" font-size=\"%d\">\n",
		width, height, width, height, SANS, FONT);
	fputs("<style>.row:hover > .hit { fill: #ffd54a; fill-opacity: 0.3; }</style>\n", out);
}

/* One line of text at (x, y), escaped, cut to `max` columns. */
static void put_line(FILE *out, double x, double y, const char *anchor, const char *attributes,
		     const char *s, size_t max)
{
	fprintf(out, "<text x=\"%.2f\" y=\"%.2f\"", x, y);
	if (anchor)
		fprintf(out, " text-anchor=\"%s\"", anchor);
	if (attributes)
		fprintf(out, " %s", attributes);
	fputs(">", out);
	put_fitted(out, s, max, false);
	fputs("</text>\n", out);
}

/* The title lines and the document's <title>, which joins them. */
static void put_titles(FILE *out, char *const *lines, size_t count, double width)
{
	size_t i, max_title = (size_t)((width - 2 * MARGIN) / TITLE_COLUMN);
	size_t max_line = (size_t)((width - 2 * MARGIN) / COLUMN);

	fputs("<title>", out);
	for (i = 0; i < count; i++) {
		if (i > 0)
			fputs("; ", out);
		cprof_xml_escaped(out, lines[i]);
	}
	fputs("</title>\n", out);
	fprintf(out, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%.0f\" height=\"100%%\" "
		"fill=\"#ffffff\"/>\n", width);
	for (i = 0; i < count; i++)
		put_line(out, MARGIN, 24.0 + 18.0 * (double)i, NULL,
			 i == 0 ? "class=\"title\" font-size=\"14\" font-weight=\"bold\""
				: "class=\"title\"",
			 lines[i], i == 0 ? max_title : max_line);
}

/* The width the title lines and legend lines ask for. */
static double text_width(char *const *titles, size_t titles_count, char *const *legend,
			 size_t legend_count, double legend_indent)
{
	double width = 0.0, w;
	size_t i;

	for (i = 0; i < titles_count; i++) {
		w = (double)cprof_xml_columns(titles[i]) * (i == 0 ? TITLE_COLUMN : COLUMN);
		if (w > width)
			width = w;
	}
	for (i = 0; i < legend_count; i++) {
		w = legend_indent + (double)cprof_xml_columns(legend[i]) * COLUMN;
		if (w > width)
			width = w;
	}
	return width + 2 * MARGIN;
}

static void free_lines(char **lines, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(lines[i]);
}

/* The tick marks and labels of an axis from `low` to `high` (in the
 * units of the values), mapped to x = x0 + (v - origin) * scale, with
 * grid lines from y0 to y1 and labels below y1, each value printed times
 * `label_scale`. */
static void put_ticks(FILE *out, double low, double high, double step, double x0, double origin,
		      double scale, double y0, double y1, double label_scale, bool sign)
{
	int decimals = decimals_of(step * label_scale);
	long i, first = lround(low / step), last = lround(high / step);

	for (i = first; i <= last; i++) {
		double v = (double)i * step, x = x0 + (v - origin) * scale;

		fprintf(out, "<line class=\"grid\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
			"stroke=\"#e2e2e2\" stroke-width=\"1\"/>\n", x, y0, x, y1);
		fprintf(out, "<text class=\"tick\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" "
			"fill=\"#555555\">", x, y1 + 14);
		if (i == 0 && sign)
			fputs("0", out);
		else
			fprintf(out, sign ? "%+.*f" : "%.*f", decimals, v * label_scale);
		fputs("</text>\n", out);
	}
}

/* A legend swatch: a small filled box. */
static void put_swatch(FILE *out, double x, double y, const char *fill)
{
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"12\" height=\"10\" fill=\"%s\"/>\n", x,
		y - 9, fill);
}

/* A whisker from x1 to x2 at height y, with caps. */
static void put_whisker(FILE *out, const char *class, double x1, double x2, double y)
{
	fprintf(out, "<line class=\"%s\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		"stroke=\"%s\" stroke-width=\"1.2\"/>\n", class, x1, y, x2, y, INK);
	fprintf(out, "<path class=\"cap\" d=\"M%.2f %.2fv8M%.2f %.2fv8\" stroke=\"%s\" "
		"stroke-width=\"1.2\" fill=\"none\"/>\n", x1, y - 4, x2, y - 4, INK);
}

static void put_mark(FILE *out, double x, double y)
{
	fprintf(out, "<circle class=\"mark\" cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"%s\"/>\n", x,
		y, INK);
}

/* The background of a row, striped (the grid shows through), lit under
 * the pointer. */
static void put_row_background(FILE *out, size_t i, double y, double width)
{
	fprintf(out, "<rect class=\"hit\" x=\"%d\" y=\"%.2f\" width=\"%.2f\" height=\"%d\" "
		"fill=\"#000000\" fill-opacity=\"%s\"/>\n", MARGIN / 2, y, width - MARGIN, ROW,
		i % 2 ? "0.045" : "0");
}

/* The title lines of a difference. */
static size_t diff_titles(const struct svg_diff *d, char **lines)
{
	char *a = source_name(d->source_a), *b = source_name(d->source_b);
	size_t n = 0;
	char *scope;

	lines[n++] = format("A: %s, %" PRIu64 " samples vs B: %s, %" PRIu64 " samples", a,
			    d->total_a, b, d->total_b);
	if (d->k == 0)
		scope = format("every key of %s (k = 0", d->keys_a ? "A" : "A and B");
	else
		scope = format("the top k = %zu of %s (", d->k, d->keys_a ? "A" : "A and of B");
	lines[n++] = format("manhattan %.4f over %s%s%zu keys), by %s%s", d->manhattan, scope,
			    d->k == 0 ? ", " : "", d->count, d->by, d->cum ? " with --cum" : "");
	if (d->tested) {
		lines[n++] = format("verdict %s: %zu of %zu keys changed significantly "
				    "(α %g, min effect %g, dispersion %g)",
				    d->different ? "DIFFERENT" : "same", d->significant, d->keys,
				    d->alpha, d->min_effect, d->dispersion);
		lines[n++] = format("sampling alone gives a manhattan of %.4f on average, below "
				    "%.4f in %g%% of pairs", d->null_mean, d->null_quantile,
				    100.0 * (1.0 - d->alpha));
	} else {
		lines[n++] = format("no significance figures: with --cum a sample counts in many "
				    "keys");
	}
	free(scope);
	free(a);
	free(b);
	return n;
}

/* The legend lines of a difference, each drawn after its own sample. */
static size_t diff_legend(const struct svg_diff *d, char **lines)
{
	size_t n = 0;

	if (!d->tested) {
		lines[n++] = format("more time in B, less time in B");
		return n;
	}
	lines[n++] = format("changed significantly: q ≤ α = %g and |Δ| ≥ %g points "
			    "(--min-effect)", d->alpha, 100.0 * d->min_effect);
	lines[n++] = format("q: the key's p-value adjusted (Benjamini-Hochberg) for the %zu "
			    "keys tested together", d->corrected);
	lines[n++] = format("not significant (without a whisker: not tested, absent from a "
			    "truncated flat)");
	lines[n++] = format("the interval of Δ at its key's false-coverage level (hover for it): "
			    "without 0 where the key's test rejects");
	return n;
}

static const char *bar_fill(const struct svg_diff *d, const struct svg_bar *bar)
{
	bool strong = !d->tested || bar->significant;

	if (bar->delta >= 0)
		return strong ? GAIN : GAIN_PALE;
	return strong ? LOSS : LOSS_PALE;
}

/* The tooltip of a row: the whole key, then its figures. */
static void put_bar_title(FILE *out, const struct svg_diff *d,
			  const struct svg_bar *bar)
{
	fputs("<title>", out);
	cprof_xml_escaped(out, bar->key);
	fprintf(out, "\nΔ %+.2f points: %.2f%% of A (%" PRIu64 " samples), %.2f%% of B (%"
		PRIu64 ")", 100.0 * bar->delta, 100.0 * bar->p_a, bar->count_a, 100.0 * bar->p_b,
		bar->count_b);
	if (bar->tested)
		fprintf(out, "\nq %.2g; %.6g%% interval %+.2f to %+.2f points%s%s", bar->q_value,
			100.0 * bar->ci_level, 100.0 * bar->ci_low, 100.0 * bar->ci_high,
			bar->significant ? "; changed significantly" : bar->note ? "; not moved: " :
			"", !bar->significant && bar->note ? bar->note : "");
	else if (d->tested)
		fputs("\nnot tested: absent from a truncated flat", out);
	fputs("</title>\n", out);
}

/* Where a chart's parts go: its size, the rows' band from `top` to
 * `bottom`, the chart's x from `chart_left`, and the values' scale. */
struct chart {
	double width, height, top, bottom;
	double chart_left, value_x;
	double step, scale;
	double centre, axis;           /* a difference: Δ = 0 and the axis' reach */
	double low, high;              /* entropies: the axis' ends */
};

/* The size of a chart whose names take `name_columns` and whose values
 * take `value_pad` plus `value_columns` right of the chart, with its
 * titles and legend (the legend indented by `indent`) and `rows` rows. */
static void chart_size(struct chart *c, size_t name_columns, int value_pad, int value_columns,
		       char *const *titles, size_t num_titles, char *const *legend,
		       size_t num_legend, double indent, size_t rows)
{
	double name_width = (double)name_columns * COLUMN;

	c->chart_left = MARGIN + name_width + 10;
	c->centre = c->chart_left + CHART / 2.0;
	c->value_x = c->chart_left + CHART + 10;
	c->width = c->value_x + value_pad + value_columns * COLUMN + MARGIN;
	c->width = fmax(c->width, text_width(titles, num_titles, legend, num_legend, indent));
	c->width = ceil(fmin(c->width, WIDTH_CAP));
	c->top = 24.0 + 18.0 * (double)num_titles;
	c->bottom = c->top + ROW * (double)rows;
	c->height = c->bottom + 44 + 18.0 * (double)num_legend + 8;
}

/* The axis of a difference, symmetric about 0, and the widest key. */
static void diff_axis(const struct svg_diff *d, struct chart *c, size_t *name_columns)
{
	double extent = 0.0;
	size_t i;

	for (i = 0; i < d->count; i++) {
		const struct svg_bar *bar = &d->bars[i];
		size_t n = fitted_columns(bar->key, NAME_CAP);

		if (n > *name_columns)
			*name_columns = n;
		extent = fmax(extent, fabs(bar->delta));
		if (bar->tested)
			extent = fmax(extent, fmax(fabs(bar->ci_low), fabs(bar->ci_high)));
	}
	if (!(extent > 0))
		extent = 0.01;
	c->step = nice_step(extent, 4);
	c->axis = c->step * ceil(extent / c->step - 1e-9);
	c->scale = (CHART / 2.0) / c->axis;
}

/* Row `i` of a difference: its name, bar, interval, mark and value. */
static void put_diff_row(FILE *out, const struct svg_diff *d, size_t i,
			 const struct chart *c)
{
	const struct svg_bar *bar = &d->bars[i];
	double length = fabs(bar->delta) * c->scale, y, mid;

	y = c->top + ROW * (double)i;
	mid = y + ROW / 2.0;
	fputs("<g class=\"row\">\n", out);
	put_bar_title(out, d, bar);
	put_row_background(out, i, y, c->width);
	fprintf(out, "<text class=\"name\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" "
		"font-family=\"%s\">", c->chart_left - 8, mid + 4, MONO);
	put_fitted(out, bar->key, NAME_CAP, d->stacks);
	fputs("</text>\n", out);
	fprintf(out, "<rect class=\"bar %s%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
		"height=\"%d\" fill=\"%s\"/>\n", bar->delta >= 0 ? "gain" : "loss",
		bar->significant ? " significant" : "",
		bar->delta >= 0 ? c->centre : c->centre - length, mid - BAR / 2.0, length, BAR,
		bar_fill(d, bar));
	if (d->tested && bar->tested)
		put_whisker(out, "ci", c->centre + bar->ci_low * c->scale,
			    c->centre + bar->ci_high * c->scale, mid);
	if (d->tested && bar->significant)
		put_mark(out, c->value_x + 4, mid);
	fprintf(out, "<text class=\"value\" x=\"%.2f\" y=\"%.2f\" font-family=\"%s\">"
		"%+.2f</text>\n", c->value_x + 12, mid + 4, MONO, 100.0 * bar->delta);
	fputs("</g>\n", out);
}

/* The axis of a difference over its rows, and under it what left and
 * right mean. */
static void put_diff_axis(FILE *out, const struct svg_diff *d, const struct chart *c)
{
	double y;

	fprintf(out, "<line class=\"axis\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		"stroke=\"#444444\" stroke-width=\"1\"/>\n", c->centre, c->top - 4, c->centre,
		c->bottom + 4);
	if (d->count == 0)
		put_line(out, c->centre, c->top + 14, "middle", NULL, "no key to compare", NAME_CAP);
	y = c->bottom + 34;
	put_line(out, c->chart_left, y, NULL, "fill=\"#555555\"", "← less time in B", NAME_CAP);
	put_line(out, c->centre, y, "middle", "fill=\"#555555\"",
		 "Δ = p_B − p_A, percentage points", NAME_CAP);
	put_line(out, c->chart_left + CHART, y, "end", "fill=\"#555555\"",
		 "more time in B →", NAME_CAP);
}

/* The legend of a difference, each line after its sample. */
static void put_diff_legend(FILE *out, const struct svg_diff *d, char *const *legend,
			    size_t num_legend, const struct chart *c)
{
	double y = c->bottom + 62;
	size_t i;

	for (i = 0; i < num_legend; i++, y += 18) {
		size_t max = (size_t)((c->width - MARGIN - 56) / COLUMN);

		if (i == 0 || i == 2) {
			put_swatch(out, MARGIN, y, i == 0 ? GAIN : GAIN_PALE);
			put_swatch(out, MARGIN + 14, y, i == 0 ? LOSS : LOSS_PALE);
			if (i == 0 && d->tested)
				put_mark(out, MARGIN + 38, y - 4);
		} else if (i == 3) {
			put_whisker(out, "legend-ci", MARGIN + 2, MARGIN + 40, y - 4);
		}
		put_line(out, MARGIN + 56, y, NULL, "class=\"legend\"", legend[i], max);
	}
}

static void draw_diff(FILE *out, const struct svg_diff *d)
{
	char *titles[4], *legend[4];
	size_t num_titles = diff_titles(d, titles), num_legend = diff_legend(d, legend);
	size_t i, name_columns = 3;
	struct chart c;

	diff_axis(d, &c, &name_columns);
	chart_size(&c, name_columns, 14, 7, titles, num_titles, legend, num_legend, 56,
		   d->count);
	header(out, c.width, c.height);
	put_titles(out, titles, num_titles, c.width);
	/* The grid, then the rows over it, then the axis over them. */
	put_ticks(out, -c.axis, c.axis, c.step, c.centre, 0.0, c.scale, c.top - 4, c.bottom + 4,
		  100.0, true);
	for (i = 0; i < d->count; i++)
		put_diff_row(out, d, i, &c);
	put_diff_axis(out, d, &c);
	put_diff_legend(out, d, legend, num_legend, &c);
	fputs("</svg>\n", out);
	free_lines(titles, num_titles);
	free_lines(legend, num_legend);
}

/* The title lines of several entropies. */
static size_t entropy_titles(const struct cprof_svg_entropy *e, char **lines)
{
	size_t n = 0;

	lines[n++] = format("entropy of %zu profile%s, by %s, in %s", e->count,
			    e->count == 1 ? "" : "s", e->by, e->unit);
	if (e->stability)
		lines[n++] = format("stability: mean %.4f, sd %.4f (sampling alone %.4f), "
				    "min %.4f, max %.4f, cv %.4f", e->stability->mean,
				    e->stability->sd, e->stability->sampling_sd,
				    e->stability->min, e->stability->max, e->stability->cv);
	return n;
}

static size_t entropy_legend(const struct cprof_svg_entropy *e, char **lines)
{
	size_t n = 0;

	lines[n++] = format("the entropy of each profile (hollow: a lower bound, from a "
			    "truncated flat)");
	lines[n++] = format("entropy ± 1.96 se: its 95%% interval from sampling alone");
	if (e->stability)
		lines[n++] = format("the mean of the profiles, and mean ± sd: how far they spread");
	return n;
}

static void put_profile_title(FILE *out, const struct cprof_svg_entropy *e,
			      const struct cprof_svg_profile *p)
{
	fputs("<title>", out);
	cprof_xml_escaped(out, p->source);
	fprintf(out, "\nentropy %s%.4f %s", p->entropy.lower_bound ? ">= " : "",
		p->entropy.entropy, e->unit);
	if (!isnan(p->entropy.se))
		fprintf(out, " ± %.4f (1.96 se)", 1.96 * p->entropy.se);
	fprintf(out, "; Miller-Madow %.4f; %zu entries, %" PRIu64 " samples</title>\n",
		p->entropy.entropy_mm, p->entropy.entries, p->entropy.total);
}

/* The axis of several entropies, with a margin and on round ticks, and
 * the widest source name. */
static void entropy_axis(const struct cprof_svg_entropy *e, struct chart *c,
			 size_t *name_columns)
{
	double low = INFINITY, high = -INFINITY, span;
	size_t i;

	for (i = 0; i < e->count; i++) {
		const struct cprof_svg_profile *p = &e->profiles[i];
		double band = isnan(p->entropy.se) ? 0.0 : 1.96 * p->entropy.se;
		size_t n = fitted_columns(p->source, NAME_CAP);

		if (n > *name_columns)
			*name_columns = n;
		low = fmin(low, p->entropy.entropy - band);
		high = fmax(high, p->entropy.entropy + band);
	}
	if (e->stability) {
		low = fmin(low, e->stability->mean - e->stability->sd);
		high = fmax(high, e->stability->mean + e->stability->sd);
	}
	if (!isfinite(low) || !isfinite(high)) {
		low = 0.0;
		high = 1.0;
	}
	span = high - low;
	if (!(span > 1e-9 * fmax(1.0, fabs(high))))
		span = fmax(0.1, 0.1 * fabs(high));
	low -= 0.05 * span;
	high += 0.05 * span;
	c->step = nice_step(high - low, 6);
	c->low = c->step * floor(low / c->step + 1e-9);
	c->high = c->step * ceil(high / c->step - 1e-9);
	if (c->high - c->low < c->step)
		c->high = c->low + c->step;
	c->scale = CHART / (c->high - c->low);
}

/* Row `i` of several entropies: its name, interval, point and value. */
static void put_entropy_row(FILE *out, const struct cprof_svg_entropy *e, size_t i,
			    const struct chart *c)
{
	const struct cprof_svg_profile *p = &e->profiles[i];
	double x = c->chart_left + (p->entropy.entropy - c->low) * c->scale, y, mid;

	y = c->top + ROW * (double)i;
	mid = y + ROW / 2.0;
	fputs("<g class=\"row\">\n", out);
	put_profile_title(out, e, p);
	put_row_background(out, i, y, c->width);
	fprintf(out, "<text class=\"name\" x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\" "
		"font-family=\"%s\">", c->chart_left - 8, mid + 4, MONO);
	put_fitted(out, p->source, NAME_CAP, true);
	fputs("</text>\n", out);
	if (!isnan(p->entropy.se))
		fprintf(out, "<rect class=\"se\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
			"height=\"8\" fill=\"%s\" fill-opacity=\"0.45\"/>\n",
			x - 1.96 * p->entropy.se * c->scale, mid - 4, 2 * 1.96 * p->entropy.se * c->scale, LOSS);
	fprintf(out, "<circle class=\"point%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"4.5\" "
		"fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
		p->entropy.lower_bound ? " lower-bound" : "", x, mid,
		p->entropy.lower_bound ? "#ffffff" : LOSS, LOSS);
	fprintf(out, "<text class=\"value\" x=\"%.2f\" y=\"%.2f\" font-family=\"%s\">"
		"%s%.4f", c->value_x, mid + 4, MONO, p->entropy.lower_bound ? "≥ " : "", p->entropy.entropy);
	if (!isnan(p->entropy.se))
		fprintf(out, " \xc2\xb1 %.4f", 1.96 * p->entropy.se);
	fputs("</text>\n</g>\n", out);
}

/* The legend of several entropies, each line after its sample. */
static void put_entropy_legend(FILE *out, char *const *legend, size_t num_legend,
			       const struct chart *c)
{
	double y = c->bottom + 62;
	size_t i;

	for (i = 0; i < num_legend; i++, y += 18) {
		size_t max = (size_t)((c->width - MARGIN - 44) / COLUMN);

		if (i == 0) {
			fprintf(out, "<circle cx=\"%d\" cy=\"%.2f\" r=\"4.5\" fill=\"%s\"/>\n",
				MARGIN + 6, y - 4, LOSS);
			fprintf(out, "<circle cx=\"%d\" cy=\"%.2f\" r=\"4.5\" fill=\"#ffffff\" "
				"stroke=\"%s\" stroke-width=\"1.5\"/>\n", MARGIN + 20, y - 4, LOSS);
		} else if (i == 1) {
			fprintf(out, "<rect x=\"%d\" y=\"%.2f\" width=\"28\" height=\"8\" fill=\"%s\" "
				"fill-opacity=\"0.45\"/>\n", MARGIN, y - 8, LOSS);
		} else {
			fprintf(out, "<rect x=\"%d\" y=\"%.2f\" width=\"28\" height=\"12\" "
				"fill=\"#dddddd\"/>\n", MARGIN, y - 10);
			fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"%s\" "
				"stroke-dasharray=\"4 3\"/>\n", MARGIN + 14, y - 11, MARGIN + 14,
				y + 3, INK);
		}
		put_line(out, MARGIN + 44, y, NULL, "class=\"legend\"", legend[i], max);
	}
}

void cprof_svg_diff(FILE *out, const char *const sources[2], const struct cprof_dist *a,
		    const struct cprof_dist *b, size_t k, enum cprof_keys keys,
		    const struct cprof_diff *diff, const struct cprof_judgement *j)
{
	struct svg_bar *bars = cprof_xcalloc(diff->count + 1, sizeof(*bars));
	struct svg_diff svg;
	size_t i;

	for (i = 0; i < diff->count; i++) {
		const struct cprof_diff_entry *e = &diff->entries[i];
		const struct cprof_key_signif *key = cprof_judgement_key(j, e->key);

		bars[i].key = e->key;
		bars[i].count_a = e->count_a;
		bars[i].count_b = e->count_b;
		bars[i].p_a = e->p_a;
		bars[i].p_b = e->p_b;
		bars[i].delta = e->delta;
		bars[i].tested = key && !isnan(key->ci_low);
		bars[i].q_value = key ? key->q_value : NAN;
		bars[i].ci_low = key ? key->ci_low : NAN;
		bars[i].ci_high = key ? key->ci_high : NAN;
		bars[i].ci_level = key ? key->ci_level : NAN;
		bars[i].note = key ? cprof_key_note(key) : NULL;
		bars[i].significant = key && key->significant;
	}
	memset(&svg, 0, sizeof(svg));
	svg.source_a = sources[0];
	svg.source_b = sources[1];
	svg.by = cprof_by_name(a->by);
	svg.cum = a->cum;
	svg.stacks = a->by == CPROF_BY_STACK;
	svg.total_a = a->total;
	svg.total_b = b->total;
	svg.k = k;
	svg.keys_a = keys == CPROF_KEYS_A;
	svg.manhattan = diff->manhattan;
	svg.tested = j->signif != NULL;
	svg.alpha = j->options.alpha;
	svg.min_effect = j->options.min_effect;
	svg.dispersion = j->options.dispersion;
	if (j->signif) {
		svg.different = j->signif->different;
		svg.keys = j->count;
		svg.corrected = j->signif->corrected;
		svg.significant = j->signif->significant;
		svg.null_mean = j->null.mean;
		svg.null_quantile = j->null.quantile;
	}
	svg.bars = bars;
	svg.count = diff->count;
	draw_diff(out, &svg);
	free(bars);
}

void cprof_svg_entropy(FILE *out, const struct cprof_svg_entropy *e)
{
	char *titles[2], *legend[3], *axis_name;
	size_t num_titles = entropy_titles(e, titles), num_legend = entropy_legend(e, legend);
	size_t i, name_columns = 6;
	struct chart c;

	entropy_axis(e, &c, &name_columns);
	chart_size(&c, name_columns, 0, 18, titles, num_titles, legend, num_legend, 44,
		   e->count);
	header(out, c.width, c.height);
	put_titles(out, titles, num_titles, c.width);
	put_ticks(out, c.low, c.high, c.step, c.chart_left, c.low, c.scale, c.top - 4,
		  c.bottom + 4, 1.0, false);
	if (e->stability)
		fprintf(out, "<rect class=\"spread\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
			"height=\"%.2f\" fill=\"#dddddd\" fill-opacity=\"0.6\"/>\n",
			c.chart_left + (e->stability->mean - e->stability->sd - c.low) * c.scale, c.top - 4,
			2 * e->stability->sd * c.scale, c.bottom - c.top + 8);
	for (i = 0; i < e->count; i++)
		put_entropy_row(out, e, i, &c);
	if (e->stability)
		fprintf(out, "<line class=\"mean\" x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
			"stroke=\"%s\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n",
			c.chart_left + (e->stability->mean - c.low) * c.scale, c.top - 4,
			c.chart_left + (e->stability->mean - c.low) * c.scale, c.bottom + 4, INK);
	axis_name = format("entropy, %s", e->unit);
	put_line(out, c.chart_left + CHART / 2.0, c.bottom + 34, "middle", "fill=\"#555555\"",
		 axis_name, NAME_CAP);
	free(axis_name);
	put_entropy_legend(out, legend, num_legend, &c);
	fputs("</svg>\n", out);
	free_lines(titles, num_titles);
	free_lines(legend, num_legend);
}
