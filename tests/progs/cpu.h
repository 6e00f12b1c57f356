/* cpu.h: CPU time in milliseconds, for test programs that must spend known
 * shares of their time in known places. */
#include <time.h>

static inline double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
