/* split.c: spends CPU time in two loops, the share of the first given, as
 * a compressor's levels split theirs (gzip -1 against gzip -6), for
 * tests/symbolize-stripped.test:
 *
 *   split MILLISECONDS PERCENT
 *
 * Each round gives scan PERCENT% of 20 ms of CPU time and match the
 * rest.  Each round is scaled by one random factor between 0.5 and 1.5
 * (seeded: every run has the same rounds) so that the rounds do not beat
 * with the profiler's timer ticks; the thread's clock, read every 200,000
 * iterations (tests/progs/cpu.h, tests/progs/shift.c say why). */
#include <stdlib.h>

#include "cpu.h"

volatile double sink;

/* Two loops that differ by a constant, so that no compiler folds them
 * into one function; external, so that neither is renamed as a clone. */
void scan(double until);
void match(double until);

__attribute__((noinline)) void scan(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < 200000; i++)
			x += i * 0.5;
	sink = x;
}

__attribute__((noinline)) void match(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < 200000; i++)
			x -= i * 0.25;
	sink = x;
}

int main(int argc, char **argv)
{
	double end, scan_ms;

	if (argc != 3)
		return 2;
	scan_ms = 20 * atof(argv[2]) / 100;
	srand(1);
	end = cpu_ms() + atof(argv[1]);
	while (cpu_ms() < end) {
		double scale = 0.5 + (double)(rand() % 1000) / 1000.0;

		scan(cpu_ms() + scan_ms * scale);
		match(cpu_ms() + (20 - scan_ms) * scale);
	}
	return 0;
}
