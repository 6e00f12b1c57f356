/* profile.c: opening an input and detecting its format by content. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "dist.h"
#include "flatjson.h"
#include "folded.h"
#include "gperf.h"
#include "input.h"
#include "maps.h"
#include "profile.h"
#include "ptrs.h"
#include "util.h"

/* How far into a text input the first non-blank line is looked for. */
enum { SNIFF_BYTES = 1 << 16 };

/* Decides between flat JSON and folded stacks from the first non-blank
 * bytes; returns -1 when the input is neither. */
static int sniff_text(struct cprof_input *in, struct cprof_error *err)
{
	const unsigned char *data;
	size_t avail, i, line_end;
	long long got;

	got = cprof_input_fill(in, SNIFF_BYTES, err);
	if (got < 0)
		return -1;
	data = cprof_input_data(in);
	avail = (size_t)got;
	for (i = 0; i < avail && strchr(" \t\r\n", data[i]) && data[i]; i++)
		;
	if (i == avail)
		return cprof_error_set(err, "unrecognized profile format: %s",
				       avail ? "blank input" : "empty input");
	if (data[i] == '{')
		return CPROF_FORMAT_FLAT;
	for (line_end = i; line_end < avail && data[line_end] != '\n'; line_end++)
		;
	if (line_end > i && data[line_end - 1] == '\r')
		line_end--;
	if (memchr(data + i, '\0', line_end - i) == NULL &&
	    cprof_folded_line_ok((const char *)data + i, line_end - i))
		return CPROF_FORMAT_FOLDED;
	return cprof_error_set(err, "unrecognized profile format");
}

struct cprof_profile *cprof_profile_read(const char *name, struct cprof_error *err)
{
	struct cprof_profile *profile = cprof_xcalloc(1, sizeof(*profile));
	struct cprof_input in;
	long long got;
	int format, status = -1;

	profile->source = name;
	if (cprof_input_open(&in, name, err) < 0) {
		free(profile);
		return NULL;
	}
	got = cprof_input_fill(&in, 4, err);
	if (got < 0)
		goto out;
	if (cprof_gperf_sniff(cprof_input_data(&in), (size_t)got)) {
		status = cprof_gperf_read(&in, profile, err);
		goto out;
	}
	format = sniff_text(&in, err);
	if (format == CPROF_FORMAT_FLAT)
		status = cprof_flatjson_read(&in, profile, err);
	else if (format == CPROF_FORMAT_FOLDED)
		status = cprof_folded_read(&in, profile, err);
out:
	cprof_input_close(&in);
	if (status < 0) {
		cprof_profile_free(profile);
		return NULL;
	}
	return profile;
}

void cprof_profile_free(struct cprof_profile *profile)
{
	if (!profile)
		return;
	cprof_ptrs_clear(&profile->stacks, free);
	cprof_ptrs_clear(&profile->folded, free);
	cprof_maps_clear(&profile->maps);
	cprof_dist_free(profile->flat);
	free(profile);
}
