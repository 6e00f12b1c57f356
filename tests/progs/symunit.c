/* symunit.c: functions at known places for tests/symbolize-unit.test,
 * which builds it as a PIE, a fixed-address executable and a shared
 * object, and checks cprof's symbolizer against addr2line on each. */
#include <stdlib.h>

volatile int sink;

__attribute__((noinline)) int leaf_a(int x)
{
	return x * 3 + sink;
}

__attribute__((noinline)) int leaf_b(int x)
{
	sink = x;
	return leaf_a(x) + 1;
}

static inline __attribute__((always_inline)) int inlined_helper(int x)
{
	int y = 0;

	for (int i = 0; i < x; i++)
		y += leaf_a(i) ^ sink;
	return y;
}

__attribute__((noinline)) int outer(int x)
{
	return inlined_helper(x) + 2;
}

/* Its last instruction is a call: the return address lies past its end,
 * in whatever follows, so only PC - 1 names it. */
__attribute__((noinline, noreturn)) void ends_in_call(int x)
{
	sink = x;
	abort();
}

int main(int argc, char **argv)
{
	if (argc > 5)
		ends_in_call(argc);
	return outer(argc) + leaf_b(argc) > 1000;
}
