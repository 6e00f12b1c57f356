/* test-input: reads FILE ("-": standard input) through src/base/input.c in
 * steps of pseudo-random sizes (a few bytes to three chunks asked for,
 * any part of it consumed) and writes the bytes consumed on standard
 * output, which must then equal the input; with LIMIT, it asks for no
 * byte past LIMIT (the input may stall there), stops after LIMIT bytes
 * and closes the input while its reader may still wait for more.  tests/input-ahead.test runs it on files and pipes, built as usual
 * and under ThreadSanitizer. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "lib/cprof.h"

static uint64_t state = 88172645463325252ULL;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int main(int argc, char **argv)
{
	struct cprof_error err = { { 0 }, 0 };
	struct cprof_input in;
	uint64_t consumed = 0, limit = UINT64_MAX;

	if (argc == 3)
		limit = strtoull(argv[2], NULL, 10);
	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: test-input FILE [LIMIT]\n");
		return 2;
	}
	cprof_set_progname("test-input");
	if (cprof_input_open(&in, argv[1], &err) < 0) {
		fprintf(stderr, "test-input: %s\n", err.text);
		return 2;
	}
	for (;;) {
		size_t want = next() % 4 == 0 ? (size_t)(next() % (6 << 20)) + 1
					       : (size_t)(next() % 4096) + 1;
		long long got;
		size_t take;

		/* With LIMIT the input may stall past it: never ask beyond. */
		if (want > limit - consumed)
			want = (size_t)(limit - consumed);
		got = cprof_input_fill(&in, want, &err);

		if (got < 0) {
			fprintf(stderr, "test-input: %s\n", err.text);
			return 2;
		}
		if (got == 0)
			break;
		if ((size_t)got < want && !in.eof) {
			fprintf(stderr, "FAIL: %lld bytes for %zu before the end\n", got, want);
			return 1;
		}
		if (in.offset != consumed) {
			fprintf(stderr, "FAIL: offset %llu after %llu bytes\n",
				(unsigned long long)in.offset, (unsigned long long)consumed);
			return 1;
		}
		take = (size_t)(next() % (uint64_t)got) + 1;
		if (take > limit - consumed)
			take = (size_t)(limit - consumed);
		if (fwrite(cprof_input_data(&in), 1, take, stdout) != take)
			return 2;
		cprof_input_skip(&in, take);
		consumed += take;
		if (consumed == limit)
			break;
	}
	cprof_input_close(&in);
	return fflush(stdout) == 0 ? 0 : 2;
}
