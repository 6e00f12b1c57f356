/* ptrs.c: a growable array of pointers. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "ptrs.h"
#include "util.h"

void cprof_ptrs_add(struct cprof_ptrs *v, void *p)
{
	if (v->len == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 16;

		if (cap > SIZE_MAX / sizeof(*v->items))
			cprof_die_oom();
		v->items = cprof_xrealloc(v->items, cap * sizeof(*v->items));
		v->cap = cap;
	}
	v->items[v->len++] = p;
}

void cprof_ptrs_sort(struct cprof_ptrs *v, int (*cmp)(const void *, const void *))
{
	if (v->len > 1)
		qsort(v->items, v->len, sizeof(*v->items), cmp);
}

void cprof_ptrs_clear(struct cprof_ptrs *v, void (*free_item)(void *))
{
	size_t i;

	if (free_item)
		for (i = 0; i < v->len; i++)
			free_item(v->items[i]);
	free(v->items);
	v->items = NULL;
	v->len = v->cap = 0;
}
