/* gen-proto: writes a large valid pprof profile.proto (not compressed) for
 * benchmarks, laid out as Go's runtime/pprof lays it out (samples first,
 * then mappings, locations, functions, the string table last):
 *
 *   gen-proto SAMPLES STACKS [SEED] > big.pb
 *
 * SAMPLES samples, each written on its own with two values (samples/count
 * and cpu/nanoseconds, period 10 ms), drawn from STACKS distinct chains of
 * 30,000 locations with Zipf (s = 1) weights, each chain 3 to 40 deep;
 * every location one line of one of 10,000 functions in one mapping (the
 * profile names its functions: no symbolizing). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LOCATIONS = 30000, FUNCTIONS = 10000 };

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: fast, and the same file for the same seed. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* A message being built: varints and nested fields append to it. */
struct buf {
	unsigned char *data;
	size_t len, cap;
};

static void put_byte(struct buf *b, unsigned char c)
{
	if (b->len == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		b->data = realloc(b->data, b->cap);
		if (!b->data)
			exit(2);
	}
	b->data[b->len++] = c;
}

static void put_varint(struct buf *b, uint64_t v)
{
	while (v >= 0x80) {
		put_byte(b, (unsigned char)(v | 0x80));
		v >>= 7;
	}
	put_byte(b, (unsigned char)v);
}

static void put_field(struct buf *b, unsigned field, uint64_t v)
{
	put_varint(b, (uint64_t)field << 3);
	put_varint(b, v);
}

static void put_bytes(struct buf *b, unsigned field, const void *data, size_t len)
{
	put_varint(b, (uint64_t)field << 3 | 2);
	put_varint(b, len);
	while (len-- > 0)
		put_byte(b, *(const unsigned char *)data), data = (const unsigned char *)data + 1;
}

/* Writes `msg` as field `field` of the Profile on standard output. */
static void emit(struct buf *out, unsigned field, struct buf *msg)
{
	out->len = 0;
	put_bytes(out, field, msg->data, msg->len);
	fwrite(out->data, 1, out->len, stdout);
	msg->len = 0;
}

int main(int argc, char **argv)
{
	struct buf msg = { 0 }, inner = { 0 }, out = { 0 };
	uint64_t samples, stacks, i, j;
	uint32_t **chains, *depth;
	double *cdf, sum = 0;
	char name[64];

	if (argc < 3) {
		fprintf(stderr, "usage: gen-proto SAMPLES STACKS [SEED]\n");
		return 2;
	}
	samples = strtoull(argv[1], NULL, 10);
	stacks = strtoull(argv[2], NULL, 10);
	rng_state = argc > 3 ? strtoull(argv[3], NULL, 10) | 1 : 88172645463325252ULL;
	if (stacks == 0)
		return 2;
	chains = calloc(stacks, sizeof(*chains));
	depth = calloc(stacks, sizeof(*depth));
	cdf = calloc(stacks, sizeof(*cdf));
	if (!chains || !depth || !cdf)
		return 2;
	for (i = 0; i < stacks; i++) {
		depth[i] = 3 + (uint32_t)(rng() % 38);
		chains[i] = malloc(depth[i] * sizeof(uint32_t));
		if (!chains[i])
			return 2;
		for (j = 0; j < depth[i]; j++)   /* callers from a few thousand sites */
			chains[i][j] = 1 + (uint32_t)(j == 0 ? rng() % LOCATIONS : rng() % 3000);
		sum += 1.0 / (double)(i + 1);
		cdf[i] = sum;
	}
	/* Strings: 0 "", 1 samples, 2 count, 3 cpu, 4 nanoseconds, 5 the
	 * binary, then each function's name and its file. */
	for (i = 0; i < 2; i++) {      /* sample_type: samples/count, cpu/nanoseconds */
		put_field(&msg, 1, 1 + 2 * i);
		put_field(&msg, 2, 2 + 2 * i);
		emit(&out, 1, &msg);
	}
	for (i = 0; i < samples; i++) {
		double u = (double)(rng() >> 11) / 9007199254740992.0 * sum;
		uint64_t lo = 0, hi = stacks - 1, s, count = 1 + rng() % 3;

		while (lo < hi) {
			uint64_t mid = (lo + hi) / 2;

			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		s = lo;
		for (j = 0; j < depth[s]; j++)
			put_varint(&inner, chains[s][j]);
		put_bytes(&msg, 1, inner.data, inner.len);
		inner.len = 0;
		put_varint(&inner, count);
		put_varint(&inner, count * 10000000);
		put_bytes(&msg, 2, inner.data, inner.len);
		inner.len = 0;
		emit(&out, 2, &msg);
	}
	/* mapping 1: the binary, 0x400000-0x2000000, functions known */
	put_field(&msg, 1, 1);
	put_field(&msg, 2, 0x400000);
	put_field(&msg, 3, 0x2000000);
	put_field(&msg, 5, 5);
	put_field(&msg, 7, 1);
	emit(&out, 3, &msg);
	/* location i: address 0x400000 + 64 i, one line of function i mod F */
	for (i = 1; i <= LOCATIONS; i++) {
		put_field(&msg, 1, i);
		put_field(&msg, 2, 1);
		put_field(&msg, 3, 0x400000 + 64 * i);
		put_field(&inner, 1, 1 + i % FUNCTIONS);
		put_field(&inner, 2, 10 + i % 500);
		put_bytes(&msg, 4, inner.data, inner.len);
		inner.len = 0;
		emit(&out, 4, &msg);
	}
	for (i = 1; i <= FUNCTIONS; i++) {
		put_field(&msg, 1, i);
		put_field(&msg, 2, 6 + 2 * (i - 1));
		put_field(&msg, 3, 6 + 2 * (i - 1));
		put_field(&msg, 4, 7 + 2 * (i - 1));
		emit(&out, 5, &msg);
	}
	put_bytes(&msg, 6, "", 0), fwrite(msg.data, 1, msg.len, stdout), msg.len = 0;
	{
		static const char *const fixed[] = { "samples", "count", "cpu", "nanoseconds",
						     "/nonexistent/bench/server" };

		for (i = 0; i < 5; i++)
			put_bytes(&msg, 6, fixed[i], strlen(fixed[i]));
	}
	for (i = 1; i <= FUNCTIONS; i++) {
		snprintf(name, sizeof(name), "server/pkg%llu.(*T).method%llu",
			 (unsigned long long)(i % 97), (unsigned long long)i);
		put_bytes(&msg, 6, name, strlen(name));
		snprintf(name, sizeof(name), "/src/server/pkg%llu/file%llu.go",
			 (unsigned long long)(i % 97), (unsigned long long)(i % 300));
		put_bytes(&msg, 6, name, strlen(name));
	}
	fwrite(msg.data, 1, msg.len, stdout);
	msg.len = 0;
	/* period_type cpu/nanoseconds, period 10 ms */
	put_field(&inner, 1, 3);
	put_field(&inner, 2, 4);
	put_bytes(&msg, 11, inner.data, inner.len);
	put_field(&msg, 12, 10000000);
	fwrite(msg.data, 1, msg.len, stdout);
	return fflush(stdout) ? 1 : 0;
}
