// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of shift.c.  The exact p-values were counted by brute force
 * in Python 3.11 (every sign pattern, every split of the pooled values,
 * with midranks; statistics.median for the Hodges-Lehmann estimates).
 */
#include <math.h>
#include <stdbool.h>

#include "shift.h"
#include "stats.h"
#include "trend.h"
#include "verdict.h"
#include "unit.h"

/* @got is @want to 12 digits: a p counted exactly, rounded once */
#define EXPECT_EXACT(want, got) EXPECT_NEAR(want, got, 1e-12 * fmax(1, fabs((double)(want))))

/* ties and zeros: the null distribution counted, conditional on them */
TEST(shift_exact_with_ties)
{
	static const double d[10] = { -3, -4, 0, -6, 2, -8, -4, -5.5, 0, 1.5 };
	static const double a[7] = { 10, 12, 11, 13, 12, 9, 14 };
	static const double b[6] = { 11, 15, 14, 12, 16, 13 };
	struct shift p = { SHIFT_PAIRED, NULL, 0, d, 10 };
	struct shift r = { SHIFT_RANKS, a, 7, b, 6 };

	/* the signed-rank test, exact with ties and zeros */
	EXPECT_EXACT(0.0390625, shift_p(&p, 0, SHIFT_TWO_SIDED));
	EXPECT_EXACT(0.56640625, shift_p(&p, -2.5, SHIFT_GREATER));
	EXPECT_EXACT(-2.75, shift_estimate(&p));
	/* Mann-Whitney, exact with ties */
	EXPECT_EXACT(0.12121212121212122, shift_p(&r, 0, SHIFT_TWO_SIDED));
	EXPECT_EXACT(0.81526806526806528, shift_p(&r, 1, SHIFT_LESS));
	EXPECT_EXACT(2, shift_estimate(&r));
}

/*
 * The signed-rank test at n = 8 with 2 zeros once rejected 6.25 %
 * of the null at a nominal 5 % (the normal approximation scipy takes
 * there); counted exactly it rejects 2 of the 64 sign patterns.
 */
TEST(shift_exact_size)
{
	unsigned int pattern, k, exact = 0, approx = 0;
	double d[8];

	for (pattern = 0; pattern < 64; pattern++) {
		struct shift s = { SHIFT_PAIRED, NULL, 0, d, 8 };

		for (k = 0; k < 6; k++)
			d[k] = (pattern >> k & 1 ? 1.0 : -1.0) * (k + 1);
		d[6] = d[7] = 0;
		exact += shift_p(&s, 0, SHIFT_TWO_SIDED) < 0.05;
		approx += stats_signed_rank(d, 8, NULL) < 0.05;
	}
	verdict_note("signed-rank, n 8 with 2 zeros, null: %u of 64 below 0.05 exact, %u approximated\n",
		     exact, approx);
	EXPECT_EQ(2U, exact);
	EXPECT_EQ(4U, approx);
}

/* the interval is the inversion of the test: its bounds are where p crosses */
TEST(shift_interval_inverts_the_test)
{
	static const double d[12] = {
		-3.1, -4, 0.7, -6, 2, -8, -4.4, -5.5, 0.3, 1.5, -2.2, -0.9,
	};
	static const double a[7] = { 10, 12.5, 11, 13, 12, 9, 14 };
	static const double b[8] = { 11.2, 15, 14.1, 12.3, 16, 13.4, 17.7, 8.2 };
	struct shift p = { SHIFT_PAIRED, NULL, 0, d, 12 };
	struct shift r = { SHIFT_RANKS, a, 7, b, 8 };
	struct shift w = { SHIFT_MEANS, a, 7, b, 8 };
	double lo, hi, est;

	shift_interval(&p, 0.1, &lo, &hi);
	est = shift_estimate(&p);
	/* paired: the estimate inside, p crossing 0.05 at each bound */
	EXPECT_TRUE(lo < est) TH_LOG("lo %.17g, estimate %.17g", lo, est);
	EXPECT_TRUE(est < hi) TH_LOG("estimate %.17g, hi %.17g", est, hi);
	EXPECT_DBL(shift_p(&p, lo - 1e-6, SHIFT_GREATER), <, 0.05);
	EXPECT_DBL(shift_p(&p, lo + 1e-6, SHIFT_GREATER), >=, 0.05);
	EXPECT_DBL(shift_p(&p, hi + 1e-6, SHIFT_LESS), <, 0.05);
	EXPECT_DBL(shift_p(&p, hi - 1e-6, SHIFT_LESS), >=, 0.05);
	EXPECT_NEAR(-4.3, lo, 1e-6);
	EXPECT_NEAR(-0.75, hi, 1e-6);
	/* ranks */
	shift_interval(&r, 0.1, &lo, &hi);
	EXPECT_NEAR(-0.6, lo, 1e-6);
	EXPECT_NEAR(4.1, hi, 1e-6);
	EXPECT_DBL(shift_p(&r, lo - 1e-6, SHIFT_GREATER), <, 0.05);
	/* Welch: p 0.05 at the bound, the estimate in the middle */
	shift_interval(&w, 0.1, &lo, &hi);
	EXPECT_NEAR(0.05, shift_p(&w, lo, SHIFT_GREATER), 0.0001);
	EXPECT_EXACT((lo + hi) / 2, shift_estimate(&w));
	/* 3 blocks can never reach 0.1: unbounded both ways */
	p.nb = 3;
	shift_interval(&p, 0.1, &lo, &hi);
	EXPECT_TRUE(lo == -HUGE_VAL) TH_LOG("lo %g", lo);
	EXPECT_TRUE(hi == HUGE_VAL) TH_LOG("hi %g", hi);
	EXPECT_EXACT(0.25, shift_min_p(&p));
}

/* counted by brute force over every order of each side */
TEST(shift_trend)
{
	static const double a[6] = { 3, 1, 4, 1.5, 5, 9 }, b[5] = { 2, 6, 5, 3, 5.8 };
	static const double up[5] = { 1, 2, 3, 4, 5 };
	unsigned int perm[6] = { 0, 1, 2, 3, 4, 5 }, n = 0, below = 0, i, j, k;
	double ta, tb, x[6];

	/* Kendall's S summed, exact */
	EXPECT_EXACT(0.1375462962962963, trend_p(a, 6, b, 5, &ta, &tb));
	EXPECT_EXACT(0.1361111111111111, trend_p(a, 6, b, 0, &ta, &tb));
	EXPECT_EXACT(0.0001388888888888889, trend_p(up, 5, up, 5, &ta, &tb));
	EXPECT_EXACT(1, ta);
	EXPECT_EXACT(1, tb);
	/*
	 * Its size on a steady run: every order of 6 values, those with p
	 * below 0.05 at most 5 % of the 720 (Spearman with the t
	 * approximation refused 1.1-1.7 % at a nominal 1 %).
	 */
	for (;;) {
		for (i = 0; i < 6; i++)
			x[i] = perm[i];
		below += trend_p(x, 6, NULL, 0, NULL, NULL) < 0.05;
		n++;
		/* the next permutation in lexicographic order */
		for (i = 5; i > 0 && perm[i - 1] > perm[i]; i--)
			;
		if (!i)
			break;
		for (j = 5; perm[j] < perm[i - 1]; j--)
			;
		k = perm[i - 1];
		perm[i - 1] = perm[j];
		perm[j] = k;
		for (j = 5; i < j; i++, j--) {
			k = perm[i];
			perm[i] = perm[j];
			perm[j] = k;
		}
	}
	verdict_note("trend: %u of %u orders of 6 values below 0.05\n", below, n);
	EXPECT_EQ(720U, n);
	EXPECT_LE(below, 36U);
	EXPECT_GT(below, 0U);
}

