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

static bool near(double got, double want)
{
	return fabs(got - want) <= 1e-12 * fmax(1, fabs(want));
}

/* ties and zeros: the null distribution counted, conditional on them */
UNIT_TEST(shift_exact_with_ties)
{
	static const double d[10] = { -3, -4, 0, -6, 2, -8, -4, -5.5, 0, 1.5 };
	static const double a[7] = { 10, 12, 11, 13, 12, 9, 14 };
	static const double b[6] = { 11, 15, 14, 12, 16, 13 };
	struct shift p = { SHIFT_PAIRED, NULL, 0, d, 10 };
	struct shift r = { SHIFT_RANKS, a, 7, b, 6 };

	EXPECT(near(shift_p(&p, 0, SHIFT_TWO_SIDED), 0.0390625) &&
	       near(shift_p(&p, -2.5, SHIFT_GREATER), 0.56640625) &&
	       near(shift_estimate(&p), -2.75), "shift_signed_rank_exact_ties_zeros");
	EXPECT(near(shift_p(&r, 0, SHIFT_TWO_SIDED), 0.12121212121212122) &&
	       near(shift_p(&r, 1, SHIFT_LESS), 0.81526806526806528) &&
	       near(shift_estimate(&r), 2), "shift_mann_whitney_exact_ties");
}

/*
 * The signed-rank test at n = 8 with 2 zeros once rejected 6.25 %
 * of the null at a nominal 5 % (the normal approximation scipy takes
 * there); counted exactly it rejects 2 of the 64 sign patterns.
 */
UNIT_TEST(shift_exact_size)
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
	EXPECT(exact == 2 && approx == 4, "shift_signed_rank_exact_size_with_zeros");
}

/* the interval is the inversion of the test: its bounds are where p crosses */
UNIT_TEST(shift_interval)
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
	EXPECT(lo < est && est < hi && shift_p(&p, lo - 1e-6, SHIFT_GREATER) < 0.05 &&
	       shift_p(&p, lo + 1e-6, SHIFT_GREATER) >= 0.05 &&
	       shift_p(&p, hi + 1e-6, SHIFT_LESS) < 0.05 &&
	       shift_p(&p, hi - 1e-6, SHIFT_LESS) >= 0.05 && fabs(lo + 4.3) < 1e-6 &&
	       fabs(hi + 0.75) < 1e-6, "shift_interval_paired_inverts_the_test");
	shift_interval(&r, 0.1, &lo, &hi);
	EXPECT(fabs(lo + 0.6) < 1e-6 && fabs(hi - 4.1) < 1e-6 &&
	       shift_p(&r, lo - 1e-6, SHIFT_GREATER) < 0.05, "shift_interval_ranks");
	shift_interval(&w, 0.1, &lo, &hi);
	EXPECT(shift_p(&w, lo, SHIFT_GREATER) > 0.0499 && shift_p(&w, lo, SHIFT_GREATER) < 0.0501 &&
	       near(shift_estimate(&w), (lo + hi) / 2), "shift_interval_welch");
	/* 3 blocks can never reach 0.1: unbounded both ways */
	p.nb = 3;
	shift_interval(&p, 0.1, &lo, &hi);
	EXPECT(lo == -HUGE_VAL && hi == HUGE_VAL && shift_min_p(&p) == 0.25,
	       "shift_interval_unreachable");
}

/* counted by brute force over every order of each side */
UNIT_TEST(shift_trend)
{
	static const double a[6] = { 3, 1, 4, 1.5, 5, 9 }, b[5] = { 2, 6, 5, 3, 5.8 };
	static const double up[5] = { 1, 2, 3, 4, 5 };
	unsigned int perm[6] = { 0, 1, 2, 3, 4, 5 }, n = 0, below = 0, i, j, k;
	double ta, tb, x[6];

	EXPECT(near(trend_p(a, 6, b, 5, &ta, &tb), 0.1375462962962963) &&
	       near(trend_p(a, 6, b, 0, &ta, &tb), 0.1361111111111111) &&
	       near(trend_p(up, 5, up, 5, &ta, &tb), 0.0001388888888888889) && ta == 1 &&
	       tb == 1, "trend_kendall_exact");
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
	EXPECT(n == 720 && below <= 36 && below > 0, "trend_exact_size");
}

