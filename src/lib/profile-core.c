/* profile-core.c: what the readers share: the sample-type picker. */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "profile-core.h"
#include "base/util.h"

int cprof_sample_index_pick(const char *const *types, const char *const *units, size_t n,
			    const char *default_type, const char *request,
			    struct cprof_error *err)
{
	GString *choices;
	uint64_t number;
	size_t i;

	if (!request) {
		if (default_type && default_type[0])
			for (i = 0; i < n; i++)
				if (strcmp(types[i], default_type) == 0)
					return (int)i;
		return (int)n - 1;
	}
	if (cprof_parse_u64(request, &number)) {
		if (number < n)
			return (int)number;
	} else {
		const char *bare = strncmp(request, "inuse_", 6) == 0 ? request + 6 : request;

		for (i = 0; i < n; i++)
			if (strcmp(types[i], request) == 0 || strcmp(types[i], bare) == 0)
				return (int)i;
	}
	choices = g_string_new(NULL);
	for (i = 0; i < n; i++)
		g_string_append_printf(choices, "%s%zu %s/%s", i ? ", " : "", i, types[i], units[i]);
	cprof_error_set(err, "--sample-index=%s: the profile's sample types are %s", request,
			choices->str);
	g_string_free(choices, TRUE);
	return -1;
}
