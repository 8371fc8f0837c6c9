// SPDX-License-Identifier: GPL-2.0
/*
 * Shift estimates and the tests of a shift: Hodges-Lehmann with the
 * signed-rank and Mann-Whitney tests (exact, conditional on ties), the
 * mean with Welch's t.  See shift.h.
 *
 * Ranks are kept doubled (2 x midrank, a whole number even for ties), so
 * that every rank sum is counted exactly, in integers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shift.h"
#include "stats.h"

static bool any_nan(const double *x, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (isnan(x[i]))
			return true;
	return false;
}

/* The tails P(S <= obs) and P(S >= obs) into a two-sided or one-sided p. */
static double tails_p(double le, double ge, enum shift_alt alt)
{
	if (alt == SHIFT_GREATER)
		return fmin(1, ge);
	if (alt == SHIFT_LESS)
		return fmin(1, le);
	return fmin(1, 2 * fmin(le, ge));
}

/*
 * Counts of the sums of the subsets of @n whole weights @w (total @total):
 * c[s] subsets sum to s.  NULL when out of memory.
 */
static double *subset_sums(const unsigned int *w, unsigned int n, unsigned long total)
{
	double *c = calloc(total + 1, sizeof(*c));
	unsigned long hi = 0, s;
	unsigned int i;

	if (!c)
		return NULL;
	c[0] = 1;
	for (i = 0; i < n; i++) {
		hi += w[i];
		for (s = hi; s >= w[i]; s--)
			c[s] += c[s - w[i]];
	}
	return c;
}

/*
 * P(R+ <= k), k = 0 .. n (n + 1) / 2, of n untied ranks: counted once
 * per n and kept (the gate asks for the same few sizes again and again).
 */
static const double *signed_rank_cdf(unsigned int n)
{
	static double *cache[SHIFT_EXACT_MAX + 1];
	unsigned int *w, i;
	unsigned long total = (unsigned long)n * (n + 1) / 2, s;
	double *c, scale = ldexp(1, -(int)n), run = 0;

	if (cache[n])
		return cache[n];
	w = malloc((n ? n : 1) * sizeof(*w));
	if (!w)
		return NULL;
	for (i = 0; i < n; i++)
		w[i] = i + 1;
	c = subset_sums(w, n, total);
	free(w);
	if (!c)
		return NULL;
	for (s = 0; s <= total; s++) {
		run += c[s];
		c[s] = run * scale;
	}
	cache[n] = c;
	return c;
}

/* Signed-rank tails of doubled ranks @rk (@m of them), R+ doubled = @obs. */
static void signed_rank_tails(const unsigned int *rk, unsigned int m, double ties,
			      unsigned long obs, double *le, double *ge)
{
	unsigned long total = (unsigned long)m * (m + 1), s;
	const double *cdf = !ties && m <= SHIFT_EXACT_MAX ? signed_rank_cdf(m) : NULL;
	double mean, sd, sq = 0, *c = NULL, scale;
	unsigned int i;

	if (cdf) {
		/* untied: doubled ranks are even; the null is symmetric */
		*le = cdf[obs / 2];
		*ge = cdf[total / 2 - obs / 2];
		return;
	}
	if (!cdf && m <= SHIFT_EXACT_MAX)
		c = subset_sums(rk, m, total);
	if (c) {
		scale = ldexp(1, -(int)m);
		*le = *ge = 0;
		for (s = 0; s <= total; s++) {
			if (s <= obs)
				*le += c[s];
			if (s >= obs)
				*ge += c[s];
		}
		*le *= scale;
		*ge *= scale;
		free(c);
		return;
	}
	/* normal: each doubled rank in or out with 1/2; half a rank = 1 */
	for (i = 0; i < m; i++)
		sq += (double)rk[i] * rk[i];
	mean = total / 2.0;
	sd = sqrt(sq / 4);
	*le = stats_normal_cdf((obs + 1 - mean) / sd);
	*ge = stats_normal_cdf((mean - (obs - 1.0)) / sd);
}

/* The signed-rank test that @d (n values) is centred on @c. */
static double signed_rank_p(const double *d, unsigned int n, double c,
			    enum shift_alt alt)
{
	double *e = malloc((n ? n : 1) * sizeof(*e)), ties, le, ge;
	unsigned int *rk = malloc((n ? n : 1) * sizeof(*rk)), i, m = 0;
	unsigned long obs = 0;
	double p = 1;

	if (!e || !rk || any_nan(d, n))
		goto out;
	for (i = 0; i < n; i++)
		if (d[i] - c != 0)
			e[m++] = fabs(d[i] - c);
	if (!m || stats_doubled_ranks(e, m, rk, &ties))
		goto out;
	/* R+ (doubled): the ranks of |d - c| where d - c is positive */
	for (i = 0, m = 0; i < n; i++) {
		if (d[i] - c == 0)
			continue;
		if (d[i] - c > 0)
			obs += rk[m];
		m++;
	}
	signed_rank_tails(rk, m, ties, obs, &le, &ge);
	p = tails_p(le, ge, alt);
out:
	free(e);
	free(rk);
	return p;
}

/*
 * P(U <= u), u = 0 .. m n, of the Mann-Whitney U of untied samples of m
 * and n values: the coefficients of the Gaussian binomial [m + n, m]_q,
 * built factor by factor (each partial product is one, so no count goes
 * negative), counted once per pair of sizes and kept.
 */
static const double *mann_whitney_cdf(unsigned int m, unsigned int n)
{
	static double *cache[SHIFT_EXACT_MAX + 1][SHIFT_EXACT_MAX + 1];
	unsigned long top = (unsigned long)m * n, j;
	double *c, total = 1, run = 0;
	unsigned int i;

	if (cache[m][n])
		return cache[m][n];
	c = calloc(top + 1, sizeof(*c));
	if (!c)
		return NULL;
	c[0] = 1;
	for (i = 1; i <= m; i++) {
		/* times (1 - q^(n + i)) / (1 - q^i), up to q^top */
		for (j = top; j >= n + i; j--)
			c[j] -= c[j - n - i];
		for (j = i; j <= top; j++)
			c[j] += c[j - i];
		total = total * (n + i) / i;
	}
	for (j = 0; j <= top; j++) {
		run += c[j];
		c[j] = run / total;
	}
	cache[m][n] = c;
	return c;
}

/*
 * Counts of the doubled rank sums of the k-subsets of @rk (@n of them):
 * row k of the table, (total + 1) wide.  NULL when out of memory.
 */
static double *choose_sums(const unsigned int *rk, unsigned int n, unsigned int k,
			   unsigned long total)
{
	unsigned long width = total + 1, s, hi = 0;
	double *c = calloc((k + 1) * width, sizeof(*c)), *row, *prev;
	unsigned int i, j;

	if (!c)
		return NULL;
	c[0] = 1;
	/* c[j][s]: j of the values so far, doubled ranks summing to s */
	for (i = 0; i < n; i++) {
		hi += rk[i];
		for (j = i + 1 < k ? i + 1 : k; j >= 1; j--) {
			row = c + j * width;
			prev = row - width;
			for (s = hi; s >= rk[i]; s--)
				row[s] += prev[s - rk[i]];
		}
	}
	memmove(c, c + k * width, width * sizeof(*c));
	return c;
}

#define MW_TIES_EXACT_MAX 40	/* na + nb: the table above is k x N^2 */

/* Mann-Whitney tails of @obs, the doubled rank sum of the @nb new values */
static void mann_whitney_tails(const unsigned int *rk, unsigned int na, unsigned int nb,
			       double ties, unsigned long obs, double *le, double *ge)
{
	unsigned int n = na + nb, k = na < nb ? na : nb;
	unsigned long total = (unsigned long)n * (n + 1), s, u, base;
	const double *cdf = NULL;
	double *c = NULL, all = 0, mean, var;

	base = (unsigned long)nb * (nb + 1);	/* the smallest doubled sum */
	if (!ties && na <= SHIFT_EXACT_MAX && nb <= SHIFT_EXACT_MAX)
		cdf = mann_whitney_cdf(na, nb);
	if (cdf) {
		u = (obs - base) / 2;		/* U of the new side */
		*le = cdf[u];
		*ge = cdf[(unsigned long)na * nb - u];
		return;
	}
	if (ties && n <= MW_TIES_EXACT_MAX)
		c = choose_sums(rk, n, k, total);
	if (c) {
		/* sets of the smaller side; the new side's sum is the rest */
		*le = *ge = 0;
		for (s = 0; s <= total; s++) {
			unsigned long sb = k == nb ? s : total - s;

			all += c[s];
			if (sb <= obs)
				*le += c[s];
			if (sb >= obs)
				*ge += c[s];
		}
		*le /= all;
		*ge /= all;
		free(c);
		return;
	}
	mean = (double)nb * (n + 1);
	var = 4.0 * na * nb / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var <= 0) {
		*le = *ge = 1;
		return;
	}
	*le = stats_normal_cdf((obs + 1 - mean) / sqrt(var));
	*ge = stats_normal_cdf((mean - (obs - 1.0)) / sqrt(var));
}

/* The Mann-Whitney test that b - c and a are alike. */
static double mann_whitney_p(const double *a, unsigned int na, const double *b,
			     unsigned int nb, double c, enum shift_alt alt)
{
	unsigned int n = na + nb, i, *rk = malloc((n ? n : 1) * sizeof(*rk));
	double *x = calloc(n ? n : 1, sizeof(*x)), ties, le, ge, p = 1;
	unsigned long obs = 0;

	if (!x || !rk || !na || !nb || any_nan(a, na) || any_nan(b, nb))
		goto out;
	for (i = 0; i < n; i++)
		x[i] = i < na ? a[i] : b[i - na] - c;
	if (stats_doubled_ranks(x, n, rk, &ties))
		goto out;
	for (i = na; i < n; i++)
		obs += rk[i];
	mann_whitney_tails(rk, na, nb, ties, obs, &le, &ge);
	p = tails_p(le, ge, alt);
out:
	free(x);
	free(rk);
	return p;
}

struct welch {
	double diff;	/* mean(b) - mean(a) */
	double se;
	double df;
	bool ok;	/* 2 values a side at least */
};

static void mean_var(const double *x, unsigned int n, double *mean, double *var)
{
	double sum = 0, ss = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += x[i];
	*mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*var = n > 1 ? ss / (n - 1) : 0;
}

static struct welch welch_of(const struct shift *s)
{
	struct welch w = { 0 };
	double ma, mb, va, vb, qa, qb;

	if (s->na < 2 || s->nb < 2 || any_nan(s->a, s->na) || any_nan(s->b, s->nb))
		return w;
	mean_var(s->a, s->na, &ma, &va);
	mean_var(s->b, s->nb, &mb, &vb);
	qa = va / s->na;
	qb = vb / s->nb;
	w.diff = mb - ma;
	w.se = sqrt(qa + qb);
	w.df = qa + qb > 0 ? (qa + qb) * (qa + qb) /
	       (qa * qa / (s->na - 1) + qb * qb / (s->nb - 1)) : 1;
	w.ok = true;
	return w;
}

static double welch_p(const struct shift *s, double c, enum shift_alt alt)
{
	struct welch w = welch_of(s);
	double t;

	if (!w.ok)
		return 1;
	if (w.se == 0) {
		/* no spread: the difference is what it is */
		if (alt == SHIFT_GREATER)
			return w.diff > c ? 0 : 1;
		if (alt == SHIFT_LESS)
			return w.diff < c ? 0 : 1;
		return w.diff != c ? 0 : 1;
	}
	t = (w.diff - c) / w.se;
	if (alt == SHIFT_GREATER)
		return stats_t_sf(t, w.df);
	if (alt == SHIFT_LESS)
		return stats_t_sf(-t, w.df);
	return fmin(1, 2 * stats_t_sf(fabs(t), w.df));
}

double shift_p(const struct shift *s, double c, enum shift_alt alt)
{
	if (isnan(c))
		return 1;
	switch (s->kind) {
	case SHIFT_PAIRED:
		return signed_rank_p(s->b, s->nb, c, alt);
	case SHIFT_RANKS:
		return mann_whitney_p(s->a, s->na, s->b, s->nb, c, alt);
	default:
		return welch_p(s, c, alt);
	}
}

/* The median of the @n values of @v, then freed; 0 when none or no memory. */
static double median_of(double *v, unsigned int n)
{
	double med = 0;

	if (v && n)
		stats_median(v, n, &med);
	free(v);
	return med;
}

double shift_estimate(const struct shift *s)
{
	unsigned long n = 0, i, j;
	double *v;

	if (s->kind == SHIFT_MEANS) {
		double ma, mb, va, vb;

		if (!s->na || !s->nb || any_nan(s->a, s->na) || any_nan(s->b, s->nb))
			return 0;
		mean_var(s->a, s->na, &ma, &va);
		mean_var(s->b, s->nb, &mb, &vb);
		return mb - ma;
	}
	if (s->kind == SHIFT_PAIRED) {
		/* the Walsh averages (d_i + d_j) / 2, i <= j */
		v = malloc(((unsigned long)s->nb * (s->nb + 1) / 2 + 1) * sizeof(*v));
		for (i = 0; v && i < s->nb; i++)
			for (j = i; j < s->nb; j++)
				v[n++] = s->b[i] / 2 + s->b[j] / 2;
		return median_of(v, n);
	}
	v = malloc(((unsigned long)s->na * s->nb + 1) * sizeof(*v));
	for (i = 0; v && i < s->na; i++)
		for (j = 0; j < s->nb; j++)
			v[n++] = s->b[j] - s->a[i];
	return median_of(v, n);
}

/* The shifts that make every difference one sign: [lo, hi]. */
static void span(const struct shift *s, double *lo, double *hi)
{
	double amin = HUGE_VAL, amax = -HUGE_VAL, bmin = HUGE_VAL, bmax = -HUGE_VAL;
	unsigned int i;

	for (i = 0; i < s->nb; i++) {
		bmin = fmin(bmin, s->b[i]);
		bmax = fmax(bmax, s->b[i]);
	}
	if (s->kind == SHIFT_PAIRED) {
		*lo = bmin;
		*hi = bmax;
		return;
	}
	for (i = 0; i < s->na; i++) {
		amin = fmin(amin, s->a[i]);
		amax = fmax(amax, s->a[i]);
	}
	*lo = bmin - amax;
	*hi = bmax - amin;
}

/*
 * One bound by bisection between a shift @rej the one-sided test (@alt)
 * rejects and one @acc it does not: the p of a rank test only changes
 * where c crosses a Walsh average or a difference b_j - a_i.
 */
static double bisect(const struct shift *s, double half, enum shift_alt alt,
		     double rej, double acc)
{
	double tol = 1e-9 * (fabs(rej - acc) + fabs(rej) + fabs(acc)), mid;
	int k;

	if (shift_p(s, rej, alt) >= half)
		return alt == SHIFT_GREATER ? -HUGE_VAL : HUGE_VAL;
	if (shift_p(s, acc, alt) < half)
		return acc;
	for (k = 0; k < 200 && fabs(acc - rej) > tol; k++) {
		mid = rej + (acc - rej) / 2;
		if (shift_p(s, mid, alt) < half)
			rej = mid;
		else
			acc = mid;
	}
	return rej + (acc - rej) / 2;
}

void shift_interval(const struct shift *s, double level, double *lo, double *hi)
{
	double est, first, last, pad;

	*lo = -HUGE_VAL;
	*hi = HUGE_VAL;
	if (!(level > 0 && level < 1) || !s->nb || (s->kind != SHIFT_PAIRED && !s->na) ||
	    any_nan(s->b, s->nb) || (s->kind != SHIFT_PAIRED && any_nan(s->a, s->na)))
		return;
	if (s->kind == SHIFT_MEANS) {
		struct welch w = welch_of(s);
		double q;

		if (!w.ok)
			return;
		q = w.se > 0 ? stats_t_quantile(1 - level / 2, w.df) * w.se : 0;
		*lo = w.diff - q;
		*hi = w.diff + q;
		return;
	}
	est = shift_estimate(s);
	span(s, &first, &last);
	pad = (last - first) + fabs(first) + fabs(last) + 1;
	/* below the lower bound, the shift is shown to be greater */
	*lo = bisect(s, level / 2, SHIFT_GREATER, first - pad, est);
	*hi = bisect(s, level / 2, SHIFT_LESS, last + pad, est);
}

double shift_min_p(const struct shift *s)
{
	double lc;

	switch (s->kind) {
	case SHIFT_PAIRED:
		return s->nb ? fmin(1, ldexp(1, 1 - (int)fmin(s->nb, 1000))) : 1;
	case SHIFT_RANKS:
		if (!s->na || !s->nb)
			return 1;
		lc = lgamma((double)s->na + s->nb + 1) - lgamma((double)s->na + 1) -
		     lgamma((double)s->nb + 1);
		return fmin(1, exp(M_LN2 - lc));
	default:
		return s->na >= 2 && s->nb >= 2 ? 0 : 1;
	}
}
