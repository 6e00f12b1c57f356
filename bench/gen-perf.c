/* gen-perf: writes `perf script` text as perf 6.1 prints a `perf record
 * -g` recording: SAMPLES samples over STACKS Zipf-weighted call chains of
 * depth 3 to 40, frames from 2,000 functions in 8 DSOs with their
 * addresses and offsets.
 *
 *   gen-perf SAMPLES STACKS >perf.txt */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { FUNCTIONS = 2000, DSOS = 8 };

static uint64_t state = 88172645463325252u;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

int main(int argc, char **argv)
{
	static const char *const dsos[DSOS] = {
		"/usr/bin/server", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/usr/lib/x86_64-linux-gnu/libm.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30",
		"/usr/lib/x86_64-linux-gnu/libssl.so.3", "[kernel.kallsyms]",
		"/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", "/tmp/perf-4242.map",
	};
	unsigned long long samples, stacks, i;
	uint32_t (*chains)[41];
	double *cum, total = 0;

	if (argc != 3 || !(samples = strtoull(argv[1], NULL, 10)) ||
	    !(stacks = strtoull(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: gen-perf SAMPLES STACKS\n");
		return 2;
	}
	chains = malloc(stacks * sizeof(*chains));
	cum = malloc(stacks * sizeof(*cum));
	if (!chains || !cum)
		return 2;
	for (i = 0; i < stacks; i++) {
		uint32_t depth = 3 + next() % 38, j;

		chains[i][0] = depth;
		for (j = 1; j <= depth; j++)
			chains[i][j] = (uint32_t)(next() % FUNCTIONS);
		total += 1.0 / (double)(i + 1);
		cum[i] = total;
	}
	for (i = 0; i < samples; i++) {
		double u = (double)(next() >> 11) / 9007199254740992.0 * total;
		unsigned long long lo = 0, hi = stacks - 1;
		uint32_t j;

		while (lo < hi) {
			unsigned long long mid = (lo + hi) / 2;

			if (cum[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		printf("server 4242/%u %llu.%06llu:    1001001 cpu-clock:ppp: \n", 4242 + (unsigned)(lo % 4),
		       100 + i / 1000, (i % 1000) * 1000);
		for (j = 1; j <= chains[lo][0]; j++) {
			uint32_t f = chains[lo][j], off = (uint32_t)(next() % 64);
			const char *dso = dsos[f % DSOS];

			if (f % DSOS == 5)
				printf("\tffffffff81%06x kfunc_%u+0x%x (%s)\n", f * 256 + off, f, off, dso);
			else
				printf("\t%16x fn_%u_%s+0x%x (%s)\n", 0x1000 + f * 256 + off, f,
				       f % 3 ? "work" : "std::vector<int>::push_back(int const&)", off,
				       dso);
		}
		printf("\n");
	}
	free(chains);
	free(cum);
	return fflush(stdout) == 0 ? 0 : 1;
}
