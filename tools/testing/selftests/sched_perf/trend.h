/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trend room: do the values of a run trend with the order they were
 * measured in?  Kendall's S of each side against 1..n (the number of
 * pairs i < j that rise minus those that fall; ties count 0), summed over
 * the sides, so that a host drifting the same way through both runs of a
 * comparison adds up, and tested two-sided against its exact null
 * distribution: the orders of each side equally likely, the sides
 * independent, so the inversions of each are Mahonian and their sum the
 * convolution.  Exact for up to TREND_EXACT_MAX values a side (ties taken
 * as half an inversion, which can only make the test stricter on
 * itself), else the normal approximation.
 */
#ifndef SCHED_PERF_TREND_H
#define SCHED_PERF_TREND_H

#define TREND_EXACT_MAX	200

/*
 * Two-sided p of the summed trend of @a (@na values) and @b (@nb, may be
 * 0), in the order measured; Kendall's tau of each side into @tau_a and
 * @tau_b (may be NULL; 0 for fewer than 2 values).  Fewer than 3 values
 * in all, a value not finite or out of memory: p 1.
 */
double trend_p(const double *a, unsigned int na, const double *b, unsigned int nb,
	       double *tau_a, double *tau_b);

#endif
