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

UNIT_TEST(stats_describe)
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

UNIT_TEST(stats_t_distribution)
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

UNIT_TEST(stats_mann_whitney)
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

UNIT_TEST(stats_welch)
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

UNIT_TEST(stats_holm)
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

UNIT_TEST(stats_robust_cv)
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

UNIT_TEST(stats_signed_rank)
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
	EXPECT(near(stats_signed_rank(d1, 8, &t), 0.0390625) && t == 3,
	       "stats_signed_rank_exact");
	/* wilcoxon(d3): 0.0, 0.001953125 = 2 / 2^10, the smallest p of 10 */
	EXPECT(near(stats_signed_rank(d3, 10, &t), 0.001953125) && t == 0 &&
	       near(stats_signed_rank_min_p(10), 0.001953125),
	       "stats_signed_rank_all_one_way");
	/* wilcoxon(d2): 39.0, 1.0; wilcoxon([1, 2, -3]): 3.0, 1.0 (the centre) */
	EXPECT(stats_signed_rank(d2, 12, &t) == 1 && t == 39 &&
	       stats_signed_rank(d8, 3, &t) == 1 && t == 3, "stats_signed_rank_centre");
	/* wilcoxon(d4): zeros, so the normal approximation: 3.0, 0.03569190011680441 */
	EXPECT(near(stats_signed_rank(d4, 10, &t), 0.03569190011680441) && t == 3,
	       "stats_signed_rank_zeros_approx");
	/* wilcoxon(d5, method='approx'): ties: 6.5, 0.010606166224521318 */
	EXPECT(near(stats_signed_rank(d5, 12, &t), 0.010606166224521318) && t == 6.5,
	       "stats_signed_rank_ties_approx");
	/* wilcoxon(d6), 60 values: approximation: 795.0, 0.3770243171062413 */
	EXPECT(near(stats_signed_rank(d6, 60, &t), 0.3770243171062413) && t == 795,
	       "stats_signed_rank_large_approx");
	/* scipy raises for all zeros, says NaN for none: here "cannot judge" */
	EXPECT(stats_signed_rank(zeros, 3, &t) == 1 && t == -1 &&
	       stats_signed_rank(d1, 0, &t) == 1 && stats_signed_rank(nan1, 2, &t) == 1,
	       "stats_signed_rank_cannot_judge");
}

UNIT_TEST(stats_trend)
{
	static const double up[] = { 14.2, 14.6, 14.9, 15.3, 15.8, 16.1, 16.6, 17.0 };
	static const double flat[] = { 10.1, 9.8, 10.3, 9.9, 10.0, 10.2, 9.7, 10.4 };
	static const double tied[] = { 3, 1, 2, 2, 5, 4, 4, 6, 7, 6 };
	static const double down[] = { 5, 4, 3, 2, 1 }, same[] = { 2, 2, 2, 2 };
	double rho;

	/* scipy 1.10.1 spearmanr(range(8), up): 1.0, 0.0 */
	EXPECT(stats_trend(up, 8, &rho) == 0 && rho == 1, "stats_trend_monotone");
	/* spearmanr(range(8), flat): 0.1666666666666667, 0.693238811728395 */
	EXPECT(near(stats_trend(flat, 8, &rho), 0.693238811728395) &&
	       near(rho, 0.1666666666666667), "stats_trend_none");
	/* spearmanr(range(10), tied): 0.8624216160156492, 0.0013231707980979025 */
	EXPECT(near(stats_trend(tied, 10, &rho), 0.0013231707980979025) &&
	       near(rho, 0.8624216160156492), "stats_trend_ties");
	/* spearmanr(range(5), down): -0.9999999999999999, 1.4e-24 (rounding) */
	EXPECT(stats_trend(down, 5, &rho) < 1e-20 && rho == -1 &&
	       stats_trend(same, 4, &rho) == 1 && rho == 0 &&
	       stats_trend(up, 2, &rho) == 1, "stats_trend_down_flat_short");
}

UNIT_TEST(stats_tost)
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
	EXPECT(near(stats_tost(y, 8, lo, hi), 1.5836583976984224e-05), "stats_tost_equivalent");
	/* the same for y2 (a 4.5 % move, near the margin): 0.32038078190309716 */
	EXPECT(near(stats_tost(y2, 6, lo, hi), 0.32038078190309716), "stats_tost_not_shown");
	/*
	 * max(ttest_ind(b - (-0.3), a, equal_var=False, alternative='greater'),
	 * ttest_ind(b - 0.3, a, equal_var=False, alternative='less')) =
	 * 0.004960739012693378
	 */
	EXPECT(near(stats_welch_tost(a, 8, b, 7, -0.3, 0.3), 0.004960739012693378),
	       "stats_welch_tost");
	EXPECT(stats_tost(c, 3, lo, hi) == 0 && stats_tost(c, 3, 0.02, 0.05) == 1 &&
	       stats_tost(y, 1, lo, hi) == 1 && stats_tost(y, 8, hi, lo) == 1 &&
	       stats_welch_tost(a, 1, b, 7, -1, 1) == 1, "stats_tost_edges");
}

