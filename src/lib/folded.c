/* folded.c: folded stacks, one "root;...;leaf COUNT" line per stack, read
 * as leniently as flamegraph.pl reads them. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "folded.h"
#include "base/hash.h"
#include "base/input.h"
#include "profile-core.h"
#include "base/ptrs.h"
#include "base/util.h"

/* Decimals of a count kept (the rest rounded). */
enum { MAX_DECIMALS = 9 };

/* The time units, coarsest first, and microseconds in one of each. */
static const struct {
	const char *name;
	double us;
} time_units[] = {
	{ "seconds", 1e6 }, { "milliseconds", 1e3 }, { "microseconds", 1 }, { "nanoseconds", 1e-3 },
};

/* The index of the time unit of `type` ("TYPE/UNIT") in time_units, or -1. */
static int time_unit(const char *type)
{
	const char *unit = strrchr(type, '/');
	size_t i;

	for (i = 0; unit && i < G_N_ELEMENTS(time_units); i++)
		if (strcmp(unit + 1, time_units[i].name) == 0)
			return (int)i;
	return -1;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Where the count (flamegraph.pl's \d+(\.\d*)?) that ends
 * line[0, len) after a blank starts; 0 when the line does not end so. */
static size_t count_start(const char *line, size_t len)
{
	size_t i = len, point;

	while (i > 0 && g_ascii_isdigit(line[i - 1]))
		i--;
	if (i > 0 && line[i - 1] == '.') {
		point = --i;
		while (i > 0 && g_ascii_isdigit(line[i - 1]))
			i--;
		if (i == point)
			return 0;
	} else if (i == len) {
		return 0;
	}
	return i > 0 && is_blank(line[i - 1]) ? i : 0;
}

/* The length of line[0, end) without its trailing blanks. */
static size_t trim_end(const char *line, size_t end)
{
	while (end > 0 && is_blank(line[end - 1]))
		end--;
	return end;
}

/* The end of a line's frames before the count at `start`: without the
 * blanks before it, but for a last frame of blanks, as flamegraph.pl
 * reads one blank before a count: "a;b;  3" ends in the frame " "
 * (stackcollapse-perf.pl --all writes them). */
static size_t frames_end(const char *line, size_t start)
{
	size_t end = trim_end(line, start);

	if (start - end >= 2 && (end == 0 || line[end - 1] == ';'))
		return start - 1;
	return end;
}

/* A line split: its frames and its one or two counts. */
struct split {
	size_t frames_len;
	const char *counts[2];
	size_t counts_len[2];
	int num_counts;
};

/* Splits a folded line at the blanks before its last count (and before
 * the count before that one, when there is one); false when there is no
 * count or no frames. */
static bool split_line(const char *line, size_t len, struct split *s)
{
	size_t start = count_start(line, len), end, second;

	if (start == 0)
		return false;
	end = trim_end(line, start);
	s->num_counts = 1;
	s->counts[0] = line + start;
	s->counts_len[0] = len - start;
	second = count_start(line, end);
	if (second > 0 && frames_end(line, second) > 0) {
		s->num_counts = 2;
		s->counts[1] = s->counts[0];
		s->counts_len[1] = s->counts_len[0];
		s->counts[0] = line + second;
		s->counts_len[0] = end - second;
		s->frames_len = frames_end(line, second);
		return true;
	}
	s->frames_len = frames_end(line, start);
	return s->frames_len > 0;
}

bool cprof_folded_line_ok(const char *line, size_t len)
{
	struct split s;

	return split_line(line, len, &s);
}

/* A count read: its digits as a whole number and its decimals. */
struct count {
	uint64_t value;        /* the count times 10^decimals */
	unsigned decimals;
	bool point;            /* it has a decimal point */
};

static const uint64_t powers_of_ten[] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

/* value * 10^digits into *out; false on overflow. */
static bool scale_up(uint64_t value, unsigned digits, uint64_t *out)
{
	uint64_t factor = powers_of_ten[digits];

	if (value > UINT64_MAX / factor)
		return false;
	*out = value * factor;
	return true;
}

/* Reads the count text[0, len) (digits, maybe a point and more digits);
 * decimals past MAX_DECIMALS are rounded.  False on overflow. */
static bool parse_count(const char *text, size_t len, struct count *c)
{
	size_t i;
	bool round_up = false;

	c->value = 0;
	c->decimals = 0;
	c->point = false;
	for (i = 0; i < len; i++) {
		unsigned digit = (unsigned)(text[i] - '0');

		if (text[i] == '.') {
			c->point = true;
			continue;
		}
		if (c->point && c->decimals == MAX_DECIMALS) {
			round_up = digit >= 5;
			break;
		}
		if (c->value > (UINT64_MAX - digit) / 10)
			return false;
		c->value = c->value * 10 + digit;
		c->decimals += c->point;
	}
	if (round_up && c->value == UINT64_MAX)
		return false;
	c->value += round_up;
	return true;
}

/* What the reader forgave: the first line and how many. */
struct forgiven {
	unsigned long long first, count;
};

struct reader {
	struct cprof_profile *profile;
	const struct cprof_read_options *options;
	struct cprof_error *err;
	GHashTable *index;     /* frames -> stack, the stacks owned by profile->folded */
	unsigned long long line_no;
	unsigned long long first_stack; /* the line of the first stack, or 0 */
	unsigned decimals;     /* of every count so far (the most any had) */
	struct forgiven blank, comment, cr, decimal;
	unsigned long long cprof_line; /* the line of the "# cprof:" line, or 0 */
	char *cprof_type;      /* what it said, or NULL */
	bool cprof_has_period;
	double cprof_period;
};

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err->text, sizeof(r->err->text), fmt, ap);
	va_end(ap);
	r->err->line = r->line_no;
	return -1;
}

static void forgive(struct reader *r, struct forgiven *what)
{
	if (what->count++ == 0)
		what->first = r->line_no;
}

/* Multiplies every count read so far by 10^digits. */
static int rescale(struct reader *r, unsigned digits)
{
	struct cprof_profile *p = r->profile;
	size_t i;

	if (!scale_up(p->total, digits, &p->total) || !scale_up(p->total_b, digits, &p->total_b))
		return fail(r, "count too large");
	for (i = 0; i < p->folded.len; i++) {
		struct cprof_folded_stack *stack = p->folded.items[i];

		if (!scale_up(stack->count, digits, &stack->count) ||
		    !scale_up(stack->count_b, digits, &stack->count_b))
			return fail(r, "count too large");
	}
	return 0;
}

/* Reads the count text[0, len) in the units of the reader's decimals. */
static int read_count(struct reader *r, const char *text, size_t len, uint64_t *value)
{
	struct count c;

	if (!parse_count(text, len, &c))
		return fail(r, "count too large");
	if (c.point)
		forgive(r, &r->decimal);
	if (c.decimals > r->decimals) {
		if (rescale(r, c.decimals - r->decimals) < 0)
			return -1;
		r->decimals = c.decimals;
	}
	if (!scale_up(c.value, r->decimals - c.decimals, value))
		return fail(r, "count too large");
	return 0;
}

/* True when a stack has an empty frame: ";a", "a;;b", "a;". */
static bool empty_frame(const char *frames, size_t len)
{
	size_t i;

	if (frames[0] == ';' || frames[len - 1] == ';')
		return true;
	for (i = 1; i < len; i++)
		if (frames[i] == ';' && frames[i - 1] == ';')
			return true;
	return false;
}

/* Reads "period=N" or "sample_type=TYPE/UNIT" (the rest of the line) of
 * the "# cprof:" line at `field`; returns what it took, or 0 on error. */
static size_t cprof_field(struct reader *r, const char *field, size_t len)
{
	size_t n = 0;
	char *text, *end;

	if (len > 12 && memcmp(field, "sample_type=", 12) == 0) {
		r->cprof_type = g_strndup(field + 12, len - 12);
		r->cprof_type[cprof_unescape(r->cprof_type, len - 12)] = '\0';
		if (!strchr(r->cprof_type, '/') || !g_utf8_validate(r->cprof_type, -1, NULL))
			return fail(r, "the cprof: line's sample_type is not TYPE/UNIT"), 0;
		return len;
	}
	while (n < len && !is_blank(field[n]))
		n++;
	if (n <= 7 || memcmp(field, "period=", 7) != 0)
		return fail(r, "unknown field '%.*s' in the cprof: line", (int)n, field), 0;
	text = g_strndup(field + 7, n - 7);
	r->cprof_period = g_ascii_strtod(text, &end);
	r->cprof_has_period = *end == '\0' && is_digit(text[0]) && r->cprof_period > 0 &&
			      isfinite(r->cprof_period);
	g_free(text);
	if (!r->cprof_has_period)
		return fail(r, "the cprof: line's period is not a positive number"), 0;
	return n;
}

/* Reads the line "# cprof: [period=N ]sample_type=TYPE/UNIT" that
 * cprof-flat --folded writes. */
static int read_cprof_line(struct reader *r, const char *line, size_t len)
{
	size_t i = 9, took;

	if (r->cprof_line)
		return fail(r, "a second cprof: line (the first is line %llu)", r->cprof_line);
	r->cprof_line = r->line_no;
	while (i < len) {
		if (is_blank(line[i])) {
			i++;
			continue;
		}
		took = cprof_field(r, line + i, trim_end(line + i, len - i));
		if (took == 0)
			return -1;
		i += took;
	}
	if (!r->cprof_type)
		return fail(r, "cprof: line without a sample_type");
	return 0;
}

/* The frames line[0, len) with each \\xNN decoded (as cprof-flat --folded
 * escapes a byte that would forge a line or drive a terminal), valid
 * UTF-8, newly allocated. */
static char *unescaped(const char *line, size_t len, bool *replaced)
{
	char *copy, *frames;

	if (!memchr(line, '\\', len))
		return cprof_utf8_sanitize(line, len, replaced);
	copy = g_strndup(line, len);
	frames = cprof_utf8_sanitize(copy, cprof_unescape(copy, len), replaced);
	g_free(copy);
	return frames;
}

/* Adds one stack line, split as `s`. */
static int add_stack(struct reader *r, const char *line, const struct split *s)
{
	struct cprof_profile *p = r->profile;
	struct cprof_folded_stack *stack;
	uint64_t counts[2] = { 0, 0 };
	char *frames;
	int i;

	if (r->first_stack == 0) {
		r->first_stack = r->line_no;
		p->two_counts = s->num_counts == 2;
		if (p->two_counts && !(r->options && r->options->two_counts))
			return fail(r, "two counts on a line (difffolded.pl's KEY COUNT_A COUNT_B): "
				       "only cprof-diff reads them, given this file alone");
	} else if (p->two_counts != (s->num_counts == 2)) {
		return fail(r, "%s count%s on this line, %s on line %llu: a file has one count on "
			       "every line or two", s->num_counts == 2 ? "two" : "one",
			    s->num_counts == 2 ? "s" : "", p->two_counts ? "two" : "one",
			    r->first_stack);
	}
	if (empty_frame(line, s->frames_len))
		return fail(r, "empty frame name in a folded stack");
	for (i = 0; i < s->num_counts; i++)
		if (read_count(r, s->counts[i], s->counts_len[i], &counts[i]) < 0)
			return -1;
	if (p->total + counts[0] < p->total || p->total_b + counts[1] < p->total_b)
		return fail(r, "sample count overflow");
	p->total += counts[0];
	p->total_b += counts[1];
	frames = unescaped(line, s->frames_len, &p->replaced_utf8);
	stack = g_hash_table_lookup(r->index, frames);
	if (!stack) {
		size_t n = strlen(frames);

		stack = cprof_xmalloc(sizeof(*stack) + n + 1);
		stack->count = stack->count_b = 0;
		memcpy(stack->frames, frames, n + 1);
		cprof_ptrs_add(&p->folded, stack);
		g_hash_table_insert(r->index, stack->frames, stack);
	}
	free(frames);
	stack->count += counts[0];
	stack->count_b += counts[1];
	return 0;
}

/* Reads one line. */
static int read_line(struct reader *r, const char *line, size_t len)
{
	struct split s;

	if (cprof_blank_line(line, len)) {
		forgive(r, &r->blank);
		return 0;
	}
	if (line[0] == '#') {
		if (len >= 9 && memcmp(line, "# cprof: ", 9) == 0)
			return read_cprof_line(r, line, len);
		forgive(r, &r->comment);
		return 0;
	}
	if (!split_line(line, len, &s))
		return fail(r, "folded line without a count");
	return add_stack(r, line, &s);
}

static void note(struct cprof_profile *profile, char *text)
{
	cprof_ptrs_add(&profile->notes, cprof_xstrdup(text));
	g_free(text);
}

/* What was forgiven of one kind, and how it is said. */
struct forgiveness {
	const struct forgiven *what;
	const char *name;      /* "blank line" */
	const char *done;      /* ": skipped" */
};

static int forgiveness_cmp(const void *x, const void *y)
{
	const struct forgiveness *a = x, *b = y;

	return a->what->first < b->what->first ? -1 : a->what->first > b->what->first;
}

/* Notes what was forgiven, "LINE: what (N in all): how", in the order of
 * the first line of each kind. */
static void note_forgiven(struct reader *r, bool scaled_samples)
{
	struct forgiveness kinds[] = {
		{ &r->blank, "blank line", ": skipped" },
		{ &r->comment, "comment line", ": skipped" },
		{ &r->cr, "line ending in CR LF", ": read without the CR" },
		{ &r->decimal, "decimal count",
		  scaled_samples ? "" : ": not samples, and no verdict rests on them "
					"(--sample-type and --period say what they are)" },
	};
	size_t i;

	qsort(kinds, G_N_ELEMENTS(kinds), sizeof(kinds[0]), forgiveness_cmp);
	for (i = 0; i < G_N_ELEMENTS(kinds); i++) {
		const struct forgiven *what = kinds[i].what;

		if (what->count == 1)
			note(r->profile, g_strdup_printf("%llu: %s%s", what->first, kinds[i].name,
							 kinds[i].done));
		else if (what->count > 1)
			note(r->profile, g_strdup_printf("%llu: %s (%llu in all)%s", what->first,
							 kinds[i].name, what->count, kinds[i].done));
	}
}

/* The sample type and period the options and the cprof: line give; -1
 * when they disagree. */
static int given_units(struct reader *r, const char **type, bool *has_period, double *period)
{
	const struct cprof_read_options *o = r->options;

	*type = o && o->sample_type ? o->sample_type : r->cprof_type;
	*has_period = (o && o->has_period) || r->cprof_has_period;
	*period = o && o->has_period ? o->period : r->cprof_period;
	r->line_no = r->cprof_line;
	if (o && o->sample_type && r->cprof_type && strcmp(o->sample_type, r->cprof_type) != 0)
		return fail(r, "the cprof: line says sample_type=%s, --sample-type says %s",
			    r->cprof_type, o->sample_type);
	if (o && o->has_period && r->cprof_has_period && o->period != r->cprof_period)
		return fail(r, "the cprof: line says period=%g, --period says %g", r->cprof_period,
			    o->period);
	r->line_no = 0;
	return 0;
}

/* Sets the period, `period` in the time unit of `type`, else nanoseconds. */
static int set_period(struct reader *r, const char *type, double period)
{
	int unit = time_unit(type);
	double us = period * (unit >= 0 ? time_units[unit].us : 1e-3);

	if (us < 0.5 || us >= 9.2e18)
		return fail(r, "period %g %s: under half a microsecond, the least period cprof "
			       "keeps", period, unit >= 0 ? time_units[unit].name : "nanoseconds");
	r->profile->has_period = true;
	r->profile->period_us = (uint64_t)llround(us);
	return 0;
}

/* The sample type of counts of `type` read to r->decimals decimals: a
 * finer time unit where there is one (the counts scaled to it), else the
 * unit prefixed with its scale ("samples/1e-2 count"). */
static int scaled_type(struct reader *r, const char *type, char **scaled)
{
	int unit = time_unit(type), finer = unit + ((int)r->decimals + 2) / 3;
	const char *slash = strrchr(type, '/');

	if (unit >= 0 && finer < (int)G_N_ELEMENTS(time_units)) {
		if (rescale(r, (unsigned)(3 * (finer - unit)) - r->decimals) < 0)
			return -1;
		*scaled = g_strdup_printf("%.*s/%s", (int)(slash - type), type,
					  time_units[finer].name);
		return 0;
	}
	*scaled = g_strdup_printf("%.*s/1e-%u %s", (int)(slash - type), type, r->decimals,
				  slash + 1);
	return 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Where nothing says what the counts are: counts that share a period
 * are read as samples of it, counts that cannot be samples are left as
 * counts of an unknown unit (cprof_folded_units). */
static void guess_units(struct reader *r)
{
	struct cprof_profile *p = r->profile;
	struct cprof_folded_counts counts = CPROF_FOLDED_COUNTS_INIT;
	enum cprof_folded_units units;
	uint64_t divisor;
	size_t i;

	for (i = 0; i < p->folded.len; i++) {
		const struct cprof_folded_stack *stack = p->folded.items[i];

		cprof_folded_counts_add(&counts, stack->count, stack->count_b);
	}
	units = cprof_folded_units(&counts);
	if (units == CPROF_FOLDED_UNKNOWN) {
		p->sample_type = g_strdup("value/unknown");
		note(p, g_strdup_printf("the counts sum to %" PRIu64 ", more than the %d samples "
					"of any plausible recording: not samples, and no verdict "
					"rests on them (--sample-type and --period say what they "
					"are)",
					MAX(counts.total[0], counts.total[1]),
					CPROF_FOLDED_MOST_SAMPLES));
		return;
	}
	if (units == CPROF_FOLDED_SAMPLES)
		return;
	divisor = counts.divisor;
	for (i = 0; i < p->folded.len; i++) {
		struct cprof_folded_stack *stack = p->folded.items[i];

		stack->count /= divisor;
		stack->count_b /= divisor;
	}
	p->total /= divisor;
	p->total_b /= divisor;
	note(p, g_strdup_printf("every count is a multiple of %" PRIu64 ": read as samples of that "
				"period (--sample-type and --period say what the counts are)",
				divisor));
}

/* Gives the profile its sample type and period once every line is read. */
static int finish(struct reader *r)
{
	struct cprof_profile *p = r->profile;
	const char *type;
	char *scaled = NULL;
	bool has_period;
	double period;

	if (given_units(r, &type, &has_period, &period) < 0)
		return -1;
	if (has_period && set_period(r, type ? type : "samples/count", period) < 0)
		return -1;
	if (r->decimals > 0 && scaled_type(r, type ? type : "samples/count", &scaled) < 0)
		return -1;
	note_forgiven(r, !scaled || time_unit(scaled) >= 0);
	if (scaled)
		type = scaled;
	if (type && strcmp(type, "samples/count") != 0)
		p->sample_type = g_strdup(type);
	else if (!type && !scaled)
		guess_units(r);
	g_free(scaled);
	return 0;
}

int cprof_folded_read(struct cprof_input *in, struct cprof_profile *profile,
		      const struct cprof_read_options *options, struct cprof_error *err)
{
	struct reader r = {
		.profile = profile,
		.options = options,
		.err = err,
		.index = g_hash_table_new(cprof_str_hash, g_str_equal),
	};
	const char *line;
	long long len;
	bool has_nul;
	int status = 0;

	profile->format = CPROF_FORMAT_FOLDED;
	while (status == 0 && (len = cprof_input_line(in, &line, &has_nul, err)) >= 0) {
		r.line_no++;
		if (in->line_cr)
			forgive(&r, &r.cr);
		if (has_nul)
			status = fail(&r, "NUL byte in a folded line");
		else
			status = read_line(&r, line, (size_t)len);
	}
	if (status == 0 && err->text[0])
		status = -1;
	if (status == 0)
		status = finish(&r);
	g_hash_table_destroy(r.index);
	g_free(r.cprof_type);
	return status;
}

void cprof_folded_take_second(struct cprof_profile *profile)
{
	size_t i;

	for (i = 0; i < profile->folded.len; i++) {
		struct cprof_folded_stack *stack = profile->folded.items[i];

		stack->count = stack->count_b;
	}
	profile->total = profile->total_b;
}

void cprof_folded_counts_add(struct cprof_folded_counts *counts, uint64_t a, uint64_t b)
{
	uint64_t both[2] = { a, b };
	int i;

	counts->stacks++;
	for (i = 0; i < 2; i++) {
		if (both[i] && both[i] < counts->least)
			counts->least = both[i];
		counts->divisor = gcd(counts->divisor, both[i]);
		counts->total[i] = counts->total[i] + both[i] < counts->total[i]
					   ? UINT64_MAX
					   : counts->total[i] + both[i];
	}
}

enum cprof_folded_units cprof_folded_units(const struct cprof_folded_counts *counts)
{
	if (counts->stacks < 2 || counts->least == UINT64_MAX)
		return CPROF_FOLDED_SAMPLES;
	if (counts->divisor >= CPROF_FOLDED_PERIOD_LEAST)
		return CPROF_FOLDED_PERIOD;
	if (MAX(counts->total[0], counts->total[1]) > CPROF_FOLDED_MOST_SAMPLES)
		return CPROF_FOLDED_UNKNOWN;
	return CPROF_FOLDED_SAMPLES;
}

char *cprof_folded_comment(const char *sample_type, bool has_period, uint64_t period_us,
			   const struct cprof_folded_counts *counts)
{
	static const uint64_t per_unit[] = { 1000000, 1000, 1, 0 };
	const char *type = sample_type ? sample_type : "samples/count";
	int unit = time_unit(type);
	GString *line;
	char *copy;

	if (strcmp(type, "samples/count") == 0 && !has_period &&
	    cprof_folded_units(counts) == CPROF_FOLDED_SAMPLES)
		return NULL;
	line = g_string_new("# cprof: ");
	if (has_period && (unit < 0 || per_unit[unit] == 0)) {
		g_string_append_printf(line, "period=%" PRIu64 "000 ", period_us);
	} else if (has_period) {
		uint64_t div = per_unit[unit], whole = period_us / div, frac = period_us % div;
		int digits = unit == 0 ? 6 : unit == 1 ? 3 : 0;

		g_string_append_printf(line, "period=%" PRIu64, whole);
		if (frac) {
			g_string_append_printf(line, ".%0*" PRIu64, digits, frac);
			while (line->str[line->len - 1] == '0')
				g_string_truncate(line, line->len - 1);
		}
		g_string_append_c(line, ' ');
	}
	/* a type's newline would forge a line: escaped as names are */
	copy = cprof_escape(type);
	g_string_append_printf(line, "sample_type=%s\n", copy);
	free(copy);
	copy = cprof_xstrdup(line->str);
	g_string_free(line, TRUE);
	return copy;
}

/* Writes the byte `c` as \xNN. */
static void put_hex(FILE *out, unsigned char c)
{
	fprintf(out, "\\x%02x", c);
}

/* Writes the key `s` escaped as names are (cprof_put_escaped) and, as
 * \xNN, a leading '#', its trailing blanks and the blank before a
 * number that ends it, so that "KEY COUNT" reads back as one count of
 * KEY; each of those is a blank or '#', which no \xNN escape and no
 * UTF-8 sequence holds, so the escapes between them are the same. */
static void put_key(FILE *out, const char *s, size_t len)
{
	size_t from = 0, trailing = len, number_blank = len;

	while (trailing > 0 && is_blank(s[trailing - 1]))
		trailing--;
	if (trailing == len) {
		size_t start = count_start(s, len);

		number_blank = start > 0 ? start - 1 : len;
	}
	if (len > 0 && s[0] == '#')
		put_hex(out, (unsigned char)s[from++]);
	if (number_blank < len) {
		cprof_put_escaped(out, s + from, number_blank - from);
		put_hex(out, (unsigned char)s[number_blank]);
		from = number_blank + 1;
	}
	cprof_put_escaped(out, s + from, trailing - from);
	for (from = trailing; from < len; from++)
		put_hex(out, (unsigned char)s[from]);
}

void cprof_folded_put_line(FILE *out, const char *key, uint64_t count, bool two_counts,
			   uint64_t count_b)
{
	put_key(out, key, strlen(key));
	if (two_counts)
		fprintf(out, " %" PRIu64 " %" PRIu64 "\n", count, count_b);
	else
		fprintf(out, " %" PRIu64 "\n", count);
}
