/* perf-lines.c: the recognizers of the lines of `perf script`: a frame
 * ("[IP ]SYM[+0xOFF][ (DSO)]"), a sample's header (comm, tid, time,
 * period, "EVENT:"), a source line, a --show-mmap-events record, and the
 * sniff of a text's first lines.  perfscript.c reads perf's usual frame
 * line on a path of its own, which only ever agrees with these. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/util.h"
#include "perf-int.h"
#include "perfscript.h"

/* The hexadecimal digits, by byte: a frame line's address and offset. */
const bool cprof_perf_hex_digit[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1,
	['8'] = 1, ['9'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
};

static bool all_digits(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return false;
	return len > 0;
}

/* sym_less_off, the digits counted byte by byte. */
bool cprof_perf_take_sym(const char *p, const char *end, struct frame_text *out)
{
	size_t digits = 0;

	while (digits < (size_t)(end - p) && is_hex(end[-1 - (ptrdiff_t)digits]))
		digits++;
	return sym_less_off(p, end, digits, out);
}

/* True when text[0, len), what stands in a frame's last parentheses,
 * is a DSO as perf prints one that is no absolute path and no "[...]":
 * "inlined", a relative path, a BPF program's name: one word. */
static bool bare_dso(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (text[i] == ' ' || text[i] == '\t' || text[i] == '(' || text[i] == ')')
			return false;
	return len > 0;
}

/* The start of the " (DSO)" group ending at end[-1] (a ')'): the last
 * "(" after a blank whose text begins "/" or "[", else the last "("
 * after a blank (or first in the text) whose text is bare_dso; NULL when
 * none is a DSO. */
static const char *dso_open(const char *p, const char *end)
{
	const char *open = memrchr(p, '(', (size_t)(end - p)), *last = NULL;

	for (; open; open = open > p ? memrchr(p, '(', (size_t)(open - p)) : NULL) {
		if (open > p && open[-1] != ' ')
			continue;
		if (!last)
			last = open;
		if (open + 1 < end - 1 && (open[1] == '/' || open[1] == '['))
			return open;
	}
	if (last && bare_dso(last + 1, (size_t)(end - 1 - (last + 1))))
		return last;
	return NULL;
}

/* Splits "SYM[+0xOFF][ (DSO)]" of text[0, end) (the IP and the blanks
 * after it skipped); an empty SYM before a DSO is "[unknown]", as perf
 * prints an unnamed PC.  False when there is no symbol. */
bool cprof_perf_parse_sym_dso(const char *p, const char *end, struct frame_text *out)
{
	const char *open;

	while (p < end && *p == ' ')
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (p == end)
		return false;
	out->padded = false;
	out->dso = "";
	out->dso_len = 0;
	if (end[-1] == ')' && (open = dso_open(p, end))) {
		out->dso = open + 1;
		out->dso_len = (size_t)(end - 1 - out->dso);
		if (open == p) {
			out->sym = "[unknown]";
			out->sym_len = 9;
			return true;
		}
		end = open - 1;
	}
	return cprof_perf_take_sym(p, end, out);
}

/* Splits "[IP ]SYM[+0xOFF][ (DSO)]" (leading blanks skipped); the IP is
 * required unless `ip_optional`, and a frame without one needs its DSO
 * (perf script -F sym,dso).  False when the text is not a frame. */
bool cprof_perf_parse_frame(const char *p, size_t len, bool ip_optional, struct frame_text *out)
{
	const char *end = p + len, *s;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	out->ip = NULL;
	out->ip_len = 0;
	for (s = p; s < end && is_hex(*s); s++)
		;
	if (s > p && s < end && *s == ' ') {
		out->ip = p;
		out->ip_len = (size_t)(s - p);
		p = s;
	} else if (!ip_optional)
		return false;
	else if (s > p && s == end)
		return false;  /* an address alone: a line cut short */
	else
		return cprof_perf_parse_sym_dso(p, end, out) && out->dso_len > 0;
	return cprof_perf_parse_sym_dso(p, end, out);
}

/* True when a token is perf's time field, "SECONDS.MICROS:". */
static bool is_time(const char *t, size_t len)
{
	size_t dot;

	if (len < 4 || t[len - 1] != ':')
		return false;
	for (dot = 0; dot < len - 1 && is_digit(t[dot]); dot++)
		;
	return dot > 0 && dot < len - 2 && t[dot] == '.' && all_digits(t + dot + 1, len - 2 - dot);
}

/* True when a token may be the tid, "pid/tid" or "[cpu]" before a period. */
static bool before_period(const char *t, size_t len)
{
	const char *slash = memchr(t, '/', len);

	if (len >= 3 && t[0] == '[' && t[len - 1] == ']')
		return all_digits(t + 1, len - 2);
	if (slash)
		return all_digits(t, (size_t)(slash - t)) &&
		       all_digits(slash + 1, len - (size_t)(slash - t) - 1);
	return all_digits(t, len);
}

/* The pid of token t[0, len), "PID/TID" or "TID" (a process's first
 * thread's is its pid), into *pid; false when it is neither. */
static bool token_pid(const char *t, size_t len, uint64_t *pid)
{
	const char *slash = memchr(t, '/', len);
	size_t n = slash ? (size_t)(slash - t) : len;
	char digits[24];

	if (!before_period(t, len) || t[0] == '[' || n == 0 || n >= sizeof(digits))
		return false;
	memcpy(digits, t, n);
	digits[n] = '\0';
	return cprof_parse_u64(digits, pid);
}

/* Finds the event token of a header line ("NAME:" that is not the
 * time), the period before it and the text after it. */
int cprof_perf_parse_header(const char *line, size_t len, struct header *h)
{
	const char *end = line + len, *p = line, *tok[3] = { NULL }, *t;
	size_t tok_len[3] = { 0 }, n;

	h->has_pid = false;
	h->time_at = NULL;
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			return HEADER_NONE;
		for (t = p; p < end && *p != ' ' && *p != '\t'; p++)
			;
		n = (size_t)(p - t);
		if (n > 12 && memcmp(t, "PERF_RECORD_", 12) == 0)
			return HEADER_RECORD;
		if (n > 1 && t[n - 1] == ':' && !is_time(t, n))
			break;
		if (is_time(t, n)) {
			h->time_at = t;
			if (tok[2])    /* "PID/TID [CPU] TIME:" */
				h->has_pid = tok[2][0] == '[' ?
						     tok[1] && token_pid(tok[1], tok_len[1], &h->pid) :
						     token_pid(tok[2], tok_len[2], &h->pid);
		}
		tok[0] = tok[1], tok_len[0] = tok_len[1];
		tok[1] = tok[2], tok_len[1] = tok_len[2];
		tok[2] = t, tok_len[2] = n;
	}
	h->event = t;
	h->event_len = n - 1;
	h->rest = p;
	h->rest_len = (size_t)(end - p);
	h->has_period = false;
	h->timed = (tok[2] && is_time(tok[2], tok_len[2])) || (tok[1] && is_time(tok[1], tok_len[1]));
	if (tok[2] && all_digits(tok[2], tok_len[2]) && tok[1] &&
	    (is_time(tok[1], tok_len[1]) || (tok[0] && before_period(tok[1], tok_len[1])))) {
		char digits[24];

		if (tok_len[2] >= sizeof(digits))
			return HEADER_NONE;
		memcpy(digits, tok[2], tok_len[2]);
		digits[tok_len[2]] = '\0';
		h->has_period = cprof_parse_u64(digits, &h->period);
	}
	return HEADER_SAMPLE;
}

/* The event's name without perf's modifiers: "cpu-clock:ppp" is
 * "cpu-clock", "sched:sched_switch" stays. */
size_t cprof_perf_event_name_len(const char *event, size_t len)
{
	const char *colon = NULL;
	size_t i;

	for (i = len; i > 0; i--)
		if (event[i - 1] == ':') {
			colon = event + i - 1;
			break;
		}
	if (!colon || colon == event)
		return len;
	for (i = (size_t)(colon - event) + 1; i < len; i++)
		if (!strchr("ukhGHpPSDIWe", event[i]))
			return len;
	return (size_t)(colon - event);
}

/* Keeps what same_header needs of header `h` of line[0, len), read
 * whole, which names event `index`. */
void cprof_perf_keep_header(struct reader *r, const char *line, const struct header *h,
			    uint32_t index)
{
	struct last_header *l = &r->last;
	size_t prefix_len = (size_t)(h->time_at - line);

	l->valid = false;
	if (!h->time_at || h->event < h->time_at)
		return;
	if (l->prefix_cap < prefix_len + 1) {
		l->prefix_cap = 2 * prefix_len + 16;
		l->prefix = cprof_xrealloc(l->prefix, l->prefix_cap);
	}
	if (l->event_cap < h->event_len + 1) {
		l->event_cap = 2 * h->event_len + 16;
		l->event = cprof_xrealloc(l->event, l->event_cap);
	}
	memcpy(l->prefix, line, prefix_len);
	l->prefix_len = prefix_len;
	memcpy(l->event, h->event, h->event_len + 1);
	l->event_len = h->event_len + 1;
	l->event_index = index;
	l->has_pid = h->has_pid;
	l->pid = h->pid;
	l->valid = true;
}

/* The digits at *p (fewer than `max`), their end into *p; 0 digits: none. */
static size_t skip_digits(const char **p, const char *end)
{
	const char *s = *p;

	while (*p < end && is_digit(**p))
		(*p)++;
	return (size_t)(*p - s);
}

/* parse_header of a line that begins as the last header read whole did
 * (its command, pid and tid: its text before its time) and names its
 * event: the time, the period and the event read without tokenizing the
 * rest, as parse_header reads them.  False (the line to be read whole)
 * otherwise. */
bool cprof_perf_same_header(const struct reader *r, const char *line, size_t len,
			    struct header *h)
{
	const struct last_header *l = &r->last;
	const char *p = line + l->prefix_len, *end = line + len, *digits;
	size_t n;

	if (!l->valid || len <= l->prefix_len + l->event_len || memcmp(line, l->prefix, l->prefix_len))
		return false;
	if (skip_digits(&p, end) == 0 || p == end || *p++ != '.' || skip_digits(&p, end) == 0 ||
	    p == end || *p++ != ':' || p == end || (*p != ' ' && *p != '\t'))
		return false;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	h->has_period = false;
	digits = p;
	n = skip_digits(&p, end);
	if (n > 0 && p < end && (*p == ' ' || *p == '\t')) {
		if (n > 19)
			return false;
		h->has_period = true;
		for (h->period = 0; digits < p; digits++)
			h->period = 10 * h->period + (uint64_t)(*digits - '0');
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
	} else {
		p = digits;
	}
	if ((size_t)(end - p) < l->event_len || memcmp(p, l->event, l->event_len) != 0 ||
	    (p + l->event_len < end && p[l->event_len] != ' ' && p[l->event_len] != '\t'))
		return false;
	h->event = p;
	h->event_len = l->event_len - 1;
	h->rest = p + l->event_len;
	h->rest_len = (size_t)(end - h->rest);
	h->timed = true;
	h->has_pid = l->has_pid;
	h->pid = l->pid;
	h->time_at = NULL;
	return true;
}

/* True when text[0, len) (its indent skipped) is what `perf script -F
 * +srcline` prints: "FILE:LINE", "??:0", "[kernel.kallsyms][ADDR]". */
bool cprof_perf_is_srcline(const char *s, size_t len)
{
	const char *colon = memrchr(s, ':', len);
	size_t i;

	if (len > 0 && s[0] == '[')
		return true;
	if (!colon || memchr(s, '\t', len))
		return false;
	for (i = (size_t)(colon - s) + 1; i < len && is_digit(s[i]); i++)
		;
	return i > (size_t)(colon - s) + 1 && (i == len || s[i] == ' ');
}

/* True when some token of text[0, len) is perf's time field. */
bool cprof_perf_has_time(const char *line, size_t len)
{
	const char *end = line + len, *p = line, *t;

	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		for (t = p; p < end && *p != ' ' && *p != '\t'; p++)
			;
		if (p > t && is_time(t, (size_t)(p - t)))
			return true;
	}
	return false;
}

bool cprof_perf_dso_anonymous(const char *dso, size_t len)
{
	static const char *const whole[] = { "//anon", "/anon_hugepage", "/dev/zero" };
	const char *base = dso + len;
	size_t i, n;

	for (i = 0; i < G_N_ELEMENTS(whole); i++) {
		n = strlen(whole[i]);
		if (len >= n && memcmp(dso, whole[i], n) == 0 && (len == n || dso[n] == ' '))
			return true;   /* " (deleted)" may follow */
	}
	if (len >= 7 && memcmp(dso, "/memfd:", 7) == 0)
		return true;
	while (base > dso && base[-1] != '/')
		base--;
	n = (size_t)(dso + len - base);
	return n > 9 && memcmp(base, "perf-", 5) == 0 && memcmp(base + n - 4, ".map", 4) == 0 &&
	       all_digits(base + 5, n - 9);
}

/* True when the " MAJ:MIN INODE" that MMAP2 prints after the page offset
 * at p says no file: both 0. */
static bool no_file(const char *p)
{
	unsigned long maj, min;
	unsigned long long inode;
	int used = 0;

	return sscanf(p, " %lx:%lx %llu%n", &maj, &min, &inode, &used) == 3 && used > 0 &&
	       maj == 0 && min == 0 && inode == 0;
}

/* Keeps the process a "PERF_RECORD_FORK(PID:TID):(PPID:PTID)" line of
 * perf script --show-task-events starts (PID other than PPID). */
static void take_fork(struct cprof_perf *perf, const char *p)
{
	unsigned long long child, tid, parent, ptid;
	struct fork f;

	if (sscanf(p, "PERF_RECORD_FORK(%llu:%llu):(%llu:%llu)", &child, &tid, &parent, &ptid) != 4 ||
	    child == parent)
		return;
	f.child = child;
	f.parent = parent;
	if (!perf->forks)
		perf->forks = g_array_new(FALSE, FALSE, sizeof(struct fork));
	g_array_append_val(perf->forks, f);
}

/* Keeps the mapping a "PERF_RECORD_MMAP[2] PID/TID: [0xSTART(0xLEN) @
 * PGOFF ...]: PROT PATH" line of perf script --show-mmap-events prints,
 * or the fork a PERF_RECORD_FORK line does; another record, or a line
 * not so, is passed over. */
void cprof_perf_take_record(struct cprof_perf *perf, const char *line, size_t len)
{
	char *text = g_strndup(line, len), *p = strstr(text, "PERF_RECORD_MMAP"), *end;
	struct mmap m = { 0 };

	if (!p && (p = strstr(text, "PERF_RECORD_FORK(")))
		take_fork(perf, p);
	if (!p || !(p = strchr(p, ' ')))
		goto out;
	m.pid = strtoull(p, &end, 10);
	if (end == p || !(p = strstr(end, ": [0x")))
		goto out;
	m.start = strtoull(p + 3, &end, 16);
	if (strncmp(end, "(0x", 3) != 0)
		goto out;
	m.len = strtoull(end + 3, &end, 16);
	if (strncmp(end, ") @ ", 4) != 0)
		goto out;
	m.pgoff = strtoull(end + 4, &end, 0);
	m.anonymous = no_file(end);
	if (!(p = strstr(end, "]: ")) || !(p = strchr(p + 3, ' ')) || p[1] == '\0')
		goto out;
	m.path = g_strdup(p + 1);
	m.anonymous |= cprof_perf_dso_anonymous(m.path, strlen(m.path));
	if (!perf->mmaps)
		perf->mmaps = g_array_new(FALSE, FALSE, sizeof(struct mmap));
	g_array_append_val(perf->mmaps, m);
out:
	g_free(text);
}

/* The next non-blank, non-comment line of data[*pos, len), or false. */
static bool next_line(const unsigned char *data, size_t len, size_t *pos, const char **line,
		      size_t *line_len)
{
	while (*pos < len) {
		const char *s = (const char *)data + *pos;
		const char *nl = memchr(s, '\n', len - *pos);
		size_t n = nl ? (size_t)(nl - s) : len - *pos;

		*pos += n + 1;
		if (n > 0 && s[n - 1] == '\r')
			n--;
		if (!nl && *pos > len && n < 16)
			return false;  /* a short last line cut by the sniff window */
		if (cprof_blank_line(s, n) || s[0] == '#')
			continue;
		if (memchr(s, '\0', n))
			return false;
		*line = s;
		*line_len = n;
		return true;
	}
	return false;
}

bool cprof_perfscript_sniff(const unsigned char *data, size_t len)
{
	const char *line, *second;
	size_t n, second_len, pos = 0;
	struct frame_text t;
	struct header h;
	bool records = false;

	do {   /* --show-mmap-events' records first, perhaps all the window holds */
		if (!next_line(data, len, &pos, &line, &n))
			return records;
	} while (line[0] != '\t' && (records = cprof_perf_parse_header(line, n, &h) == HEADER_RECORD));
	if (line[0] == '\t')
		return cprof_perf_parse_frame(line, n, false, &t);
	if (cprof_perf_parse_header(line, n, &h) == HEADER_SAMPLE) {
		if (h.timed || cprof_perf_parse_frame(h.rest, h.rest_len, false, &t))
			return true;
		/* its frames on the lines after it, indented by a tab, blanks or not at all */
		return next_line(data, len, &pos, &second, &second_len) &&
		       (second[0] == '\t' || cprof_perf_parse_frame(second, second_len, false, &t));
	}
	if (cprof_perf_has_time(line, n))  /* a header without its event, frames after it */
		return next_line(data, len, &pos, &second, &second_len) &&
		       (second[0] == '\t' || cprof_perf_parse_frame(second, second_len, false, &t));
	/* -F ip,sym: every line "IP SYM" */
	return cprof_perf_parse_frame(line, n, false, &t) && line[0] == ' ';
}

bool cprof_perfdata_sniff(const unsigned char *data, size_t len)
{
	return len >= 8 && memcmp(data, "PERFILE2", 8) == 0;
}
