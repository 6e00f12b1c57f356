/* perf-int.h: what the files of the perf reader share: the frames,
 * stacks and reader of perfscript.c (the line parser), the recognizers of
 * perf-lines.c, the sample types of perf-types.c, the block threads of
 * perf-blocks.c, the keys of perf-keys.c (perf-data.c reads perf.data).
 * Only perfscript.c and perf-*.c include it. */
#ifndef CPROF_PERF_INT_H
#define CPROF_PERF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "base/arena.h"
#include "base/input.h"
#include "base/ptrs.h"
#include "base/util.h"
#include "profile-core.h"

/* One distinct frame: its symbol (offset removed), DSO and source line;
 * what a lookup compares in its first cache line. */
struct frame {
	uint64_t hash;
	uint32_t key_len;
	uint32_t sym_len, dso_len;
	uint32_t id;
	const char *srcline;   /* into key, or NULL */
	char key[];            /* sym NUL dso NUL [srcline NUL]; dso "" when the text has none */
};

static inline const char *frame_sym(const struct frame *f)
{
	return f->key;
}

static inline const char *frame_dso(const struct frame *f)
{
	return f->key + f->sym_len + 1;
}

/* A slot of the frames' table: a frame and its hash, or NULL. */
struct frame_slot {
	uint64_t hash;
	struct frame *frame;
};

/* A slot of the stacks' table: a stack and its hash (a probe that
 * misses reads no stack), or NULL. */
struct stack_slot {
	uint64_t hash;
	struct stack *stack;
};

/* One distinct call chain (frame ids, leaf first) and its sums. */
struct stack {
	uint64_t hash;
	uint64_t samples;
	uint64_t period;
	uint32_t id;           /* its place in perf->stacks */
	uint32_t depth;
	uint32_t event;        /* its samples' event: the reader's events[event] */
	uint32_t frames[];
};

struct cprof_perf {
	struct cprof_arena arena;          /* the frames */
	struct cprof_arena stack_arena;    /* the stacks: a block's, emptied with them */
	struct frame **frames;         /* by id */
	size_t num_frames, frames_cap;
	struct frame_slot *frame_slots;
	size_t frame_mask;
	struct stack_slot *stack_slots;
	size_t stack_mask;
	struct cprof_ptrs stacks;      /* struct stack *, in stack_arena */
	bool has_dso;          /* some frame named its DSO */
	bool has_srcline;      /* the text carried source lines */
	GArray *mmaps;         /* struct mmap: perf script --show-mmap-events' */
	GArray *forks;         /* struct fork: perf script --show-task-events' */
	char **aliases;        /* by frame id: an unnamed PC's key, "DSO+0xOFF", or NULL */
	bool addresses;        /* read for --by=address: every frame with an IP has an alias */
};

/* A mapping of a file into a process, as PERF_RECORD_MMAP[2] prints it. */
struct mmap {
	uint64_t pid, start, len, pgoff;
	char *path;            /* g_free it */
	bool anonymous;        /* no file behind it: device and inode 0, or an anonymous name */
};

/* A process forked from another, as PERF_RECORD_FORK prints it (a new
 * thread of one process is none). */
struct fork {
	uint64_t child, parent;
};

/* What one frame's text holds, pointing into the line. */
struct frame_text {
	const char *sym, *dso;
	size_t sym_len, dso_len;
	bool padded;           /* the 16 bytes before sym + sym_len and dso + dso_len can be read */
	const char *ip;        /* its address's hexadecimal digits, or NULL */
	size_t ip_len;
};

struct block;   /* a block thread's (perf-blocks.c) */

/* The last sample ended, counted only when the next one ends (or at an
 * error, or the text's end): its stack's slot, then its stack, are
 * fetched from memory meanwhile (held_touch). */
struct held {
	bool valid;
	bool touched;          /* its stack's entry was fetched */
	bool has_period;
	uint32_t *chain;       /* its frames: the buffer r->chain had */
	size_t depth, cap;
	uint64_t hash, period;
	uint32_t event;
	unsigned long long line;
};

/* An event of the text (as its headers name it, modifiers left off) and
 * the sums of its samples. */
struct event {
	char *name;            /* NULL: samples without headers */
	size_t name_len;
	uint64_t samples, period_sum, first_period;
	bool all_periods, same_period;
};

struct reader {
	struct cprof_perf *perf;
	struct cprof_error *err;
	struct block *block;   /* a block's reader: samples recorded, not counted */
	bool child;            /* the text is a perf script child's output */
	bool addresses;        /* every frame keeps its address (--by=address) */
	unsigned long long line_no, sample_line;
	char *key;             /* scratch: a frame's key */
	size_t key_cap;
	uint32_t *chain;       /* the open sample's frame ids */
	size_t depth, chain_cap;
	struct held held;
	bool open;             /* a sample is open */
	bool sample_has_period;
	uint64_t sample_period;
	int headers;           /* -1: no sample yet, 0: samples without headers, 1: with */
	struct event *events;  /* in the order of their first samples */
	size_t num_events, events_cap;
	uint32_t sample_event; /* the open sample's */
	bool sample_has_pid;   /* the open sample's header named its process */
	bool at_header;        /* the frame pushed is the header line's (its IP a run-time one) */
	uint64_t sample_pid;
	struct last_header {   /* the last header read whole, for same_header */
		bool valid;
		char *prefix;          /* its text before its time */
		size_t prefix_len, prefix_cap;
		char *event;           /* its event's token, ':' included */
		size_t event_len, event_cap;
		uint32_t event_index;
		bool has_pid;
		uint64_t pid;
	} last;
	uint64_t samples;      /* of all events */
	size_t inlined;        /* the open sample's last frames are "(inlined)": their DSO is the next frame's */
	bool sample_dropped;   /* a line of the open sample was dropped */
	uint64_t dropped;      /* lines inside samples that are no frame, no source line */
	unsigned long long dropped_line;       /* the first of them, */
	char *dropped_text;    /* and its text (sanitized, cut short) */
};

/* A sample's header line as cprof_perf_parse_header reads it. */
struct header {
	const char *event;     /* "cpu-clock:ppp" (without the final ':') */
	size_t event_len;
	bool has_period;
	uint64_t period;
	const char *rest;      /* what follows the event */
	size_t rest_len;
	bool timed;            /* perf's time field came before the event */
	bool has_pid;          /* the "PID/TID" (or "TID") before the time */
	uint64_t pid;
	const char *time_at;   /* the time's token, or NULL */
};

/* What cprof_perf_parse_header found: no header, a sample's, a record's. */
enum { HEADER_NONE, HEADER_SAMPLE, HEADER_RECORD };

/* The hexadecimal digits, by byte: a frame line's address and offset. */
extern const bool cprof_perf_hex_digit[256];

/* True when c is a hexadecimal digit. */
static inline bool is_hex(char c)
{
	return cprof_perf_hex_digit[(unsigned char)c];
}

/* True when c is a decimal digit. */
static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Takes text[p, end) as the frame's symbol, less perf's "+0xOFF" when
 * the `digits` hexadecimal digits before `end` follow a "+0x"; false
 * when nothing is left. */
static inline bool sym_less_off(const char *p, const char *end, size_t digits,
				struct frame_text *out)
{
	if (digits > 0 && digits + 3 <= (size_t)(end - p) && memcmp(end - digits - 3, "+0x", 3) == 0)
		end -= digits + 3;
	if (end == p)
		return false;
	out->sym = p;
	out->sym_len = (size_t)(end - p);
	return true;
}

/* perfscript.c: the line parser and its tables. */

/* Sets the reader's error at line `line` (the held sample counted
 * first, its error first); returns -1. */
int cprof_perf_fail(struct reader *r, unsigned long long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Gives `perf` its empty tables. */
void cprof_perf_init(struct cprof_perf *perf);

/* Parses the lines of text[0, len) (the last may lack its newline) with
 * `r`, as if read one by one: each counted, a NUL byte refused.
 * Returns 0, or -1 with r->err set. */
int cprof_perf_parse_lines(struct reader *r, const char *text, size_t len);

/* The id of the frame whose key is key[0, len), added when new. */
uint32_t cprof_perf_intern_frame(struct cprof_perf *perf, uint64_t hash, const char *key,
				 size_t len, size_t sym_len, size_t dso_len, bool has_srcline);

/* The hash of chain[0, depth) of event `event`. */
uint64_t cprof_perf_stack_hash(const uint32_t *chain, size_t depth, uint32_t event);

/* The entry of the chain[0, depth) of event `event` whose
 * cprof_perf_stack_hash is `hash`, added when new. */
struct stack *cprof_perf_intern_stack(struct cprof_perf *perf, const uint32_t *chain,
				      size_t depth, uint32_t event, uint64_t hash);

/* Counts one sample of stack `s` (its header on line `line`); -1 with
 * r->err set when a period's sum overflows. */
int cprof_perf_count_sample(struct reader *r, struct stack *s, bool has_period, uint64_t period,
			    unsigned long long line);

/* Reads perf script's text from `in` into `profile` (`child`: the
 * output of a perf script child).  Returns 0, or -1 with `err` set. */
int cprof_perf_read_text(struct cprof_input *in, struct cprof_profile *profile,
			 const struct cprof_read_options *options, bool child,
			 struct cprof_error *err);

/* perf-lines.c: the recognizers of perf script's lines. */

/* sym_less_off, the digits counted byte by byte. */
bool cprof_perf_take_sym(const char *p, const char *end, struct frame_text *out);

/* Splits "SYM[+0xOFF][ (DSO)]" of text[p, end) (the IP and the blanks
 * after it skipped); an empty SYM before a DSO is "[unknown]", as perf
 * prints an unnamed PC.  False when there is no symbol. */
bool cprof_perf_parse_sym_dso(const char *p, const char *end, struct frame_text *out);

/* Splits "[IP ]SYM[+0xOFF][ (DSO)]" of p[0, len) (leading blanks
 * skipped); the IP is required unless `ip_optional`, and a frame without
 * one needs its DSO (perf script -F sym,dso).  False when the text is
 * not a frame. */
bool cprof_perf_parse_frame(const char *p, size_t len, bool ip_optional, struct frame_text *out);

/* Finds the event token of a header line ("NAME:" that is not the
 * time), the period before it and the text after it into *h: HEADER_SAMPLE,
 * HEADER_RECORD (a PERF_RECORD_ line) or HEADER_NONE. */
int cprof_perf_parse_header(const char *line, size_t len, struct header *h);

/* Keeps in r->last what cprof_perf_same_header needs of header `h` of
 * line[0, len), read whole, which names event `index`. */
void cprof_perf_keep_header(struct reader *r, const char *line, const struct header *h,
			    uint32_t index);

/* cprof_perf_parse_header of a line that begins as the last header read
 * whole did (its text before its time) and names its event, read without
 * tokenizing the rest; false (the line to be read whole) otherwise. */
bool cprof_perf_same_header(const struct reader *r, const char *line, size_t len,
			    struct header *h);

/* True when s[0, len) (its indent skipped) is what `perf script -F
 * +srcline` prints: "FILE:LINE", "??:0", "[kernel.kallsyms][ADDR]". */
bool cprof_perf_is_srcline(const char *s, size_t len);

/* True when some token of line[0, len) is perf's time field. */
bool cprof_perf_has_time(const char *line, size_t len);

/* Keeps in perf->mmaps the mapping a "PERF_RECORD_MMAP[2] PID/TID:
 * [0xSTART(0xLEN) @ PGOFF ...]: PROT PATH" line prints, in perf->forks
 * the process a "PERF_RECORD_FORK(PID:TID):(PPID:PTID)" line starts;
 * another record, or a line not so, is passed over. */
void cprof_perf_take_record(struct cprof_perf *perf, const char *line, size_t len);

/* True when dso[0, len) names a mapping with no file offset behind its
 * addresses (JIT code): "//anon", "/anon_hugepage", "/dev/zero",
 * "/memfd:...", "perf-PID.map"; keyed "[NAME]" as keys.c keys them. */
bool cprof_perf_dso_anonymous(const char *dso, size_t len);

/* The length of an event's name without perf's modifiers: "cpu-clock:ppp"
 * is "cpu-clock", "sched:sched_switch" stays. */
size_t cprof_perf_event_name_len(const char *event, size_t len);

/* perf-types.c: the events as sample types. */

/* The index of the event named name[0, len) (NULL: samples without
 * headers) in r->events, added when new. */
uint32_t cprof_perf_find_event(struct reader *r, const char *name, size_t len);

/* Frees r->events and empties them. */
void cprof_perf_events_free(struct reader *r);

/* Picks the sample type `sample_index` names (NULL: the default) and
 * fills the profile's counts and its list of sample types.  Returns 0,
 * or -1 with r->err set. */
int cprof_perf_finish(struct reader *r, struct cprof_profile *profile, const char *sample_index);

/* Notes in `profile` the lines dropped from samples, the first named. */
void cprof_perf_note_dropped(const struct reader *r, struct cprof_profile *profile);

/* perf-blocks.c: the block threads. */

/* Records a sample of stack `s` (its header on line `line` of block
 * `b`), counted when the block is merged. */
void cprof_perf_record_sample(struct block *b, const struct stack *s, bool has_period,
			      uint64_t period, unsigned long long line);

/* Reads the text of `in` through to its end with `r`, all its whole
 * lines buffered at a time, every other block of them in a thread of its
 * own; an error of reading comes after the whole lines before it.
 * Returns 0, or -1 with r->err set. */
int cprof_perf_read_lines(struct reader *r, struct cprof_input *in);

/* perf-keys.c */

/* Keys each unnamed PC ("[unknown]@[PID:]ADDR") by its DSO's name and
 * its offset in the file, where the mappings of its process (or of the
 * ones it was forked from) give it, "[NAME]" in JIT code, else its
 * address as printed (perf->aliases); notes in `profile` the run-time
 * addresses (past 4 GiB: a process's, under ASLR, not a file's) that
 * vary across runs (`child`: the text came from cprof's own perf script). */
void cprof_perf_key_unnamed(struct cprof_perf *perf, bool child, struct cprof_profile *profile);

#endif
