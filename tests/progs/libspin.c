/* libspin.c: a shared library of the test program's own. */
#include "cpu.h"

volatile double spin_sink;

__attribute__((noinline)) void spin_in_lib(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < 100000; i++) /* sym.c's BLOCK */
			x += i * 0.75;
	spin_sink = x;
}
