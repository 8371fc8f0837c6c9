/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shift room: one estimate of how far a new side moved from an old one,
 * and the tests that say how far it is shown to have moved, built on the
 * same statistic, so that the change printed, the change held against a
 * threshold and the equivalence test cannot disagree:
 *
 *   SHIFT_PAIRED  one sample of block differences d: the Hodges-Lehmann
 *                 estimate (the median of the Walsh averages
 *                 (d_i + d_j) / 2, i <= j) and the Wilcoxon signed-rank
 *                 test of d - c;
 *   SHIFT_RANKS   two samples: the Hodges-Lehmann shift (the median of
 *                 every b_j - a_i) and the Mann-Whitney test of b - c
 *                 against a;
 *   SHIFT_MEANS   two samples of boot figures (means): mean(b) - mean(a) and
 *                 Welch's t test of it against c.
 *
 * Where a rank test's null distribution is small enough to count, it is
 * counted: exact, and conditional on the ties and zeros of the data
 * (midranks; a zero difference is dropped, as scipy's zero_method
 * 'wilcox'), for up to SHIFT_EXACT_MAX values; beyond, the normal
 * approximation with the tie correction and a continuity correction of
 * half a rank.  The untied distributions are counted once per size and
 * kept.  A NaN, an empty side or memory running out: p 1, "cannot judge".
 */
#ifndef SCHED_PERF_SHIFT_H
#define SCHED_PERF_SHIFT_H

#include <stdbool.h>

enum shift_kind { SHIFT_PAIRED, SHIFT_RANKS, SHIFT_MEANS };

/* The alternative to "the shift is c": shift > c, shift < c, either. */
enum shift_alt { SHIFT_TWO_SIDED, SHIFT_GREATER, SHIFT_LESS };

#define SHIFT_EXACT_MAX	100

struct shift {
	enum shift_kind kind;
	const double *a;	/* the old side (unused when paired) */
	unsigned int na;
	const double *b;	/* the new side, or the differences when paired */
	unsigned int nb;
};

/* The estimate of the shift (0 when nothing can be estimated). */
double shift_estimate(const struct shift *s);

/* p of the test that the shift is @c against @alt. */
double shift_p(const struct shift *s, double c, enum shift_alt alt);

/*
 * The two-sided (1 - @level) confidence interval of the shift: the
 * shifts c the test does not reject, each side at @level / 2 (the
 * inversion of shift_p, to a relative 1e-9 of the data's span).  A bound
 * the sizes cannot reach is -/+HUGE_VAL.
 */
void shift_interval(const struct shift *s, double level, double *lo, double *hi);

/*
 * The smallest two-sided p the test can reach with these sizes, without
 * ties: 2 / 2^n paired, 2 / C(na + nb, na) ranks, 0 for Welch with 2 a
 * side (else 1).
 */
double shift_min_p(const struct shift *s);

#endif
