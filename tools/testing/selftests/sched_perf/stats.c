// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics for the regression gate: sample description, the Student t
 * distribution, the Mann-Whitney U and Welch tests, Holm's correction.
 *
 * Samples are scaled by a power of two (exact) before squaring, so that
 * values near 1e300 do not overflow and values near 1e-300 do not vanish.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static bool all_finite(const double *x, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

/*
 * Exponent e with every |x| < 2^e, at least @e: x * 2^-e is below 1, and
 * exact but for values 2^-1022 times smaller than the largest, which are
 * lost in its rounding anyway.  Start from INT_MIN; INT_MIN back: all zero.
 */
static int scale_exp(const double *x, unsigned int n, int e)
{
	unsigned int i;
	int xe;

	for (i = 0; i < n; i++) {
		if (x[i] == 0)
			continue;
		frexp(x[i], &xe);
		if (xe > e)
			e = xe;
	}
	return e;
}

/*
 * Mean and sum of squared deviations of x * 2^-e, by the corrected two-pass
 * algorithm (Chan, Golub, LeVeque 1983): the second pass removes the
 * rounding error of the first, and deviations are taken before squaring.
 */
static void moments(const double *x, unsigned int n, int e, double *mean,
		    double *ssd)
{
	double sum = 0, comp = 0, ss = 0, d;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += ldexp(x[i], -e);
	*mean = sum / n;
	for (i = 0; i < n; i++) {
		d = ldexp(x[i], -e) - *mean;
		ss += d * d;
		comp += d;
	}
	ss -= comp * comp / n;
	*mean += comp / n;
	*ssd = ss > 0 ? ss : 0;
}

int stats_mean(const double *x, unsigned int n, double *out)
{
	double mean, ssd;
	int e;

	if (!x || !n || !out || !all_finite(x, n))
		return -1;
	e = scale_exp(x, n, INT_MIN);
	moments(x, n, e == INT_MIN ? 0 : e, &mean, &ssd);
	*out = ldexp(mean, e == INT_MIN ? 0 : e);
	return 0;
}

int stats_median(const double *x, unsigned int n, double *out)
{
	double *s, lo, hi;

	if (!x || !n || !out)
		return -1;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	lo = s[(n - 1) / 2];
	hi = s[n / 2];
	/* numpy's (lo + hi) / 2, unless that sum overflows */
	*out = (lo + hi) / 2;
	if (isinf(*out) && isfinite(lo) && isfinite(hi))
		*out = lo / 2 + hi / 2;
	free(s);
	return 0;
}

/* 1.4826 x the MAD of @n values, and their median into @median. */
static int robust_spread(const double *x, unsigned int n, double *median, double *out)
{
	double mad, *dev;
	unsigned int i;
	int ret;

	if (stats_median(x, n, median))
		return -1;
	dev = malloc(n * sizeof(*dev));
	if (!dev)
		return -1;
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - *median);
	ret = stats_median(dev, n, &mad);
	free(dev);
	if (ret)
		return -1;
	/* 1 / Phi^-1(3/4): the MAD of a normal sample estimates 0.6745 sigma */
	*out = n < 2 ? 0 : 1.482602218505602 * mad;
	return 0;
}

int stats_robust_cv(const double *x, unsigned int n, double *out)
{
	double median, sd;

	if (robust_spread(x, n, &median, &sd))
		return -1;
	*out = median == 0 ? 0 : sd / fabs(median);
	return 0;
}

int stats_robust_sd(const double *x, unsigned int n, double *out)
{
	double median;

	return robust_spread(x, n, &median, out);
}

int stats_describe(const double *x, unsigned int n, double conf,
		   struct sample_stats *out)
{
	double mean, ssd, sd, half;
	unsigned int i;
	int e;

	if (!x || !n || !out || !(conf > 0 && conf < 1) || !all_finite(x, n))
		return -1;
	memset(out, 0, sizeof(*out));
	out->n = n;
	if (stats_median(x, n, &out->median))
		return -1;
	out->min = x[0];
	out->max = x[0];
	for (i = 1; i < n; i++) {
		out->min = fmin(out->min, x[i]);
		out->max = fmax(out->max, x[i]);
	}
	e = scale_exp(x, n, INT_MIN);
	if (e == INT_MIN)
		e = 0;
	moments(x, n, e, &mean, &ssd);
	out->mean = ldexp(mean, e);
	if (n < 2) {
		/* No spread can be seen in one value: a point, not NaN */
		out->ci_lo = out->mean;
		out->ci_hi = out->mean;
		return 0;
	}
	sd = sqrt(ssd / (n - 1));
	out->stddev = ldexp(sd, e);
	/* in scaled units, so that a mean of 1e-300 is no zero */
	if (mean != 0)
		out->cv = sd / fabs(mean);
	half = stats_t_quantile(0.5 + conf / 2, n - 1) * sd / sqrt(n);
	out->ci_lo = ldexp(mean - half, e);
	out->ci_hi = ldexp(mean + half, e);
	return 0;
}

double stats_normal_cdf(double z)
{
	/* erfc keeps the lower tail accurate where 1 + erf(x) would cancel */
	return 0.5 * erfc(-z / M_SQRT2);
}

/* Keep a Lentz denominator away from zero. */
static double not_zero(double v)
{
	return fabs(v) < 1e-300 ? 1e-300 : v;
}

/*
 * One term @aa of the continued fraction, modified Lentz method: update
 * @c and @d and return the factor the fraction's value changes by.
 */
static double lentz_step(double aa, double *c, double *d)
{
	*d = 1 / not_zero(1 + aa * *d);
	*c = not_zero(1 + aa / *c);
	return *d * *c;
}

/*
 * Continued fraction of the regularized incomplete beta function, by the
 * modified Lentz method (Numerical Recipes 6.4); converges fast for
 * x < (a + 1) / (a + b + 2).
 */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d, h, del;
	int m, m2;

	d = 1 / not_zero(1 - (a + b) * x / (a + 1));
	h = d;
	for (m = 1; m <= 10000; m++) {
		m2 = 2 * m;
		h *= lentz_step(m * (b - m) * x / ((a - 1 + m2) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2)),
				 &c, &d);
		h *= del;
		if (fabs(del - 1) < 1e-16)
			break;
	}
	return h;
}

/* Stirling's series of ln Gamma(x) - ((x - 1/2) ln x - x + ln(2 pi) / 2) */
static double stirling_tail(double x)
{
	double x2 = x * x;

	return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - (1.0 / 1680 -
		1.0 / (1188 * x2)) / x2) / x2) / x2) / x;
}

/*
 * ln B(a, b).  For a large argument, lgamma(a) - lgamma(a + b) cancels
 * digits (at df = 1e5 the t quantile lost 1e-10); the Stirling form of that
 * difference does not.  The tail series is exact to 1e-25 from 100 on.
 */
static double log_beta(double a, double b)
{
	double big = fmax(a, b), small = fmin(a, b);

	if (big < 100)
		return lgamma(a) + lgamma(b) - lgamma(a + b);
	return lgamma(small) - ((big - 0.5) * log1p(small / big) +
				small * log(big + small) - small +
				stirling_tail(big + small) - stirling_tail(big));
}

/*
 * I_x(a, b), given y = 1 - x and ln x, ln y: the caller can compute all
 * four without the cancellation of 1 - x or the rounding of ln(1 / (1 + r))
 * (which a = 5e4 would multiply).
 */
static double beta_inc(double a, double b, double x, double y, double lx,
		       double ly)
{
	double front;

	if (x <= 0)
		return 0;
	if (y <= 0)
		return 1;
	front = exp(a * lx + b * ly - log_beta(a, b));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, y) / b;
}

/* P(|T| > |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
static double t_two_tail(double t, double df)
{
	double t2 = t * t, r, l1p;

	if (t2 == 0)
		return 1;
	/* x = df / (df + t^2) and y = 1 - x from the ratio that cannot overflow */
	if (t2 < df) {
		r = t2 / df;
		l1p = log1p(r);
		return beta_inc(df / 2, 0.5, 1 / (1 + r), r / (1 + r), -l1p,
				log(r) - l1p);
	}
	r = df / t2;
	l1p = log1p(r);
	return beta_inc(df / 2, 0.5, r / (1 + r), 1 / (1 + r), log(r) - l1p,
			-l1p);
}

double stats_t_sf(double t, double df)
{
	double half = t_two_tail(t, df) / 2;

	return t > 0 ? half : 1 - half;
}

double stats_t_cdf(double t, double df)
{
	double half = t_two_tail(t, df) / 2;

	return t < 0 ? half : 1 - half;
}

double stats_t_quantile(double p, double df)
{
	double q, lo = 0, hi = 1, mid;

	if (isnan(p) || !(df > 0))
		return NAN;
	if (p <= 0)
		return -HUGE_VAL;
	if (p >= 1)
		return HUGE_VAL;
	if (p == 0.5)
		return 0;
	/* the t > 0 whose upper tail is q, by bisection: sf is monotone */
	q = p < 0.5 ? p : 1 - p;
	while (stats_t_sf(hi, df) > q && hi < DBL_MAX / 4) {
		lo = hi;
		hi *= 2;
	}
	for (;;) {
		mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		if (stats_t_sf(mid, df) > q)
			lo = mid;
		else
			hi = mid;
	}
	return p < 0.5 ? -mid : mid;
}

struct ranked {
	double v;
	unsigned int i;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	return cmp_double(&((const struct ranked *)pa)->v,
			  &((const struct ranked *)pb)->v);
}

int stats_doubled_ranks(const double *x, unsigned int n, unsigned int *rk,
			double *ties)
{
	struct ranked *s = malloc((n ? n : 1) * sizeof(*s));
	unsigned int i, j, k;
	double t;

	if (!s)
		return -1;
	for (i = 0; i < n; i++) {
		s[i].v = x[i];
		s[i].i = i;
	}
	qsort(s, n, sizeof(*s), cmp_ranked);
	*ties = 0;
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && s[j].v == s[i].v; j++)
			;
		/* ranks i + 1 .. j share (i + 1 + j) / 2; doubled: i + 1 + j */
		for (k = i; k < j; k++)
			rk[s[k].i] = i + 1 + j;
		t = j - i;
		*ties += t * t * t - t;
	}
	free(s);
	return 0;
}

/*
 * Midranks (1-based, ties share their mean rank) of @n values into @rank;
 * the sum over tie groups of t^3 - t into @ties.  -1 when out of memory.
 */
static int midranks(const double *x, unsigned int n, double *rank, double *ties)
{
	unsigned int *rk = malloc((n ? n : 1) * sizeof(*rk)), i;

	if (!rk || stats_doubled_ranks(x, n, rk, ties)) {
		free(rk);
		return -1;
	}
	for (i = 0; i < n; i++)
		rank[i] = rk[i] / 2.0;
	free(rk);
	return 0;
}

/*
 * P(U <= k) under the null, no ties, samples of m and n values.  The counts
 * of U are the coefficients of the Gaussian binomial
 * [m + n choose m]_q = prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i),
 * built factor by factor up to q^k in O(m k): each partial product is
 * itself a Gaussian binomial, so its coefficients stay nonnegative.  m is
 * the smaller sample, at most 8 here.  -1 when out of memory.
 */
static double mwu_exact_cdf(unsigned int k, unsigned int m, unsigned int n)
{
	double *c, total = 1, sum = 0;
	unsigned int i, j;

	if (m > n) {
		i = m;
		m = n;
		n = i;
	}
	c = calloc(k + 1, sizeof(*c));
	if (!c)
		return -1;
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		if (k >= n + i)
			for (j = k; j >= n + i; j--)
				c[j] -= c[j - n - i];
		for (j = i; j <= k; j++)
			c[j] += c[j - i];
		total = total * (n + i) / i;
	}
	for (j = 0; j <= k; j++)
		sum += c[j];
	free(c);
	return sum / total;
}

double stats_mann_whitney(const double *a, unsigned int na, const double *b,
			  unsigned int nb, double *u_out)
{
	double ra = 0, ties, u1, u, mn, big, var, p = -1, *x, *rank;
	unsigned int n = na + nb, i;

	if (u_out)
		*u_out = -1;
	if (!a || !b || !na || !nb)
		return 1;
	x = malloc(n * sizeof(*x));
	rank = malloc(n * sizeof(*rank));
	for (i = 0; x && i < n; i++) {
		x[i] = i < na ? a[i] : b[i - na];
		if (isnan(x[i]))
			break;
	}
	if (!x || !rank || i < n || midranks(x, n, rank, &ties)) {
		free(x);
		free(rank);
		return 1;
	}
	for (i = 0; i < na; i++)
		ra += rank[i];
	free(x);
	free(rank);
	mn = (double)na * nb;
	u1 = ra - (double)na * (na + 1) / 2;
	if (u_out)
		*u_out = u1;
	u = fmax(u1, mn - u1);
	/* scipy 1.10.1 'auto': exact unless both sizes exceed 8, or ties */
	if (ties == 0 && (na <= 8 || nb <= 8))
		p = 2 * mwu_exact_cdf((unsigned int)(mn - u), na, nb);
	if (p < 0) {
		/*
		 * N^3 - N - sum(t^3 - t) is exact in doubles for N < 2^17; at
		 * zero (all values equal) there is no spread: p = 1, not 0 / 0.
		 */
		big = (double)n * n * n - n - ties;
		if (big <= 0)
			return 1;
		var = mn / 12 * big / ((double)n * (n - 1));
		p = erfc((u - mn / 2 - 0.5) / sqrt(var) / M_SQRT2);
	}
	return fmin(p, 1);
}

/*
 * Welch's pieces, the samples scaled by 2^-e: both means, the variance of
 * their difference (den) and its degrees of freedom (Welch-Satterthwaite;
 * left untouched when den is 0).
 */
static void welch_parts(const double *a, unsigned int na, const double *b,
			unsigned int nb, int e, double *ma, double *mb, double *den,
			double *df)
{
	double ssa, ssb, va, vb;

	moments(a, na, e, ma, &ssa);
	moments(b, nb, e, mb, &ssb);
	va = ssa / (na - 1) / na;
	vb = ssb / (nb - 1) / nb;
	*den = va + vb;
	if (*den > 0)
		*df = *den * *den / (va * va / (na - 1) + vb * vb / (nb - 1));
}

double stats_welch(const double *a, unsigned int na, const double *b,
		   unsigned int nb, double *t_out, double *df_out)
{
	double ma, mb, den, t, df, p;
	int e;

	if (t_out)
		*t_out = 0;
	if (df_out)
		*df_out = 0;
	if (!a || !b || na < 2 || nb < 2 || !all_finite(a, na) ||
	    !all_finite(b, nb))
		return 1;
	/* one scale for both: t and df do not depend on it */
	e = scale_exp(b, nb, scale_exp(a, na, INT_MIN));
	if (e == INT_MIN)
		e = 0;
	welch_parts(a, na, b, nb, e, &ma, &mb, &den, &df);
	if (den == 0) {
		df = 1;
		t = ma == mb ? 0 : copysign(HUGE_VAL, ma - mb);
		p = ma == mb ? 1 : 0;
	} else {
		t = (ma - mb) / sqrt(den);
		p = fmin(t_two_tail(t, df), 1);
	}
	if (t_out)
		*t_out = t;
	if (df_out)
		*df_out = df;
	return p;
}

struct holm_item {
	double p;
	unsigned int i;
};

static int cmp_holm(const void *pa, const void *pb)
{
	const struct holm_item *a = pa, *b = pb;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

int stats_holm(const double *p, unsigned int n, double *adj)
{
	struct holm_item *s;
	double run = 0;
	unsigned int k;

	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -1;
	for (k = 0; k < n; k++) {
		s[k].p = p[k];
		s[k].i = k;
	}
	qsort(s, n, sizeof(*s), cmp_holm);
	/* the k-th smallest is judged against alpha / (n - k) */
	for (k = 0; k < n; k++) {
		run = fmax(run, fmin((n - k) * s[k].p, 1));
		adj[s[k].i] = run;
	}
	free(s);
	return 0;
}

/*
 * P(R+ <= k) under the null for n nonzero differences without ties: the
 * number of subsets of {1..n} with sum s is the coefficient of q^s in
 * prod_{i=1..n} (1 + q^i), built factor by factor up to q^k.
 */
static double signed_rank_exact_cdf(unsigned int k, unsigned int n)
{
	double *c = calloc(k + 1, sizeof(*c)), sum = 0;
	unsigned int i, j;

	if (!c)
		return -1;
	c[0] = 1;
	for (i = 1; i <= n; i++)
		for (j = k; j >= i; j--)
			c[j] += c[j - i];
	for (j = 0; j <= k; j++)
		sum += c[j];
	free(c);
	return sum / ldexp(1, n);
}

double stats_signed_rank(const double *d, unsigned int n, double *t_out)
{
	double *a, *rank, ties, rp = 0, rm = 0, t, mn, se, p = -1;
	unsigned int i, m = 0, zeros = 0;

	if (t_out)
		*t_out = -1;
	if (!d || !n)
		return 1;
	a = malloc(n * sizeof(*a));
	rank = malloc(n * sizeof(*rank));
	if (!a || !rank)
		goto out;
	for (i = 0; i < n; i++) {
		if (isnan(d[i]))
			goto out;
		if (d[i] == 0)
			zeros++;
		else
			a[m++] = fabs(d[i]);
	}
	if (!m || midranks(a, m, rank, &ties))
		goto out;
	for (i = 0, m = 0; i < n; i++) {
		if (d[i] > 0)
			rp += rank[m++];
		else if (d[i] < 0)
			rm += rank[m++];
	}
	t = fmin(rp, rm);
	if (t_out)
		*t_out = t;
	mn = m * (m + 1.0) / 4;
	/* scipy 1.10.1 'auto': exact up to 50 differences, unless zeros */
	if (!zeros && !ties && m <= SIGNED_RANK_EXACT_MAX)
		p = rp == mn ? 1 : 2 * signed_rank_exact_cdf((unsigned int)t, m);
	if (p < 0) {
		se = sqrt((m * (m + 1.0) * (2.0 * m + 1) - ties / 2) / 24);
		p = se > 0 ? erfc(fabs(t - mn) / se / M_SQRT2) : 1;
	}
out:
	free(a);
	free(rank);
	return p < 0 ? 1 : fmin(p, 1);
}

double stats_signed_rank_min_p(unsigned int n)
{
	return n ? fmin(1, ldexp(1, 1 - (int)fmin(n, 1000))) : 1;
}

/* P(T > t) with T ~ t(df); a t of +/-HUGE_VAL (no spread) gives 0 or 1. */
static double upper_tail(double t, double df)
{
	if (isinf(t))
		return t > 0 ? 0 : 1;
	return stats_t_sf(t, df);
}

double stats_tost(const double *x, unsigned int n, double lo, double hi)
{
	double mean, ss, se, p_lo, p_hi;

	if (!x || n < 2 || !all_finite(x, n) || !(lo < hi))
		return 1;
	moments(x, n, 0, &mean, &ss);
	se = sqrt(ss / (n - 1) / n);
	if (se == 0)
		return mean > lo && mean < hi ? 0 : 1;
	/* H0 mean <= lo against mean > lo, and mean >= hi against mean < hi */
	p_lo = upper_tail((mean - lo) / se, n - 1);
	p_hi = upper_tail((hi - mean) / se, n - 1);
	return fmax(p_lo, p_hi);
}

double stats_welch_tost(const double *a, unsigned int na, const double *b,
			unsigned int nb, double lo, double hi)
{
	double ma, mb, den, df, p_lo, p_hi;

	if (!a || !b || na < 2 || nb < 2 || !all_finite(a, na) ||
	    !all_finite(b, nb) || !(lo < hi))
		return 1;
	welch_parts(a, na, b, nb, 0, &ma, &mb, &den, &df);
	if (den == 0)
		return mb - ma > lo && mb - ma < hi ? 0 : 1;
	p_lo = upper_tail((mb - ma - lo) / sqrt(den), df);
	p_hi = upper_tail((hi - (mb - ma)) / sqrt(den), df);
	return fmax(p_lo, p_hi);
}
