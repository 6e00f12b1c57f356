/* maps.h: the mapped-objects text of a gperftools profile (/proc/maps lines). */
#ifndef CPROF_MAPS_H
#define CPROF_MAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cprof_error;

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
	bool link_time;        /* addresses are the file's link-time ones, not
				* mapped: pprof's fake mapping of a profile
				* without maps (cprof_maps_add_link_time) */
};

struct cprof_maps {
	struct cprof_mapping *mappings; /* sorted by start */
	size_t count;
	size_t cap;
	char *build;           /* the last build= path, owned */
	void *vars;            /* NAME -> VALUE of the maps' definitions, or NULL */
	uint64_t text_bytes;   /* of the maps text read */
	uint64_t grown;        /* bytes expansion has added to it */
	char *main_path;       /* the main executable's file, or NULL; owned */
	bool replaced_utf8;    /* a path was not valid UTF-8 (see mappings) */
};

/* Parses one line of the mapped-objects text into `maps`, as pprof reads
 * it: build=PATH and NAME=VALUE define $build and $NAME (NAME a word) for
 * the lines after them, each line's $NAMEs expanded in one pass; then a
 * /proc/maps line or the brief "START-END: PATH [(@OFFSET)]".  Lines it
 * does not recognize are ignored.  Returns 0, or -1 with `err` set when a
 * line expands past PATH_MAX + 256 bytes or expansion has grown the text
 * past 8 times its size and 1 MiB. */
int cprof_maps_add_line(struct cprof_maps *maps, const char *line, size_t len,
			struct cprof_error *err);

/* Sorts the mappings once all lines are in, and picks the main executable
 * as pprof does: the first mapping with a path that is neither a shared
 * object (*.so*) nor bracketed ([vdso]). */
void cprof_maps_finish(struct cprof_maps *maps);

/* Adds pprof's fake mapping of a profile that carries no maps: every
 * address but 0 is the main executable `path`'s link-time address (as
 * pprof reads Go's debug=1 heap profile with the program named); `path`
 * becomes the main path.  Call it after cprof_maps_finish, on no maps. */
void cprof_maps_add_link_time(struct cprof_maps *maps, const char *path);

/* Returns the mapping holding `addr`, or NULL. */
const struct cprof_mapping *cprof_maps_find(const struct cprof_maps *maps, uint64_t addr);

/* Whether a DSO name is bracketed already, as a pseudo-file's is
 * ("[vdso]", "[heap]", "[kernel.kallsyms]": '[' first, ']' last). */
bool cprof_dso_bracketed(const char *name);

/* The name of a DSO path as a key (--by=dso, address keys): what follows
 * its last '/' (the path itself when none, or when nothing follows), or
 * a bracketed path whole ("[vdso]").  Points into `path`. */
const char *cprof_dso_basename(const char *path);

/* The key of a frame of DSO `basename` that no symbol names: "[gzip]",
 * a bracketed name kept as it is ("[vdso]", never "[[vdso]]").  Newly
 * allocated (free it). */
char *cprof_dso_unnamed(const char *basename);

/* Frees what `maps` holds; the struct itself is the caller's. */
void cprof_maps_clear(struct cprof_maps *maps);

#endif
