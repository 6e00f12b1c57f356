/* arena.c: memory handed out in pieces from large blocks. */
#include "config.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "util.h"

enum { BLOCK_SIZE = 64 << 10 };        /* under malloc's mmap threshold */

struct cprof_arena_block {
	struct cprof_arena_block *next;
	alignas(max_align_t) char room[];
};

/* A new block of at least `size` bytes of room: the newest when the piece
 * is small, else kept behind the newest so that its room stays in use. */
static char *new_block(struct cprof_arena *arena, size_t size)
{
	size_t room = size > BLOCK_SIZE / 4 ? size : BLOCK_SIZE - sizeof(struct cprof_arena_block);
	struct cprof_arena_block *block;

	if (room > SIZE_MAX - sizeof(*block))
		cprof_die_oom();
	block = cprof_xmalloc(sizeof(*block) + room);
	if (size > BLOCK_SIZE / 4 && arena->blocks) {
		block->next = arena->blocks->next;
		arena->blocks->next = block;
		return block->room;
	}
	block->next = arena->blocks;
	arena->blocks = block;
	arena->next = block->room + size;
	arena->left = room - size;
	return block->room;
}

/* `size` bytes at a multiple of `align` (a power of two, at most that of
 * max_align_t) from the start of a block. */
static void *take(struct cprof_arena *arena, size_t size, size_t align)
{
	size_t pad = (size_t)(-(uintptr_t)arena->next & (align - 1));
	char *p;

	if (arena->blocks && pad <= arena->left && size <= arena->left - pad) {
		p = arena->next + pad;
		arena->next = p + size;
		arena->left -= pad + size;
		return p;
	}
	return new_block(arena, size);
}

void *cprof_arena_alloc(struct cprof_arena *arena, size_t size)
{
	return take(arena, size, alignof(max_align_t));
}

char *cprof_arena_strndup(struct cprof_arena *arena, const char *s, size_t len)
{
	char *copy;

	if (len == SIZE_MAX)
		cprof_die_oom();
	copy = take(arena, len + 1, 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	return copy;
}

void cprof_arena_free(struct cprof_arena *arena)
{
	struct cprof_arena_block *block = arena->blocks, *next;

	for (; block; block = next) {
		next = block->next;
		free(block);
	}
	memset(arena, 0, sizeof(*arena));
}
