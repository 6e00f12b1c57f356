/* gen-flood: writes profiles whose keys collided in the unkeyed hashes
 * cprof once used (tests/flood.h), and one whose stacks' keys
 * are a thousand times its size, for tests/hash.test,
 * tests/stack-bound.test and bench/flood.bench.
 *
 *   gen-flood folded BLOCKS   2^BLOCKS one-frame folded stacks, names
 *                             that collide in g_str_hash
 *   gen-flood proto BLOCKS    a gen-profile spec of a profile.proto whose
 *                             2^BLOCKS function names collide so
 *   gen-flood pcs N           a gen-profile spec of a gperftools profile
 *                             of N one-PC records whose PCs took one slot
 *                             of keys.c's frame table
 *   gen-flood deep N          a gen-profile spec of a profile.proto of N
 *                             samples, each 16 frames of one function of a
 *                             64 KiB name under a leaf of its own: a
 *                             --by=stack key of 1 MiB from 17 location ids
 *
 * With a third word, "random", the same files of names and PCs drawn at
 * random instead (distinct: the control of a benchmark).
 *
 * Each key counts 1 sample but the first, which counts 2: the answer is
 * known. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flood.h"

static int random_keys;

/* splitmix64: the i-th of distinct random-looking numbers. */
static uint64_t mix(uint64_t i)
{
	uint64_t z = i * UINT64_C(0x9E3779B97F4A7C15) + UINT64_C(0x2545F4914F6CDD1D);

	z = (z ^ z >> 30) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ z >> 27) * UINT64_C(0x94D049BB133111EB);
	return z ^ z >> 31;
}

/* The i-th name: flood_name's, or as long and drawn at random. */
static void name_of(uint64_t i, unsigned blocks, char *name)
{
	unsigned b;

	flood_name(i, blocks, name);
	if (!random_keys)
		return;
	for (b = 0; b < 2 * blocks; b++)
		name[b] = (char)('a' + mix(i * 2 * blocks + b) % 26);
	/* distinct: the first 16 letters spell i in base 16 */
	for (b = 0; b < 2 * blocks && b < 16; b++)
		name[b] = (char)('a' + (i >> 4 * b & 15));
}

static void usage(void)
{
	fprintf(stderr, "usage: gen-flood folded|proto BLOCKS [random] | gen-flood pcs N [random] | "
			"gen-flood deep N\n");
	exit(2);
}

static void folded(unsigned blocks)
{
	char name[2 * 64 + 1];
	uint64_t i;

	for (i = 0; i < UINT64_C(1) << blocks; i++) {
		name_of(i, blocks, name);
		printf("main;%s %d\n", name, i == 0 ? 2 : 1);
	}
}

/* string_table: 0 "", 1 samples, 2 count, then the names from 3;
 * function i + 1 and location i + 1 name string i + 3. */
static void proto(unsigned blocks)
{
	char name[2 * 64 + 1];
	uint64_t i, n = UINT64_C(1) << blocks;

	printf("pb-string 6\npb-string 6 samples\npb-string 6 count\n");
	for (i = 0; i < n; i++) {
		name_of(i, blocks, name);
		printf("pb-string 6 %s\n", name);
	}
	printf("pb-begin 1\npb 1 1\npb 2 2\npb-end\n");
	for (i = 0; i < n; i++) {
		printf("pb-begin 5\npb 1 %llu\npb 2 %llu\npb-end\n", (unsigned long long)i + 1,
		       (unsigned long long)i + 3);
		printf("pb-begin 4\npb 1 %llu\npb-begin 4\npb 1 %llu\npb-end\npb-end\n",
		       (unsigned long long)i + 1, (unsigned long long)i + 1);
		printf("pb-begin 2\npb-packed 1 %llu\npb-packed 2 %d\npb-end\n",
		       (unsigned long long)i + 1, i == 0 ? 2 : 1);
	}
}

static void pcs(unsigned long long n)
{
	unsigned long long i;

	printf("header\n");
	for (i = 1; i <= n; i++)
		printf("record %d 0x%llx\n", i == 1 ? 2 : 1,
		       (unsigned long long)(random_keys ? mix(i) : flood_pc(i)));
	printf("trailer\n");
}

static void deep(unsigned long long samples)
{
	unsigned long long j, f;
	int d;

	printf("pb-string 6\npb-string 6 samples\npb-string 6 count\npb-string 6 ");
	for (d = 0; d < 65536; d++)
		putchar('x');
	putchar('\n');
	for (j = 0; j < samples; j++)
		printf("pb-string 6 leaf%llu\n", j);
	printf("pb-begin 1\npb 1 1\npb 2 2\npb-end\n");
	for (f = 1; f <= samples + 1; f++)
		printf("pb-begin 5\npb 1 %llu\npb 2 %llu\npb-end\n"
		       "pb-begin 4\npb 1 %llu\npb-begin 4\npb 1 %llu\npb-end\npb-end\n",
		       f, f + 2, f, f);
	for (j = 0; j < samples; j++) {
		printf("pb-begin 2\npb-packed 1 %llu", j + 2);
		for (d = 0; d < 16; d++)
			printf(" 1");
		printf("\npb-packed 2 1\npb-end\n");
	}
}

int main(int argc, char **argv)
{
	unsigned long long n;
	char *end;

	if (argc != 3 && !(argc == 4 && strcmp(argv[3], "random") == 0))
		usage();
	random_keys = argc == 4;
	n = strtoull(argv[2], &end, 10);
	if (*end || end == argv[2])
		usage();
	if (strcmp(argv[1], "folded") == 0 && n >= 1 && n <= 30)
		folded((unsigned)n);
	else if (strcmp(argv[1], "proto") == 0 && n >= 1 && n <= 30)
		proto((unsigned)n);
	else if (strcmp(argv[1], "pcs") == 0 && n >= 1 && n < (1ULL << 24))
		pcs(n);
	else if (strcmp(argv[1], "deep") == 0 && argc == 3 && n >= 1 && n < (1ULL << 24))
		deep(n);
	else
		usage();
	return fflush(stdout) == 0 ? 0 : 2;
}
