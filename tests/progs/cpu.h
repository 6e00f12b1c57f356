/* cpu.h: CPU time in milliseconds, for test programs that must spend known
 * shares of their time in known places.  The thread's clock, read exactly
 * (the programs have one thread): while libprofiler's ITIMER_PROF runs,
 * the process clock is read from the process-wide CPU timer, which
 * advances by the kernel's ticks (4 ms at HZ=250), so that phases of a
 * few milliseconds ran for the tick's length rather than their own
 * (sym's 4:3:2:1 came out as about 30:25:22:22). */
#include <time.h>

static inline double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
