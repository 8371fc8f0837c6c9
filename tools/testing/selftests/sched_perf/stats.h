/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics room of the regression gate: describe repeated runs of one
 * metric, and say whether two sets of runs (base and patched kernel)
 * differ by more than noise.  Written against scipy 1.10.1 and
 * statsmodels 0.13.5 so that any figure here can be checked there; where
 * scipy answers NaN (no data, no variance), the gate needs a decision, so
 * this file answers "cannot judge" as p = 1 instead.  No NaN ever leaves
 * this file for finite input.
 */
#ifndef SCHED_PERF_STATS_H
#define SCHED_PERF_STATS_H

struct sample_stats {
	unsigned int n;
	double mean;
	double median;
	double stddev;		/* sample (n - 1); 0 when n == 1 */
	double cv;		/* stddev / |mean|; 0 when mean == 0 or n == 1 */
	double ci_lo, ci_hi;	/* Student t interval of the mean */
	double min, max;
};

/*
 * Describe @n finite values of @x (left untouched) into @out, with the
 * two-sided confidence interval of the mean at level @conf (0 < conf < 1,
 * e.g. 0.95).  One value says nothing about spread: the interval is then
 * [mean, mean] rather than infinite.  Values as large as 1e300 or as small
 * as 1e-300 keep full precision.  Returns 0, or -1 when n == 0, @conf is
 * out of range, a value is NaN or infinite, or memory runs out.
 */
int stats_describe(const double *x, unsigned int n, double conf,
		   struct sample_stats *out);
/* Median of @n values (the mean of the middle two when n is even), as numpy. */
int stats_median(const double *x, unsigned int n, double *out);
/*
 * Mean of @n finite values, as stats_describe() takes it (scaled, so
 * that values near the largest double do not overflow the sum); -1 when
 * n == 0 or a value is NaN or infinite.
 */
int stats_mean(const double *x, unsigned int n, double *out);

/*
 * Robust coefficient of variation: 1.4826 x the median absolute deviation
 * over |median| (scipy median_abs_deviation(x, scale='normal') / median),
 * which one wild value does not move; 0 when n < 2 or the median is 0.
 */
int stats_robust_cv(const double *x, unsigned int n, double *out);

/* The same spread in the values' units: 1.4826 x the MAD (0 when n < 2). */
int stats_robust_sd(const double *x, unsigned int n, double *out);

/* Standard normal distribution function. */
double stats_normal_cdf(double z);
/* Student t distribution function with @df > 0 degrees of freedom. */
double stats_t_cdf(double t, double df);
/* Upper tail P(T > t), accurate far out where 1 - cdf would round to 0. */
double stats_t_sf(double t, double df);
/* The t with cdf(t) == @p, 0 < p < 1 (-/+ HUGE_VAL at p <= 0 / p >= 1). */
double stats_t_quantile(double p, double df);

/*
 * Two-sided p-value of the Mann-Whitney U test, as scipy 1.10.1
 * mannwhitneyu(a, b, alternative='two-sided', method='auto'); @u_out (may
 * be NULL) gets U of @a: its rank sum (midranks for ties) minus
 * na (na + 1) / 2.  Exact null distribution when there are no ties and one
 * sample has at most 8 values (scipy's actual rule; its documentation says
 * "less than 8"), else the normal approximation with tie and continuity
 * (0.5) corrections.  All values equal: p = 1.  An empty sample or a NaN:
 * p = 1 ("cannot judge") and U = -1, which no real U is.
 */
double stats_mann_whitney(const double *a, unsigned int na, const double *b,
			  unsigned int nb, double *u_out);

/*
 * Two-sided p-value of Welch's t-test, as scipy 1.10.1 ttest_ind(a, b,
 * equal_var=False); @t_out and @df_out may be NULL.  Where scipy says NaN,
 * this says:
 *   - fewer than 2 values in a sample, or a value not finite: p = 1,
 *     t = 0, df = 0, "cannot judge";
 *   - no variance in either sample: p = 1 with t = 0 when the means are
 *     equal, else p = 0 with t = +/-HUGE_VAL (df = 1 as scipy).
 */
double stats_welch(const double *a, unsigned int na, const double *b,
		   unsigned int nb, double *t_out, double *df_out);

/*
 * Holm-Bonferroni adjusted p-values of @n tests into @adj (which may be @p):
 * step-down, made monotone, clipped to 1, as statsmodels
 * multipletests(p, method='holm')[1].  Returns 0, or -1 when out of memory.
 */
int stats_holm(const double *p, unsigned int n, double *adj);

/*
 * Two-sided p of the Wilcoxon signed-rank test that @n paired differences
 * @d are centred on 0, as scipy 1.10.1 wilcoxon(d) (zero_method 'wilcox',
 * no continuity correction); @t_out (may be NULL) gets min(R+, R-), -1
 * when nothing could be ranked.  Zero differences are dropped.  The null
 * distribution is exact when at most SIGNED_RANK_EXACT_MAX differences
 * remain, none was zero and no two |d| tie; else the normal approximation
 * with the tie correction (where scipy 1.10.1 truncates a tied R+ and
 * stays exact, this follows its method='approx').  No nonzero difference,
 * a NaN, or out of memory: p = 1, "cannot judge".
 */
#define SIGNED_RANK_EXACT_MAX 50
double stats_signed_rank(const double *d, unsigned int n, double *t_out);
/* The smallest two-sided p that n differences can reach: 2 / 2^n. */
double stats_signed_rank_min_p(unsigned int n);

/*
 * Equivalence (two one-sided t tests): the p that the mean of @x lies
 * inside (@lo, @hi), max(P under mean <= lo, P under mean >= hi), as
 * max(scipy 1.10.1 ttest_1samp(x, lo, alternative='greater').pvalue,
 * ttest_1samp(x, hi, alternative='less').pvalue).  p < alpha exactly when
 * the (1 - 2 alpha) t interval of the mean lies inside (lo, hi).  Fewer
 * than 2 values, a value not finite or lo >= hi: p = 1.  No spread: 0
 * when the mean is inside, else 1.
 */
double stats_tost(const double *x, unsigned int n, double lo, double hi);
/*
 * The same for mean(b) - mean(a) of two unpaired samples, with Welch's
 * t: as max(ttest_ind(b - lo, a, equal_var=False, alternative='greater'),
 * ttest_ind(b - hi, a, equal_var=False, alternative='less')).
 */
double stats_welch_tost(const double *a, unsigned int na, const double *b,
			unsigned int nb, double lo, double hi);

/*
 * Doubled midranks of @n values into @rk (ties share the mean of their
 * ranks, doubled so that it stays a whole number); the sum over tie groups
 * of t^3 - t into @ties (0: no two values equal).  -1 when out of memory.
 */
int stats_doubled_ranks(const double *x, unsigned int n, unsigned int *rk,
			double *ties);

#endif
