/* text.c: the tables printed for people by --text. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "folded.h"
#include "text.h"
#include "base/util.h"

void cprof_text_flat(struct cprof_dist *dist, size_t top)
{
	size_t n = dist->entries.len, i;
	uint64_t shown = 0;
	double total = (double)dist->total;

	cprof_dist_sort(dist);
	if (top > 0 && top < n)
		n = top;
	cprof_put_by(stdout, dist->by);
	printf("%s, %" PRIu64 " ", dist->cum ? " (cum)" : "", dist->total);
	cprof_put_text(stdout, strcmp(cprof_dist_sample_type(dist), "samples/count") == 0 ?
				       "samples" : cprof_dist_sample_type(dist));
	if (dist->has_period)
		printf(", period %" PRIu64 " us", dist->period_us);
	printf("\n%12s %8s %8s  %s\n", "count", "p%", "sum%", "key");
	for (i = 0; i < n; i++) {
		const struct cprof_entry *entry = dist->entries.items[i];
		double p = total > 0 ? 100.0 * (double)entry->count / total : 0.0;

		shown += entry->count;
		if (dist->cum)
			printf("%12" PRIu64 " %7.2f%% %8s  ", entry->count, p, "-");
		else
			printf("%12" PRIu64 " %7.2f%% %7.2f%%  ", entry->count, p,
			       total > 0 ? 100.0 * (double)shown / total : 0.0);
		cprof_put_text(stdout, entry->key);
		putchar('\n');
	}
	if (!dist->cum && dist->total > shown)
		printf("%12" PRIu64 " %7.2f%% %7.2f%%  (other)\n", dist->total - shown,
		       100.0 * (double)(dist->total - shown) / total, 100.0);
}

void cprof_folded_flat(struct cprof_dist *dist, size_t top)
{
	size_t n = dist->entries.len, i;
	struct cprof_folded_counts counts = CPROF_FOLDED_COUNTS_INIT;
	char *comment;

	cprof_dist_sort(dist);
	if (top > 0 && top < n)
		n = top;
	for (i = 0; i < n; i++) {
		const struct cprof_entry *entry = dist->entries.items[i];

		cprof_folded_counts_add(&counts, entry->count, 0);
	}
	comment = cprof_folded_comment(dist->sample_type, dist->has_period, dist->period_us,
				       &counts);
	if (comment)
		fputs(comment, stdout);
	free(comment);
	for (i = 0; i < n; i++) {
		const struct cprof_entry *entry = dist->entries.items[i];

		cprof_folded_put_line(stdout, entry->key, entry->count, false, 0);
	}
}
