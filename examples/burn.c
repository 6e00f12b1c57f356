/* burn: spends CPU time in functions in fixed proportions, so that its
 * profile is known by construction.
 *
 *   burn MILLISECONDS NAME=WEIGHT ...
 *
 * NAME is hot, warm, cold (plain loops in this file) or sin (calls into
 * libm).  Each round gives every named function WEIGHT milliseconds of CPU
 * time, measured with CLOCK_THREAD_CPUTIME_ID, all scaled by one random
 * factor between 0.5 and 1.5 (so that the rounds do not beat with the
 * profiler's timer ticks), until MILLISECONDS of CPU time are spent.
 *
 * The thread clock is read exactly; the process clock may be read from
 * the process-wide CPU timer, which advances in ticks, and then the
 * function that happens to run as the tick lands is charged more than it
 * ran.  The clock is read every 200,000 iterations of a loop (20,000 calls
 * of sin), a fraction of a millisecond, so that reading it takes a negligible share of the
 * samples. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile double sink;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void hot(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < 200000; i++)
			x += i * 0.5;
	sink = x;
}

__attribute__((noinline)) void warm(double until)
{
	double x = 1;

	while (cpu_ms() < until)
		for (int i = 1; i < 200000; i++)
			x *= 1.0 + 1.0 / i;
	sink = x;
}

__attribute__((noinline)) void cold(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < 200000; i++)
			x -= i * 0.25;
	sink = x;
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
	struct { void (*fn)(double); double weight; } plan[8];
	static const struct { const char *name; void (*fn)(double); } known[] = {
		{ "hot", hot }, { "warm", warm }, { "cold", cold }, { "sin", call_sin },
	};
	int n = 0, i, j;
	double total, end;

	if (argc < 3) {
		fprintf(stderr, "usage: burn MILLISECONDS NAME=WEIGHT ...\n");
		return 2;
	}
	total = atof(argv[1]);
	for (i = 2; i < argc && n < 8; i++) {
		const char *eq = strchr(argv[i], '=');

		for (j = 0; j < 4; j++)
			if (eq && strncmp(argv[i], known[j].name, (size_t)(eq - argv[i])) == 0 &&
			    known[j].name[eq - argv[i]] == '\0')
				break;
		if (j == 4) {
			fprintf(stderr, "burn: unknown function '%s'\n", argv[i]);
			return 2;
		}
		plan[n].fn = known[j].fn;
		plan[n++].weight = atof(eq + 1);
	}
	srand(1);
	end = cpu_ms() + total;
	while (cpu_ms() < end) {
		double scale = 0.5 + (double)(rand() % 1000) / 1000.0;

		for (i = 0; i < n; i++)
			plan[i].fn(cpu_ms() + plan[i].weight * scale);
	}
	return 0;
}
