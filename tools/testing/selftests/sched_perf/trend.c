// SPDX-License-Identifier: GPL-2.0
/*
 * Trend of a run against the order measured: Kendall's S summed over the
 * sides, with its exact null distribution (see trend.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats.h"
#include "trend.h"

/*
 * P(I = k), k = 0 .. n (n - 1) / 2, for I the inversions of a random
 * order of n values (the Mahonian numbers over n!): the generating
 * function prod_{i=1..n} (1 + q + ... + q^(i-1)) / i, one factor at a
 * time with a running sum.  Kept per n: the gate asks for the same
 * sizes look after look.
 */
static const double *inversions(unsigned int n)
{
	static double *cache[TREND_EXACT_MAX + 1];
	unsigned long top = (unsigned long)n * (n - 1) / 2, k;
	double *c, *next, run;
	unsigned int i;

	if (n > TREND_EXACT_MAX || !n)
		return NULL;
	if (cache[n])
		return cache[n];
	c = calloc(top + 1, sizeof(*c));
	next = calloc(top + 1, sizeof(*next));
	if (!c || !next) {
		free(c);
		free(next);
		return NULL;
	}
	c[0] = 1;
	for (i = 2; i <= n; i++) {
		/* next[k] = (c[k] + c[k - 1] + ... + c[k - i + 1]) / i */
		run = 0;
		for (k = 0; k <= top; k++) {
			run += c[k];
			if (k >= i)
				run -= c[k - i];
			next[k] = run / i;
		}
		for (k = 0; k <= top; k++)
			c[k] = next[k];
	}
	free(next);
	cache[n] = c;
	return c;
}

/* Kendall's S of @x against 1..n: rising pairs minus falling ones. */
static double kendall_s(const double *x, unsigned int n)
{
	double s = 0;
	unsigned int i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			s += (x[j] > x[i]) - (x[j] < x[i]);
	return s;
}

static bool finite_all(const double *x, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!isfinite(x[i]))
			return false;
	return true;
}

/*
 * P(Ia + Ib <= lo) and P(Ia + Ib >= hi) under the null: the convolution
 * of the two sides' inversion distributions.  -1 when not exact.
 */
static int exact_tails(unsigned int na, unsigned int nb, double lo, double hi,
		       double *le, double *ge)
{
	const double *pa = inversions(na ? na : 1), *pb = inversions(nb ? nb : 1);
	unsigned long ta = na ? (unsigned long)na * (na - 1) / 2 : 0;
	unsigned long tb = nb ? (unsigned long)nb * (nb - 1) / 2 : 0, i, j;

	if (!pa || !pb || (double)(ta + 1) * (tb + 1) > 4e6)
		return -1;
	*le = *ge = 0;
	for (i = 0; i <= ta; i++)
		for (j = 0; j <= tb; j++) {
			if (i + j <= lo)
				*le += pa[i] * pb[j];
			if (i + j >= hi)
				*ge += pa[i] * pb[j];
		}
	return 0;
}

/* Var(S) of n untied values: n (n - 1) (2 n + 5) / 18 */
static double s_var(unsigned int n)
{
	return (double)n * (n - 1) * (2.0 * n + 5) / 18;
}

double trend_p(const double *a, unsigned int na, const double *b, unsigned int nb,
	       double *tau_a, double *tau_b)
{
	double sa, sb, pairs_a, pairs_b, inv, le, ge, z;

	if (tau_a)
		*tau_a = 0;
	if (tau_b)
		*tau_b = 0;
	if (na + nb < 3 || !finite_all(a, na) || !finite_all(b, nb))
		return 1;
	sa = kendall_s(a, na);
	sb = kendall_s(b, nb);
	pairs_a = (double)na * (na ? na - 1 : 0) / 2;
	pairs_b = (double)nb * (nb ? nb - 1 : 0) / 2;
	if (tau_a && pairs_a > 0)
		*tau_a = sa / pairs_a;
	if (tau_b && pairs_b > 0)
		*tau_b = sb / pairs_b;
	if (pairs_a + pairs_b == 0)
		return 1;
	/* S = pairs - 2 I: a tie is half an inversion either way */
	inv = (pairs_a + pairs_b - sa - sb) / 2;
	if (!exact_tails(na, nb, floor(inv), ceil(inv), &le, &ge))
		return fmin(1, 2 * fmin(le, ge));
	z = (fabs(sa + sb) - 1) / sqrt(s_var(na) + s_var(nb));
	return fmin(1, 2 * stats_normal_cdf(-fmax(z, 0)));
}
