/* load.h: the options and the reading every profile-reading program shares. */
#ifndef CPROF_LOAD_H
#define CPROF_LOAD_H

#include <getopt.h>

#include "dist.h"
#include "keys.h"
#include "base/ptrs.h"
#include "base/util.h"

enum {
	CPROF_OPT_BY = 256,
	CPROF_OPT_CUM,
	CPROF_OPT_NO_SYMBOLIZE,
	CPROF_OPT_NO_INLINE,
	CPROF_OPT_SYMBOLS,
	CPROF_OPT_BINARY,
	CPROF_OPT_SAMPLE_INDEX,
	CPROF_OPT_TAG_FILTER,
	CPROF_OPT_NO_CACHE,
	CPROF_OPT_SAMPLE_TYPE,
	CPROF_OPT_PERIOD,
};

/* getopt_long entries for the keying and symbol options. */
#define CPROF_LOAD_LONG_OPTIONS                                                    \
	{ "binary", required_argument, NULL, CPROF_OPT_BINARY },                   \
	{ "by", required_argument, NULL, CPROF_OPT_BY },                           \
	{ "no-cache", no_argument, NULL, CPROF_OPT_NO_CACHE },                     \
	{ "no-inline", no_argument, NULL, CPROF_OPT_NO_INLINE },                   \
	{ "no-symbolize", no_argument, NULL, CPROF_OPT_NO_SYMBOLIZE },             \
	{ "period", required_argument, NULL, CPROF_OPT_PERIOD },                   \
	{ "sample-index", required_argument, NULL, CPROF_OPT_SAMPLE_INDEX },       \
	{ "sample-type", required_argument, NULL, CPROF_OPT_SAMPLE_TYPE },         \
	{ "symbols", required_argument, NULL, CPROF_OPT_SYMBOLS },                 \
	{ "tag-filter", required_argument, NULL, CPROF_OPT_TAG_FILTER }

/* The --help lines of those options, for the usage of each program. */
#define CPROF_LOAD_BY_HELP \
	"  --by=KEY        function (default), dso, line, address, stack or label:NAME\n"
#define CPROF_LOAD_SAMPLE_INDEX_HELP \
	"  --sample-index=N|NAME  the value of a profile.proto or heap profile to count\n" \
	"  --tag-filter NAME=VALUE  only the samples carrying that label (repeatable)\n" \
	"  --sample-type=T/U, --period=N  what folded stacks count, and their period\n"
#define CPROF_LOAD_SYMBOL_HELP                                                \
	"  --no-symbolize  PCs unnamed;  --no-inline  no inlined frames\n"       \
	"  --symbols DIR   look for binaries and debug files in DIR too\n"       \
	"  --binary FILE   the main executable's symbols;  --no-cache  no symbol cache\n"

/* The --cum entry, for the programs that take it. */
#define CPROF_LOAD_CUM_OPTION { "cum", no_argument, NULL, CPROF_OPT_CUM }

/* How a program turns its operands into distributions. */
struct cprof_loader {
	struct cprof_key_options key;
	struct cprof_ptrs symbol_dirs; /* char *, owned */
	const char *binary;
	struct cprof_read_options read;
	struct cprof_ptrs tag_filters; /* --tag-filter KEY=VALUE, char *, not owned */
	char *sample_type;             /* of the first input read, owned */
	bool no_cache;                 /* --no-cache */
	uint64_t input_bytes;          /* read from the inputs keyed so far */
	uint64_t key_bytes;            /* the keys of their distributions take */
};

/* Sets the defaults: by function, inlines expanded, symbolizing. */
void cprof_loader_init(struct cprof_loader *loader);

/* Takes one option of CPROF_LOAD_LONG_OPTIONS; false when `opt` is not
 * one.  Dies on a bad value, naming the option. */
bool cprof_loader_option(struct cprof_loader *loader, int opt, const char *arg);

/* Reads the input `name` and adds it to `dist` (which is created, keyed as
 * the options say, when *dist is NULL).  Dies with the input's name and the
 * place of the fault on any error, and when its sample type differs from
 * that of the inputs read before it. */
void cprof_loader_read(struct cprof_loader *loader, const char *name, struct cprof_dist **dist);

/* Reads `name` as cprof_loader_read does, dying on what it cannot read,
 * but returns -1 with `err` set when the profile cannot be keyed as the
 * loader asks (a flat JSON keyed otherwise); *dist then holds part of it
 * at most, to be freed.  Returns 0 when it is added. */
int cprof_loader_try_read(struct cprof_loader *loader, const char *name,
			  struct cprof_dist **dist, struct cprof_error *err);

/* One part of a profile read for rows: the samples that carry the same
 * values of the --label names (loader->read.row_labels). */
struct cprof_part {
	struct cprof_dist *dist;
	size_t input;          /* for the caller: the operand's place */
	size_t num_values;
	char **values;         /* one per --label name, owned; NULL: not carried */
};

/* Reads `name` as cprof_loader_read does, into one distribution per
 * distinct values of the row labels its samples carry (one, every value
 * NULL, when none are asked or the input has no labels), appended to
 * `parts` (struct cprof_part *, freed with cprof_part_free).  Each part's
 * total is the sum of its counts. */
void cprof_loader_read_parts(struct cprof_loader *loader, const char *name,
			     struct cprof_ptrs *parts);

/* Reads the one operand `name` of cprof-diff, a folded file of two
 * counts a line (difffolded.pl's), into *a (its first counts) and *b
 * (its second), as cprof_loader_read does.  Dies when it is no such
 * file. */
void cprof_loader_read_pair(struct cprof_loader *loader, const char *name,
			    struct cprof_dist **a, struct cprof_dist **b);

/* Frees a part; accepts NULL. */
void cprof_part_free(void *part);

/* Dies unless standard input ("-") is named at most once among the
 * `count` operands: it can be read only once. */
void cprof_loader_check_operands(const char *const *names, int count);

/* Frees what the loader holds. */
void cprof_loader_free(struct cprof_loader *loader);

#endif
