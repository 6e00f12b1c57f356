/* fuzz-sched: libFuzzer target for cprof-sched: the problem reader, its
 * validation, and for the problems it accepts the solve (CLP through
 * src/sched/sched-solve.cc) and the result JSON.  Any crash, leak or sanitizer
 * report is a bug, and so is an "optimal" answer that breaks a constraint
 * of a generated problem.
 *
 * An input that starts with 'G' is not JSON but the parameters of a
 * generated problem, large enough for CLP's large-problem paths (up to
 * 50 platforms x 400 apps, 20,000 columns); see struct knobs.  Any other
 * input is the problem JSON itself.  With FUZZ_SCHED_JSON=FILE in the
 * environment, a generated problem is also written to FILE, to make a
 * test case of it.  See tests/fuzz/README.sched. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sched/sched-lp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Features for libFuzzer beyond the coverage of the instrumented code:
 * CLP is not instrumented, so what it did shows here, by outcome, size
 * and the number of pairs in the answer. */
__attribute__((section("__libfuzzer_extra_counters"))) static uint8_t features[4][16][16];

/* The bytes after 'G', each 0 when the input is shorter. */
struct knobs {
	int platforms;         /* byte 1: 1 + b % 50 */
	int apps;              /* bytes 2-3: 1 + u16 % 400 */
	int null_pct;          /* byte 4: % of pairs unusable, b % 101 */
	int zero_pct;          /* byte 5: % of loads 0, b % 101 */
	double factor;         /* byte 6: capacity / even share, 0.05 * (1 + b) */
	double spread;         /* byte 7: CPIs in [0.5, 0.5 + b / 16]; 0: all 0.5 */
	int extreme_pm;        /* byte 8: per mille of numbers extreme, b * 4 */
	uint64_t seed;         /* bytes 9-16 */
};

static uint64_t state;

/* splitmix64, as tests/sched-gen.c */
static uint64_t next(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform(void)
{
	return (double)(next() >> 11) * 0x1p-53;
}

static bool chance_pm(int per_mille)
{
	return (int)(next() % 1000) < per_mille;
}

static struct knobs read_knobs(const uint8_t *data, size_t size)
{
	uint8_t b[17] = { 0 };
	struct knobs k;
	int i;

	memcpy(b, data, size < sizeof(b) ? size : sizeof(b));
	k.platforms = 1 + b[1] % 50;
	k.apps = 1 + (b[2] | b[3] << 8) % 400;
	k.null_pct = b[4] % 101;
	k.zero_pct = b[5] % 101;
	k.factor = 0.05 * (1 + b[6]);
	k.spread = b[7] / 16.0;
	k.extreme_pm = b[8] * 4;
	k.seed = 0;
	for (i = 9; i < 17; i++)
		k.seed = k.seed << 8 | b[i];
	return k;
}

/* A number, or with extreme_pm per mille an extreme one: tiny, huge, or
 * just below CPROF_SCHED_INFINITY (when `positive`, never 0). */
static double number(const struct knobs *k, double usual, bool positive)
{
	static const double extremes[] = { 1e-12, 1e-6, 1e6, 1e12, 1e20, 9.9e26, 0 };

	if (!chance_pm(k->extreme_pm))
		return usual;
	return extremes[next() % (positive ? 6 : 7)];
}

/* The generated problem, as numbers and as the JSON text it is read from. */
struct problem {
	int platforms, apps;
	double *capacity, *load, *cpi;   /* cpi[i * apps + j], 0: null */
};

static void generate(const struct knobs *k, struct problem *p)
{
	double total = 0;
	int i, j;

	state = k->seed;
	p->platforms = k->platforms;
	p->apps = k->apps;
	p->capacity = calloc((size_t)p->platforms, sizeof(double));
	p->load = calloc((size_t)p->apps, sizeof(double));
	p->cpi = calloc((size_t)p->platforms * (size_t)p->apps, sizeof(double));
	if (!p->capacity || !p->load || !p->cpi)
		abort();
	for (j = 0; j < p->apps; j++) {
		p->load[j] = chance_pm(10 * k->zero_pct) ? 0 : number(k, 1 + 999 * uniform(), false);
		total += p->load[j];
	}
	for (i = 0; i < p->platforms; i++) {
		double share = total * (0.5 + k->spread / 2) / p->platforms;

		p->capacity[i] = number(k, k->factor * share * (0.5 + uniform()), false);
		for (j = 0; j < p->apps; j++)
			if (!chance_pm(10 * k->null_pct))
				p->cpi[i * p->apps + j] = number(k, 0.5 + k->spread * uniform(), true);
	}
}

static void problem_free(struct problem *p)
{
	free(p->capacity);
	free(p->load);
	free(p->cpi);
}

/* Writes the problem's JSON to the file `f`. */
static void write_json(const struct problem *p, FILE *f)
{
	int i, j;

	fputs("{\"platforms\": [", f);
	for (i = 0; i < p->platforms; i++)
		fprintf(f, "%s{\"name\": \"p%d\", \"capacity\": %.17g}", i ? ", " : "", i,
			p->capacity[i]);
	fputs("], \"apps\": [", f);
	for (j = 0; j < p->apps; j++)
		fprintf(f, "%s{\"name\": \"a%d\", \"load\": %.17g}", j ? ", " : "", j, p->load[j]);
	fputs("], \"cpi\": [", f);
	for (i = 0; i < p->platforms; i++) {
		fputs(i ? ", [" : "[", f);
		for (j = 0; j < p->apps; j++) {
			double c = p->cpi[i * p->apps + j];

			if (c > 0)
				fprintf(f, "%s%.17g", j ? ", " : "", c);
			else
				fputs(j ? ", null" : "null", f);
		}
		fputc(']', f);
	}
	fputs("]}\n", f);
}

/* Within CLP's tolerance (1e-7 on the scaled problem) of `want`, taken
 * loosely: 1e-6 of the largest number in play. */
static bool close_to(double got, double want, double scale)
{
	return fabs(got - want) <= 1e-6 * fmax(1.0, fmax(fabs(want), scale));
}

/* Aborts when the optimal answer `root` places an app's load short or
 * long, uses an unusable pair, or fills a platform past its capacity. */
static void check_answer(const struct problem *p, json_t *root)
{
	json_t *assignment = json_object_get(root, "assignment"), *pair;
	double *placed = calloc((size_t)p->apps, sizeof(double));
	double *used = calloc((size_t)p->platforms, sizeof(double));
	double *biggest = calloc((size_t)p->platforms, sizeof(double));
	size_t n;
	int i, j;

	if (!placed || !used || !biggest || !json_is_array(assignment))
		abort();
	json_array_foreach(assignment, n, pair) {
		double load = json_real_value(json_object_get(pair, "load")), c;

		i = atoi(json_string_value(json_object_get(pair, "platform")) + 1);
		j = atoi(json_string_value(json_object_get(pair, "app")) + 1);
		c = p->cpi[i * p->apps + j];
		if (!(c > 0) || !(load > 0))
			abort();
		placed[j] += load;
		used[i] += c * load;
		biggest[i] = fmax(biggest[i], c * load);
	}
	for (j = 0; j < p->apps; j++)
		if (!close_to(placed[j], p->load[j], 0))
			abort();
	for (i = 0; i < p->platforms; i++)
		if (used[i] > p->capacity[i] && !close_to(used[i], p->capacity[i], biggest[i]) &&
		    p->capacity[i] < CPROF_SCHED_INFINITY)
			abort();
	free(placed);
	free(used);
	free(biggest);
}

/* Bucket of n: 0 for 0, else 1 + floor(log2 n), at most 15. */
static int bucket(size_t n)
{
	int b = 0;

	while (n && b < 15) {
		n >>= 1;
		b++;
	}
	return b;
}

/* Reads, solves and prints the problem in the file `path`; checks the
 * answer against `p` when it is given. */
static void run(const char *path, const struct problem *p)
{
	struct cprof_error err = { { 0 }, 0 };
	enum cprof_sched_status status;
	struct cprof_sched *sched;
	json_t *root;
	char *text;

	sched = cprof_sched_read(path, &err);
	if (!sched) {
		if (!err.text[0] || p)
			abort(); /* an error must say what it is; generated problems are valid */
		return;
	}
	status = cprof_sched_solve(sched, &err);
	if (status == CPROF_SCHED_UNSOLVED && !err.text[0])
		abort();
	root = status == CPROF_SCHED_UNSOLVED ? NULL : cprof_sched_json(sched);
	if (root) {
		json_t *assignment = json_object_get(root, "assignment");
		size_t pairs = json_is_array(assignment) ? json_array_size(assignment) : 0;

		features[status][bucket(p ? (size_t)(p->platforms * p->apps) : 0)][bucket(pairs)]++;
		if (p && status == CPROF_SCHED_OPTIMAL)
			check_answer(p, root);
		text = json_dumps(root, JSON_COMPACT);
		if (!text)
			abort();
		free(text);
		json_decref(root);
	}
	cprof_sched_free(sched);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct problem problem;
	char path[64];
	FILE *f;
	int fd;

	fd = memfd_create("fuzz", 0);
	if (fd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (size > 0 && data[0] == 'G') {
		struct knobs knobs = read_knobs(data, size);

		generate(&knobs, &problem);
		f = fdopen(dup(fd), "w");
		if (!f)
			abort();
		write_json(&problem, f);
		if (fclose(f) != 0)
			abort();
		if (getenv("FUZZ_SCHED_JSON") && (f = fopen(getenv("FUZZ_SCHED_JSON"), "w"))) {
			write_json(&problem, f);
			fclose(f);
		}
		run(path, &problem);
		problem_free(&problem);
	} else {
		if (size && write(fd, data, size) != (ssize_t)size)
			abort();
		run(path, NULL);
	}
	close(fd);
	return 0;
}
