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

#include "compiler.h"
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

/* @got within REL of @want (EXPECT_NEAR: equal infinities pass too) */
#define EXPECT_REL(want, got) EXPECT_NEAR(want, got, REL * fabs(want))

TEST(stats_describe_against_references)
{
	static const double x[] = { 9.8, 10.2, 10.1, 9.9, 10.4, 10.0, 9.7 };
	double even[] = { 4, 1, 3, 2 }, one = 42.5, bad[] = { 1, NAN };
	static const double pm1[] = { -1, 1 };
	double huge[4], tiny[4];
	struct sample_stats s;
	int i;

	/* stats describe known sample */
	EXPECT_EQ(0, stats_describe(x, 7, 0.95, &s));
	EXPECT_DBL(s.n, ==, 7);
	EXPECT_REL(10.014285714285714, s.mean); /* numpy.mean(x) */
	EXPECT_REL(10.0, s.median); /* numpy.median(x) */
	EXPECT_REL(0.24102953780654787, s.stddev); /* numpy.std(x, ddof=1) */
	EXPECT_REL(0.0240685701090704, s.cv); /* numpy: std(x, ddof=1) / abs(mean(x)) */
	EXPECT_DBL(s.min, ==, 9.7);
	EXPECT_DBL(s.max, ==, 10.4);
	/* scipy 1.10.1: t.interval(0.95, 6, loc=mean(x), scale=sem(x)) */
	/* stats describe ci95 */
	EXPECT_REL(9.791370571240652, s.ci_lo);
	EXPECT_REL(10.237200857330777, s.ci_hi);
	/* numpy.median([4, 1, 3, 2]) == 2.5; the input keeps its order */
	/* stats describe even median input untouched */
	EXPECT_EQ(0, stats_describe(even, 4, 0.95, &s));
	EXPECT_DBL(s.median, ==, 2.5);
	EXPECT_DBL(even[0], ==, 4);
	EXPECT_DBL(even[1], ==, 1);
	EXPECT_DBL(even[2], ==, 3);
	EXPECT_DBL(even[3], ==, 2);
	/* one value: no spread, the interval a point (scipy says NaN) */
	/* stats describe single value */
	EXPECT_EQ(0, stats_describe(&one, 1, 0.95, &s));
	EXPECT_DBL(s.n, ==, 1);
	EXPECT_DBL(s.mean, ==, 42.5);
	EXPECT_DBL(s.median, ==, 42.5);
	EXPECT_DBL(s.stddev, ==, 0);
	EXPECT_DBL(s.cv, ==, 0);
	EXPECT_DBL(s.ci_lo, ==, 42.5);
	EXPECT_DBL(s.ci_hi, ==, 42.5);
	/* stats describe rejects bad input */
	EXPECT_EQ(-1, stats_describe(x, 0, 0.95, &s));
	EXPECT_EQ(-1, stats_describe(x, 7, 1.0, &s));
	EXPECT_EQ(-1, stats_describe(x, 7, 0, &s));
	EXPECT_EQ(-1, stats_describe(bad, 2, 0.95, &s));
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
	/* stats describe huge values */
	EXPECT_EQ(0, stats_describe(huge, 4, 0.95, &s));
	EXPECT_REL(2.5e300, s.mean);
	EXPECT_REL(2.5e300, s.median);
	EXPECT_REL(1.2909944487358056e300, s.stddev);
	EXPECT_REL(0.5163977794943223, s.cv); /* mpmath: sd / mean */
	EXPECT_REL(4.4573974323912094e299, s.ci_lo);
	EXPECT_REL(4.554260256760879e300, s.ci_hi);
	/* stats describe tiny values */
	EXPECT_EQ(0, stats_describe(tiny, 4, 0.95, &s));
	EXPECT_REL(2.5e-300, s.mean);
	EXPECT_REL(2.5e-300, s.median);
	EXPECT_REL(1.2909944487358057e-300, s.stddev);
	EXPECT_REL(0.5163977794943223, s.cv); /* mpmath: sd / mean */
	EXPECT_REL(4.4573974323912054e-301, s.ci_lo);
	EXPECT_REL(4.5542602567608794e-300, s.ci_hi);
	/* numpy.std([-1, 1], ddof=1) == 1.4142135623730951; mean 0: cv 0 */
	/* stats describe zero mean cv */
	EXPECT_EQ(0, stats_describe(pm1, 2, 0.95, &s));
	EXPECT_DBL(s.mean, ==, 0);
	EXPECT_DBL(s.cv, ==, 0);
	EXPECT_REL(1.4142135623730951, s.stddev);
}

/* stats_mean(): the mean stats_describe() takes, alone (a boot's figure) */
TEST(stats_mean_as_described)
{
	static const double x[] = { 9.8, 10.2, 10.1, 9.9, 10.4, 10.0, 9.7 };
	double huge[4], zeros[2] = { 0, 0 }, bad[] = { 1, NAN }, m;
	struct sample_stats s;
	int i;

	EXPECT_EQ(0, stats_mean(x, 7, &m));
	EXPECT_REL(10.014285714285714, m); /* numpy.mean(x) */
	for (i = 0; i < 4; i++)
		huge[i] = (i + 1) * 1e300;
	/* a plain sum overflows to inf here */
	EXPECT_EQ(0, stats_mean(huge, 4, &m));
	EXPECT_EQ(0, stats_describe(huge, 4, 0.95, &s));
	EXPECT_DBL(m, ==, s.mean);
	EXPECT_EQ(0, stats_mean(zeros, 2, &m));
	EXPECT_DBL(m, ==, 0);
	EXPECT_EQ(-1, stats_mean(bad, 2, &m));
	EXPECT_EQ(-1, stats_mean(x, 0, &m));
}

TEST(stats_t_distribution)
{
	/* scipy 1.10.1: t.ppf(0.975, df), t.ppf(0.9995, df), t.ppf(1e-6, df) */
	static const struct {
		unsigned int df;
		double q975, q9995, q1e6;
	} ppf[] = {
		{ 1, 12.706204736432095, 636.6192494318557, -318309.88618278794 },
		{ 2, 4.302652729911275, 31.599054577041514, -707.1057205259351 },
		{ 5, 2.5705818366147395, 6.868826639865215, -24.771029720535676 },
		{ 30, 2.0422724563012373, 3.6459586349971502, -5.871117120418899 },
		{ 1000, 1.9623390808264074, 3.300282648423858, -4.781608620455028 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ppf); i++) {
		EXPECT_REL(ppf[i].q975, stats_t_quantile(0.975, ppf[i].df));
		EXPECT_REL(ppf[i].q9995, stats_t_quantile(0.9995, ppf[i].df));
		EXPECT_REL(ppf[i].q1e6, stats_t_quantile(1e-6, ppf[i].df));
	}
	/* the middle and the ends */
	EXPECT_DBL(stats_t_quantile(0.5, 1), ==, 0);
	EXPECT_DBL(stats_t_quantile(0, 1), ==, -HUGE_VAL);
	EXPECT_DBL(stats_t_quantile(1, 1), ==, HUGE_VAL);
	/* the distribution functions */
	EXPECT_REL(0.9490302605850709, stats_t_cdf(2.0, 5)); /* t.cdf(2.0, 5) */
	EXPECT_REL(0.0007384037188221277, stats_t_cdf(-3.5, 30)); /* t.cdf(-3.5, 30) */
	EXPECT_REL(1.719034039457927e-05, stats_t_sf(40, 3)); /* t.sf(40, 3) */
	EXPECT_REL(0.6178802479163779, stats_t_cdf(0.3, 1000)); /* t.cdf(0.3, 1000) */
	/* stats normal cdf */
	EXPECT_REL(0.9750021048517795, stats_normal_cdf(1.96)); /* norm.cdf(1.96) */
	EXPECT_REL(6.22096057427174e-16, stats_normal_cdf(-8)); /* norm.cdf(-8) */
	EXPECT_DBL(stats_normal_cdf(0), ==, 0.5);
}

TEST(stats_mann_whitney_against_references)
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
	/* stats mwu exact separated */
	EXPECT_DBL(u, ==, 0);
	EXPECT_REL(0.1, p);
	/* scipy 1.10.1: mannwhitneyu(ia, ib): U 11.0, p 0.5367965367965368 (exact) */
	p = stats_mann_whitney(ia, 5, ib, 6, &u);
	/* stats mwu exact interleaved */
	EXPECT_DBL(u, ==, 11);
	EXPECT_REL(0.5367965367965368, p);
	/*
	 * scipy 1.10.1: mannwhitneyu(a8, b30) (auto): U 202.0,
	 * p 0.0022329284788088345, the same as method='exact'; its
	 * documentation's "less than 8" would be asymptotic, 0.0035209446841213206
	 */
	p = stats_mann_whitney(a8, 8, b30, 30, &u);
	/* stats mwu exact at size 8 */
	EXPECT_DBL(u, ==, 202);
	EXPECT_REL(0.0022329284788088345, p);
	/*
	 * scipy 1.10.1: mannwhitneyu(a12, b15) (auto = asymptotic): U 121.0,
	 * p 0.1366856053627003 (method='exact' says 0.13853597532423756)
	 */
	p = stats_mann_whitney(a12, 12, b15, 15, &u);
	/* stats mwu asymptotic no ties */
	EXPECT_DBL(u, ==, 121);
	EXPECT_REL(0.1366856053627003, p);
	/* scipy 1.10.1: mannwhitneyu([1,2,2,3,3], [2,3,4,4,5]): U 4.0, p 0.08567343955231686 */
	p = stats_mann_whitney(ta, 5, tb, 5, &u);
	/* stats mwu ties */
	EXPECT_DBL(u, ==, 4);
	EXPECT_REL(0.08567343955231686, p);
	/* scipy 1.10.1: mannwhitneyu([5,5,5], [5,5,5,5]): U 6.0, p 1.0 */
	p = stats_mann_whitney(same_a, 3, same_b, 4, &u);
	/* stats mwu identical samples */
	EXPECT_DBL(u, ==, 6);
	EXPECT_DBL(p, ==, 1);
	/* scipy 1.10.1: mannwhitneyu(ha, hb): U 2.0, p 0.22857142857142856 */
	p = stats_mann_whitney(ha, 3, hb, 4, &u);
	/* stats mwu huge and tiny */
	EXPECT_DBL(u, ==, 2);
	EXPECT_REL(0.22857142857142856, p);
	/* scipy raises ValueError: here "cannot judge" */
	p = stats_mann_whitney(s1, 0, s2, 3, &u);
	/* stats mwu empty sample */
	EXPECT_DBL(p, ==, 1);
	EXPECT_DBL(u, ==, -1);
}

TEST(stats_welch_against_references)
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
	/* stats welch unequal variances */
	EXPECT_REL(t_ref, t);
	EXPECT_REL(df_ref, df);
	EXPECT_REL(p_ref, p);
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
	/* stats welch huge values */
	EXPECT_REL(t_ref, t);
	EXPECT_REL(df_ref, df);
	EXPECT_REL(p_ref, p);
	/* scaled by 1e-300, scipy 1.10.1 answers t -inf, p 0.0 (underflow) */
	for (i = 0; i < 14; i++) {
		ha[i] = i < 10 ? wa[i] * 1e-300 : 0;
		hb[i] = wb[i] * 1e-300;
	}
	p = stats_welch(ha, 10, hb, 14, &t, &df);
	/* stats welch tiny values */
	EXPECT_REL(t_ref, t);
	EXPECT_REL(df_ref, df);
	EXPECT_REL(p_ref, p);
	/*
	 * scipy 1.10.1: ttest_ind([3,3,3], [4,4,4], equal_var=False) is t -inf,
	 * p 0.0; with [3,3,3] twice scipy says NaN, here p 1
	 */
	p = stats_welch(z3, 3, z4, 3, &t, &df);
	p2 = stats_welch(z3, 3, z3, 3, NULL, NULL);
	/* stats welch zero variance */
	EXPECT_DBL(p, ==, 0);
	EXPECT_DBL(t, ==, -HUGE_VAL);
	EXPECT_DBL(df, ==, 1);
	EXPECT_DBL(p2, ==, 1);
	/* scipy 1.10.1: ttest_ind([1], [2, 3], equal_var=False) is NaN: cannot judge */
	p = stats_welch(&one, 1, wa, 10, &t, &df);
	/* stats welch single value */
	EXPECT_DBL(p, ==, 1);
	EXPECT_DBL(t, ==, 0);
	EXPECT_DBL(df, ==, 0);
}

TEST(stats_holm_against_references)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.005, 0.2 };
	/* statsmodels 0.13.5: multipletests(p, method='holm')[1] */
	static const double want[] = { 0.04, 0.09, 0.09, 0.025, 0.2 };
	/*
	 * statsmodels 0.13.5: multipletests(q, method='holm')[1] is
	 * [1.0, 0.8999999999999999, 0.16, 1.0]
	 */
	double q[] = { 0.6, 0.3, 0.04, 0.9 }, adj[5];
	int i;

	/* each p adjusted in its order */
	ASSERT_EQ(0, stats_holm(p, 5, adj));
	for (i = 0; i < 5; i++)
		EXPECT_REL(want[i], adj[i]);
	/* in place: 0.6 * 2 is clipped to 1, and 0.9 * 1 lifted to it */
	/* stats holm monotone clipped in place */
	EXPECT_EQ(0, stats_holm(q, 4, q));
	EXPECT_DBL(q[0], ==, 1);
	EXPECT_REL(0.8999999999999999, q[1]);
	EXPECT_REL(0.16, q[2]);
	EXPECT_DBL(q[3], ==, 1);
}

TEST(stats_robust_cv_against_references)
{
	static const double wild[] = { 10.0, 10.5, 9.5, 10.2, 9.8, 10.1, 50.0 };
	static const double four[] = { 1, 2, 3, 4 };
	double a, b, c;

	/*
	 * scipy 1.10.1: median_abs_deviation(x, scale='normal') / median(x):
	 * 0.04403768965858208 for wild (the 50 does not count), and
	 * 0.5930408874022408 for [1, 2, 3, 4]
	 */
	/* stats robust cv */
	EXPECT_EQ(0, stats_robust_cv(wild, 7, &a));
	EXPECT_REL(0.04403768965858208, a);
	EXPECT_EQ(0, stats_robust_cv(four, 4, &b));
	EXPECT_REL(0.5930408874022408, b);
	EXPECT_EQ(0, stats_robust_cv(four, 1, &c));
	EXPECT_DBL(c, ==, 0);
	EXPECT_EQ(-1, stats_robust_cv(four, 0, &c));
}

TEST(stats_signed_rank_against_references)
{
	static const double d1[] = { 0.031, -0.012, 0.044, 0.027, 0.051, -0.008, 0.019, 0.036 };
	static const double d2[] = { 0.5, -1.2, 0.3, -0.7, 0.9, -0.1, 1.5, -0.4, 0.2, -0.6,
				     0.8, -1.1 };
	static const double d3[] = { 0.011, 0.021, 0.031, 0.041, 0.051, 0.061, 0.071, 0.081,
				     0.091, 0.101 };
	static const double d4[] = { 0, 0.2, -0.1, 0.3, 0, 0.4, 0.25, -0.05, 0.15, 0.35 };
	static const double d5[] = { 1, 2, 2, -3, 4, 4, 4, 5, -1, 6, 7, 8 };
	static const double d6[] = {
		0.30123, 0.598746, 0.025862, -0.590592, -0.154671, -0.691647, 0.360144,
		1.640215, -0.192207, -0.320475, 0.789842, 0.656887, 0.405414, -0.630468,
		0.270748, 0.995303, -1.044215, -0.157616, -1.601223, -0.989538, -1.541735,
		0.064909, -0.967446, 0.571264, 0.456751, 0.113069, -2.21676, -0.238693,
		0.251499, 0.413309, -1.230136, -0.177753, -0.678519, -0.508837, 1.360899,
		-0.507535, 0.267478, 1.18439, -0.2836, 0.188298, 0.410464, 0.363782,
		-0.925056, 0.37614, 1.658823, -1.247145, 1.159383, 0.419354, -0.34147,
		2.300417, 1.06226, -0.899289, 0.374516, 0.87669, 0.111218, 0.98291,
		0.233483, 0.967248, 1.738523, -0.375662 };
	static const double d8[] = { 1, 2, -3 }, zeros[] = { 0, 0, 0 };
	double t, nan1[] = { 1, NAN };

	/* scipy 1.10.1 wilcoxon(d1): statistic 3.0, pvalue 0.0390625 (exact) */
	/* stats signed rank exact */
	EXPECT_REL(0.0390625, stats_signed_rank(d1, 8, &t));
	EXPECT_DBL(t, ==, 3);
	/* wilcoxon(d3): 0.0, 0.001953125 = 2 / 2^10, the smallest p of 10 */
	/* stats signed rank all one way */
	EXPECT_REL(0.001953125, stats_signed_rank(d3, 10, &t));
	EXPECT_DBL(t, ==, 0);
	EXPECT_REL(0.001953125, stats_signed_rank_min_p(10));
	/* wilcoxon(d2): 39.0, 1.0; wilcoxon([1, 2, -3]): 3.0, 1.0 (the centre) */
	/* stats signed rank centre */
	EXPECT_DBL(stats_signed_rank(d2, 12, &t), ==, 1);
	EXPECT_DBL(t, ==, 39);
	EXPECT_DBL(stats_signed_rank(d8, 3, &t), ==, 1);
	EXPECT_DBL(t, ==, 3);
	/* wilcoxon(d4): zeros, so the normal approximation: 3.0, 0.03569190011680441 */
	/* stats signed rank zeros approx */
	EXPECT_REL(0.03569190011680441, stats_signed_rank(d4, 10, &t));
	EXPECT_DBL(t, ==, 3);
	/* wilcoxon(d5, method='approx'): ties: 6.5, 0.010606166224521318 */
	/* stats signed rank ties approx */
	EXPECT_REL(0.010606166224521318, stats_signed_rank(d5, 12, &t));
	EXPECT_DBL(t, ==, 6.5);
	/* wilcoxon(d6), 60 values: approximation: 795.0, 0.3770243171062413 */
	/* stats signed rank large approx */
	EXPECT_REL(0.3770243171062413, stats_signed_rank(d6, 60, &t));
	EXPECT_DBL(t, ==, 795);
	/* scipy raises for all zeros, says NaN for none: here "cannot judge" */
	/* stats signed rank cannot judge */
	EXPECT_DBL(stats_signed_rank(zeros, 3, &t), ==, 1);
	EXPECT_DBL(t, ==, -1);
	EXPECT_DBL(stats_signed_rank(d1, 0, &t), ==, 1);
	EXPECT_DBL(stats_signed_rank(nan1, 2, &t), ==, 1);
}

TEST(stats_tost_against_references)
{
	static const double y[] = { 0.01, -0.02, 0.015, 0.005, -0.01, 0.02, 0, 0.012 };
	static const double y2[] = { 0.04, 0.06, 0.03, 0.05, 0.07, 0.02 };
	static const double a[] = { 10.0, 10.4, 9.8, 10.1, 10.3, 9.9, 10.2, 10.0 };
	static const double b[] = { 10.1, 10.2, 10.0, 10.3, 9.9, 10.25, 10.05 };
	static const double c[] = { 0.01, 0.01, 0.01 };
	/* numpy.log(0.95), numpy.log(1.05) */
	double lo = -0.05129329438755058, hi = 0.04879016416943205;

	/*
	 * scipy 1.10.1: max(ttest_1samp(y, lo, alternative='greater').pvalue,
	 * ttest_1samp(y, hi, alternative='less').pvalue) = 1.5836583976984224e-05
	 */
	/* stats tost equivalent */
	EXPECT_REL(1.5836583976984224e-05, stats_tost(y, 8, lo, hi));
	/* the same for y2 (a 4.5 % move, near the margin): 0.32038078190309716 */
	/* stats tost not shown */
	EXPECT_REL(0.32038078190309716, stats_tost(y2, 6, lo, hi));
	/*
	 * max(ttest_ind(b - (-0.3), a, equal_var=False, alternative='greater'),
	 * ttest_ind(b - 0.3, a, equal_var=False, alternative='less')) =
	 * 0.004960739012693378
	 */
	/* stats welch tost */
	EXPECT_REL(0.004960739012693378, stats_welch_tost(a, 8, b, 7, -0.3, 0.3));
	/* stats tost edges */
	EXPECT_DBL(stats_tost(c, 3, lo, hi), ==, 0);
	EXPECT_DBL(stats_tost(c, 3, 0.02, 0.05), ==, 1);
	EXPECT_DBL(stats_tost(y, 1, lo, hi), ==, 1);
	EXPECT_DBL(stats_tost(y, 8, hi, lo), ==, 1);
	EXPECT_DBL(stats_welch_tost(a, 1, b, 7, -1, 1), ==, 1);
}

