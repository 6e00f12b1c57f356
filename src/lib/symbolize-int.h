/* symbolize-int.h: what symbolize.c and symcache.c (its entries in the
 * symbol cache) share: a mapped file and its answers, the symbolizer.
 * Only those two files include it. */
#ifndef CPROF_SYMBOLIZE_INT_H
#define CPROF_SYMBOLIZE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdwfl.h>
#include <glib.h>

#include "base/hash.h"
#include "symbolize.h"

struct segment {
	uint64_t vaddr;
	uint64_t offset;
	uint64_t filesz;
};

/* What one link-time address resolves to. */
struct answer {
	uint64_t vaddr;        /* the hash table's key */
	size_t count;
	struct cprof_symbol frames[];
};

/* A function symbol of the file's symbol table. */
struct symbol {
	uint64_t addr;
	uint64_t size;         /* 0: unknown, reaches to the next symbol */
	const char *name;      /* libdwfl's, valid while the Dwfl lives */
	int rank;              /* lower is preferred among aliases */
};

/* The address range of a function in DWARF (one of its ranges). */
struct function_range {
	Dwarf_Addr low;
	Dwarf_Addr high;
	Dwarf_Die die;
};

/* A mapped file, opened once (or not at all when the cache knows all
 * that is asked of it). */
struct dso {
	bool usable;           /* its segments are known: PCs can be looked up */
	bool tried;            /* opening the file with libdwfl was tried */
	bool dirty;            /* answers the cache does not hold yet */
	char *path;            /* the raw path of the mapping */
	char *file;            /* the file read for it */
	char *cache_name;      /* its cache entry, NULL when not cached */
	GString *cache_key;
	Dwfl *dwfl;            /* NULL when the file is not open */
	Dwfl_Module *module;
	struct segment *segments;
	size_t num_segments;
	GHashTable *answers;   /* &answer->vaddr -> struct answer * */
	struct symbol *symbols;        /* sorted by addr */
	size_t num_symbols;
	bool indexed;          /* functions below are built (on first need) */
	struct function_range *functions; /* sorted by low */
	size_t num_functions;
	size_t cap_functions;
	Dwarf_Addr dwarf_bias;
};

struct cprof_symbolizer {
	struct cprof_symbol_options options;
	GPtrArray *symbol_dirs; /* absolute; options.symbol_dirs points here */
	char *debuginfo_path;  /* for dwfl_standard_find_debuginfo */
	Dwfl_Callbacks callbacks;
	GHashTable *dsos;      /* raw path (or "\x01" + --binary) -> struct dso * */
	const char *cache_dir; /* NULL: no cache */
	struct cprof_strings *names;
	GString *scratch;
};

/* The GNU build-id of the ELF file at `path` as lowercase hex (newly
 * allocated), or NULL; with its .gnu_debuglink name in *debuglink (newly
 * allocated, or NULL) when `debuglink` is not NULL. */
char *cprof_symbolize_file_ids(const char *path, char **debuglink);

/* Writes the cache entry of `dso` when it found answers the cache lacks
 * (and the symbolizer has a cache). */
void cprof_symcache_save(struct cprof_symbolizer *s, struct dso *dso);

/* Takes into `dso` the segments and answers of the cache entry for
 * `file` when there is a whole one that matches the file; false when
 * there is none (dso->cache_name and cache_key are then set when the
 * file can be cached). */
bool cprof_symcache_load(struct cprof_symbolizer *s, struct dso *dso, const char *file);

#endif
