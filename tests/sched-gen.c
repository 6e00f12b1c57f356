/* sched-gen: writes a random cprof-sched problem as JSON, and the same
 * linear program as a free-format MPS file for clp and glpsol.
 *
 *   sched-gen [-s SEED] [-n NULL%] [-z ZERO%] [-f FACTOR] PLATFORMS APPS JSON MPS
 *
 * Loads are uniform in [1, 1000] (ZERO% of them 0), CPIs uniform in
 * [0.5, 4] (NULL% of them null: the pair unusable), and each platform's
 * capacity is FACTOR times an even share of the load at CPI 2.25, spread
 * by a uniform factor in [0.5, 1.5].  Every number has three decimals and
 * both files print it the same way, so both read the same doubles.  The
 * same seed gives the same files on every machine. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t state;

/* splitmix64 */
static uint64_t next(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A whole number of thousandths in [lo, hi] thousandths. */
static long thousandths(long lo, long hi)
{
	return lo + (long)(next() % (uint64_t)(hi - lo + 1));
}

static int percent(double p)
{
	return (double)(next() % 10000) < p * 100.0;
}

static void usage(void)
{
	fprintf(stderr, "usage: sched-gen [-s SEED] [-n NULL%%] [-z ZERO%%] [-f FACTOR] "
			"PLATFORMS APPS JSON MPS\n");
	exit(2);
}

static FILE *create(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

static void finish(FILE *f, const char *path)
{
	if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
		perror(path);
		exit(2);
	}
}

static void print_thousandths(FILE *f, long v)
{
	fprintf(f, "%ld.%03ld", v / 1000, v % 1000);
}

int main(int argc, char **argv)
{
	double null_pct = 0, zero_pct = 0, factor = 1.0, total = 0;
	long platforms, apps, i, j, *load, *capacity, *cpi;
	uint64_t seed = 1;
	FILE *json, *mps;
	int opt;

	while ((opt = getopt(argc, argv, "f:n:s:z:")) != -1) {
		switch (opt) {
		case 'f':
			factor = atof(optarg);
			break;
		case 'n':
			null_pct = atof(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 10);
			break;
		case 'z':
			zero_pct = atof(optarg);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 4)
		usage();
	platforms = atol(argv[optind]);
	apps = atol(argv[optind + 1]);
	if (platforms < 0 || apps < 0)
		usage();
	state = seed;

	load = calloc((size_t)apps + 1, sizeof(*load));
	capacity = calloc((size_t)platforms + 1, sizeof(*capacity));
	cpi = calloc((size_t)(platforms * apps) + 1, sizeof(*cpi));
	if (!load || !capacity || !cpi) {
		fprintf(stderr, "sched-gen: out of memory\n");
		return 2;
	}
	for (j = 0; j < apps; j++) {
		load[j] = percent(zero_pct) ? 0 : thousandths(1000, 1000000);
		total += (double)load[j] / 1000.0;
	}
	for (i = 0; i < platforms; i++) {
		double share = platforms ? total * 2.25 / (double)platforms : 0;

		capacity[i] = (long)(factor * share * (double)thousandths(500, 1500));
		for (j = 0; j < apps; j++)
			cpi[i * apps + j] = percent(null_pct) ? 0 : thousandths(500, 4000);
	}

	json = create(argv[optind + 2]);
	fputs("{\"platforms\": [", json);
	for (i = 0; i < platforms; i++) {
		fprintf(json, "%s\n  {\"name\": \"p%ld\", \"capacity\": ", i ? "," : "", i);
		print_thousandths(json, capacity[i]);
		fputc('}', json);
	}
	fputs("],\n \"apps\": [", json);
	for (j = 0; j < apps; j++) {
		fprintf(json, "%s\n  {\"name\": \"a%ld\", \"load\": ", j ? "," : "", j);
		print_thousandths(json, load[j]);
		fputc('}', json);
	}
	fputs("],\n \"cpi\": [", json);
	for (i = 0; i < platforms; i++) {
		fputs(i ? ",\n  [" : "\n  [", json);
		for (j = 0; j < apps; j++) {
			if (j)
				fputs(", ", json);
			if (cpi[i * apps + j])
				print_thousandths(json, cpi[i * apps + j]);
			else
				fputs("null", json);
		}
		fputc(']', json);
	}
	fputs("]}\n", json);
	finish(json, argv[optind + 2]);

	mps = create(argv[optind + 3]);
	fputs("NAME SCHED\nROWS\n N COST\n", mps);
	for (j = 0; j < apps; j++)
		fprintf(mps, " E A%ld\n", j);
	for (i = 0; i < platforms; i++)
		fprintf(mps, " L P%ld\n", i);
	fputs("COLUMNS\n", mps);
	for (i = 0; i < platforms; i++)
		for (j = 0; j < apps; j++) {
			long c = cpi[i * apps + j];

			if (!c)
				continue;
			fprintf(mps, " X%ld_%ld COST ", i, j);
			print_thousandths(mps, c);
			fprintf(mps, " A%ld 1\n X%ld_%ld P%ld ", j, i, j, i);
			print_thousandths(mps, c);
			fputc('\n', mps);
		}
	fputs("RHS\n", mps);
	for (j = 0; j < apps; j++)
		if (load[j]) {
			fprintf(mps, " RHS A%ld ", j);
			print_thousandths(mps, load[j]);
			fputc('\n', mps);
		}
	for (i = 0; i < platforms; i++) {
		fprintf(mps, " RHS P%ld ", i);
		print_thousandths(mps, capacity[i]);
		fputc('\n', mps);
	}
	fputs("ENDATA\n", mps);
	finish(mps, argv[optind + 3]);
	free(load);
	free(capacity);
	free(cpi);
	return 0;
}
