/* test-hash.c: src/base/hash.c's hashes spread what the unkeyed ones sent
 * to one slot (tests/flood.h), under every seed, and the interned strings
 * are one pointer each. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "base/hash.h"
#include "check.h"
#include "../flood.h"

enum { BLOCKS = 12, NAMES = 1 << BLOCKS, SLOTS = 1 << (BLOCKS + 1) };

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* The number of distinct values among values[0, n) (sorts them). */
static size_t distinct(unsigned *values, size_t n)
{
	size_t i, count = n > 0;

	qsort(values, n, sizeof(values[0]), cmp_unsigned);
	for (i = 1; i < n; i++)
		count += values[i] != values[i - 1];
	return count;
}

/* The names collide in g_str_hash: one value.  Keyed, they take at least
 * half as many slots of a table twice their number as they are (random
 * hashes take 79% of them: 1 - e^-1/2 of twice as many). */
static void test_names(void)
{
	unsigned *old = g_new(unsigned, NAMES), *keyed = g_new(unsigned, NAMES);
	char name[2 * BLOCKS + 1];
	size_t i;

	for (i = 0; i < NAMES; i++) {
		flood_name(i, BLOCKS, name);
		old[i] = g_str_hash(name);
		keyed[i] = cprof_str_hash(name) % SLOTS;
	}
	check(distinct(old, NAMES) == 1, "flood names: %zu values of g_str_hash, want 1",
	      distinct(old, NAMES));
	check(distinct(keyed, NAMES) >= NAMES / 2, "flood names: %zu slots of %d, want %d or more",
	      distinct(keyed, NAMES), SLOTS, NAMES / 2);
	g_free(old);
	g_free(keyed);
}

/* The PCs took slot 0 of keys.c's old frame table; keyed, they spread. */
static void test_pcs(void)
{
	unsigned *keyed = g_new(unsigned, NAMES);
	size_t i, zero = 0;

	for (i = 0; i < NAMES; i++) {
		uint64_t pc = flood_pc(i + 1);

		zero += (flood_old_pc_hash(pc) & (SLOTS - 1)) == 0;
		keyed[i] = (unsigned)(cprof_hash_u64(pc) & (SLOTS - 1));
	}
	check(zero == NAMES, "flood PCs: %zu of %d in slot 0 of the old hash", zero, NAMES);
	check(distinct(keyed, NAMES) >= NAMES / 2, "flood PCs: %zu slots of %d, want %d or more",
	      distinct(keyed, NAMES), SLOTS, NAMES / 2);
	g_free(keyed);
}

/* 64-bit integers that take one value of GLib's g_int64_hash, which
 * keeps the low 32 bits (or, in later GLib, xors the two halves): the
 * i-th of family 0 is i << 32, of family 1 i << 32 | i. */
static int64_t colliding_int64(int family, size_t i)
{
	return (int64_t)((uint64_t)i << 32 | (family ? i : 0));
}

static void test_int64(void)
{
	unsigned *old = g_new(unsigned, NAMES), *keyed = g_new(unsigned, NAMES);
	int family;
	size_t i;

	for (family = 0; family < 2; family++) {
		for (i = 0; i < NAMES; i++) {
			int64_t v = colliding_int64(family, i);

			old[i] = g_int64_hash(&v);
		}
		if (distinct(old, NAMES) == 1)
			break;
	}
	check(family < 2, "int64: no family collides in this GLib's g_int64_hash");
	for (i = 0; i < NAMES; i++) {
		int64_t v = colliding_int64(family & 1, i);

		keyed[i] = cprof_int64_hash(&v) % SLOTS;
	}
	check(distinct(keyed, NAMES) >= NAMES / 2, "int64: %zu slots of %d, want %d or more",
	      distinct(keyed, NAMES), SLOTS, NAMES / 2);
	g_free(old);
	g_free(keyed);
}

/* One seed, one hash: the same bytes hash alike, however reached. */
static void test_consistent(void)
{
	const char *s = "main;hot";
	uint64_t v = 0x401000;

	check(cprof_hash(s, strlen(s)) == cprof_hash(s, strlen(s)), "cprof_hash differs");
	check(cprof_str_hash(s) == (unsigned)(cprof_hash(s, strlen(s)) ^ cprof_hash(s, strlen(s)) >> 32),
	      "cprof_str_hash is not the fold of cprof_hash");
	check(cprof_hash_u64(v) == cprof_hash(&v, sizeof(v)), "cprof_hash_u64 differs");
}

static void test_strings(void)
{
	struct cprof_strings *strings = cprof_strings_new();
	char name[2 * BLOCKS + 1], copy[2 * BLOCKS + 1];
	const char *first;
	size_t i;

	for (i = 0; i < NAMES; i++) {
		flood_name(i, BLOCKS, name);
		first = cprof_strings_intern(strings, name);
		memcpy(copy, name, sizeof(name));
		check(strcmp(first, name) == 0 && cprof_strings_intern(strings, copy) == first,
		      "intern %s", name);
	}
	cprof_strings_clear(strings);
	check(strcmp(cprof_strings_intern(strings, "x"), "x") == 0, "intern after clear");
	cprof_strings_free(strings);
	cprof_strings_free(NULL);
}

int main(int argc, char **argv)
{
	/* Seeds given (a run's first hash draws the key): 0 is as good as any. */
	if (argc > 1)
		setenv("CPROF_HASH_SEED", argv[1], 1);
	test_names();
	test_pcs();
	test_int64();
	test_consistent();
	test_strings();
	return failures ? 1 : 0;
}
