/* json.c: the JSON shapes of the contract (jansson). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "json.h"
#include "jsonout.h"
#include "util.h"

json_t *cprof_json_string(const char *s)
{
	json_t *value = json_string(s);

	if (!value)
		cprof_die("internal error: a key is not valid UTF-8");
	return value;
}

void cprof_json_set(json_t *object, const char *name, json_t *value)
{
	if (!value || json_object_set_new(object, name, value) != 0)
		cprof_die_oom();
}

json_t *cprof_json_flat(struct cprof_dist *dist, size_t top)
{
	json_t *root = json_object(), *sources = json_array(), *entries = json_array();
	uint64_t shown = 0;
	size_t n = dist->entries.len, i;

	if (!root || !sources || !entries)
		cprof_die_oom();
	cprof_dist_sort(dist);
	if (top > 0 && top < n)
		n = top;
	for (i = 0; i < dist->sources.len; i++)
		json_array_append_new(sources, cprof_json_string(dist->sources.items[i]));
	for (i = 0; i < n; i++) {
		const struct cprof_entry *entry = dist->entries.items[i];
		json_t *item = json_object();

		cprof_json_set(item, "key", cprof_json_string(entry->key));
		cprof_json_set(item, "count", json_integer((json_int_t)entry->count));
		cprof_json_set(item, "p", json_real(dist->total ? (double)entry->count /
							      (double)dist->total : 0.0));
		if (json_array_append_new(entries, item) != 0)
			cprof_die_oom();
		shown += entry->count;
	}
	cprof_json_set(root, "cprof", json_string("flat"));
	cprof_json_set(root, "version", json_integer(CPROF_SCHEMA_VERSION));
	cprof_json_set(root, "by", json_string(cprof_by_name(dist->by)));
	cprof_json_set(root, "cum", json_boolean(dist->cum));
	cprof_json_set(root, "sources", sources);
	cprof_json_set(root, "period_us", dist->has_period ?
		       json_integer((json_int_t)dist->period_us) : json_null());
	cprof_json_set(root, "total", json_integer((json_int_t)dist->total));
	/* With --cum the counts overlap, and other has no meaning past 0. */
	cprof_json_set(root, "other",
		       json_integer((json_int_t)(!dist->cum && dist->total > shown ?
						 dist->total - shown : 0)));
	cprof_json_set(root, "entries", entries);
	cprof_json_set(root, "sample_type", cprof_json_string(cprof_dist_sample_type(dist)));
	return root;
}

void cprof_json_print(json_t *root, bool compact)
{
	/* A failed write shows in cprof_finish_output. */
	cprof_json_dump(stdout, root, compact);
	fputc('\n', stdout);
	json_decref(root);
}
