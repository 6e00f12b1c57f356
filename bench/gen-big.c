/* gen-big: writes a large valid gperftools CPU profile (64-bit
 * little-endian) for benchmarks:
 *
 *   gen-big RECORDS STACKS [SEED] > big.prof
 *
 * RECORDS records drawn from STACKS distinct call chains with Zipf (s = 1)
 * weights, each chain 3 to 40 frames deep, PCs inside two mappings (a
 * program and a library) whose files do not exist, so that symbolizing
 * finds nothing and costs only the lookups. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: fast, and the same file for the same seed. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static void put(FILE *out, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	fwrite(b, 1, 8, out);
}

int main(int argc, char **argv)
{
	uint64_t records, stacks, i, j;
	uint64_t **chains;
	uint32_t *depth;
	double *cdf, sum = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: gen-big RECORDS STACKS [SEED]\n");
		return 2;
	}
	records = strtoull(argv[1], NULL, 10);
	stacks = strtoull(argv[2], NULL, 10);
	rng_state = argc > 3 ? strtoull(argv[3], NULL, 10) | 1 : 88172645463325252ULL;
	if (stacks == 0)
		return 2;
	chains = calloc(stacks, sizeof(*chains));
	depth = calloc(stacks, sizeof(*depth));
	cdf = calloc(stacks, sizeof(*cdf));
	for (i = 0; i < stacks; i++) {
		depth[i] = 3 + (uint32_t)(rng() % 38);
		chains[i] = malloc(depth[i] * sizeof(uint64_t));
		for (j = 0; j < depth[i]; j++) {
			/* Callers from a few thousand sites; leaves anywhere. */
			uint64_t base = rng() % 4 == 0 ? 0x7f3a00000000ULL : 0x55aa00000000ULL;
			uint64_t off = j == 0 ? rng() % 0x400000 : (rng() % 4096) * 64 + 5;
			chains[i][j] = base + 0x1000 + off;
		}
		sum += 1.0 / (double)(i + 1);
		cdf[i] = sum;
	}
	put(stdout, 0), put(stdout, 3), put(stdout, 0), put(stdout, 1000), put(stdout, 0);
	for (i = 0; i < records; i++) {
		double u = (double)(rng() >> 11) / 9007199254740992.0 * sum;
		uint64_t lo = 0, hi = stacks - 1, s;

		while (lo < hi) {
			uint64_t mid = (lo + hi) / 2;

			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		s = lo;
		put(stdout, 1 + rng() % 3);
		put(stdout, depth[s]);
		for (j = 0; j < depth[s]; j++)
			put(stdout, chains[s][j]);
	}
	put(stdout, 0), put(stdout, 1), put(stdout, 0);
	printf("55aa00000000-55aa00500000 r-xp 00000000 08:01 1000 /nonexistent/bench/server\n");
	printf("7f3a00000000-7f3a00500000 r-xp 00000000 08:01 1001 /nonexistent/bench/libbench.so\n");
	return fflush(stdout) ? 1 : 0;
}
