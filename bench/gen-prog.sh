#!/bin/sh
# bench/gen-prog.sh N: writes a C program with N functions, each with an
# inlined helper, that call one another in random chains 9 deep, so that
# its profile spreads over thousands of functions and inlined frames, for
# the symbolized benchmarks.  Run it as: prog MILLISECONDS
n=${1:-3000}
awk -v n="$n" 'BEGIN {
	print "#include <stdlib.h>"
	print "#include <time.h>"
	print "volatile double sink;"
	print "static double cpu_ms(void) { struct timespec ts; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6; }"
	printf "typedef void fn(int depth, unsigned r);\nextern fn *const fns[%d];\n", n
	for (i = 0; i < n; i++) {
		printf "static inline __attribute__((always_inline)) double h%d(double x) { for (int i = 0; i < %d; i++) x = x * 1.0000001 + %d; return x; }\n", i, 50 + (i * 37) % 200, i
		printf "__attribute__((noinline)) void f%d(int depth, unsigned r) { double x = %d; for (int i = 0; i < %d; i++) x += i * 0.5; sink = h%d(x); if (depth > 0) fns[(r >> 7) %% %d](depth - 1, r * 1103515245u + 12345u); }\n", i, i, 100 + (i * 53) % 400, i, n
	}
	printf "fn *const fns[%d] = {", n
	for (i = 0; i < n; i++)
		printf "%sf%d", (i ? ", " : ""), i
	print "};"
	print "int main(int argc, char **argv) {"
	print "	double end = cpu_ms() + (argc > 1 ? atof(argv[1]) : 1000);"
	print "	unsigned r = 1;"
	print "	while (cpu_ms() < end)"
	printf "		for (int k = 0; k < 64; k++) { r = r * 1103515245u + 12345u; fns[(r >> 9) %% %d](8, r); }\n", n
	print "	return 0;"
	print "}"
}'
