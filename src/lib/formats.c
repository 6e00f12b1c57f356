/* formats.c: the formats cprof does not read, in one table: how each is
 * told from its first bytes, its name, and how to convert it. */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <glib.h>

#include "formats.h"

/* The first bytes of an input. */
struct head {
	const unsigned char *data;
	size_t len;
};

/* How many lines of a text input the line checks look at. */
enum { HEAD_LINES = 16 };

static bool starts(const unsigned char *p, size_t len, const char *s)
{
	size_t n = strlen(s);

	return len >= n && memcmp(p, s, n) == 0;
}

/* The first line that is not blank: its start and length (no '\r'). */
static const unsigned char *first_line(const struct head *h, size_t *len)
{
	const unsigned char *p = h->data, *end = h->data + h->len, *eol;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	eol = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((eol ? eol : end) - p);
	if (*len > 0 && p[*len - 1] == '\r')
		(*len)--;
	return p;
}

static bool magic(const struct head *h, const char *bytes)
{
	return starts(h->data, h->len, bytes);
}

static bool line_starts(const struct head *h, const char *prefix)
{
	size_t len;
	const unsigned char *line = first_line(h, &len);

	return starts(line, len, prefix);
}

/* True when one of the first HEAD_LINES lines starts with `prefix`. */
static bool any_line(const struct head *h, const char *prefix)
{
	const unsigned char *p = h->data, *end = h->data + h->len, *eol;
	int i;

	for (i = 0; i < HEAD_LINES && p < end; i++) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (starts(p, (size_t)((eol ? eol : end) - p), prefix))
			return true;
		p = eol ? eol + 1 : end;
	}
	return false;
}

static bool found(const struct head *h, const char *s)
{
	return g_strstr_len((const char *)h->data, (gssize)h->len, s) != NULL;
}

/* perf.data: "PERFILE2" (or the first version's "PERFFILE"), either byte
 * order. */
static bool perf_data(const struct head *h, const char *unused)
{
	(void)unused;
	return magic(h, "PERFILE2") || magic(h, "2ELIFREP") || magic(h, "PERFFILE") ||
	       magic(h, "ELIFFREP");
}

static bool jfr(const struct head *h, const char *unused)
{
	(void)unused;
	return h->len >= 4 && memcmp(h->data, "FLR", 4) == 0;
}

/* gprof's gmon.out: "gmon", a version word and padding. */
static bool gmon(const struct head *h, const char *unused)
{
	(void)unused;
	return h->len >= 20 && memcmp(h->data, "gmon", 4) == 0 && memchr(h->data + 4, '\0', 4);
}

/* Go's execution trace: "go 1.NN trace" and NULs, 16 bytes. */
static bool go_trace(const struct head *h, const char *unused)
{
	(void)unused;
	return h->len >= 16 && starts(h->data, h->len, "go 1.") &&
	       g_strstr_len((const char *)h->data, 16, " trace") && h->data[15] == '\0';
}

static bool callgrind(const struct head *h, const char *unused)
{
	(void)unused;
	return line_starts(h, "# callgrind format") || any_line(h, "creator: callgrind");
}

static bool massif(const struct head *h, const char *unused)
{
	(void)unused;
	return line_starts(h, "desc:") && any_line(h, "time_unit:");
}

static bool cachegrind(const struct head *h, const char *unused)
{
	(void)unused;
	return (line_starts(h, "desc:") || line_starts(h, "cmd:")) && any_line(h, "events:");
}

/* "NAME profile: total N", Go's count profiles (goroutine, threadcreate)
 * at debug=1. */
static bool go_count(const struct head *h, const char *unused)
{
	size_t len, i = 0;
	const unsigned char *line = first_line(h, &len);
	static const char middle[] = " profile: total ";

	(void)unused;
	while (i < len && line[i] != ' ' && line[i] != '\t')
		i++;
	if (i == 0 || !starts(line + i, len - i, middle))
		return false;
	i += sizeof(middle) - 1;
	if (i == len)
		return false;
	while (i < len && line[i] >= '0' && line[i] <= '9')
		i++;
	return i == len;
}

/* "goroutine 1 [running]:", Go's goroutine dump (debug=2). */
static bool go_dump(const struct head *h, const char *unused)
{
	size_t len, i = 10;
	const unsigned char *line = first_line(h, &len);

	(void)unused;
	if (!starts(line, len, "goroutine ") || i == len || line[i] < '0' || line[i] > '9')
		return false;
	while (i < len && line[i] >= '0' && line[i] <= '9')
		i++;
	return starts(line + i, len - i, " [");
}

static bool contention(const struct head *h, const char *unused)
{
	(void)unused;
	return line_starts(h, "--- contention:") || line_starts(h, "--- mutex:") ||
	       line_starts(h, "--- contentionz ");
}

static bool threadz(const struct head *h, const char *unused)
{
	(void)unused;
	return line_starts(h, "--- threadz ") || line_starts(h, "--- Thread ");
}

static bool perf_report(const struct head *h, const char *unused)
{
	(void)unused;
	return any_line(h, "# To display the perf.data header info") ||
	       (any_line(h, "# Samples: ") && any_line(h, "# Event count"));
}

/* True when the first bytes hold "`key`" as a JSON object's key: the
 * quoted name and a colon after it, which no string value can have. */
static bool found_key(const struct head *h, const char *key)
{
	const char *start = (const char *)h->data, *end = start + h->len, *p = start, *q;
	size_t n = strlen(key);

	while ((p = g_strstr_len(p, (gssize)(end - p), key))) {
		q = p + n;
		p = q;
		if (q - n == start || q[-(ptrdiff_t)n - 1] != '"' || q >= end || *q != '"')
			continue;
		for (q++; q < end && (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n'); q++)
			;
		if (q < end && *q == ':')
			return true;
	}
	return false;
}

/* A JSON document that is no cprof flat: it starts with `open` and never
 * names "cprof" in its first bytes. */
static bool json_other(const struct head *h, char open)
{
	size_t len;
	const unsigned char *line = first_line(h, &len);

	return len > 0 && line[0] == open && !found(h, "\"cprof\"");
}

/* Chrome's trace event format: {"traceEvents": [...]} or an array of
 * events, each with its phase "ph". */
static bool chrome_trace(const struct head *h, const char *unused)
{
	size_t len;
	const unsigned char *line = first_line(h, &len);
	const unsigned char *p = line + 1, *end = h->data + h->len;

	(void)unused;
	if (json_other(h, '{'))
		return found_key(h, "traceEvents");
	if (!json_other(h, '['))
		return false;
	while (p < end && strchr(" \t\r\n", *p) && *p)
		p++;
	return p < end && *p == '{' && found(h, "\"ph\"") && found(h, "\"ts\"");
}

/* The Firefox Profiler's JSON (Gecko's or the processed format): its
 * "meta" says how it walked the stacks. */
static bool firefox(const struct head *h, const char *unused)
{
	(void)unused;
	return json_other(h, '{') && found_key(h, "meta") &&
	       (found_key(h, "stackwalk") || found_key(h, "preprocessedProfileVersion"));
}

/* V8's heap snapshot ({"snapshot": {"meta": ...}, "nodes": [...]}) and
 * its sampling heap profile ({"head": {"callFrame": ...}, "samples"}). */
static bool v8_heap_snapshot(const struct head *h, const char *unused)
{
	(void)unused;
	return json_other(h, '{') && found_key(h, "snapshot") && found_key(h, "node_fields");
}

static bool v8_heap_profile(const struct head *h, const char *unused)
{
	(void)unused;
	return json_other(h, '{') && found_key(h, "head") && found_key(h, "selfSize");
}

/* Text in UTF-16 of byte order `arg` ("LE" or "BE") without a
 * byte-order mark: of its first 2-byte units (8 or more), three in four
 * or more an ASCII character (printable, tab, CR or LF) beside a zero,
 * half or more a letter or a digit (as names are; a protobuf's bytes
 * beside zeros are not). */
static bool utf16(const struct head *h, const char *arg)
{
	size_t units = h->len / 2 < 256 ? h->len / 2 : 256, ascii = 0, alnum = 0, i;
	size_t low = strcmp(arg, "LE") == 0 ? 0 : 1;

	for (i = 0; i < units; i++) {
		unsigned char c = h->data[2 * i + low], other = h->data[2 * i + 1 - low];

		if (other != 0)
			continue;
		ascii += (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\r' || c == '\n';
		alnum += g_ascii_isalnum(c);
	}
	return units >= 8 && ascii * 4 >= units * 3 && alnum * 2 >= units;
}

static bool match_magic(const struct head *h, const char *bytes)
{
	return magic(h, bytes);
}

static bool match_line(const struct head *h, const char *prefix)
{
	return line_starts(h, prefix);
}

static const struct entry {
	bool (*match)(const struct head *h, const char *arg);
	const char *arg;
	struct cprof_foreign format;
} table[] = {
	/* The perf branch reads perf.data through perf when perf is on the
	 * PATH: this entry is what is left without it. */
	{ perf_data, NULL,
	  { "perf.data (Linux perf)",
	    "convert it where perf is installed (linux-perf): "
	    "perf script -i FILE report stackcollapse > FILE.folded" } },
	{ perf_report, NULL,
	  { "the text of perf report (not its samples)",
	    "convert the perf.data it came from: "
	    "perf script -i perf.data report stackcollapse > perf.folded" } },
	{ jfr, NULL,
	  { "a Java Flight Recording (JFR)",
	    "convert it with async-profiler's jfrconv: jfrconv FILE FILE.pb.gz" } },
	{ callgrind, NULL,
	  { "callgrind output (counts of events, not samples)",
	    "no converter makes samples of it; callgrind_annotate FILE prints it" } },
	{ massif, NULL,
	  { "valgrind massif output (heap snapshots, not samples)",
	    "no converter makes samples of it; ms_print FILE prints it" } },
	{ cachegrind, NULL,
	  { "cachegrind output (counts of events, not samples)",
	    "no converter makes samples of it; cg_annotate FILE prints it" } },
	{ gmon, NULL,
	  { "gprof's gmon.out",
	    "no converter to a format cprof reads; gprof PROGRAM FILE prints it" } },
	{ go_trace, NULL,
	  { "a Go execution trace (runtime/trace)",
	    "convert it: go tool trace -pprof=sched FILE > FILE.pb (or net, sync, "
	    "syscall)" } },
	{ go_count, NULL,
	  { "a Go count profile as text (goroutine or threadcreate, debug=1)",
	    "convert it: go tool pprof -proto PROGRAM FILE > FILE.pb.gz, or write it "
	    "with debug=0" } },
	{ go_dump, NULL,
	  { "a Go goroutine dump (debug=2, not a profile)",
	    "write the goroutine profile with debug=0 instead" } },
	{ contention, NULL,
	  { "a legacy contention profile (as Go's block and mutex profiles at debug=1)",
	    "convert it: go tool pprof -proto PROGRAM FILE > FILE.pb.gz, or write it "
	    "with debug=0" } },
	{ threadz, NULL,
	  { "a legacy thread profile",
	    "convert it: go tool pprof -proto FILE > FILE.pb.gz" } },
	{ match_line, "--- heapz 1 ---",
	  { "a legacy Java heap profile",
	    "convert it: go tool pprof -proto FILE > FILE.pb.gz" } },
	{ match_line, "v8-version,",
	  { "a V8 tick log (node --prof)",
	    "node --prof-process FILE prints it; node --cpu-prof writes a .cpuprofile, which "
	    "cprof reads" } },
	{ match_magic, "Nettrace",
	  { "a .NET trace (nettrace)",
	    "convert it to speedscope's format, which cprof reads: dotnet-trace convert "
	    "--format Speedscope FILE" } },
	{ chrome_trace, NULL,
	  { "Chrome's trace event format (events, not samples)",
	    "record a CPU profile instead: node --cpu-prof writes a .cpuprofile, which cprof "
	    "reads" } },
	{ v8_heap_snapshot, NULL,
	  { "a V8 heap snapshot (objects, not samples)",
	    "no converter makes samples of it; Chrome's DevTools (Memory) load it" } },
	{ v8_heap_profile, NULL,
	  { "a V8 sampling heap profile (node --heap-prof)",
	    "no converter to a format cprof reads; Chrome's DevTools (Memory) load it" } },
	{ firefox, NULL,
	  { "a Firefox Profiler profile",
	    "no converter to a format cprof reads" } },
	/* With a byte-order mark, UTF-16 is read as its UTF-8 (profile.c). */
	{ utf16, "LE",
	  { "UTF-16 (little-endian) text without a byte-order mark",
	    "convert it to UTF-8: iconv -f UTF-16LE -t UTF-8 FILE > FILE.utf8 (or save it "
	    "with a byte-order mark)" } },
	{ utf16, "BE",
	  { "UTF-16 (big-endian) text without a byte-order mark",
	    "convert it to UTF-8: iconv -f UTF-16BE -t UTF-8 FILE > FILE.utf8 (or save it "
	    "with a byte-order mark)" } },
};

const struct cprof_foreign *cprof_format_foreign(const unsigned char *data, size_t len)
{
	struct head h = { data, len };
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(table); i++)
		if (table[i].match(&h, table[i].arg))
			return &table[i].format;
	return NULL;
}

int cprof_format_refuse(const struct cprof_foreign *format, const char *source,
			struct cprof_error *err)
{
	char **parts;
	char *hint;
	int status;

	err->text[0] = '\0';
	err->line = 0;
	if (strcmp(source, "-") == 0)
		return cprof_error_set(err, "%s, which cprof does not read: %s", format->name,
				       format->hint);
	parts = g_strsplit(format->hint, "FILE", -1);
	hint = g_strjoinv(source, parts);
	status = cprof_error_set(err, "%s, which cprof does not read: %s", format->name, hint);
	g_free(hint);
	g_strfreev(parts);
	return status;
}
