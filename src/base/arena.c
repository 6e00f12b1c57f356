/* arena.c: memory handed out in pieces from large blocks; memory in pages
 * of its own. */
#include "config.h"

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "arena.h"
#include "util.h"

enum {
	SMALL_BLOCK = 64 << 10,        /* the blocks of the first SMALL_TOTAL bytes */
	SMALL_TOTAL = 1 << 20,
	LARGE_BLOCK = 2 << 20,         /* then: a huge page each */
	HUGE_PAGE = 2 << 20,           /* x86-64's and arm64's usual one */
};

struct cprof_arena_block {
	struct cprof_arena_block *next;
	size_t size;           /* of the whole block, this header included */
	alignas(max_align_t) char room[];
};

/* Page-aligned memory, `size` a multiple of HUGE_PAGE, at an address
 * that is one too, so that every huge page of it can be a huge page. */
static void *map_aligned(size_t size)
{
	size_t extra = HUGE_PAGE, head;
	char *p = mmap(NULL, size + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		cprof_die_oom();
	head = (size_t)(-(uintptr_t)p & (HUGE_PAGE - 1));
	if (head)
		munmap(p, head);
	munmap(p + head + size, extra - head);
	p += head;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, size, MADV_HUGEPAGE);
#endif
	return p;
}

/* The bytes cprof_pages_alloc maps for `size`. */
static size_t mapped_size(size_t size)
{
	if (size > SIZE_MAX - 2 * HUGE_PAGE)
		cprof_die_oom();
	return (size + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
}

void *cprof_pages_alloc(size_t size)
{
	if (size < CPROF_PAGES_MIN)
		return cprof_xcalloc(1, size);
	return map_aligned(mapped_size(size));
}

void cprof_pages_free(void *p, size_t size)
{
	if (!p)
		return;
	if (size < CPROF_PAGES_MIN)
		free(p);
	else
		munmap(p, mapped_size(size));
}

/* A new block for a piece of `size` bytes: small ones while the arena is
 * small, then huge pages; a piece larger than a quarter of a block gets
 * one of its own, kept behind the newest so that its room stays in use. */
static char *new_block(struct cprof_arena *arena, size_t size)
{
	size_t block_size = arena->total < SMALL_TOTAL ? SMALL_BLOCK : LARGE_BLOCK;
	bool own = size > block_size / 4;
	struct cprof_arena_block *block;

	if (own) {
		if (size > SIZE_MAX - sizeof(*block) - HUGE_PAGE)
			cprof_die_oom();
		block_size = sizeof(*block) + size;
	}
	block = block_size >= CPROF_PAGES_MIN ? cprof_pages_alloc(block_size) :
		cprof_xmalloc(block_size);
	block->size = block_size;
	arena->total += block_size;
	if (own && arena->blocks) {
		block->next = arena->blocks->next;
		arena->blocks->next = block;
		return block->room;
	}
	block->next = arena->blocks;
	arena->blocks = block;
	arena->next = block->room + size;
	arena->left = block_size - sizeof(*block) - size;
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
		if (block->size >= CPROF_PAGES_MIN)
			cprof_pages_free(block, block->size);
		else
			free(block);
	}
	memset(arena, 0, sizeof(*arena));
}
