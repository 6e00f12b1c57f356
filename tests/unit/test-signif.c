/* test-signif: the tests, intervals and null distributions of
 * src/metrics/signif.c against closed forms and published values. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "metrics/noise.h"
#include "metrics/signif.h"
#include "check.h"

/* GOT is WANT within `tolerance`, relative to 1 at least. */
static void near(const char *what, double got, double want, double tolerance)
{
	check(fabs(got - want) <= tolerance * fmax(1.0, fabs(want)), "%s: got %.17g, want %.17g",
	      what, got, want);
}

/* Fisher's test by another road: the hypergeometric terms from lgamma,
 * summed over the tail, twice the smaller. */
static double fisher_oracle(unsigned a, unsigned n_a, unsigned b, unsigned n_b)
{
	unsigned t = a + b, x;
	double lower = 0, upper = 0, all = lgamma(n_a + n_b + 1.0) - lgamma(t + 1.0) -
					     lgamma(n_a + n_b - t + 1.0);

	for (x = 0; x <= t && x <= n_b; x++) {
		double term;

		if (t - x > n_a)
			continue;
		term = exp(lgamma(n_b + 1.0) - lgamma(x + 1.0) - lgamma(n_b - x + 1.0) +
			   lgamma(n_a + 1.0) - lgamma(t - x + 1.0) - lgamma(n_a - t + x + 1.0) - all);
		if (x <= b)
			lower += term;
		if (x >= b)
			upper += term;
	}
	return fmin(1.0, 2.0 * fmin(lower, upper));
}

/* Fisher's exact test below 1,000 pooled samples, against closed forms
 * and the oracle above. */
static void test_share(void)
{
	/* 0 and 5 of 100 each: P(all 5 in B) = (100 x 99 x 98 x 97 x 96) /
	 * (200 x 199 x 198 x 197 x 196), twice that. */
	near("0 vs 5", cprof_share_test(0, 100, 5, 100, 1.0),
	     2.0 * 100 * 99 * 98 * 97 * 96 / (200.0 * 199 * 198 * 197 * 196), 1e-12);
	near("2 vs 8", cprof_share_test(2, 1000, 8, 1000, 1.0), fisher_oracle(2, 1000, 8, 1000),
	     1e-10);
	near("8 vs 2", cprof_share_test(8, 1000, 2, 1000, 1.0), fisher_oracle(2, 1000, 8, 1000),
	     1e-10);
	/* Dispersion 2 halves the counts and the totals: 1 and 4 of 500. */
	near("2 vs 8, phi 2", cprof_share_test(2, 1000, 8, 1000, 2.0),
	     fisher_oracle(1, 500, 4, 500), 1e-10);
	near("equal", cprof_share_test(7, 100, 7, 100, 1.0), 1.0, 1e-12);
	near("none", cprof_share_test(0, 100, 0, 100, 1.0), 1.0, 0);
	/* 0 of A's 300 and 3 of B's 100: (100 x 99 x 98) / (400 x 399 x 398),
	 * twice that. */
	near("unequal totals", cprof_share_test(0, 300, 3, 100, 1.0),
	     2.0 * 100 * 99 * 98 / (400.0 * 399 * 398), 1e-12);
	/* A key holding most of the time: 500 of 1,000 against 400 of 1,000
	 * (the conditional binomial said 1e-3, the table's own test 1e-5). */
	near("large share", cprof_share_test(500, 1000, 400, 1000, 1.0),
	     fisher_oracle(500, 1000, 400, 1000), 1e-9);
	check(cprof_share_test(500, 1000, 400, 1000, 1.0) < 1e-4, "large share: %g",
	      cprof_share_test(500, 1000, 400, 1000, 1.0));
	/* Large counts: the G-test of the 2 x 2 table, within 10% of the
	 * two-proportion z-test's tail (600 vs 500 of 1,000 each: z = 0.1 /
	 * sqrt(0.55 x 0.45 x 2 / 1000)). */
	{
		double z = 0.1 / sqrt(0.55 * 0.45 * 2.0 / 1000.0);
		double want = erfc(z / sqrt(2.0));
		double got = cprof_share_test(600, 1000, 500, 1000, 1.0);

		check(fabs(got / want - 1.0) < 0.1, "large counts: got %g, want about %g", got, want);
		/* Dispersion 4 divides G by 4: z by 2 (5,100 vs 5,000 of
		 * 10,000 each). */
		z = 0.01 / sqrt(0.5025 * 0.4975 * 2.0 / 10000.0) / 2.0;
		got = cprof_share_test(5100, 10000, 5000, 10000, 4.0);
		check(fabs(got / erfc(z / sqrt(2.0)) - 1.0) < 0.02, "phi 4: got %g", got);
	}
	/* Very large counts still give a p-value in [0, 1]. */
	{
		double p = cprof_share_test(4000000000ULL, 8000000000ULL, 4001000000ULL,
					    8000000000ULL, 1.0);

		check(p >= 0 && p <= 1 && p < 1e-6, "huge counts: %g", p);
	}
}

/* Newcombe (1998), Statistics in Medicine 17:873, table II, method 10. */
static void test_interval(void)
{
	double low, high;

	cprof_delta_interval(48, 80, 56, 70, 1.0, 0.95, &low, &high);
	near("56/70 - 48/80 low", low, 0.0524, 5e-5);
	near("56/70 - 48/80 high", high, 0.3339, 5e-5);
	cprof_delta_interval(3, 10, 9, 10, 1.0, 0.95, &low, &high);
	near("9/10 - 3/10 low", low, 0.1705, 5e-5);
	near("9/10 - 3/10 high", high, 0.8090, 5e-5);
	/* Dispersion 4 is the interval of a quarter of the samples. */
	{
		double low4, high4;

		cprof_delta_interval(480, 800, 560, 700, 4.0, 0.95, &low4, &high4);
		cprof_delta_interval(120, 200, 140, 175, 1.0, 0.95, &low, &high);
		near("phi 4 low", low4, low, 1e-12);
		near("phi 4 high", high4, high, 1e-12);
	}
}

static void test_bh(void)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	static const double weight[] = { 3, 1, 1, 3 };
	double q[4];

	/* Ranked 0.005, 0.01, 0.03, 0.04: 4p/rank 0.02, 0.02, 0.04, 0.04. */
	cprof_bh_qvalues(p, NULL, 4, q);
	near("q[0]", q[0], 0.02, 1e-15);
	near("q[1]", q[1], 0.04, 1e-15);
	near("q[2]", q[2], 0.04, 1e-15);
	near("q[3]", q[3], 0.02, 1e-15);
	/* Weights 1.5, 0.5, 0.5, 1.5: p/w ranked 0.00333, 0.00667, 0.06,
	 * 0.08; 4(p/w)/rank 0.01333, 0.01333, 0.08, 0.08. */
	cprof_bh_qvalues(p, weight, 4, q);
	near("weighted q[0]", q[0], 0.04 / 3.0, 1e-15);
	near("weighted q[1]", q[1], 0.08, 1e-15);
	near("weighted q[2]", q[2], 0.08, 1e-15);
	near("weighted q[3]", q[3], 0.04 / 3.0, 1e-15);
	/* Never above 1. */
	{
		static const double big[] = { 0.9, 0.8 };

		cprof_bh_qvalues(big, NULL, 2, q);
		near("capped", q[0], 0.9, 1e-15);
		near("capped", q[1], 0.9, 1e-15);
	}
}

static void test_gtest(void)
{
	static const struct cprof_pair table[] = { { 30, 10, true }, { 10, 30, true } };
	static const struct cprof_pair sparse[] = {
		{ 30, 10, true }, { 10, 30, true }, { 1, 0, true }, { 0, 2, true },
	};
	struct cprof_gtest g;
	double want = 4.0 * (30.0 * log(1.5) + 10.0 * log(0.5));

	/* Every expected count is 20: G = 2 sum O ln(O/20). */
	cprof_gtest(table, 2, 40, 40, 1.0, &g);
	near("G", g.statistic, want, 1e-12);
	check(g.df == 1, "G df %lu", g.df);
	near("G p", g.p_value, erfc(sqrt(want / 2.0)), 1e-12);
	cprof_gtest(table, 2, 40, 40, 2.0, &g);
	near("G / phi", g.statistic, want / 2.0, 1e-12);
	/* Two sparse keys pooled, the pool (3 samples) merged into the
	 * smallest cell: still one degree of freedom. */
	cprof_gtest(sparse, 4, 41, 42, 1.0, &g);
	check(g.df == 1 && g.pooled == 2, "sparse: df %lu, pooled %zu", g.df, g.pooled);
}

static void test_signif(void)
{
	static const struct cprof_pair moved[] = { { 100, 150, true }, { 100, 50, true } };
	static const struct cprof_pair still[] = { { 100, 103, true }, { 100, 97, true } };
	struct cprof_signif_options options = CPROF_SIGNIF_DEFAULTS;
	struct cprof_signif *s;

	s = cprof_signif_compute(moved, 2, 200, 200, &options);
	check(s->different && s->significant == 2 && s->corrected == 2, "moved: not different");
	check(s->keys[0].ci_low > 0 && s->keys[1].ci_high < 0, "moved: intervals");
	check(s->keys[0].q_value <= s->keys[0].p_value * 2, "moved: q");
	cprof_signif_free(s);
	s = cprof_signif_compute(still, 2, 200, 200, &options);
	check(!s->different && s->significant == 0, "still: different");
	check(s->keys[0].ci_low < 0 && s->keys[0].ci_high > 0, "still: interval excludes 0");
	cprof_signif_free(s);
	/* A delta below min_effect is no verdict, however sure. */
	options.min_effect = 0.3;
	s = cprof_signif_compute(moved, 2, 200, 200, &options);
	check(!s->different && s->corrected == 2, "min_effect: different");
	cprof_signif_free(s);
	/* A key that could never show min_effect (150 samples cannot move a
	 * share by 0.9 of 200) is left out. */
	options.min_effect = 0.9;
	s = cprof_signif_compute(moved, 2, 200, 200, &options);
	check(s->corrected == 1 && s->keys[1].q_value == 1.0 && !s->keys[1].corrected,
	      "filter: corrected %zu", s->corrected);
	cprof_signif_free(s);
}

/* Every interval agrees with its key's verdict: over many draws of a
 * profile of 30 keys (some moved, some near the threshold), a selected
 * key's interval leaves out 0 and a corrected key not selected holds it,
 * at its false-coverage level 1 - R alpha w / m; a key outside the
 * correction that leaves 0 out says why. */
static void test_agreement(void)
{
	struct cprof_signif_options options = CPROF_SIGNIF_DEFAULTS;
	struct cprof_pair pairs[30];
	unsigned long seed = 12345;
	size_t trial, i, selected = 0, noted = 0;

	for (trial = 0; trial < 400; trial++) {
		uint64_t total_a = 0, total_b = 0;
		struct cprof_signif *s;

		for (i = 0; i < 30; i++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			pairs[i].count_a = 5 + (seed >> 33) % (i < 5 ? 400 : 60);
			pairs[i].count_b = pairs[i].count_a + ((seed >> 20) % 40) - 15 +
					   (i < 4 ? (seed >> 40) % 120 : 0);
			pairs[i].known = true;
			total_a += pairs[i].count_a;
			total_b += pairs[i].count_b;
		}
		options.min_effect = trial % 2 ? 0.005 : 0.02;
		s = cprof_signif_compute(pairs, 30, total_a, total_b, &options);
		for (i = 0; i < 30; i++) {
			const struct cprof_key_signif *k = &s->keys[i];
			bool without_0 = k->ci_low > 0 || k->ci_high < 0;

			cprof_signif_test(s, pairs, i, total_a, total_b, &options);
			check(!k->significant || without_0, "trial %zu key %zu: moved, interval "
			      "[%g, %g] holds 0", trial, i, k->ci_low, k->ci_high);
			check(!k->corrected || k->selected == without_0, "trial %zu key %zu: "
			      "selected %d, interval [%g, %g]", trial, i, k->selected, k->ci_low,
			      k->ci_high);
			check(k->significant || !without_0 || cprof_key_note(k), "trial %zu key "
			      "%zu: no note", trial, i);
			selected += k->selected;
			noted += cprof_key_note(k) != NULL;
		}
		cprof_signif_free(s);
	}
	check(selected > 100 && noted > 10, "the draws select %zu keys and note %zu: too few to "
	      "test", selected, noted);
}

static void test_manhattan(void)
{
	static const struct cprof_pair tie[] = { { 5, 3, true }, { 5, 7, true } };
	static const struct cprof_pair one[] = { { 1, 0, true }, { 0, 1, true }, { 8, 9, true } };

	/* Top 1 of A breaks the tie by index (key 0), of B key 1. */
	near("union", cprof_manhattan_of(tie, 2, 10, 10, 1, false), 0.4, 1e-15);
	near("a only", cprof_manhattan_of(tie, 2, 10, 10, 1, true), 0.2, 1e-15);
	near("every key", cprof_manhattan_of(one, 3, 10, 10, 0, false), 0.3, 1e-15);
	near("k 1", cprof_manhattan_of(one, 3, 10, 10, 1, false), 0.1, 1e-15);
}

/* The mean of the full L1 distance under the null is, by the normal
 * approximation of each key, sum sqrt(2/pi) sd_i. */
static void test_null(void)
{
	struct cprof_pair pairs[20];
	struct cprof_manhattan_null null, again;
	double want = 0.0, total = 0.0;
	size_t i;

	for (i = 0; i < 20; i++) {
		pairs[i].count_a = pairs[i].count_b = 10000 * (i + 1);
		pairs[i].known = true;
		total += 2.0 * 10000 * (i + 1);
	}
	for (i = 0; i < 20; i++) {
		double p = 2.0 * 10000 * (i + 1) / total;

		want += sqrt(2.0 / M_PI) * sqrt(p * (1 - p) * 2.0 / (total / 2));
	}
	cprof_manhattan_null(pairs, 20, (uint64_t)(total / 2), (uint64_t)(total / 2), 0, false, 1.0,
			     0.01, 0, &null);
	check(fabs(null.mean / want - 1) < 0.03, "null mean %g, want about %g", null.mean, want);
	check(null.quantile > null.mean, "null quantile %g below mean %g", null.quantile, null.mean);
	cprof_manhattan_null(pairs, 20, (uint64_t)(total / 2), (uint64_t)(total / 2), 0, false, 1.0,
			     0.01, 0, &again);
	check(null.mean == again.mean && null.quantile == again.quantile, "not reproducible");
	/* Dispersion 4 doubles the spread. */
	cprof_manhattan_null(pairs, 20, (uint64_t)(total / 2), (uint64_t)(total / 2), 0, false, 4.0,
			     0.01, 0, &again);
	check(fabs(again.mean / null.mean - 2) < 0.1, "phi 4: mean %g vs %g", again.mean, null.mean);
}

/* The computed null of the full distance agrees with the bootstrap, on
 * 2,000 keys of 1 to 60 samples and a few heavy ones. */
static void test_null_analytic(void)
{
	static struct cprof_pair pairs[2000];
	struct cprof_manhattan_null computed, drawn;
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < 2000; i++) {
		uint64_t c = i < 10 ? 5000 : 1 + i % 60;

		pairs[i].count_a = pairs[i].count_b = c;
		pairs[i].known = true;
		total += c;
	}
	cprof_manhattan_null(pairs, 2000, total, total, 0, false, 1.0, 0.01, 0, &computed);
	cprof_manhattan_null(pairs, 2000, total, total, 0, false, 1.0, 0.01, 400, &drawn);
	check(computed.replicates == 0 && drawn.replicates == 400, "replicates");
	check(fabs(computed.mean / drawn.mean - 1) < 0.01, "computed mean %g, drawn %g",
	      computed.mean, drawn.mean);
	check(fabs(computed.quantile / drawn.quantile - 1) < 0.02, "computed quantile %g, drawn %g",
	      computed.quantile, drawn.quantile);
	cprof_manhattan_null(pairs, 2000, total, total, 0, true, 1.0, 0.01, 0, &computed);
	cprof_manhattan_null(pairs, 2000, total, total, 0, true, 1.0, 0.01, 400, &drawn);
	check(fabs(computed.mean / drawn.mean - 1) < 0.01, "a only: computed mean %g, drawn %g",
	      computed.mean, drawn.mean);
}

static void test_dispersion(void)
{
	static const uint64_t moved[] = { 30, 10, 10, 30 };
	static const uint64_t still[] = { 10, 10, 10, 10, 10, 10 };

	/* Every expected count 20: X^2 = 4 x 100 / 20 = 20 on 1 df. */
	near("dispersion", cprof_dispersion_estimate(moved, 2, 2), 20.0, 1e-12);
	near("no spread", cprof_dispersion_estimate(still, 3, 2), 1.0, 0);
	near("one key", cprof_dispersion_estimate(still, 2, 1), 1.0, 0);
}

/* A prior given to cprof_noise_set_prior: each measured key's posterior
 * is it times the key's likelihood (X2 / phi chi-squared on df), with no
 * diffuse part; a key the runs do not measure has the prior itself. */
static void test_noise_prior(void)
{
	/* Keys x runs: five baselines of 1,000 samples and a candidate. */
	static const uint64_t counts[] = {
		100, 110, 90, 100, 100, 100,
		900, 890, 910, 900, 900, 900,
		0, 0, 0, 0, 0, 0,
	};
	static const uint64_t totals[] = { 1000, 1000, 1000, 1000, 1000, 1000 };
	static const unsigned char group[] = { 0, 0, 0, 0, 0, 1 };
	static const uint64_t wild[] = { 0, 1000, 0, 1000, 0, 500 };
	struct cprof_noise *noise = cprof_noise_estimate(counts, 3, 6, totals, group);
	const double *phi, *post;
	size_t grid = cprof_noise_grid(noise, &phi), g;
	double prior[64] = { 0 }, x2 = 200.0 / 90.0, ratio;

	check(grid > 8 && grid <= 64, "a grid of %zu points", grid);
	check(cprof_noise_df(noise, 0) == 4 && cprof_noise_df(noise, 2) == 0, "degrees of freedom");
	prior[3] = 1.0;
	cprof_noise_set_prior(noise, prior);
	near("a point prior's posterior", cprof_noise_posterior(noise, 0)[3], 1.0, 1e-15);
	near("its mean", cprof_noise_mean(noise, 1), phi[3], 1e-12);
	prior[3] = 0.0;
	prior[0] = 0.25;
	prior[8] = 0.75;
	cprof_noise_set_prior(noise, prior);
	post = cprof_noise_posterior(noise, 0);
	/* Key 0's X2 = (10^2 + 10^2) / (1000 x 0.1 x 0.9) on 4 df. */
	ratio = 3.0 * pow(phi[8], -2.0) * exp(-0.5 * x2 * (1.0 / phi[8] - 1.0 / phi[0]));
	near("posterior odds", post[8] / post[0], ratio, 1e-12);
	near("posterior sum", post[0] + post[8], 1.0, 1e-15);
	for (g = 0; g < grid; g++)
		near("the unmeasured key has the prior", cprof_noise_posterior(noise, 2)[g], prior[g], 0);
	near("prior mean", cprof_noise_prior_mean(noise), 0.25 * phi[0] + 0.75 * phi[8], 1e-12);
	cprof_noise_free(noise);
	/* A key whose X2 (about 5,000 on 4 df) leaves no likelihood at phi 1,
	 * the prior's only point: its posterior is the prior, not 0 / 0. */
	noise = cprof_noise_estimate(wild, 1, 6, totals, group);
	cprof_noise_grid(noise, &phi);
	memset(prior, 0, sizeof(prior));
	prior[0] = 1.0;
	cprof_noise_set_prior(noise, prior);
	near("an underflowing likelihood", cprof_noise_posterior(noise, 0)[0], 1.0, 0);
	near("its mean", cprof_noise_mean(noise, 0), phi[0], 0);
	cprof_noise_free(noise);
}

int main(void)
{
	test_share();
	test_interval();
	test_bh();
	test_gtest();
	test_signif();
	test_agreement();
	test_manhattan();
	test_null();
	test_null_analytic();
	test_dispersion();
	test_noise_prior();
	if (failures)
		fprintf(stderr, "%d checks failed\n", failures);
	return failures ? 1 : 0;
}
