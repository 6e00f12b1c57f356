/* test-symbolize: the symbolizer's address arithmetic, driven by
 * tests/symbolize-unit.test.  Each line of standard input is a mapping and
 * a PC:
 *     FILE START OFFSET PC
 * (numbers in hex), the mapping [START, ...) of FILE at file offset
 * OFFSET, as a profile's /proc/maps line has it.  For each, one line goes
 * to standard output: the frames cprof_symbolize gives, innermost first,
 * separated by spaces, the innermost as "FUNCTION@FILE:LINE" (FILE
 * reduced to its base name; the others carry no line), "?" for what is
 * unknown; or "-" when there are none. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cprof.h"

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

static void print_frames(const struct cprof_symbol *frames, size_t count)
{
	size_t i;

	if (count == 0) {
		puts("-");
		return;
	}
	printf("%s@%s:%d", frames[0].function ? frames[0].function : "?",
	       frames[0].file ? base_name(frames[0].file) : "?", frames[0].line);
	for (i = 1; i < count; i++)
		printf(" %s", frames[i].function ? frames[i].function : "?");
	putchar('\n');
}

int main(int argc, char **argv)
{
	struct cprof_symbol_options options = { .inline_frames = true, .lines = true };
	struct cprof_symbolizer *s;
	char file[4096];
	uint64_t start, offset, pc;

	cprof_set_progname(argv[0]);
	s = cprof_symbolizer_new(&options);
	while (scanf("%4095s %" SCNx64 " %" SCNx64 " %" SCNx64, file, &start, &offset, &pc) == 4) {
		struct cprof_mapping mapping = {
			.start = start,
			.end = UINT64_MAX,
			.offset = offset,
			.path = file,
			.basename = base_name(file),
			.file = file,
		};
		const struct cprof_symbol *frames;
		size_t count = cprof_symbolize(s, &mapping, false, pc, &frames);

		print_frames(frames, count);
	}
	cprof_symbolizer_free(s);
	return cprof_finish_output(0);
}
