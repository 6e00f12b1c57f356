/* heapprog: allocates known amounts in known functions, under libtcmalloc's
 * heap profiler (HEAPPROFILE=PREFIX, then PREFIX.0001.heap): big() keeps
 * 3 MiB, small() 1 MiB, in blocks of 64 KiB; churn() allocates 8 MiB and
 * frees each block (through a volatile pointer, so that the compiler keeps
 * the pair). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gperftools/heap-profiler.h>

enum { BLOCK = 64 << 10 };

static void *keep[1024];
void *volatile churned;
static int kept;

__attribute__((noinline)) static void big(void)
{
	for (int i = 0; i < 48; i++) {
		keep[kept] = malloc(BLOCK);
		memset(keep[kept++], 1, BLOCK);
	}
}

__attribute__((noinline)) static void small(void)
{
	for (int i = 0; i < 16; i++) {
		keep[kept] = malloc(BLOCK);
		memset(keep[kept++], 2, BLOCK);
	}
}

__attribute__((noinline)) static void churn(void)
{
	for (int i = 0; i < 128; i++) {
		churned = malloc(BLOCK);
		memset(churned, 3, BLOCK);
		free(churned);
	}
}

int main(void)
{
	big();
	small();
	churn();
	HeapProfilerDump("end");
	printf("%d\n", kept);
	return 0;
}
