/* test-stats: entropy, the stability summary and the top-k Manhattan
 * distance of src/metrics/stats.c against values worked out by hand. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "metrics/json-metrics.h"
#include "metrics/judge.h"
#include "metrics/options.h"
#include "metrics/stats.h"
#include "check.h"

/* Hand-computed values are checked to 1e-12, relative to 1 at least. */
static void near(const char *what, double got, double want)
{
	check(fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want)), "%s: got %.17g, want %.17g", what,
	      got, want);
}

static void exact(const char *what, double got, double want)
{
	check(got == want, "%s: got %.17g, want exactly %.17g", what, got, want);
}

/* A distribution from "key count" pairs ending with NULL; total is the sum
 * of the counts plus `other`. */
static struct cprof_dist *dist_of(uint64_t other, ...)
{
	struct cprof_dist *dist = cprof_dist_new(CPROF_BY_FUNCTION, false);
	const char *key;
	va_list ap;

	va_start(ap, other);
	while ((key = va_arg(ap, const char *)) != NULL) {
		uint64_t count = va_arg(ap, int);

		cprof_dist_add(dist, key, count);
		dist->total += count;
	}
	va_end(ap);
	dist->total += other;
	return dist;
}

static struct cprof_entropy entropy_of(struct cprof_dist *dist, enum cprof_base base)
{
	struct cprof_entropy e;
	struct cprof_error err = { { 0 }, 0 };

	memset(&e, 0, sizeof(e));
	check(cprof_entropy_compute(dist, base, &e, &err) == 0, "entropy failed: %s", err.text);
	return e;
}

static void test_entropy(void)
{
	struct cprof_dist *d;
	struct cprof_entropy e;
	struct cprof_error err = { { 0 }, 0 };

	/* Uniform over 4: 2 bits exactly, normalized 1. */
	d = dist_of(0, "a", 5, "b", 5, "c", 5, "d", 5, NULL);
	e = entropy_of(d, CPROF_BASE_2);
	exact("uniform 4: entropy", e.entropy, 2.0);
	exact("uniform 4: normalized", e.normalized, 1.0);
	check(e.entries == 4 && e.total == 20 && !e.lower_bound, "uniform 4: entries %zu total %llu",
	      e.entries, (unsigned long long)e.total);
	/* In nats: 2 ln 2 = ln 4; normalized does not depend on the base. */
	e = entropy_of(d, CPROF_BASE_E);
	near("uniform 4: nats", e.entropy, log(4.0));
	near("uniform 4: nats normalized", e.normalized, 1.0);
	cprof_dist_free(d);

	/* Uniform over 10 in base 10: 1 hartley. */
	d = dist_of(0, "0", 1, "1", 1, "2", 1, "3", 1, "4", 1, "5", 1, "6", 1, "7", 1, "8", 1, "9", 1,
		    NULL);
	e = entropy_of(d, CPROF_BASE_10);
	/* Ten terms of 0.1: exact with compensated summation. */
	exact("uniform 10: hartleys", e.entropy, 1.0);
	exact("uniform 10: normalized", e.normalized, 1.0);
	cprof_dist_free(d);

	/* 3:1: 0.75 log2(4/3) + 0.25 log2 4 = 2 - 0.75 log2 3. */
	d = dist_of(0, "f", 3, "g", 1, NULL);
	e = entropy_of(d, CPROF_BASE_2);
	near("3:1: bits", e.entropy, 2.0 - 0.75 * log2(3.0));
	near("3:1: normalized (log2 2 = 1)", e.normalized, 2.0 - 0.75 * log2(3.0));
	cprof_dist_free(d);

	/* 1/2, 1/4, 1/4: 1.5 bits; normalized 1.5 / log2 3. */
	d = dist_of(0, "a", 2, "b", 1, "c", 1, NULL);
	e = entropy_of(d, CPROF_BASE_2);
	exact("1/2 1/4 1/4: bits", e.entropy, 1.5);
	near("1/2 1/4 1/4: normalized", e.normalized, 1.5 / log2(3.0));
	cprof_dist_free(d);

	/* A single entry: 0, normalized 0 (not 0/0), not -0. */
	d = dist_of(0, "only", 7, NULL);
	e = entropy_of(d, CPROF_BASE_2);
	exact("single: entropy", e.entropy, 0.0);
	check(!signbit(e.entropy), "single: entropy is -0");
	exact("single: normalized", e.normalized, 0.0);
	check(e.entries == 1, "single: entries %zu", e.entries);
	cprof_dist_free(d);

	/* A zero-count key is no entry: 1 bit over 2 entries. */
	d = dist_of(0, "a", 2, "zero", 0, "b", 2, NULL);
	e = entropy_of(d, CPROF_BASE_2);
	exact("zero-count: entropy", e.entropy, 1.0);
	exact("zero-count: normalized", e.normalized, 1.0);
	check(e.entries == 2, "zero-count: entries %zu, want 2", e.entries);
	cprof_dist_free(d);

	/* A truncated flat: 4 and 2 of 8, other 2 as one entry: 1/2 1/4 1/4. */
	d = dist_of(2, "a", 4, "b", 2, NULL);
	e = entropy_of(d, CPROF_BASE_2);
	exact("other: entropy", e.entropy, 1.5);
	check(e.entries == 3 && e.lower_bound && e.total == 8, "other: entries %zu lower_bound %d",
	      e.entries, e.lower_bound);
	check(cprof_dist_other(d) == 2, "other: cprof_dist_other %llu",
	      (unsigned long long)cprof_dist_other(d));
	cprof_dist_free(d);

	/* No samples: entropy 0, no entries. */
	d = dist_of(0, NULL);
	e = entropy_of(d, CPROF_BASE_2);
	exact("empty: entropy", e.entropy, 0.0);
	check(e.entries == 0 && e.total == 0, "empty: entries %zu", e.entries);
	cprof_dist_free(d);

	/* Cumulative: refused, saying why. */
	d = dist_of(0, "main", 4, "f", 3, NULL);
	d->total = 4;
	d->cum = true;
	check(cprof_entropy_compute(d, CPROF_BASE_2, &e, &err) == -1, "cum: not refused");
	check(strstr(err.text, "sum past 1") != NULL, "cum: message '%s'", err.text);
	check(cprof_dist_other(d) == 0, "cum: other is not 0");
	cprof_dist_free(d);

	check(cprof_base_parse("2") == CPROF_BASE_2 && cprof_base_parse("e") == CPROF_BASE_E &&
		      cprof_base_parse("10") == CPROF_BASE_10 && cprof_base_parse("3") == -1 &&
		      cprof_base_parse("E") == -1 && cprof_base_parse("") == -1,
	      "cprof_base_parse");
}

/* Miller-Madow and the delta-method error against their closed forms. */
static void test_entropy_error(void)
{
	static const uint64_t halves[] = { 1, 1 };
	static const uint64_t three_one[] = { 3, 1 };
	struct cprof_entropy e;
	double h, p_ln2;

	/* Two halves: 1 bit; MM adds (2 - 1) / (2 x 2) nats; no spread of
	 * -ln p, so no error. */
	cprof_entropy_of_counts(halves, 2, 2, CPROF_BASE_2, &e);
	near("halves: entropy", e.entropy, 1.0);
	near("halves: entropy_mm", e.entropy_mm, 1.0 + 0.25 / log(2.0));
	near("halves: se", e.se, 0.0);
	/* 3/4 and 1/4 in nats: se = sqrt((sum p ln^2 p - H^2) / 4). */
	h = -(0.75 * log(0.75) + 0.25 * log(0.25));
	p_ln2 = 0.75 * log(0.75) * log(0.75) + 0.25 * log(0.25) * log(0.25);
	cprof_entropy_of_counts(three_one, 2, 4, CPROF_BASE_E, &e);
	near("3:1: entropy", e.entropy, h);
	near("3:1: entropy_mm", e.entropy_mm, h + 1.0 / 8.0);
	near("3:1: se", e.se, sqrt((p_ln2 - h * h) / 4.0));
	cprof_entropy_of_counts(three_one, 2, 4, CPROF_BASE_10, &e);
	near("3:1: se in hartleys", e.se, sqrt((p_ln2 - h * h) / 4.0) / log(10.0));
	/* Two samples more than the counts: one more entry, a lower bound. */
	cprof_entropy_of_counts(three_one, 2, 6, CPROF_BASE_2, &e);
	check(e.lower_bound && e.entries == 3, "other: entries %zu", e.entries);
	near("other: entropy_mm", e.entropy_mm, e.entropy + 2.0 / 12.0 / log(2.0));
}

static void test_stability(void)
{
	static const double four[] = { 3.0, 1.0, 4.0, 2.0 };
	static const double one[] = { 1.25 };
	static const double around_zero[] = { -1.0, 1.0 };
	static const double same[] = { 0.7, 0.7, 0.7 };
	static const double se4[] = { 0.1, 0.2, 0.2, 0.4 };
	static const double se1[] = { 0.3 };
	struct cprof_stability s;

	/* Mean 2.5; squares of deviations 0.25+2.25+2.25+0.25 = 5, / 3. */
	cprof_stability_compute(four, se4, 4, &s);
	check(s.n == 4, "four: n %zu", s.n);
	exact("four: mean", s.mean, 2.5);
	near("four: sd (n - 1)", s.sd, sqrt(5.0 / 3.0));
	exact("four: min", s.min, 1.0);
	exact("four: max", s.max, 4.0);
	near("four: cv", s.cv, sqrt(5.0 / 3.0) / 2.5);
	/* Root mean square of 0.1, 0.2, 0.2, 0.4: sqrt(0.25 / 4). */
	near("four: sampling_sd", s.sampling_sd, 0.25);

	cprof_stability_compute(one, se1, 1, &s);
	exact("one: mean", s.mean, 1.25);
	exact("one: sd", s.sd, 0.0);
	exact("one: cv", s.cv, 0.0);
	exact("one: min", s.min, 1.25);
	exact("one: max", s.max, 1.25);
	exact("one: sampling_sd", s.sampling_sd, 0.3);

	cprof_stability_compute(around_zero, se4, 2, &s);
	exact("mean 0: mean", s.mean, 0.0);
	near("mean 0: sd", s.sd, sqrt(2.0));
	exact("mean 0: cv", s.cv, 0.0);

	cprof_stability_compute(same, se4, 3, &s);
	exact("same: sd", s.sd, 0.0);
	exact("same: cv", s.cv, 0.0);
}

/* Checks the compared keys in order, given as "key" strings ending with
 * NULL. */
static void keys_are(const char *what, const struct cprof_diff *diff, ...)
{
	const char *key;
	size_t i = 0;
	va_list ap;

	va_start(ap, diff);
	while ((key = va_arg(ap, const char *)) != NULL) {
		check(i < diff->count && strcmp(diff->entries[i].key, key) == 0,
		      "%s: entry %zu is '%s', want '%s'", what, i,
		      i < diff->count ? diff->entries[i].key : "(none)", key);
		i++;
	}
	va_end(ap);
	check(i == diff->count, "%s: %zu entries, want %zu", what, diff->count, i);
}

static void test_diff(void)
{
	struct cprof_dist *a, *b;
	struct cprof_diff *d;

	/* Ties in the top-k order fall to the key: the top 2 of A (all 2 of 8)
	 * are a and b, the top 2 of B (both 4 of 8) are c and d. */
	a = dist_of(0, "d", 2, "c", 2, "b", 2, "a", 2, NULL);
	b = dist_of(0, "d", 4, "c", 4, NULL);
	d = cprof_diff_compute(a, b, 2, CPROF_KEYS_A);
	keys_are("ties, --keys a", d, "a", "b", NULL);
	exact("ties, --keys a: manhattan", d->manhattan, 0.5);
	exact("ties: delta of a", d->entries[0].delta, -0.25);
	cprof_diff_free(d);
	d = cprof_diff_compute(a, b, 2, CPROF_KEYS_UNION);
	/* Every |delta| is 1/4: sorted by key. */
	keys_are("ties, union", d, "a", "b", "c", "d", NULL);
	exact("ties, union: manhattan", d->manhattan, 1.0);
	exact("ties: delta of d", d->entries[3].delta, 0.25);
	cprof_diff_free(d);
	/* k = 1 breaks the tie among A's four keys on the key alone. */
	d = cprof_diff_compute(a, b, 1, CPROF_KEYS_UNION);
	keys_are("ties, k 1", d, "a", "c", NULL);
	exact("ties, k 1: manhattan", d->manhattan, 0.5);
	cprof_diff_free(d);
	cprof_dist_free(a);
	cprof_dist_free(b);

	/* Keys on one side only: p = 0 on the other; the full L1 distance of
	 * disjoint distributions is 2. */
	a = dist_of(0, "x", 3, "y", 1, NULL);
	b = dist_of(0, "z", 5, NULL);
	d = cprof_diff_compute(a, b, 10, CPROF_KEYS_UNION);
	keys_are("disjoint", d, "z", "x", "y", NULL);
	exact("disjoint: manhattan", d->manhattan, 2.0);
	check(d->entries[0].count_a == 0 && d->entries[0].count_b == 5 &&
		      d->entries[0].p_a == 0.0 && d->entries[0].p_b == 1.0 &&
		      d->entries[0].delta == 1.0,
	      "disjoint: z is not 0 -> 1");
	check(d->entries[1].count_b == 0 && d->entries[1].delta == -0.75, "disjoint: x");
	check(d->unknown_a == 0 && d->unknown_b == 0, "disjoint: unknown keys reported");
	cprof_diff_free(d);
	/* --keys a ignores what only B has. */
	d = cprof_diff_compute(a, b, 10, CPROF_KEYS_A);
	keys_are("disjoint, --keys a", d, "x", "y", NULL);
	exact("disjoint, --keys a: manhattan", d->manhattan, 1.0);
	cprof_diff_free(d);
	cprof_dist_free(a);
	cprof_dist_free(b);

	/* k larger than the entries is k = 0: every key. */
	a = dist_of(0, "f", 6, "g", 3, "h", 1, NULL);
	b = dist_of(0, "f", 5, "g", 5, NULL);
	d = cprof_diff_compute(a, b, 1000, CPROF_KEYS_UNION);
	keys_are("k 1000", d, "g", "f", "h", NULL);
	near("k 1000: manhattan", d->manhattan, 0.4);
	near("k 1000: delta g", d->entries[0].delta, 0.2);
	near("k 1000: delta f", d->entries[1].delta, -0.1);
	near("k 1000: delta h", d->entries[2].delta, -0.1);
	cprof_diff_free(d);
	d = cprof_diff_compute(a, b, 0, CPROF_KEYS_UNION);
	keys_are("k 0", d, "g", "f", "h", NULL);
	near("k 0: manhattan", d->manhattan, 0.4);
	cprof_diff_free(d);
	/* The top 1 of each is f alone. */
	d = cprof_diff_compute(a, b, 1, CPROF_KEYS_UNION);
	keys_are("k 1", d, "f", NULL);
	near("k 1: manhattan", d->manhattan, 0.1);
	cprof_diff_free(d);
	cprof_dist_free(a);
	cprof_dist_free(b);

	/* Zero-count keys are never in a top k: A's top 2 is a alone. */
	a = dist_of(0, "a", 4, "z", 0, NULL);
	b = dist_of(0, "a", 2, "z", 2, NULL);
	d = cprof_diff_compute(a, b, 2, CPROF_KEYS_A);
	keys_are("zero-count, --keys a", d, "a", NULL);
	exact("zero-count, --keys a: manhattan", d->manhattan, 0.5);
	cprof_diff_free(d);
	d = cprof_diff_compute(a, b, 2, CPROF_KEYS_UNION);
	keys_are("zero-count, union", d, "a", "z", NULL);
	exact("zero-count, union: manhattan", d->manhattan, 1.0);
	check(d->entries[1].count_a == 0 && d->entries[1].count_b == 2, "zero-count: z counts");
	cprof_diff_free(d);
	/* Zero on both sides: nothing to compare. */
	cprof_dist_add(b, "nothing", 0);
	cprof_dist_add(a, "nothing", 0);
	d = cprof_diff_compute(a, b, 0, CPROF_KEYS_UNION);
	keys_are("zero on both sides", d, "a", "z", NULL);
	cprof_diff_free(d);
	cprof_dist_free(a);
	cprof_dist_free(b);

	/* A single entry on both sides: distance 0 whatever the totals. */
	a = dist_of(0, "main", 5, NULL);
	b = dist_of(0, "main", 7, NULL);
	d = cprof_diff_compute(a, b, 10, CPROF_KEYS_UNION);
	keys_are("single", d, "main", NULL);
	exact("single: manhattan", d->manhattan, 0.0);
	exact("single: delta", d->entries[0].delta, 0.0);
	check(d->entries[0].count_a == 5 && d->entries[0].count_b == 7, "single: counts");
	cprof_diff_free(d);
	cprof_dist_free(a);
	cprof_dist_free(b);

	/* |delta| ties exactly: a goes 2/2 -> 4/5 (-1/5), z 0 -> 1/5; in
	 * doubles 0.8 - 1 is 0.19999999999999996 < 0.2, but the order is by
	 * the exact value, then the key. */
	a = dist_of(0, "a", 2, NULL);
	b = dist_of(0, "a", 4, "z", 1, NULL);
	d = cprof_diff_compute(a, b, 0, CPROF_KEYS_UNION);
	keys_are("exact ties", d, "a", "z", NULL);
	near("exact ties: manhattan", d->manhattan, 0.4);
	cprof_diff_free(d);
	cprof_dist_free(a);
	cprof_dist_free(b);

	/* A truncated flat (other 4 of 10): keys missing from it are counted. */
	a = dist_of(4, "f", 6, NULL);
	b = dist_of(0, "f", 5, "g", 3, "h", 2, NULL);
	d = cprof_diff_compute(a, b, 10, CPROF_KEYS_UNION);
	keys_are("truncated", d, "g", "h", "f", NULL);
	check(d->unknown_a == 2 && d->unknown_b == 0, "truncated: unknown %zu %zu", d->unknown_a,
	      d->unknown_b);
	near("truncated: manhattan", d->manhattan, 0.3 + 0.2 + 0.1);
	cprof_diff_free(d);
	cprof_dist_free(a);
	cprof_dist_free(b);

	/* A side without samples has p = 0 everywhere. */
	a = dist_of(0, NULL);
	b = dist_of(0, "f", 1, NULL);
	d = cprof_diff_compute(a, b, 10, CPROF_KEYS_UNION);
	keys_are("empty a", d, "f", NULL);
	exact("empty a: manhattan", d->manhattan, 1.0);
	cprof_diff_free(d);
	cprof_dist_free(a);
	cprof_dist_free(b);

	check(cprof_keys_parse("union") == CPROF_KEYS_UNION && cprof_keys_parse("a") == CPROF_KEYS_A &&
		      cprof_keys_parse("b") == -1,
	      "cprof_keys_parse");
	check(strcmp(cprof_keys_name(CPROF_KEYS_A), "a") == 0, "cprof_keys_name");
}

int main(void)
{
	test_entropy();
	test_entropy_error();
	test_stability();
	test_diff();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
