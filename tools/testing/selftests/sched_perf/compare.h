/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparison room: two run sets of one workload (a baseline and a new run,
 * or the A and B sides of an in-boot A/B) judged metric by metric.
 *
 * Every word is a claim shown at a stated level, from one estimate of the
 * change and the tests built on its statistic (shift.h): the
 * Hodges-Lehmann shift with the signed-rank test (paired blocks) or the
 * Mann-Whitney test (unpaired runs), the difference of the means with
 * Welch's t (boots), on the ratio scale (logarithms) when every value is
 * positive, else relative to the old median (or the metric's floor,
 * cmp_floor()).  Each metric is held to the two-sided level of
 * the look over the judged metrics (Bonferroni: one interval each), and
 *   REGRESSED / IMPROVED: the change is shown beyond the threshold, the
 *     bad way / beyond its opposite the good way: the one-sided test of
 *     "no further than the threshold" rejects at half the metric's level,
 *     i.e. that bound of the interval lies beyond (the dual of the TOST);
 *   SAME: the two one-sided tests put the change within +/- the
 *     threshold, at level_same (its own budget, per metric);
 *   WORSE / BETTER: the change is shown to be there (p < the metric's
 *     level) but not shown beyond the threshold: no failure, no pass; a
 *     gate keeps looking while it has runs left;
 *   UNDECIDED: none of these yet; TOO_FEW: the sizes cannot reach the
 *     level at all.
 * From an old median of 0 with no floor there is no relative scale: any
 * move shown is beyond every threshold (+/-inf), and only two sides of
 * zeros are the same.
 *
 * A sequential (unpaired) side whose values trend with the order they
 * were measured in (Spearman's rho against 1..n, p below CMP_DRIFT_P) is
 * "drifting": the host changed during the run, and no verdict is given.
 * A side whose robust coefficient of variation (MAD based: one wild
 * iteration does not count, as it does not for the rank test) is above
 * MAX_CV is too noisy to judge, with one exception: when every run of one
 * side lies beyond every run of the other, the noise did not hide the
 * move, whatever its size (a count near zero has a huge CV; 0.0003 -> 4
 * CPUs scanned per wakeup is still a move).
 */
#ifndef SCHED_PERF_COMPARE_H
#define SCHED_PERF_COMPARE_H

#include <stdbool.h>

#include "metrics.h"
#include "runset.h"
#include "stats.h"

/*
 * Defaults.  The measurements that chose them (false alarms and detection
 * in bench/gate.sh) are in Documentation/scheduler/sched-perf-results/gate.rst.
 */
#define CMP_ALPHA	0.05	/* family-wise, over one comparison's metrics */
/*
 * Boots get the false-alarm goal itself: at 3 boots a side the margin of
 * the threshold does not keep a false DIFFERENT under 1 % once the boots
 * spread as far as the threshold, and alpha is the only bound (A/A at CV
 * 0.2: 1.50 % with 0.05, 0.15 % with 0.01; bench/verdicts.sh).
 */
#define CMP_ALPHA_BOOTS	0.01
/*
 * SAME has its own budget, per metric over the looks, whatever alpha
 * DIFFERENT has: a false "same" at the threshold in at most 5 %.
 */
#define CMP_ALPHA_SAME	0.05
#define CMP_MAX_CV	0.50	/* robust CV above this on a side: no verdict */
/*
 * A side of a sequential comparison trends when Spearman's rho of its
 * values against their order has p below this (two-sided), with at least
 * CMP_DRIFT_MIN_N values.  udp_rr's baseline that climbed from 14.2 to
 * 17.0 us per transaction over 8 iterations gave an A/A false alarm.
 */
#define CMP_DRIFT_P	0.05
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
	CMP_WORSE,		/* a move the bad way shown, not beyond the threshold */
	CMP_BETTER,		/* a move the good way shown, not beyond it */
};

/*
 * change: the shift estimate relative to the scale (+/-HUGE_VAL from an
 * old median of 0 without a floor, 0 when nothing moved); change and p
 * are NAN for CMP_MISSING, p_adj for every metric not judged (missing,
 * noisy, drifting).
 */
struct cmp_result {
	char metric[METRIC_NAME_LEN];
	double threshold;		/* the rule's change */
	struct sample_stats old, new;	/* valid unless CMP_MISSING */
	double change;			/* the shift estimate, as new / old - 1 */
	double ci_lo, ci_hi;		/* its interval at level_metric */
	double p;			/* two-sided, that the change is 0 */
	double p_adj;			/* p x the judged metrics (Bonferroni) */
	double p_beyond;		/* one-sided: beyond the threshold */
	double p_same;			/* equivalence within +/- |threshold| */
	double p_ni;			/* one-sided: not worse than the threshold */
	double level;			/* this look's level over the metrics */
	double level_metric;		/* level / judged metrics: what p is held to */
	double level_same;		/* what p_same and p_ni are held to */
	double min_p;			/* the smallest p these sizes can reach */
	double floor;			/* the metric's floor (cmp_floor), or 0 */
	bool from_zero;			/* old median 0 and no floor: no scale */
	bool ratio_scale;		/* tested on logarithms (all values > 0) */
	double cv_block;		/* paired: CV of the per-block ratios new/old */
	double rho_old, rho_new;	/* Kendall's tau of each side (unpaired) */
	double p_drift;			/* that both sides trend (unpaired), or NAN */
	char drifted_with[METRIC_NAME_LEN];	/* DRIFTING for another's trend */
	enum cmp_verdict verdict;
	double rcv_old, rcv_new;		/* robust CVs (stats_robust_cv) */
	bool apart;			/* no run of one side within the other's range */
	double foreign_old, foreign_new;	/* when NOISY for a busier machine */
	char why[320];			/* one line: figures for the report */
};

struct cmp_params {
	double alpha;		/* DIFFERENT: over the metrics and the looks */
	double max_cv;
	unsigned int looks;	/* looks a sequential gate may take; 0 means 1 */
	bool paired;		/* iteration k of old and of new form block k */
	bool boots;		/* each run is one boot's median (Welch) */
	double alpha_same;	/* SAME, per metric, over the looks; 0: CMP_ALPHA_SAME */
	/*
	 * This look's share of alpha and of alpha_same (a gate's spending,
	 * gate.h); 0: alpha / looks and alpha_same / looks.
	 */
	double level;
	double level_same;
};

/* The default family-wise alpha: CMP_ALPHA_BOOTS for boots, else CMP_ALPHA. */
double cmp_default_alpha(bool boots);

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

/*
 * What a sequential gate may have spent of @alpha, in all, by a look at
 * the share @t of its max_runs: Lan and DeMets' spending function of the
 * Pocock type, alpha ln(1 + (e - 1) t); all of @alpha from t = 1 on, and
 * at the @last look whatever @t (a look taken early when the time runs
 * out).  A look's level is what is spent by it less what the looks
 * before spent.  The in-boot gate (gate.c) spends by it over iterations,
 * sched_perf_compare --look over boots (scripts/vmab.sh).
 */
double cmp_spent_by(double alpha, double t, bool last);

/*
 * A look's levels into @p->level and @p->level_same: what cmp_spent_by()
 * allows by the share @t (@last: all) of @p->alpha and of SAME's budget,
 * less what the looks before spent of each (@spent, @spent_same).
 */
void cmp_spend_look(struct cmp_params *p, double t, bool last, double spent,
		    double spent_same);

/* A verdict the gate may stop on: same, regressed or improved. */
bool cmp_decided(enum cmp_verdict v);

/*
 * The absolute floor of a metric where 0 is normal, or 0: its change is
 * relative to max(|old median|, floor).  migrations_per_1k_ops and
 * sis_scanned_per_wakeup 0.01, involuntary_switches_per_op and every
 * *_share 0.001.
 */
double cmp_floor(const char *metric);

/*
 * Is a worse change beyond @r's threshold still possible: neither shown
 * absent (same, improved, better, or undecided with "not worse than the
 * threshold" shown at level_same) nor a missing metric?  What keeps a
 * gated metric from passing: sched_perf_compare exits 4 on it, and a
 * --bisect step is not good.
 */
bool cmp_bad_side_open(const struct cmp_result *r);


#endif
