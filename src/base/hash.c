/* hash.c: hashes keyed by a per-run secret; interned strings. */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "arena.h"
#include "hash.h"
#include "util.h"

/* The run's key: a secret of XXH3's default size made by
 * XXH3_generateSecret from random bytes, and a seed (XXH3 takes the seed
 * for keys under 240 bytes, the secret past that). */
static struct {
	uint64_t seed;
	unsigned char secret[XXH3_SECRET_DEFAULT_SIZE];
} run_key;

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static bool key_ready;  /* run_key is drawn: set with release, read with acquire */

/* 32 random bytes from getrandom(2); where it fails (a kernel before
 * 3.17, a seccomp filter), what no input can know ahead: the clock, the
 * pid and an address the loader placed. */
static void random_material(unsigned char material[32])
{
	struct timespec now;
	uint64_t mix[4];
	size_t got = 0;
	ssize_t n;

	while (got < 32) {
		n = getrandom(material + got, 32 - got, GRND_NONBLOCK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got == 32)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	mix[0] = (uint64_t)now.tv_sec;
	mix[1] = (uint64_t)now.tv_nsec;
	mix[2] = (uint64_t)getpid();
	mix[3] = (uint64_t)(uintptr_t)&mix;
	memcpy(material, mix, 32);
}

static void key_init(void)
{
	const char *given = getenv("CPROF_HASH_SEED");
	unsigned char material[32];
	uint64_t seed;

	if (given && cprof_parse_u64(given, &seed)) {
		memset(material, 0, sizeof(material));
		memcpy(material, &seed, sizeof(seed));
	} else {
		random_material(material);
	}
	XXH3_generateSecret(run_key.secret, sizeof(run_key.secret), material, sizeof(material));
	run_key.seed = XXH3_64bits(run_key.secret, sizeof(run_key.secret));
	__atomic_store_n(&key_ready, true, __ATOMIC_RELEASE);
}

uint64_t cprof_hash(const void *data, size_t len)
{
	/* once drawn, the key is read without a call (a frame line of perf's
	 * text is hashed millions of times) */
	if (!__atomic_load_n(&key_ready, __ATOMIC_ACQUIRE))
		pthread_once(&key_once, key_init);
	return XXH3_64bits_withSecretandSeed(data, len, run_key.secret, sizeof(run_key.secret),
					     run_key.seed);
}

uint64_t cprof_hash_u64(uint64_t value)
{
	return cprof_hash(&value, sizeof(value));
}

/* The 64 bits folded to GLib's 32: GHashTable takes the remainder of
 * hash * 11 by a prime, so every bit counts. */
static unsigned fold(uint64_t h)
{
	return (unsigned)(h ^ h >> 32);
}

unsigned cprof_str_hash(const void *key)
{
	return fold(cprof_hash(key, strlen(key)));
}

unsigned cprof_int64_hash(const void *key)
{
	uint64_t value;

	memcpy(&value, key, sizeof(value));
	return fold(cprof_hash_u64(value));
}

struct cprof_strings {
	GHashTable *set;       /* of the copies in `arena` */
	struct cprof_arena arena;
};

struct cprof_strings *cprof_strings_new(void)
{
	struct cprof_strings *strings = cprof_xcalloc(1, sizeof(*strings));

	strings->set = g_hash_table_new(cprof_str_hash, g_str_equal);
	return strings;
}

const char *cprof_strings_intern(struct cprof_strings *strings, const char *s)
{
	char *copy = g_hash_table_lookup(strings->set, s);

	if (!copy) {
		copy = cprof_arena_strndup(&strings->arena, s, strlen(s));
		g_hash_table_add(strings->set, copy);
	}
	return copy;
}

void cprof_strings_clear(struct cprof_strings *strings)
{
	g_hash_table_remove_all(strings->set);
	cprof_arena_free(&strings->arena);
}

void cprof_strings_free(struct cprof_strings *strings)
{
	if (!strings)
		return;
	g_hash_table_destroy(strings->set);
	cprof_arena_free(&strings->arena);
	free(strings);
}
