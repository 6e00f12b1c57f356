/* arena.h: memory handed out in pieces from large blocks and freed all at
 * once, for the many small things (call chains, keys) that live as long
 * as what holds them. */
#ifndef CPROF_ARENA_H
#define CPROF_ARENA_H

#include <stddef.h>

struct cprof_arena_block;

/* Zero-initialized, an arena is empty and ready. */
struct cprof_arena {
	struct cprof_arena_block *blocks;      /* the newest first */
	char *next;            /* the free room of the newest block */
	size_t left;
};

/* `size` bytes aligned for any scalar type, valid until the arena is
 * freed; dies on exhaustion (cprof_die_oom). */
void *cprof_arena_alloc(struct cprof_arena *arena, size_t size);

/* A copy of the `len` bytes at `s` with a NUL after them. */
char *cprof_arena_strndup(struct cprof_arena *arena, const char *s, size_t len);

/* Frees everything the arena handed out; leaves it empty and ready. */
void cprof_arena_free(struct cprof_arena *arena);

#endif
