/* flood.h: inputs that collide in the hashes cprof used before they were
 * keyed per run (GLib's g_str_hash, an unkeyed slot hash of PCs), for
 * tests/gen-flood.c and the unit test of
 * src/base/hash.c.  Every function static: one copy per program. */
#ifndef CPROF_TESTS_FLOOD_H
#define CPROF_TESTS_FLOOD_H

#include <stdint.h>

/* The i-th of 2^blocks names of 2 * blocks bytes that GLib's g_str_hash
 * (h = h * 33 + c from 5381) sends to one value: "Ez" and "FY" hash
 * alike (69 * 33 + 122 = 70 * 33 + 89), so any string of them does.
 * `name` has room for 2 * blocks + 1 bytes. */
static void flood_name(uint64_t i, unsigned blocks, char *name)
{
	unsigned b;

	for (b = 0; b < blocks; b++) {
		name[2 * b] = (i >> b & 1) ? 'F' : 'E';
		name[2 * b + 1] = (i >> b & 1) ? 'Y' : 'z';
	}
	name[2 * blocks] = '\0';
}

/* The multiplier keys.c's frame_slot() used: a PC's slot was the low
 * bits of h ^ h >> 29, h = pc * FLOOD_GOLDEN. */
#define FLOOD_GOLDEN UINT64_C(0x9E3779B97F4A7C15)

/* The old slot hash of `pc`, before its mask. */
static __attribute__((unused)) uint64_t flood_old_pc_hash(uint64_t pc)
{
	uint64_t h = pc * FLOOD_GOLDEN;

	return h ^ h >> 29;
}

/* The i-th (from 1) PC whose old slot hash is i << 40: its low 40 bits
 * are zero, so every one of them took slot 0 of a table of up to 2^40
 * slots. */
static uint64_t flood_pc(uint64_t i)
{
	uint64_t g = i << 40, h = g ^ g >> 29 ^ g >> 58, inverse = FLOOD_GOLDEN;
	int k;

	/* Newton's iteration for the inverse of an odd number mod 2^64. */
	for (k = 0; k < 6; k++)
		inverse *= 2 - FLOOD_GOLDEN * inverse;
	return h * inverse;
}

#endif
