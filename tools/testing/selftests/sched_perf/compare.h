/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparison room: two run sets of one workload (a baseline and a new run,
 * or the A and B sides of an in-boot A/B) judged metric by metric.
 *
 * Three answers a maintainer can act on, and reasons for none:
 *   DIFFERENT (regressed / improved): the change is significant, at a
 *     family-wise level over the metrics (Holm-Bonferroni), and beyond
 *     the metric's threshold;
 *   SAME: proven, not merely "not shown to differ": the (1 - 2 level)
 *     confidence interval of the change lies inside +/- the threshold
 *     (two one-sided tests, stats_tost);
 *   UNDECIDED: neither yet; the gate runs more, and a comparison that
 *     ends undecided is a SKIP with its figures.
 * Unpaired run sets (a saved baseline) are compared with the Mann-Whitney
 * U test and Welch's equivalence test on values relative to the old
 * median.  Paired ones (params.paired: iteration k of each side measured
 * moments apart, as --ab does in blocks) with the Wilcoxon signed-rank
 * test and the one-sample equivalence test on the per-block relative
 * differences (new_k - old_k) / |old median|: the host's drift moves both
 * halves of a block alike and cancels.  A gate that looks again after
 * more runs spends ALPHA over its looks (params.looks, Bonferroni): each
 * look is judged at ALPHA / looks.
 *
 * A sequential (unpaired) side whose values trend with the order they
 * were measured in (Spearman's rho against 1..n, p below CMP_DRIFT_P) is
 * "drifting": the host changed during the run, and no verdict is given.
 *
 * In detail, a metric regresses only when its median moved beyond the
 * metric's threshold in the bad direction AND the test says the two
 * sets of runs differ, at a family-wise level ALPHA over the metrics of
 * the comparison (Holm-Bonferroni).  A move beyond the threshold in the
 * good direction with the same significance is an improvement: reported,
 * never failed.  A side whose robust coefficient of variation (MAD based:
 * one wild iteration does not count, as it does not for the rank test) is
 * above MAX_CV, or
 * run counts too small for the test ever to reach its level, cannot be
 * judged: that is said, with the figures, never silently passed.  The one
 * exception to the CV limit: when every run of one side lies beyond every
 * run of the other, the noise did not hide the move, whatever its size
 * (a count near zero has a huge CV; 0.0003 -> 4 CPUs scanned per wakeup
 * is still a move).
 */
#ifndef SCHED_PERF_COMPARE_H
#define SCHED_PERF_COMPARE_H

#include <stdbool.h>

#include "metrics.h"
#include "runset.h"
#include "stats.h"

/*
 * Defaults.  The measurements that chose them (false alarms and detection
 * in bench/gate.sh) are in Documentation/scheduler/sched-perf.rst.
 */
#define CMP_ALPHA	0.05	/* family-wise, over one comparison's metrics */
#define CMP_MAX_CV	0.50	/* robust CV above this on a side: no verdict */
/*
 * Wall-clock rates (metrics named *_per_sec) and task placement (metrics
 * naming migrations, and CPUs scanned per wakeup: where other work keeps
 * CPUs busy, the balancer and the idle search place our tasks elsewhere)
 * are not judged when the share of the machine's CPU time that went to
 * other work (foreign_cpu_share, measure.h) differs between the two sides
 * by more than this: a busier machine, not a worse kernel.
 */
#define CMP_MAX_FOREIGN	0.05
/*
 * A side of a sequential comparison trends when Spearman's rho of its
 * values against their order has p below this (two-sided), with at least
 * CMP_DRIFT_MIN_N values.  udp_rr's baseline that climbed from 14.2 to
 * 17.0 us per transaction over 8 iterations gave an A/A false alarm.
 */
#define CMP_DRIFT_P	0.01
#define CMP_DRIFT_MIN_N	6

/*
 * One rule: @metric regresses when (new - old) / |old| of the medians is
 * beyond @change in its direction: change < 0 (e.g. -0.05) for a metric
 * that must not fall, change > 0 (e.g. +0.20) for one that must not rise.
 */
struct cmp_rule {
	char metric[METRIC_NAME_LEN];
	double change;
};

enum cmp_verdict {
	CMP_SAME,		/* proven within +/- the threshold */
	CMP_REGRESSED,
	CMP_IMPROVED,
	CMP_NOISY,		/* a side's CV above the limit: cannot judge */
	CMP_TOO_FEW,		/* too few runs for the test to reach its level */
	CMP_MISSING,		/* a side has no value for the metric */
	CMP_UNDECIDED,		/* neither shown to differ nor proven the same */
	CMP_DRIFTING,		/* a sequential side trends: cannot judge */
};

/*
 * change: from an old median of 0, +/-HUGE_VAL toward the new median (0
 * when that is 0 too).  change and p are NAN for CMP_MISSING, p_adj is NAN
 * for every metric not judged (missing, noisy, too few runs).
 */
struct cmp_result {
	char metric[METRIC_NAME_LEN];
	double threshold;		/* the rule's change */
	struct sample_stats old, new;	/* valid unless CMP_MISSING */
	double change;			/* of the medians, (new - old) / |old| */
	double p;			/* Mann-Whitney U or signed-rank, two-sided */
	double p_adj;			/* Holm-adjusted over the judged metrics */
	double p_same;			/* equivalence within +/- |threshold| */
	double level;			/* what p_adj and p_same were held to */
	double cv_block;		/* paired: CV of the per-block ratios new/old */
	double rho_old, rho_new;	/* trend of each side (unpaired) */
	enum cmp_verdict verdict;
	double rcv_old, rcv_new;		/* robust CVs (stats_robust_cv) */
	bool apart;			/* no run of one side within the other's range */
	double foreign_old, foreign_new;	/* when NOISY for a busier machine */
	char why[192];			/* one line: figures for the report */
};

struct cmp_params {
	double alpha;
	double max_cv;
	unsigned int looks;	/* looks a sequential gate may take; 0 means 1 */
	bool paired;		/* run k of old and of new form block k */
	bool boots;		/* each run is one boot's median (Welch) */
};

/* Short name of a verdict, for KTAP names, tables and JSON. */
const char *cmp_verdict_name(enum cmp_verdict v);

/*
 * Judge every rule on @old against @new into @out (room for @nr_rules).
 * @params NULL: CMP_ALPHA and CMP_MAX_CV, unpaired, one look.  A rule's change of 0 names no
 * direction: any significant move is a regression.  Returns how many
 * regressed.
 */
unsigned int compare_runsets(const struct runset *old, const struct runset *new,
			     const struct cmp_rule *rules, unsigned int nr_rules,
			     const struct cmp_params *params,
			     struct cmp_result *out);

/*
 * Would @n_old and @n_new runs ever let the test reach @level?  The
 * smallest two-sided p of the exact test is 2 / C(n_old + n_new, n_old).
 */
bool cmp_enough_runs(unsigned int n_old, unsigned int n_new, double level);

/*
 * A sequential gate looks at planned sizes only: after a look at @runs the
 * next is at cmp_next_look(runs), about 1.5 times as many, and from
 * @runs to @max_runs there are cmp_looks() looks (8 to 24: 8, 12, 18, 24).
 */
unsigned int cmp_next_look(unsigned int runs);
unsigned int cmp_looks(unsigned int runs, unsigned int max_runs);

/* A verdict the gate may stop on: same, regressed or improved. */
bool cmp_decided(enum cmp_verdict v);


#endif
