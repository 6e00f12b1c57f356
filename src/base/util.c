/* util.c: messages, errors, checked allocation, option parsing, --version,
 * UTF-8 repair and the escape of names in text outputs. */
#include "config.h"

#include <errno.h>
#include <error.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <jansson.h>

#include "util.h"

static void print_version(void) __attribute__((noreturn));

const char *cprof_progname = "cprof";

/* The input being read, for a message about running out of memory. */
static const char *context;

void cprof_set_context(const char *input)
{
	context = input;
}

/* Writes to standard error with nothing but the stack: the heap may be
 * gone. */
static void write_stderr(const char *s)
{
	ssize_t ignored = write(STDERR_FILENO, s, strlen(s));

	(void)ignored;
}

/* Writes `s` with every byte under 0x20, DEL and byte past 0x7f as \xNN,
 * with nothing but the stack. */
static void write_stderr_escaped(const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	char buf[256];
	size_t n = 0;

	for (; *p; p++) {
		if (n + 4 > sizeof(buf)) {
			buf[n] = '\0';
			write_stderr(buf);
			n = 0;
		}
		if (*p >= 0x20 && *p < 0x7f) {
			buf[n++] = (char)*p;
			continue;
		}
		buf[n++] = '\\';
		buf[n++] = 'x';
		buf[n++] = hex[*p >> 4];
		buf[n++] = hex[*p & 15];
	}
	buf[n] = '\0';
	write_stderr(buf);
}

void cprof_die_oom(void)
{
	write_stderr(cprof_progname);
	write_stderr(": ");
	if (context) {
		write_stderr_escaped(context);
		write_stderr(": ");
	}
	write_stderr("out of memory\n");
	/* _exit, not exit: nothing buffered for standard output may go out. */
	_exit(EXIT_TROUBLE);
}

/* GLib ends the program on a failed g_malloc with g_error, a fatal log
 * message of its own domain (g_mem_set_vtable is gone since 2.46), so its
 * handler is where running out of memory inside GLib is caught. */
static void glib_fatal(const gchar *domain, GLogLevelFlags level, const gchar *message,
		       gpointer data)
{
	(void)domain, (void)level, (void)data;
	if (message && strstr(message, "failed to allocate"))
		cprof_die_oom();
	write_stderr(cprof_progname);
	write_stderr(": internal error in GLib: ");
	write_stderr(message ? message : "?");
	write_stderr("\n");
	_exit(EXIT_TROUBLE);
}

/* elfutils' libdw ends the program with error(EXIT_FAILURE, ENOMEM,
 * "libdw") when it cannot allocate, an exit status of 1 that would read as
 * a verdict; error() calls this hook first, and it is the only error() call
 * in the libraries cprof links. */
static void libdw_fatal(void)
{
	cprof_die_oom();
}

/* For jansson: allocation that never returns NULL, so that no failure of
 * jansson's can be an allocation failure in disguise. */
static void *json_malloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		cprof_die_oom();
	return p;
}

/* Touches the next STACK_RESERVE bytes of the stack once, so that they
 * are mapped before anything else takes the address space: under
 * `ulimit -v` a stack that must grow when the heap has used every byte
 * is a SIGSEGV, where an allocation failure is a message and status 2. */
enum { STACK_RESERVE = 512 << 10 };

static __attribute__((noinline)) void reserve_stack(void)
{
	volatile char pages[STACK_RESERVE];
	size_t i;

	for (i = 0; i < sizeof(pages); i += 4096)
		pages[i] = 0;
}

void cprof_set_progname(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	/* A closed pipe then shows as EPIPE at cprof_finish_output: status 2,
	 * no message, instead of a death by signal. */
	signal(SIGPIPE, SIG_IGN);
	reserve_stack();
	g_log_set_handler("GLib", G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION,
			  glib_fatal, NULL);
	error_print_progname = libdw_fatal;
	json_set_alloc_funcs(json_malloc, free);
	if (argv0 && *argv0)
		cprof_progname = slash ? slash + 1 : argv0;
}

int cprof_error_set(struct cprof_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err && err->text[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(err->text, sizeof(err->text), fmt, ap);
		va_end(ap);
	}
	return -1;
}

int cprof_error_at(struct cprof_error *err, const char *where, const char *what)
{
	return cprof_error_set(err, "%s: %s", where, what);
}

static void vwarn(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Every message is one line of text: what it names (a file, a key) is
 * escaped as cprof_put_escaped does. */
static void vwarn(const char *fmt, va_list ap)
{
	char *message = g_strdup_vprintf(fmt, ap);

	fflush(stdout);
	fprintf(stderr, "%s: ", cprof_progname);
	cprof_put_escaped(stderr, message, strlen(message));
	fputc('\n', stderr);
	g_free(message);
}

void cprof_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void cprof_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(EXIT_TROUBLE);
}

void cprof_die_input(const char *source, const struct cprof_error *err)
{
	const char *text = err->text[0] ? err->text : "unknown error";

	if (err->line)
		cprof_die("%s:%llu: %s", source, err->line, text);
	cprof_die("%s: %s", source, text);
}

void *cprof_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		cprof_die_oom();
	return p;
}

void *cprof_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);

	if (!p)
		cprof_die_oom();
	return p;
}

void *cprof_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		cprof_die_oom();
	return p;
}

char *cprof_xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		cprof_die_oom();
	return p;
}

bool cprof_parse_u64(const char *s, uint64_t *out)
{
	unsigned long long value;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	value = strtoull(s, &end, 10);
	if (errno || *end != '\0')
		return false;
	*out = value;
	return true;
}

static bool parse_double(const char *s, double *out)
{
	double value;
	char *end;

	if (!s || *s == '\0')
		return false;
	errno = 0;
	value = strtod(s, &end);
	if (errno || *end != '\0' || !isfinite(value))
		return false;
	*out = value;
	return true;
}

bool cprof_output_option(int opt, bool *compact, bool *text)
{
	switch (opt) {
	case 'c':
		*compact = true;
		return true;
	case 't':
		*text = true;
		return true;
	case 'V':
		print_version();
	default:
		return false;
	}
}

/* Whether the long option word (e.g. "--compact=x") names one of
 * `longopts` that takes no argument and stands for `val`: the only way
 * getopt_long can refuse a long option with a nonzero optopt. */
static bool long_given_argument(const char *word, const struct option *longopts, int val)
{
	size_t len = strcspn(word + 2, "=");

	if (strncmp(word, "--", 2) != 0 || word[2 + len] != '=')
		return false;
	for (; longopts && longopts->name; longopts++)
		if (longopts->val == val && longopts->has_arg == no_argument &&
		    strncmp(longopts->name, word + 2, len) == 0)
			return true;
	return false;
}

void cprof_bad_option(int opt, char *const *argv, const struct option *longopts)
{
	/* The word getopt_long finished with; not the refused one when an
	 * unknown short option is inside a cluster ("-xc"), so it is looked
	 * at only where it must be the refused one. */
	const char *word = argv[optind - 1];
	int len = (int)strcspn(word, "=");

	if (opt == ':' && strncmp(word, "--", 2) == 0)
		cprof_die("option '%.*s' needs an argument (see --help)", len, word);
	if (opt == ':')
		cprof_die("option '-%c' needs an argument (see --help)", optopt);
	if (optopt == 0)
		cprof_die("unknown or ambiguous option '%.*s' (see --help)", len, word);
	if (long_given_argument(word, longopts, optopt))
		cprof_die("option '%.*s' takes no argument (see --help)", len, word);
	cprof_die("unknown option '-%c' (see --help)", optopt);
}

uint64_t cprof_option_u64(const char *option, const char *arg)
{
	uint64_t value;

	if (!cprof_parse_u64(arg, &value))
		cprof_die("%s: not a whole number: '%s'", option, arg);
	return value;
}

double cprof_option_double(const char *option, const char *arg)
{
	double value;

	if (!parse_double(arg, &value))
		cprof_die("%s: not a number: '%s'", option, arg);
	return value;
}

int cprof_finish_output(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE)
			cprof_warn("write error on standard output: %s", strerror(errno));
		return EXIT_TROUBLE;
	}
	return status;
}

/* The libraries a program can be built with, and their versions as
 * configure found them. */
static const struct {
	const char *name;
	const char *version;
} libraries[] = {
	{ "GLib", CPROF_GLIB_VERSION },
	{ "jansson", CPROF_JANSSON_VERSION },
	{ "elfutils", CPROF_LIBDW_VERSION },
	{ "xxHash", CPROF_XXHASH_VERSION },
	{ "protobuf-c", CPROF_PROTOBUFC_VERSION },
	{ "zlib", CPROF_ZLIB_VERSION },
	{ "GSL", CPROF_GSL_VERSION },
	{ "CLP", CPROF_CLP_VERSION },
	{ "SQLite", CPROF_SQLITE_VERSION },
	{ "libcurl", CPROF_CURL_VERSION },
};

/* The libraries this program names in --version beyond GLib and jansson. */
static const char *program_libraries = "";

void cprof_set_libraries(const char *names)
{
	program_libraries = names;
}

static void print_library(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(libraries) / sizeof(libraries[0]); i++)
		if (strlen(libraries[i].name) == len && strncmp(libraries[i].name, name, len) == 0) {
			printf("%s %s\n", libraries[i].name, libraries[i].version);
			return;
		}
	printf("%.*s (version unknown)\n", (int)len, name);
}

static void print_version(void)
{
	const char *name = program_libraries;
	size_t len;

	printf("%s (%s) %s\n", cprof_progname, PACKAGE_NAME, PACKAGE_VERSION);
	print_library("GLib", 4);
	print_library("jansson", 7);
	while (*name) {
		len = strcspn(name, " ");
		if (len > 0)
			print_library(name, len);
		name += len + (name[len] == ' ');
	}
	exit(cprof_finish_output(EXIT_OK));
}

/* Length of the valid UTF-8 sequence at s (at most len bytes), or 0
 * (GLib's decoder: overlong forms, surrogates and what lies past
 * U+10FFFF are not valid). */
static size_t utf8_sequence(const unsigned char *s, size_t len)
{
	gunichar c = g_utf8_get_char_validated((const char *)s, (gssize)len);

	if (c == (gunichar)-1 || c == (gunichar)-2)
		return 0;
	return (size_t)g_utf8_skip[s[0]];
}

char *cprof_utf8_sanitize(const char *s, size_t len, bool *replaced)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out, *o;
	size_t i = 0, n;

	/* Each bad byte becomes three, so 3 * len + 1 always suffices. */
	out = cprof_xmalloc(3 * len + 1);
	o = out;
	while (i < len) {
		n = p[i] ? utf8_sequence(p + i, len - i) : 0;
		if (n == 0) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
			if (replaced)
				*replaced = true;
			continue;
		}
		memcpy(o, p + i, n);
		o += n;
		i += n;
	}
	*o = '\0';
	return out;
}

/* True when the backslash at s[i] starts \xNN. */
static bool escape_at(const char *s, size_t len, size_t i)
{
	return len - i >= 4 && s[i] == '\\' && s[i + 1] == 'x' && g_ascii_isxdigit(s[i + 2]) &&
	       g_ascii_isxdigit(s[i + 3]);
}

static void put_hex(FILE *out, unsigned char c)
{
	fprintf(out, "\\x%02x", c);
}

void cprof_put_escaped(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		if (p[i] < 0x20 || p[i] == 0x7f || escape_at(s, len, i)) {
			put_hex(out, p[i++]);
			continue;
		}
		if (p[i] < 0x80) {
			fputc(p[i++], out);
			continue;
		}
		n = utf8_sequence(p + i, len - i);
		if (n == 0 || (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0)) {
			/* not UTF-8, or a C1 control: each byte */
			for (n = n ? n : 1; n > 0; n--)
				put_hex(out, p[i++]);
			continue;
		}
		fwrite(p + i, 1, n, out);
		i += n;
	}
}

void cprof_put_text(FILE *out, const char *s)
{
	cprof_put_escaped(out, s, strlen(s));
}

char *cprof_escape(const char *s)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!out)
		cprof_die_oom();
	cprof_put_escaped(out, s, strlen(s));
	if (fclose(out) != 0)
		cprof_die_oom();
	return text;
}

size_t cprof_unescape(char *s, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		if (escape_at(s, len, i)) {
			s[o++] = (char)(g_ascii_xdigit_value(s[i + 2]) << 4 |
					g_ascii_xdigit_value(s[i + 3]));
			i += 3;
			continue;
		}
		s[o++] = s[i];
	}
	return o;
}

bool cprof_blank_line(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return false;
	return true;
}
