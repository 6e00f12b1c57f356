/* arena.h: memory for the many small things (call chains, keys) that live
 * as long as what holds them, handed out in pieces from large blocks and
 * freed at once; and memory in pages of its own for large tables. */
#ifndef CPROF_ARENA_H
#define CPROF_ARENA_H

#include <stddef.h>

struct cprof_arena_block;

/* Zero-initialized, an arena is empty and ready. */
struct cprof_arena {
	struct cprof_arena_block *blocks;      /* the newest first */
	char *next;            /* the free room of the newest block */
	size_t left;
	size_t total;          /* bytes of all blocks */
};

/* `size` bytes aligned for any scalar type, valid until the arena is
 * freed; dies on exhaustion (cprof_die_oom). */
void *cprof_arena_alloc(struct cprof_arena *arena, size_t size);

/* A copy of the `len` bytes at `s` with a NUL after them. */
char *cprof_arena_strndup(struct cprof_arena *arena, const char *s, size_t len);

/* Frees everything the arena handed out; leaves it empty and ready. */
void cprof_arena_free(struct cprof_arena *arena);

/* `size` zeroed bytes; from CPROF_PAGES_MIN bytes on, in pages of their
 * own that the kernel may back with huge pages (on a virtual machine a
 * page fault costs microseconds: a table of a megabyte takes one fault,
 * not 256).  Free with cprof_pages_free and the same size.  Dies on
 * exhaustion (cprof_die_oom). */
void *cprof_pages_alloc(size_t size);

/* Frees what cprof_pages_alloc(size) returned; accepts NULL. */
void cprof_pages_free(void *p, size_t size);

enum { CPROF_PAGES_MIN = 512 << 10 };

#endif
