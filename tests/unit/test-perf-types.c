/* test-perf-types FILE: enumerates the sample types of a profile as a
 * loader does (profile->sample_types, each read again with
 * --sample-index=N), and prints "N TYPE/UNIT TOTAL" for each; a profile
 * of one sample type prints its own.  tests/perf-types-unit.test runs it
 * on perf script texts of one and of two events. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lib/cprof.h"

/* Prints sample type `index` of `name`; returns 0, or 1 on an error. */
static int print_type(const char *name, size_t index)
{
	struct cprof_read_options options = { 0 };
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_profile *profile;
	char request[32];

	snprintf(request, sizeof(request), "%zu", index);
	options.sample_index = request;
	profile = cprof_profile_read_with(name, &options, &err);
	if (!profile) {
		fprintf(stderr, "test-perf-types: %s: %s\n", name, err.text);
		return 1;
	}
	printf("%zu %s %llu\n", index, profile->sample_type ? profile->sample_type : "samples/count",
	       (unsigned long long)profile->total);
	cprof_profile_free(profile);
	return 0;
}

int main(int argc, char **argv)
{
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_profile *profile;
	size_t i, n;
	int status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: test-perf-types FILE\n");
		return 2;
	}
	cprof_set_progname("test-perf-types");
	profile = cprof_profile_read(argv[1], &err);
	if (!profile) {
		fprintf(stderr, "test-perf-types: %s: %s\n", argv[1], err.text);
		return 1;
	}
	n = profile->sample_types.len;
	for (i = 0; i < n; i++)
		printf("type %zu %s\n", i, (const char *)profile->sample_types.items[i]);
	cprof_profile_free(profile);
	for (i = 0; i < (n ? n : 1); i++)
		status |= print_type(argv[1], i);
	return status;
}
