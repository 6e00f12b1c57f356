/* store-int.h: what store.c gives the other queries of the store
 * (store-ratio.c); not for the programs. */
#ifndef CPROF_STORE_INT_H
#define CPROF_STORE_INT_H

#include <glib.h>

#include "store.h"

/* Opens the store `url` (creating its file or database when `create`);
 * dies when it does not answer or (unless `create`) holds no store of
 * this program's version. */
struct cprof_store *cprof_store_open(const char *url, bool create);

/* Closes and frees a store; accepts NULL. */
void cprof_store_close(struct cprof_store *store);

/* The WHERE clause of a query's rows of kind `by`, the --where values
 * `wheres` and the days `from` to `to` (either NULL: open); dies on a
 * --where name the store does not know. */
GString *cprof_store_where_sql(struct cprof_store *store, enum cprof_by by,
			       const struct cprof_ptrs *wheres, const char *from, const char *to);

/* Appends each of `values` (`count` of them, NULL as "") to `id` after
 * its length, so that no two lists of values have one id: the key of a
 * group, a profile or a cell in a hash table. */
void cprof_store_id_append(GString *id, const char *const *values, size_t count);

/* A copy of `values` (`count` of them, NULL as ""), NULL-ended, for
 * g_strfreev: a group's values as the rows gave them. */
char **cprof_store_values_dup(const char *const *values, size_t count);

/* "SELECT " and the columns `cols` (`n`) as text, named c0, c1..., each
 * followed by ", " (newly allocated): a query's first columns. */
GString *cprof_store_select_text(struct cprof_store *store, const char *const *cols, size_t n);

/* Sorts the `n` groups `items` by their values, `num_values` strings
 * each compared in order, values_of(item) giving an item's. */
void cprof_store_sort_groups(void **items, size_t n, size_t num_values,
			     char **(*values_of)(const void *item));

/* Dies on a --group name (of `group_arg`) the store does not know, an
 * empty one or one named twice. */
void cprof_store_check_groups(const struct cprof_store *store, char **group_names,
			      size_t num_groups, const char *group_arg);

#endif
