/* shift.c: spends CPU time in fixed shares, and with "fresh" moves 5% of
 * it into a function the plain program never calls (for
 * tests/regress-noise-real.test):
 *
 *   shift MILLISECONDS [fresh]
 *
 * Each round gives hot 18 ms and cold 2 ms of CPU time; with "fresh", hot
 * gives 1 of its 18 ms to fresh, so the rounds are as long and fresh holds
 * 5% of the time.  Each round is scaled by one random factor between 0.5
 * and 1.5 (seeded: every run has the same rounds) so that the rounds do
 * not beat with the profiler's timer ticks.
 *
 * The clock is CLOCK_THREAD_CPUTIME_ID, not CLOCK_PROCESS_CPUTIME_ID
 * (as examples/burn.c): while libprofiler's ITIMER_PROF is armed,
 * Linux may read the process clock from the process-wide CPU timer, which
 * only moves at the scheduler tick (every 4 ms at HZ=250).  A 2 ms
 * segment timed with it then runs until the next tick and is sampled
 * there nearly every time: under libprofiler burn's short functions get
 * about one sample a call, whatever their weight (cold=2 beside hot=18
 * shows 16% of the samples, not 10%).  The thread clock is read exactly.
 *
 * The clock is read every 200,000 iterations (about 0.3 ms), not every
 * 20,000: each read is a system call, and at that rate the reads held 10
 * to 25% of the samples, a share that moved with the machine's load and
 * made the runs overdispersed (a dispersion of 5 on a loaded machine). */
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

/* Three loops that differ by a constant, so that no compiler folds them
 * into one function; external, so that none is renamed as a clone. */
void hot(double until);
void cold(double until);
void fresh(double until);

__attribute__((noinline)) void hot(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < 200000; i++)
			x += i * 0.5;
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

__attribute__((noinline)) void fresh(double until)
{
	double x = 0;

	while (cpu_ms() < until)
		for (int i = 0; i < 200000; i++)
			x += i * 0.125;
	sink = x;
}

int main(int argc, char **argv)
{
	double end, hot_ms = 18;
	int with_fresh = 0;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "fresh") != 0))
		return 2;
	if (argc == 3) {
		with_fresh = 1;
		hot_ms = 17;
	}
	srand(1);
	end = cpu_ms() + atof(argv[1]);
	while (cpu_ms() < end) {
		double scale = 0.5 + (double)(rand() % 1000) / 1000.0;

		hot(cpu_ms() + hot_ms * scale);
		cold(cpu_ms() + 2 * scale);
		if (with_fresh)
			fresh(cpu_ms() + 1 * scale);
	}
	return 0;
}
