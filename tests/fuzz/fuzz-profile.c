/* fuzz-profile: libFuzzer target for every profile reader.  The input is
 * detected by content as cprof-flat detects it (gperftools binary and heap,
 * profile.proto, folded stacks, flat JSON), then keyed every way that
 * needs no symbol files, printed as JSON and written as profile.proto
 * (--pprof), and read again with a --tag-filter and keyed by a label.
 * Any crash, leak or sanitizer report is a bug. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/cprof.h"
#include "lib/pprof-write.h"
#include "lib/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Keys `profile` as `options` say; prints the JSON and the profile.proto. */
static void key(struct cprof_profile *profile, const struct cprof_key_options *options,
		size_t top)
{
	struct cprof_dist *dist = cprof_dist_new(options->by, options->cum);
	struct cprof_error key_err = { { 0 }, 0 };

	if (cprof_profile_to_dist(profile, options, dist, &key_err) == 0) {
		json_t *root = cprof_json_flat(dist, top);
		char *text = json_dumps(root, JSON_COMPACT);
		FILE *null = fopen("/dev/null", "w");

		if (!text || !null)
			abort(); /* keys must be valid UTF-8 */
		free(text);
		json_decref(root);
		if (cprof_pprof_write(null, dist, &key_err) < 0 && !dist->cum)
			abort();
		fclose(null);
	}
	cprof_dist_free(dist);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const filters[] = { "k=v" };
	static const struct cprof_read_options labels = {
		.tag_filters = filters, .num_tag_filters = 1, .label_key = "k",
	};
	static const enum cprof_by keys[] = { CPROF_BY_FUNCTION, CPROF_BY_DSO, CPROF_BY_ADDRESS,
					      CPROF_BY_STACK };
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_profile *profile;
	char path[64];
	size_t i;
	int fd;

	fd = memfd_create("fuzz", 0);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	profile = cprof_profile_read(path, &err);
	if (!profile) {
		close(fd);
		if (!err.text[0])
			abort(); /* an error must say what it is */
		return 0;
	}
	for (i = 0; i < 2 * (sizeof(keys) / sizeof(keys[0])); i++) {
		struct cprof_key_options options = {
			.by = keys[i / 2],
			.cum = i % 2,
			.symbolize = false,
		};

		key(profile, &options, i);
	}
	cprof_profile_free(profile);

	err.text[0] = '\0';
	profile = cprof_profile_read_with(path, &labels, &err);
	close(fd);
	if (!profile) {
		if (!err.text[0])
			abort();
		return 0;
	}
	{
		struct cprof_key_options options = {
			.by = (enum cprof_by)cprof_by_parse("label:k"),
			.symbolize = false,
		};

		key(profile, &options, 0);
	}
	cprof_profile_free(profile);
	return 0;
}
