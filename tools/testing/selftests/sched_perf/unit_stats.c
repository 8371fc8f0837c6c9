// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of stats.c against references computed outside this suite:
 * scipy 1.10.1, numpy 1.24.2, statsmodels 0.13.5 and mpmath 1.2.1 (50
 * digits) under Python 3.11 (Debian 12 packages).  Each constant says
 * where it came from; "x" and the like name the arrays of the same test.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "stats.h"
#include "verdict.h"
#include "unit.h"

/*
 * Relative tolerance.  Our code agrees with mpmath to ~1e-13; scipy
 * 1.10.1's own t.ppf (cephes stdtri) is off by up to 2.4e-9 (against
 * mpmath), so the gap allowed is above that and far below what a
 * gate would notice.
 */
#define REL 1e-8

static bool near(double got, double want)
{
	if (got == want)	/* also equal infinities */
		return true;
	return fabs(got - want) <= REL * fabs(want);
}

static void test_describe(void)
{
	static const double x[] = { 9.8, 10.2, 10.1, 9.9, 10.4, 10.0, 9.7 };
	double even[] = { 4, 1, 3, 2 }, one = 42.5, bad[] = { 1, NAN };
	static const double pm1[] = { -1, 1 };
	double huge[4], tiny[4];
	struct sample_stats s;
	int i;

	EXPECT(!stats_describe(x, 7, 0.95, &s) && s.n == 7 &&
	       near(s.mean, 10.014285714285714) &&	/* numpy.mean(x) */
	       near(s.median, 10.0) &&			/* numpy.median(x) */
	       near(s.stddev, 0.24102953780654787) &&	/* numpy.std(x, ddof=1) */
	       near(s.cv, 0.0240685701090704) &&	/* numpy: std(x, ddof=1) / abs(mean(x)) */
	       s.min == 9.7 && s.max == 10.4, "stats_describe_known_sample");
	/* scipy 1.10.1: t.interval(0.95, 6, loc=mean(x), scale=sem(x)) */
	EXPECT(near(s.ci_lo, 9.791370571240652) && near(s.ci_hi, 10.237200857330777),
	       "stats_describe_ci95");
	/* numpy.median([4, 1, 3, 2]) == 2.5; the input keeps its order */
	EXPECT(!stats_describe(even, 4, 0.95, &s) && s.median == 2.5 &&
	       even[0] == 4 && even[1] == 1 && even[2] == 3 && even[3] == 2,
	       "stats_describe_even_median_input_untouched");
	/* one value: no spread, the interval a point (scipy says NaN) */
	EXPECT(!stats_describe(&one, 1, 0.95, &s) && s.n == 1 && s.mean == 42.5 &&
	       s.median == 42.5 && s.stddev == 0 && s.cv == 0 &&
	       s.ci_lo == 42.5 && s.ci_hi == 42.5, "stats_describe_single_value");
	EXPECT(stats_describe(x, 0, 0.95, &s) == -1 &&
	       stats_describe(x, 7, 1.0, &s) == -1 &&
	       stats_describe(x, 7, 0, &s) == -1 &&
	       stats_describe(bad, 2, 0.95, &s) == -1, "stats_describe_rejects_bad_input");
	for (i = 0; i < 4; i++) {
		huge[i] = (i + 1) * 1e300;
		tiny[i] = (i + 1) * 1e-300;
	}
	/*
	 * numpy.std(ddof=1) overflows to inf at 1e300 and underflows to 0 at
	 * 1e-300: mpmath (50 digits) on the same doubles gives mean and sd;
	 * the interval is scipy 1.10.1 t.interval(0.95, 3, loc=mean,
	 * scale=sd / 2) with those.
	 */
	EXPECT(!stats_describe(huge, 4, 0.95, &s) &&
	       near(s.mean, 2.5e300) && near(s.median, 2.5e300) &&
	       near(s.stddev, 1.2909944487358056e300) &&
	       near(s.cv, 0.5163977794943223) &&	/* mpmath: sd / mean */
	       near(s.ci_lo, 4.4573974323912094e299) &&
	       near(s.ci_hi, 4.554260256760879e300), "stats_describe_huge_values");
	EXPECT(!stats_describe(tiny, 4, 0.95, &s) &&
	       near(s.mean, 2.5e-300) && near(s.median, 2.5e-300) &&
	       near(s.stddev, 1.2909944487358057e-300) &&
	       near(s.cv, 0.5163977794943223) &&	/* mpmath: sd / mean */
	       near(s.ci_lo, 4.4573974323912054e-301) &&
	       near(s.ci_hi, 4.5542602567608794e-300), "stats_describe_tiny_values");
	/* numpy.std([-1, 1], ddof=1) == 1.4142135623730951; mean 0: cv 0 */
	EXPECT(!stats_describe(pm1, 2, 0.95, &s) && s.mean == 0 && s.cv == 0 &&
	       near(s.stddev, 1.4142135623730951), "stats_describe_zero_mean_cv");
}

static void test_t_distribution(void)
{
	/* scipy 1.10.1: t.ppf(0.975, df), t.ppf(0.9995, df), t.ppf(1e-6, df) */
	EXPECT(near(stats_t_quantile(0.975, 1), 12.706204736432095) &&
	       near(stats_t_quantile(0.9995, 1), 636.6192494318557) &&
	       near(stats_t_quantile(1e-6, 1), -318309.88618278794) &&
	       stats_t_quantile(0.5, 1) == 0 &&
	       stats_t_quantile(0, 1) == -HUGE_VAL &&
	       stats_t_quantile(1, 1) == HUGE_VAL, "stats_t_quantile_df1");
	EXPECT(near(stats_t_quantile(0.975, 2), 4.302652729911275) &&
	       near(stats_t_quantile(0.9995, 2), 31.599054577041514) &&
	       near(stats_t_quantile(1e-6, 2), -707.1057205259351),
	       "stats_t_quantile_df2");
	EXPECT(near(stats_t_quantile(0.975, 5), 2.5705818366147395) &&
	       near(stats_t_quantile(0.9995, 5), 6.868826639865215) &&
	       near(stats_t_quantile(1e-6, 5), -24.771029720535676),
	       "stats_t_quantile_df5");
	EXPECT(near(stats_t_quantile(0.975, 30), 2.0422724563012373) &&
	       near(stats_t_quantile(0.9995, 30), 3.6459586349971502) &&
	       near(stats_t_quantile(1e-6, 30), -5.871117120418899),
	       "stats_t_quantile_df30");
	EXPECT(near(stats_t_quantile(0.975, 1000), 1.9623390808264074) &&
	       near(stats_t_quantile(0.9995, 1000), 3.300282648423858) &&
	       near(stats_t_quantile(1e-6, 1000), -4.781608620455028),
	       "stats_t_quantile_df1000");
	EXPECT(near(stats_t_cdf(2.0, 5), 0.9490302605850709) &&	/* t.cdf(2.0, 5) */
	       near(stats_t_cdf(-3.5, 30), 0.0007384037188221277) && /* t.cdf(-3.5, 30) */
	       near(stats_t_sf(40, 3), 1.719034039457927e-05) &&	/* t.sf(40, 3) */
	       near(stats_t_cdf(0.3, 1000), 0.6178802479163779),	/* t.cdf(0.3, 1000) */
	       "stats_t_cdf");
	EXPECT(near(stats_normal_cdf(1.96), 0.9750021048517795) &&	/* norm.cdf(1.96) */
	       near(stats_normal_cdf(-8), 6.22096057427174e-16) &&	/* norm.cdf(-8) */
	       stats_normal_cdf(0) == 0.5, "stats_normal_cdf");
}

static void test_mann_whitney(void)
{
	static const double s1[] = { 1, 2, 3 }, s2[] = { 4, 5, 6 };
	static const double ia[] = { 1.1, 3.4, 5.2, 7.9, 2.2 };
	static const double ib[] = { 2.5, 4.8, 6.1, 0.7, 8.8, 9.3 };
	/* numpy.random.default_rng(2024): round(normal(1, 1, 8), 3), then 30 of normal(0, 1) */
	static const double a8[] = { 2.029, 2.642, 2.147, 0.027, -0.393, 1.067, 1.861, 1.509 };
	static const double b30[] = {
		1.81, 0.751, 0.64, -0.731, -1.108, 1.484, 0.049, 0.812, -1.376,
		-0.436, -1.291, -0.776, 0.903, -1.481, -0.534, 0.164, -0.668,
		-0.252, -0.222, 0.418, -0.431, 0.272, 0.057, 0.425, 0.225, 1.658,
		-0.664, 1.199, -0.403, -0.958,
	};
	/* the same generator, next: round(normal(0.8, 1, 12), 3), round(normal(0, 1, 15), 3) */
	static const double a12[] = {
		2.011, 0.36, 0.412, -0.589, -1.298, 1.434, -0.365, 1.578, 2.648,
		0.685, -0.327, 1.194,
	};
	static const double b15[] = {
		0.762, -0.262, 0.017, 1.335, 1.265, 0.71, -0.866, -0.054, 0.603,
		-0.212, -0.61, -0.765, -0.632, -0.672, -0.451,
	};
	static const double ta[] = { 1, 2, 2, 3, 3 }, tb[] = { 2, 3, 4, 4, 5 };
	static const double same_a[] = { 5, 5, 5 }, same_b[] = { 5, 5, 5, 5 };
	static const double ha[] = { 1e-300, 3e-300, 1e300 };
	static const double hb[] = { 2e-300, 2e300, 4e300, 5e300 };
	double u, p;

	/* scipy 1.10.1: mannwhitneyu([1,2,3], [4,5,6]) is U 0.0, p 0.1 (exact) */
	p = stats_mann_whitney(s1, 3, s2, 3, &u);
	EXPECT(u == 0 && near(p, 0.1), "stats_mwu_exact_separated");
	/* scipy 1.10.1: mannwhitneyu(ia, ib): U 11.0, p 0.5367965367965368 (exact) */
	p = stats_mann_whitney(ia, 5, ib, 6, &u);
	EXPECT(u == 11 && near(p, 0.5367965367965368), "stats_mwu_exact_interleaved");
	/*
	 * scipy 1.10.1: mannwhitneyu(a8, b30) (auto): U 202.0,
	 * p 0.0022329284788088345, the same as method='exact'; its
	 * documentation's "less than 8" would be asymptotic, 0.0035209446841213206
	 */
	p = stats_mann_whitney(a8, 8, b30, 30, &u);
	EXPECT(u == 202 && near(p, 0.0022329284788088345), "stats_mwu_exact_at_size_8");
	/*
	 * scipy 1.10.1: mannwhitneyu(a12, b15) (auto = asymptotic): U 121.0,
	 * p 0.1366856053627003 (method='exact' says 0.13853597532423756)
	 */
	p = stats_mann_whitney(a12, 12, b15, 15, &u);
	EXPECT(u == 121 && near(p, 0.1366856053627003), "stats_mwu_asymptotic_no_ties");
	/* scipy 1.10.1: mannwhitneyu([1,2,2,3,3], [2,3,4,4,5]): U 4.0, p 0.08567343955231686 */
	p = stats_mann_whitney(ta, 5, tb, 5, &u);
	EXPECT(u == 4 && near(p, 0.08567343955231686), "stats_mwu_ties");
	/* scipy 1.10.1: mannwhitneyu([5,5,5], [5,5,5,5]): U 6.0, p 1.0 */
	p = stats_mann_whitney(same_a, 3, same_b, 4, &u);
	EXPECT(u == 6 && p == 1, "stats_mwu_identical_samples");
	/* scipy 1.10.1: mannwhitneyu(ha, hb): U 2.0, p 0.22857142857142856 */
	p = stats_mann_whitney(ha, 3, hb, 4, &u);
	EXPECT(u == 2 && near(p, 0.22857142857142856), "stats_mwu_huge_and_tiny");
	/* scipy raises ValueError: here "cannot judge" */
	p = stats_mann_whitney(s1, 0, s2, 3, &u);
	EXPECT(p == 1 && u == -1, "stats_mwu_empty_sample");
}

static void test_welch(void)
{
	static const double wa[] = {
		20.1, 19.8, 20.3, 20.0, 19.9, 20.2, 20.1, 19.7, 20.0, 20.4,
	};
	static const double wb[] = {
		21.5, 18.2, 23.9, 19.4, 22.8, 17.6, 24.1, 20.9, 22.2, 18.8,
		23.3, 21.7, 19.9, 25.0,
	};
	static const double z3[] = { 3, 3, 3 }, z4[] = { 4, 4, 4 }, one = 1;
	/*
	 * scipy 1.10.1: ttest_ind(wa, wb, equal_var=False): t, p; scipy 1.10
	 * does not return df: numpy var(ddof=1) into Welch-Satterthwaite
	 */
	const double t_ref = -2.1181413819759127, df_ref = 13.314947047363013;
	const double p_ref = 0.053516988623040516;
	double ha[14], hb[14], t, df, p, p2;
	int i;

	p = stats_welch(wa, 10, wb, 14, &t, &df);
	EXPECT(near(t, t_ref) && near(df, df_ref) && near(p, p_ref),
	       "stats_welch_unequal_variances");
	/*
	 * Scaled by 1e300, scipy 1.10.1 answers t -0.0, p 1.0 (its variance
	 * overflows); t, df and p do not depend on scale: the references
	 * above.
	 */
	for (i = 0; i < 14; i++) {
		ha[i] = i < 10 ? wa[i] * 1e300 : 0;
		hb[i] = wb[i] * 1e300;
	}
	p = stats_welch(ha, 10, hb, 14, &t, &df);
	EXPECT(near(t, t_ref) && near(df, df_ref) && near(p, p_ref),
	       "stats_welch_huge_values");
	/* scaled by 1e-300, scipy 1.10.1 answers t -inf, p 0.0 (underflow) */
	for (i = 0; i < 14; i++) {
		ha[i] = i < 10 ? wa[i] * 1e-300 : 0;
		hb[i] = wb[i] * 1e-300;
	}
	p = stats_welch(ha, 10, hb, 14, &t, &df);
	EXPECT(near(t, t_ref) && near(df, df_ref) && near(p, p_ref),
	       "stats_welch_tiny_values");
	/*
	 * scipy 1.10.1: ttest_ind([3,3,3], [4,4,4], equal_var=False) is t -inf,
	 * p 0.0; with [3,3,3] twice scipy says NaN, here p 1
	 */
	p = stats_welch(z3, 3, z4, 3, &t, &df);
	p2 = stats_welch(z3, 3, z3, 3, NULL, NULL);
	EXPECT(p == 0 && t == -HUGE_VAL && df == 1 && p2 == 1,
	       "stats_welch_zero_variance");
	/* scipy 1.10.1: ttest_ind([1], [2, 3], equal_var=False) is NaN: cannot judge */
	p = stats_welch(&one, 1, wa, 10, &t, &df);
	EXPECT(p == 1 && t == 0 && df == 0, "stats_welch_single_value");
}

static void test_holm(void)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005, 0.2 };
	/* statsmodels 0.13.5: multipletests(p, method='holm')[1] */
	static const double want[] = { 0.04, 0.09, 0.09, 0.025, 0.2 };
	/*
	 * statsmodels 0.13.5: multipletests(q, method='holm')[1] is
	 * [1.0, 0.8999999999999999, 0.16, 1.0]
	 */
	double q[] = { 0.6, 0.3, 0.04, 0.9 }, adj[5];
	bool ok;
	int i;

	ok = !stats_holm(p, 5, adj);
	for (i = 0; i < 5; i++)
		ok = ok && near(adj[i], want[i]);
	EXPECT(ok, "stats_holm_order");
	/* in place: 0.6 * 2 is clipped to 1, and 0.9 * 1 lifted to it */
	EXPECT(!stats_holm(q, 4, q) && q[0] == 1 && near(q[1], 0.8999999999999999) &&
	       near(q[2], 0.16) && q[3] == 1, "stats_holm_monotone_clipped_in_place");
}

static void test_robust_cv(void)
{
	static const double wild[] = { 10.0, 10.5, 9.5, 10.2, 9.8, 10.1, 50.0 };
	static const double four[] = { 1, 2, 3, 4 };
	double a, b, c;

	/*
	 * scipy 1.10.1: median_abs_deviation(x, scale='normal') / median(x):
	 * 0.04403768965858208 for wild (the 50 does not count), and
	 * 0.5930408874022408 for [1, 2, 3, 4]
	 */
	EXPECT(!stats_robust_cv(wild, 7, &a) && near(a, 0.04403768965858208) &&
	       !stats_robust_cv(four, 4, &b) && near(b, 0.5930408874022408) &&
	       !stats_robust_cv(four, 1, &c) && c == 0 &&
	       stats_robust_cv(four, 0, &c) == -1, "stats_robust_cv");
}

void unit_stats(void)
{
	test_describe();
	test_t_distribution();
	test_mann_whitney();
	test_welch();
	test_holm();
	test_robust_cv();
}
