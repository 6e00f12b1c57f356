/* work.c: a fixed amount of work, its CPU time in fixed shares, for
 * bench/regress-real.bench:
 *
 *   work ROUNDS [FACTOR]
 *
 * Each round runs hot for 18 units and cold for 2, a unit 100,000
 * iterations of a loop, every round scaled by one random factor between
 * 0.5 and 1.5 (seeded: every run does the same rounds) so that the rounds
 * do not beat with the profiler's ticks.  FACTOR (default 1) multiplies
 * every loop's iterations: 1.05 is a build that does 5% more work in every
 * function.  The work is counted in iterations, not timed: the CPU time a
 * run takes is what the machine makes of it. */
#include <stdlib.h>

volatile double sink;

void hot(long n);
void cold(long n);

__attribute__((noinline)) void hot(long n)
{
	double x = 0;

	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

__attribute__((noinline)) void cold(long n)
{
	double x = 0;

	for (long i = 0; i < n; i++)
		x -= (double)i * 0.25;
	sink = x;
}

int main(int argc, char **argv)
{
	double factor = argc > 2 ? atof(argv[2]) : 1.0, unit = 100000;
	long rounds;

	if (argc < 2 || argc > 3 || factor <= 0)
		return 2;
	rounds = atol(argv[1]);
	srand(1);
	for (long r = 0; r < rounds; r++) {
		double scale = 0.5 + (double)(rand() % 1000) / 1000.0;

		hot((long)(18 * unit * scale * factor));
		cold((long)(2 * unit * scale * factor));
	}
	return 0;
}
