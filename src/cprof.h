/* cprof.h: the types and functions the cprof programs share.
 *
 * Data flows input -> profile -> dist -> metric -> JSON:
 *   input.c      buffered reading of a file operand or standard input
 *   profile.c    format detection; gperf.c, folded.c, flatjson.c the readers
 *   maps.c       the mapped-objects text of a gperftools profile
 *   keys.c       turning the PCs or frames of a profile into keys
 *   symbolize.c  PCs to function and line names
 *   dist.c       the flat distribution: keys, counts, merge, sort
 *   stats.c      entropy and distances
 *   json.c       the JSON shapes of the contract
 */
#ifndef CPROF_H
#define CPROF_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <glib.h>
#include <jansson.h>

/* Exit statuses, after diff(1): done, a negative verdict, trouble. */
enum { EXIT_OK = 0, EXIT_VERDICT = 1, EXIT_TROUBLE = 2 };

#define CPROF_SCHEMA_VERSION 1

/* What the readers link beyond GLib and jansson, for cprof_set_libraries. */
#define CPROF_READ_LIBRARIES "elfutils xxHash"

/* util.c */

/* An error found while reading or computing: the first one wins.  `text`
 * says what is wrong and where ("truncated record at byte 4096"); the
 * program prefixes its own name and the input's. */
struct cprof_error {
	char text[512];
	unsigned long long line;       /* 1-based line of a text input, or 0 */
};

extern const char *cprof_progname;

/* Sets the name messages are prefixed with, from argv[0], and ignores
 * SIGPIPE so that a closed standard output ends the program with status 2
 * rather than a signal.  Every main() calls it first. */
void cprof_set_progname(const char *argv0);

/* Records a formatted message in `err` unless it already holds one; always
 * returns -1 so that readers can `return cprof_error_set(...)`. */
int cprof_error_set(struct cprof_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Prints "PROG: MESSAGE" on standard error. */
void cprof_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "PROG: MESSAGE" on standard error and exits with EXIT_TROUBLE. */
void cprof_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Prints "PROG: SOURCE: TEXT" (or "PROG: SOURCE:LINE: TEXT") for a reader's
 * error and exits with EXIT_TROUBLE. */
void cprof_die_input(const char *source, const struct cprof_error *err)
	__attribute__((noreturn));

/* Names the input being read in a message about running out of memory
 * (NULL: none); not copied. */
void cprof_set_context(const char *input);

/* Prints "PROG: INPUT: out of memory" with nothing but the stack and ends
 * the program with EXIT_TROUBLE, leaving standard output unflushed.  Every
 * allocation failure ends here: cprof's own, jansson's, GLib's, libdw's. */
void cprof_die_oom(void) __attribute__((noreturn));

/* Allocation that dies on exhaustion (cprof_die_oom); the caller frees with
 * free(). */
void *cprof_xmalloc(size_t size);
void *cprof_xcalloc(size_t count, size_t size);
void *cprof_xrealloc(void *ptr, size_t size);
char *cprof_xstrdup(const char *s);

/* getopt_long entries of the output options every program takes:
 * -c/--compact, -t/--text, -V/--version. */
#define CPROF_OUTPUT_LONG_OPTIONS                                \
	{ "compact", no_argument, NULL, 'c' },                   \
	{ "text", no_argument, NULL, 't' },                      \
	{ "version", no_argument, NULL, 'V' }

/* Takes one of the output options: sets *compact or *text, or prints the
 * version and exits; false when `opt` is none of them. */
bool cprof_output_option(int opt, bool *compact, bool *text);

/* Parses a whole decimal unsigned number; false on junk or overflow. */
bool cprof_parse_u64(const char *s, uint64_t *out);

/* Parses a whole finite floating-point number; false otherwise. */
bool cprof_parse_double(const char *s, double *out);

/* Dies with one line for the option getopt_long refused (called with
 * opterr = 0 and an optstring starting with ':'): `opt` is what getopt_long
 * returned, ':' for a missing argument, else '?'; `longopts` its table. */
void cprof_bad_option(int opt, char *const *argv, const struct option *longopts)
	__attribute__((noreturn));

/* Parses the argument of a numeric option or dies naming the option. */
uint64_t cprof_option_u64(const char *option, const char *arg);
double cprof_option_double(const char *option, const char *arg);

/* Flushes standard output and returns `status`, or EXIT_TROUBLE with a
 * message when writing failed (a closed pipe is not worth a message). */
int cprof_finish_output(int status);

/* Names the libraries, beyond GLib and jansson, that --version lists for
 * this program ("elfutils xxHash GSL"); not copied. */
void cprof_set_libraries(const char *names);

/* Prints "PROG (cprof) VERSION", then "LIBRARY VERSION" for each library
 * the program is built with, and exits 0. */
void cprof_print_version(void) __attribute__((noreturn));

/* Returns a newly allocated copy of `s` (of `len` bytes) that is valid
 * UTF-8, each invalid byte replaced by U+FFFD; *replaced is set when any
 * was. */
char *cprof_utf8_sanitize(const char *s, size_t len, bool *replaced);

/* input.c */

/* A file operand ("-" is standard input) read through a buffer, so that a
 * profile of any size is read in bounded memory. */
struct cprof_input {
	const char *name;      /* as given; not owned */
	int fd;
	bool regular;          /* a regular file: `size` is known */
	uint64_t size;
	unsigned char *buf;
	size_t cap;
	size_t start;          /* buffered bytes are buf[start, end) */
	size_t end;
	uint64_t offset;       /* file offset of buf[start] */
	bool eof;
	struct cprof_read_ahead *ahead; /* the thread reading ahead, or NULL */
};

/* Opens `name` ("-" for standard input) for reading; -1 with `err` set
 * when it cannot be. */
int cprof_input_open(struct cprof_input *in, const char *name, struct cprof_error *err);

/* Closes the file and frees the buffer; accepts a closed input. */
void cprof_input_close(struct cprof_input *in);

/* Buffers at least `want` bytes past the current position when the file
 * has them.  Returns the number of bytes buffered (less than `want` only
 * at end of file), or -1 with `err` set on a read error. */
long long cprof_input_fill(struct cprof_input *in, size_t want, struct cprof_error *err);

/* Consumes `n` buffered bytes. */
static inline void cprof_input_skip(struct cprof_input *in, size_t n)
{
	in->start += n;
	in->offset += n;
}

static inline const unsigned char *cprof_input_data(const struct cprof_input *in)
{
	return in->buf + in->start;
}

static inline size_t cprof_input_avail(const struct cprof_input *in)
{
	return in->end - in->start;
}

/* Reads the next line (without its newline, and without a final '\r').
 * Returns its length, or -1 at end of file or on error (then `err` is set
 * and *line is NULL); *line points into the buffer until the next call.
 * A line holding a NUL byte is returned with *has_nul set. */
long long cprof_input_line(struct cprof_input *in, const char **line, bool *has_nul,
			   struct cprof_error *err);

/* maps.c */

/* One executable mapping from the mapped-objects text. */
struct cprof_mapping {
	uint64_t start;        /* first address */
	uint64_t end;          /* one past the last */
	uint64_t offset;       /* file offset of `start` */
	char *path;            /* owned, valid UTF-8; "" for an anonymous mapping */
	const char *basename;  /* points into path; a bracketed path whole */
	char *file;            /* the path's bytes as the profile has them, to
				* open the file by: == path when it is valid
				* UTF-8, else owned */
};

struct cprof_maps {
	struct cprof_mapping *mappings; /* sorted by start */
	size_t count;
	size_t cap;
	char *build;           /* the last build= path, owned */
	char *main_path;       /* the main executable's file, or NULL; owned */
	bool replaced_utf8;    /* a path was not valid UTF-8 (see mappings) */
};

/* Parses one line of the mapped-objects text into `maps`; lines it does not
 * recognize are ignored. */
void cprof_maps_add_line(struct cprof_maps *maps, const char *line, size_t len);

/* Sorts the mappings once all lines are in, and picks the main executable
 * as pprof does: the first mapping with a path that is neither a shared
 * object (*.so*) nor bracketed ([vdso]). */
void cprof_maps_finish(struct cprof_maps *maps);

/* Returns the mapping holding `addr`, or NULL. */
const struct cprof_mapping *cprof_maps_find(const struct cprof_maps *maps, uint64_t addr);

/* Frees what `maps` holds; the struct itself is the caller's. */
void cprof_maps_clear(struct cprof_maps *maps);

/* profile.c and the readers */

enum cprof_format {
	CPROF_FORMAT_GPERF,    /* gperftools binary CPU profile */
	CPROF_FORMAT_FOLDED,   /* folded stacks */
	CPROF_FORMAT_FLAT,     /* cprof flat JSON */
};

/* A distinct call chain of a binary profile and its summed count. */
struct cprof_stack {
	uint64_t count;
	const uint64_t *pcs;   /* leaf first, as in the file: points to storage */
	uint64_t hash;
	uint32_t depth;
	uint64_t storage[];
};

/* A distinct folded stack ("root;...;leaf") and its summed count. */
struct cprof_folded_stack {
	uint64_t count;
	char frames[];
};

struct cprof_dist;

/* One input read whole: binary and folded profiles keep their distinct
 * stacks (memory grows with those, never with the file's size); a flat
 * JSON input is a distribution already. */
struct cprof_profile {
	const char *source;    /* the operand; not owned */
	enum cprof_format format;
	bool has_period;
	uint64_t period_us;
	uint64_t total;        /* samples */
	GPtrArray *stacks;     /* binary: struct cprof_stack *, distinct, owned */
	GHashTable *folded;    /* folded: set of struct cprof_folded_stack */
	struct cprof_maps maps;
	struct cprof_dist *flat;       /* flat JSON */
	bool replaced_utf8;    /* names were not valid UTF-8 */
};

/* Reads the input `name` ("-" is standard input), detecting its format by
 * content.  Returns a profile the caller frees with cprof_profile_free, or
 * NULL with `err` set. */
struct cprof_profile *cprof_profile_read(const char *name, struct cprof_error *err);

/* Frees a profile; accepts NULL. */
void cprof_profile_free(struct cprof_profile *profile);

/* The readers behind cprof_profile_read; each takes an input positioned at
 * its first byte and fills `profile`. */
int cprof_gperf_read(struct cprof_input *in, struct cprof_profile *profile,
		     struct cprof_error *err);
int cprof_folded_read(struct cprof_input *in, struct cprof_profile *profile,
		      struct cprof_error *err);
int cprof_flatjson_read(struct cprof_input *in, struct cprof_profile *profile,
			struct cprof_error *err);

/* True when the bytes at the start of an input may begin a gperftools
 * profile (they are the reader's to judge then); `len` bytes are given. */
bool cprof_gperf_sniff(const unsigned char *data, size_t len);

/* True when `line` is a folded-stack line: frames, a space, a count. */
bool cprof_folded_line_ok(const char *line, size_t len);

/* dist.c */

enum cprof_by {
	CPROF_BY_FUNCTION,
	CPROF_BY_DSO,
	CPROF_BY_LINE,
	CPROF_BY_ADDRESS,
	CPROF_BY_STACK,
};

/* The name of a --by value, and back; -1 for an unknown name. */
const char *cprof_by_name(enum cprof_by by);
int cprof_by_parse(const char *name);

struct cprof_entry {
	char *key;             /* owned, valid UTF-8 */
	uint64_t count;
};

/* A flat distribution: counts per key, the total of samples (which may
 * exceed the sum of the counts when a truncated flat was read), and where
 * it came from. */
struct cprof_dist {
	enum cprof_by by;
	bool cum;
	uint64_t total;
	bool has_period;       /* every input agreed on period_us */
	uint64_t period_us;
	size_t num_inputs;     /* inputs merged in */
	GPtrArray *sources;    /* char *, owned */
	GPtrArray *entries;    /* struct cprof_entry *, owned */
	GHashTable *index;     /* key -> struct cprof_entry * */
	bool sorted;
};

/* Returns an empty distribution; free it with cprof_dist_free. */
struct cprof_dist *cprof_dist_new(enum cprof_by by, bool cum);

/* Frees a distribution; accepts NULL. */
void cprof_dist_free(struct cprof_dist *dist);

/* Adds `count` samples to `key` (copied when new; must be valid UTF-8). */
struct cprof_entry *cprof_dist_add(struct cprof_dist *dist, const char *key, uint64_t count);

/* Returns the entry of `key`, or NULL. */
struct cprof_entry *cprof_dist_find(const struct cprof_dist *dist, const char *key);

/* Records one more input's name (kept valid UTF-8, bad bytes replaced by
 * U+FFFD) and sampling period (has_period false when the input has none). */
void cprof_dist_note_input(struct cprof_dist *dist, const char *source, bool has_period,
			   uint64_t period_us);

/* Adds every count and the total of `from` into `into`. */
void cprof_dist_merge(struct cprof_dist *into, const struct cprof_dist *from);

/* Sorts the entries by count descending, then key ascending (bytewise). */
void cprof_dist_sort(struct cprof_dist *dist);

/* The samples of a distribution outside its entries (a flat truncated with
 * --top); 0 for a cumulative one. */
uint64_t cprof_dist_other(const struct cprof_dist *dist);

/* Orders entries as cprof_dist_sort does, for qsort over entry pointers. */
int cprof_entry_cmp(const void *a, const void *b);

/* keys.c */

struct cprof_symbolizer;

/* How samples become keys: the options every reading program shares. */
struct cprof_key_options {
	enum cprof_by by;
	bool cum;
	bool by_given;         /* --by or --cum was asked for explicitly */
	bool symbolize;        /* false: every PC as if no symbol were found */
	bool inline_frames;    /* expand inlined functions (DWARF) */
	struct cprof_symbolizer *symbolizer; /* NULL when not symbolizing */
};

/* Adds the samples of `profile` into `dist`, keyed as `options` say (a
 * flat JSON input keeps its own keys: when it is the first input and no
 * --by was given, `dist` takes its by and cum).  Returns 0, or -1 with
 * `err` set (a --by the format cannot give). */
int cprof_profile_to_dist(struct cprof_profile *profile, const struct cprof_key_options *options,
			  struct cprof_dist *dist, struct cprof_error *err);

/* symbolize.c */

/* One frame a PC resolves to; inlined frames come innermost first. */
struct cprof_symbol {
	const char *function;  /* NULL when unknown */
	const char *file;      /* NULL when unknown */
	int line;              /* 0 when unknown */
};

struct cprof_symbol_options {
	const char *const *symbol_dirs;  /* --symbols, then CPROF_SYMBOL_PATH */
	size_t num_symbol_dirs;
	const char *binary;              /* --binary, or NULL */
	bool inline_frames;
	bool lines;
	bool cache;                      /* use the symbol cache (cache.h) */
};

/* Returns a symbolizer that keeps each ELF file it opens for the life of
 * the run; free it with cprof_symbolizer_free. */
struct cprof_symbolizer *cprof_symbolizer_new(const struct cprof_symbol_options *options);

/* Frees a symbolizer; accepts NULL. */
void cprof_symbolizer_free(struct cprof_symbolizer *symbolizer);

/* Resolves the address `addr` inside `mapping`, whose file is looked up
 * by its raw bytes (main says whether it is the main executable).  Returns the number of frames, innermost
 * first, stored in *frames (owned by the symbolizer, valid for its life),
 * or 0 when nothing is known. */
size_t cprof_symbolize(struct cprof_symbolizer *symbolizer, const struct cprof_mapping *mapping,
		       bool main, uint64_t addr, const struct cprof_symbol **frames);

/* json.c */

/* The JSON object of a flat distribution, sorted, with at most `top`
 * entries (0: all). */
json_t *cprof_json_flat(struct cprof_dist *dist, size_t top);

/* Reads what cprof_json_flat wrote back into a new distribution; NULL
 * with `err` set (naming the JSON path of the fault) when `root` is not
 * one. */
struct cprof_dist *cprof_json_to_dist(json_t *root, struct cprof_error *err);

/* Prints `root` on standard output, pretty or on one line, and frees it. */
void cprof_json_print(json_t *root, bool compact);

/* A JSON string from a C string that is valid UTF-8; dies on exhaustion. */
json_t *cprof_json_string(const char *s);

/* text.c */

/* Prints the aligned table of a flat distribution (at most `top` entries,
 * 0: all) on standard output. */
void cprof_text_flat(struct cprof_dist *dist, size_t top);

/* Prints "KEY COUNT" lines in flat order (at most `top`, 0: all). */
void cprof_folded_flat(struct cprof_dist *dist, size_t top);

#endif
