/* fuzz-sched: libFuzzer target for the cprof-sched problem reader, its
 * validation and, for the problems it accepts (small ones), the solve and
 * the result JSON.  Any crash, leak or sanitizer report is a bug. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sched-lp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_sched *sched;
	char path[64];
	int fd;

	fd = memfd_create("fuzz", 0);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	sched = cprof_sched_read(path, &err);
	close(fd);
	if (!sched) {
		if (!err.text[0])
			abort(); /* an error must say what it is */
		return 0;
	}
	if (cprof_sched_solve(sched, &err) == CPROF_SCHED_OPTIMAL) {
		json_t *root = cprof_sched_json(sched);
		char *text = json_dumps(root, JSON_COMPACT);

		if (!text)
			abort();
		free(text);
		json_decref(root);
	}
	cprof_sched_free(sched);
	return 0;
}
