/* bench/gen-fleet.c: writes N small gperftools CPU profiles of one program
 * for the store benchmark: gen-fleet DIR N SAMPLES PROGRAM < ADDRESSES.
 * ADDRESSES holds one hex address per line (inside the program's
 * functions, a non-PIE executable mapped at 0x400000); each profile has
 * SAMPLES samples in chains 3 deep, the leaf drawn with a skew so that a
 * few functions are hot, and the program's mapping as its text. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state = 88172645463325252ull;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static void slot(FILE *out, uint64_t v)
{
	fwrite(&v, sizeof(v), 1, out);
}

int main(int argc, char **argv)
{
	uint64_t *addrs = NULL;
	size_t n_addrs = 0, cap = 0;
	unsigned long long a;
	long n, samples, i;

	if (argc != 5) {
		fprintf(stderr, "usage: gen-fleet DIR N SAMPLES PROGRAM < ADDRESSES\n");
		return 2;
	}
	n = atol(argv[2]);
	samples = atol(argv[3]);
	while (scanf("%llx", &a) == 1) {
		if (n_addrs == cap) {
			cap = cap ? 2 * cap : 1024;
			addrs = realloc(addrs, cap * sizeof(*addrs));
			if (!addrs)
				return 2;
		}
		addrs[n_addrs++] = a;
	}
	if (n_addrs < 3)
		return 2;
	for (i = 0; i < n; i++) {
		char path[4096];
		FILE *out;
		long left = samples;

		snprintf(path, sizeof(path), "%s/p%05ld.prof", argv[1], i);
		out = fopen(path, "wb");
		if (!out) {
			perror(path);
			return 2;
		}
		slot(out, 0), slot(out, 3), slot(out, 0), slot(out, 1000), slot(out, 0);
		while (left > 0) {
			/* product of two uniforms: small indexes are hot */
			size_t leaf = (size_t)((next() % n_addrs) * (next() % n_addrs) / n_addrs);
			long count = 1 + (long)(next() % 20);

			if (count > left)
				count = left;
			slot(out, (uint64_t)count), slot(out, 3);
			slot(out, addrs[leaf]);
			slot(out, addrs[next() % n_addrs] + 1);
			slot(out, addrs[next() % n_addrs] + 1);
			left -= count;
		}
		slot(out, 0), slot(out, 1), slot(out, 0);
		fprintf(out, "00400000-00800000 r-xp 00000000 08:01 1 %s\n", argv[4]);
		if (fclose(out) != 0) {
			perror(path);
			return 2;
		}
	}
	return 0;
}
