/* sym.c: spends CPU time in fixed shares in a plain function, an inlined
 * helper, a shared library of its own and libm:
 *   sym MILLISECONDS
 * Per round (scaled by a random factor so as not to beat with the timer):
 * hot_main 4 ms, inline_helper (inlined into outer_fn) 3 ms, spin_in_lib
 * 2 ms, sin in libm 1 ms.
 *
 * Each loop reads the clock (a system call) every 0.1 to 0.2 ms of work
 * (BLOCK iterations, fewer for the slower divide), not every 20,000
 * iterations: at that rate the reads held 10 to 25% of the samples on a
 * loaded machine (tests/progs/shift.c).  A call overruns its time by one
 * block at most, which tests/symbolize.test's bounds allow. */
#include <math.h>
#include <stdlib.h>

#include "cpu.h"

void spin_in_lib(double until);

enum { BLOCK = 100000 };

volatile double sink;

__attribute__((noinline)) void hot_main(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < BLOCK; i++)
			x += i * 0.5; /* HOT LINE */
	sink = x;
}

static inline __attribute__((always_inline)) double inline_helper(double until)
{
	double x = 1;

	while (cpu_ms() < until)
		for (int i = 1; i < BLOCK / 2; i++)
			x *= 1.0 + 1.0 / i;
	return x;
}

__attribute__((noinline)) void outer_fn(double until)
{
	sink = inline_helper(until);
}

__attribute__((noinline)) void call_sin(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < 20000; i++)
			x += sin(i * 0.001 + x * 1e-9);
	sink = x;
}

int main(int argc, char **argv)
{
	double end = cpu_ms() + (argc > 1 ? atof(argv[1]) : 1000);

	srand(1);
	while (cpu_ms() < end) {
		double scale = 0.5 + (double)(rand() % 1000) / 1000.0;

		hot_main(cpu_ms() + 4 * scale);
		outer_fn(cpu_ms() + 3 * scale);
		spin_in_lib(cpu_ms() + 2 * scale);
		call_sin(cpu_ms() + 1 * scale);
	}
	return 0;
}
