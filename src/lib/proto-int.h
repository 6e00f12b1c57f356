/* proto-int.h: what the files of the profile.proto reader share: the
 * messages as read, the distinct stacks, the reader.  Only proto*.c
 * include it. */
#ifndef CPROF_PROTO_INT_H
#define CPROF_PROTO_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "base/hash.h"
#include "profile-core.h"
#include "proto-wire.h"
#include "base/util.h"

struct value_type {
	int64_t type, unit;
	uint64_t at;
};

struct function {
	uint64_t id;
	int64_t name, system_name, filename;
	uint64_t at;
};

struct mapping {
	uint64_t id, start, limit, file_offset;
	int64_t filename, build_id;
	uint64_t at;
};

struct location {
	uint64_t id, mapping_id, address;
	size_t first_line, n_lines;
	uint64_t at;
	bool prune;            /* drop_frames: the whole location goes */
	bool prune_beneath;    /* drop_frames: what is beneath it goes */
	size_t index_of_mapping;
};

struct line {
	uint64_t function_id;
	int64_t line;
};

/* A distinct sequence of location ids (and labels, when they matter) and
 * its values summed. */
struct stack {
	uint64_t hash;
	uint64_t at;           /* the first sample with these locations */
	uint32_t depth;
	uint32_t n_values;
	uint32_t n_labels;     /* 0 unless --tag-filter or --by=label asked */
	uint64_t data[];       /* depth location ids, leaf first, then n_labels labels
				* (key, str, num, num_unit), then n_values sums */
};

enum { LABEL_WORDS = 4 };

/* The words of a stack that make it distinct: its ids and labels. */
static inline size_t stack_words(const struct stack *s)
{
	return s->depth + (size_t)LABEL_WORDS * s->n_labels;
}

static inline uint64_t *stack_values(struct stack *s)
{
	return s->data + stack_words(s);
}

/* A growing array of 64-bit words. */
struct words {
	uint64_t *at;
	size_t count, cap;
};

static inline uint64_t *words_grow(struct words *w, size_t more)
{
	if (G_UNLIKELY(w->cap - w->count < more)) {
		while (w->cap - w->count < more)
			w->cap = w->cap ? 2 * w->cap : 64;
		w->at = cprof_xrealloc(w->at, w->cap * sizeof(w->at[0]));
	}
	w->count += more;
	return w->at + w->count - more;
}

struct string {
	size_t at;             /* in strings_bytes */
	size_t len;
	uint64_t file_at;
};

struct cprof_proto_reader {
	struct cprof_pb_source src;
	struct cprof_error *err;
	const struct cprof_read_options *options;
	bool keep_labels;              /* the labels of a sample make its stack distinct */
	GArray *sample_types;          /* struct value_type */
	struct value_type period_type;
	int64_t period, drop_frames, keep_frames, default_sample_type;
	uint64_t drop_at, keep_at, default_at;
	GArray *functions, *mappings, *locations, *lines;
	GArray *strings;               /* struct string */
	GByteArray *string_bytes;
	GHashTable *stacks;            /* struct stack * set */
	GPtrArray *stack_list;         /* struct stack *, owned */
	struct stack *probe;
	size_t probe_cap;
	struct words ids, values, labels; /* the sample being read (decode_sample) */
	int64_t max_label_string;      /* the largest string index a label names */
	uint64_t stored;               /* bytes the messages read keep (proto.c charge) */
	uint64_t max_label_at;
};

/* The locations handed to keys.c (proto.h's cprof_location_get). */
struct location_out {
	uint64_t address;
	const struct cprof_mapping *mapping;
	const struct cprof_symbol *frames;
	size_t n_frames;
};

struct cprof_locations {
	size_t count;          /* the last one stands for a sample without locations */
	struct location_out *items;
	struct cprof_symbol *symbols;
	struct cprof_strings *names;
};

/* The index + 1 that an index_ids table gives `id`, or 0. */
static inline size_t cprof_proto_lookup(GHashTable *table, uint64_t id)
{
	return GPOINTER_TO_SIZE(g_hash_table_lookup(table, &id));
}

/* Sets the reader's error: "WHAT at byte N[ of the inflated stream]:
 * DETAIL"; returns -1. */
int cprof_proto_fail(struct cprof_proto_reader *r, uint64_t at, const char *what,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* String `index` of the table (checked) and its length in *len. */
const char *cprof_proto_string_at(const struct cprof_proto_reader *r, int64_t index, size_t *len);

/* String `index` of the table as valid UTF-8, newly allocated; *replaced
 * (when not NULL) is set when bytes had to be replaced. */
char *cprof_proto_string_dup(struct cprof_proto_reader *r, int64_t index, bool *replaced);

/* proto-frames.c: applies drop_frames and keep_frames to the locations,
 * as pprof's Profile.Prune does (`functions`: an index_ids table);
 * returns 0, or -1 with the error set on a bad regular expression. */
int cprof_proto_prune_locations(struct cprof_proto_reader *r, GHashTable *functions);

/* proto-frames.c: how many of a stack's locations (location indexes
 * `indexes`, leaf first) pruning keeps, counted from the leaf... */
uint32_t cprof_proto_prune_stack(const struct cprof_proto_reader *r, const size_t *indexes,
				 uint32_t depth);

/* proto-labels.c: whether every --tag-filter keeps stack `s`. */
bool cprof_proto_filters_keep(const struct cprof_proto_reader *r, const struct stack *s);

/* proto-labels.c: the key of `s` for --by=label:KEY: its value, or
 * "[no KEY]", interned in the profile's location names. */
const char *cprof_proto_label_key(struct cprof_proto_reader *r, struct cprof_profile *profile,
				  const struct stack *s, GString *buf);

/* proto-labels.c: appends the values of the row labels (--rows --label)
 * of `s` to `values` (NULL where it has none). */
void cprof_proto_add_row_labels(struct cprof_proto_reader *r, struct cprof_profile *profile,
				const struct stack *s, GPtrArray *values, GString *buf);

#endif
