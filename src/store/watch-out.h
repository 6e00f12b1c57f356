/* watch-out.h: cprof-store watch's answer as JSON Lines, a table or a
 * page. */
#ifndef CPROF_WATCH_OUT_H
#define CPROF_WATCH_OUT_H

#include <stdbool.h>

#include "store.h"

/* Prints each change of `result`: a JSON object a line, or (`text`) an
 * aligned table; returns whether one of them is a regression. */
bool cprof_watch_print(const struct cprof_store_watch_result *result, bool text);

/* Writes the page of `result`'s changes to `path` (a sortable table, and
 * each change's share day by day with its interval band and its day
 * marked), self-contained; dies naming `path` when it cannot. */
void cprof_watch_html(const struct cprof_store_watch_result *result,
		      const struct cprof_watch_settings *settings, const char *path);

#endif
