/* symbolize.h: PCs to function and line names, with elfutils libdwfl. */
#ifndef CPROF_SYMBOLIZE_H
#define CPROF_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "maps.h"

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

#endif
