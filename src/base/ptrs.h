/* ptrs.h: a growable array of pointers, cprof's own, so that no header
 * needs GLib.  Zero-initialized, it is empty and ready. */
#ifndef CPROF_PTRS_H
#define CPROF_PTRS_H

#include <stddef.h>

struct cprof_ptrs {
	void **items;
	size_t len;
	size_t cap;
};

/* Appends `p`; dies on exhaustion (cprof_die_oom). */
void cprof_ptrs_add(struct cprof_ptrs *v, void *p);

/* Sorts the items with `cmp`, which gets pointers to two items. */
void cprof_ptrs_sort(struct cprof_ptrs *v, int (*cmp)(const void *, const void *));

/* Frees the array, and each item with `free_item` when it is not NULL;
 * leaves `v` empty. */
void cprof_ptrs_clear(struct cprof_ptrs *v, void (*free_item)(void *));

#endif
