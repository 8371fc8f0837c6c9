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
 * cmp_floor()).
 *
 * Each gated metric has two numbers: its rule's change M, the regression
 * to catch (the bounds file's "change" line), and the alarm line A inside
 * it (by default M / 2: cmp_alarm()).  Alpha is split over the metrics
 * present (weighted Bonferroni, one interval each): the primary metric,
 * the program's throughput that the verdict rests on, keeps
 * CMP_PRIMARY_SHARE of it; the mechanism metrics (migrations, CPU time
 * per op, switches, scans) share the rest.
 *   regressed / improved: a move the bad way / the good way shown (the
 *     one-sided test against 0 rejects at half the metric's level: the
 *     interval lies on that side of 0) and its estimate beyond A / -A;
 *   same: neither, the two one-sided tests put the change within +/- M
 *     at level_same (its own budget, per metric), and the interval
 *     printed beside the word is finite and inside +/- M;
 *   worse / better: a move shown whose estimate lies within A: no
 *     failure; a pass when "not worse than M" is shown (cmp_bad_side_open);
 *   undecided: none of these yet; too-few-runs: the sizes cannot reach
 *     the level at all.
 * With every metric the true change 0, a gate fails at most alpha / 2
 * of the time; the gate's pass and open rest on the primary metric
 * (cmp_gate_open()).
 * After each comparison every metric carries its power: the smallest
 * change it would catch at CMP_MDE_POWER with the runs it may still take
 * (mde) and with those it has (mde_now), from an upper bound of the
 * spread seen: cmp_mde(), cmp_fill_mde().
 * From an old median of 0 with no floor there is no relative scale: any
 * move shown is beyond every threshold (+/-inf), and only two sides of
 * zeros are the same.
 *
 * A sequential (unpaired) comparison whose values trend with the order
 * they were measured in (Kendall's S of each side against 1..n, summed
 * over the sides, p below CMP_DRIFT_P: trend.h) is "drifting": the host
 * changed during the run, and no verdict is given; so is a move that
 * the sides' trend the same way explains (CMP_DRIFT_GUARD_P).
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
#include <stddef.h>

#include "metrics.h"
#include "runset.h"
#include "stats.h"

/*
 * Defaults.  The measurements that chose them (false alarms and detection
 * in bench/gate.sh) are in Documentation/scheduler/sched-perf-results/gate.rst.
 */
/*
 * Family-wise, over one comparison's metrics, two-sided: a metric fails
 * on a move shown at half its share one-sided, 0.0075 in all.  With the
 * plan to catch M the estimate lies beyond A whenever the move is shown,
 * so the margin of the alarm line no longer keeps A/A below alpha / 2:
 * alpha itself does, and independent metrics reach that bound (A/A,
 * 1000-2000 gates a row: 0.65-1.0 % at 0.02 for paired blocks at CV
 * 0.1-0.18 and unpaired runs at 0.05; 0.05 gave 1.45 %).  0.015 leaves
 * the 1 % goal a margin the rows' intervals need.
 */
#define CMP_ALPHA	0.015
/*
 * Boots get the false-alarm goal itself: at 3 boots a side the margin of
 * the threshold does not keep a false alarm (regressed or improved) under
 * 1 % once the boots spread as far as the threshold, and alpha is the
 * only bound (A/A at CV 0.2: 1.50 % with 0.05, 0.15 % with 0.01;
 * bench/verdicts.sh).
 */
#define CMP_ALPHA_BOOTS	0.01
/*
 * same has its own budget, per metric over the looks, whatever alpha
 * regressed / improved have: a false "same" at the threshold in at most
 * 5 %.
 */
#define CMP_ALPHA_SAME	0.05
/*
 * The alarm line of a rule without its own: this share of its change.  A
 * true change of M is then 2 intervals' half-widths from the line, not
 * 0: the gate fails on it with power, where a line at M fails it half of
 * the time at best (bench/verdicts.sh, verdicts.rst).
 */
#define CMP_ALARM_SHARE	0.5
/*
 * The primary metric's share of alpha when other metrics are judged with
 * it; they share the rest.  Under the default plan (2026-12-06, paired,
 * 3 metrics, 1000 gates a row) an even split does as well at CV 0.05
 * (-5 % fails 99.5 % against 98.3 %), but where --gate-time binds, at
 * this host's CV 0.1, 0.7 fails -5 % in 81.6 % against 74.1 % and passes
 * A/A in 77.4 % against 64.9 %, for 4 points of a mechanism metric's
 * power (verdicts.rst).
 */
#define CMP_PRIMARY_SHARE	0.7
/* The power the minimum detectable effect (mde) is stated at. */
#define CMP_MDE_POWER	0.90
/*
 * The mde a gate prints and the runs it plans come from an upper bound of
 * the spread it saw, not the spread itself: a few runs' spread is noisy,
 * and half the gates would print a figure they catch less often than
 * stated.  The one-sided normal quantile of the bound's confidence, and
 * the degrees of freedom a robust (MAD based) spread of n values has, as
 * a share of n - 1 (its efficiency).  Chosen with sched_perf_sim's
 * honesty figures (bench/verdicts.sh, verdicts.rst): the gates' power at
 * the mde they print averages 93-98 %, 82 % or more in 9 of 10.
 */
#define CMP_SD_UPPER_Z		1.2815515655446004	/* 90 % */
#define CMP_ROBUST_DF_SHARE	0.37
#define CMP_MAX_CV	0.50	/* robust CV above this on a side: no verdict */
#define CMP_MAX_RULES	128	/* rules one comparison judges (BOUNDS_MAX) */
#define CMP_MAX_LOOKS	32	/* looks of one sequential comparison */
/*
 * A sequential comparison trends when Kendall's S of its sides' values
 * against their order, summed over the sides, has p below this
 * (two-sided, exact: trend_p()), with at least CMP_DRIFT_MIN_N values in
 * all.  udp_rr's baseline that climbed from 14.2 to 17.0 us per
 * transaction over 8 iterations gave an A/A false alarm.
 */
#define CMP_DRIFT_P	0.05
#define CMP_DRIFT_MIN_N	6
/*
 * An unpaired move regressed or improved whose sides trend the way it
 * goes, one-sided p below this, is "drifting" instead (trend_explains()):
 * the step between two runs of a drifting host shows before the trend
 * does.  Chosen with sched_perf_sim (verdicts.rst): A/A on a host
 * drifting 0.5-1 % per iteration within 1 %, a true -5 % on a steady
 * host failing as often as before within the intervals.
 */
#define CMP_DRIFT_GUARD_P	0.1

/*
 * One rule: @metric regresses when (new - old) / |old| of the medians is
 * beyond @change in its direction: change < 0 (e.g. -0.05) for a metric
 * that must not fall, change > 0 (e.g. +0.20) for one that must not rise.
 */
struct cmp_rule {
	char metric[METRIC_NAME_LEN];
	double change;		/* M: the regression to catch */
	double alarm;		/* A: where the gate fails, signed as M; 0: cmp_alarm() */
	bool primary;		/* the throughput the verdict rests on */
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
	double threshold;		/* the rule's change: M, to catch */
	double alarm;			/* A: shown beyond it, the gate fails */
	bool primary;
	double share;			/* of alpha, over the metrics present */
	double median_change;		/* new median / old median - 1 (not the shift) */
	double sd;			/* the spread the tests see, on the metric's scale */
	double sd_df;			/* its degrees of freedom (a MAD's: cmp_planning_sd) */
	double mde;			/* caught at CMP_MDE_POWER with max_runs a side */
	double mde_now;			/* ... with the looks taken (cmp_fill_mde) */
	unsigned int nb;		/* paired: the blocks judged */
	struct sample_stats old, new;	/* valid unless CMP_MISSING */
	double change;			/* the shift estimate, as new / old - 1 */
	double ci_lo, ci_hi;		/* its interval at level_metric */
	double p;			/* two-sided, that the change is 0 */
	double p_adj;			/* p x the judged metrics (Bonferroni) */
	double p_beyond;		/* one-sided: beyond the threshold */
	double p_same;			/* equivalence within +/- |threshold| */
	double p_ni;			/* one-sided: not worse than the threshold */
	double level;			/* this look's level over the metrics */
	unsigned int looks;		/* the looks of this comparison so far, this one too */
	double level_metric;		/* level / judged metrics: what p is held to */
	double level_same;		/* what p_same and p_ni are held to */
	double min_p;			/* the smallest p these sizes can reach */
	double floor;			/* the metric's floor (cmp_floor), or 0 */
	bool from_zero;			/* old median 0 and no floor: no scale */
	bool ratio_scale;		/* tested on logarithms (all values > 0) */
	double cv_block;		/* paired: CV of the per-block ratios new/old */
	double rho_old, rho_new;	/* Kendall's tau (not rho) of each side (unpaired) */
	double p_drift;			/* that both sides trend (unpaired), or NAN */
	bool trend_move;		/* DRIFTING: the move the way they trend */
	char drifted_with[METRIC_NAME_LEN];	/* DRIFTING for another's trend */
	enum cmp_verdict verdict;
	double rcv_old, rcv_new;		/* robust CVs (stats_robust_cv) */
	bool apart;			/* no run of one side within the other's range */
	double foreign_old, foreign_new;	/* when NOISY for a busier machine */
	char why[480];			/* one line: figures for the report */
};

struct cmp_params {
	double alpha;		/* regressed / improved: over the metrics and the looks */
	double max_cv;
	unsigned int looks;	/* equal split over N looks (--looks); 0 means 1 */
	bool paired;		/* iteration k of old and of new form block k */
	bool boots;		/* each run is one boot's mean (Welch) */
	double alpha_same;	/* SAME, per metric, over the looks; 0: CMP_ALPHA_SAME */
	double alarm_share;	/* a rule's alarm without its own; 0: CMP_ALARM_SHARE */
	double primary_share;	/* the primary's share of alpha; 0: CMP_PRIMARY_SHARE */
	/*
	 * A look of a sequential gate (gate.h), spending alpha by
	 * cmp_spent_by(): max_runs 0 when not sequential.  @now runs a side at
	 * this look, @before[] at the looks before it (ascending), @last when
	 * this look spends what is left.  Each metric spends its own share: a
	 * look at which its test could not reach its level spent none of it
	 * (cmp_look_levels()), so sched_perf_compare --look and the gate,
	 * given the same looks, spend the same.
	 */
	unsigned int max_runs;
	unsigned int now;
	bool last;
	unsigned int nr_before;
	const unsigned int *before;
	/*
	 * The max_runs each look before was taken under (NULL: max_runs):
	 * a plan that grew after a look does not make the looks before
	 * spend less than they did, so that the looks together never spend
	 * more than alpha.
	 */
	const unsigned int *before_max;
};

/* The default family-wise alpha: CMP_ALPHA_BOOTS for boots, else CMP_ALPHA. */
double cmp_default_alpha(bool boots);

/* Short name of a verdict, for KTAP names, tables and JSON. */
const char *cmp_verdict_name(enum cmp_verdict v);

/*
 * @r's reason without its verdict word, which some reasons start with
 * ("undecided: ..."): for lines that print "word: reason", the word once.
 */
const char *cmp_reason(const struct cmp_result *r);

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
 * The smallest two-sided p the test can reach at @n_old and @n_new runs
 * (paired: @n_new blocks), without ties.
 */
double cmp_min_p(const struct cmp_params *p, unsigned int n_old, unsigned int n_new);

/*
 * The levels of a look for a metric of alpha share @share: regressed's
 * into @level (replaying the looks before, each spending the metric's
 * share only where its test could reach it, with the old side's
 * @n_old runs, 0 for as many as the new) and SAME's into @level_same.
 */
void cmp_look_levels(const struct cmp_params *p, double share, unsigned int n_old,
		     double *level, double *level_same);

/*
 * Where a sequential gate takes its first look: the smallest size from
 * @runs (at most @p->max_runs) at which the primary metric of @rules (with
 * none, every metric) can reach its level, all of them present.  With a
 * first look that no test can reach, a gate of 8 paired blocks and 4
 * metrics could never fail there.
 */
unsigned int cmp_first_look(const struct cmp_params *p, const struct cmp_rule *rules,
			    unsigned int nr, unsigned int runs, unsigned int n_old);

/*
 * The smallest change @r's test catches with probability CMP_MDE_POWER,
 * from the spread it saw (r->sd), as a change the bad way: at its looks so
 * far (@p: before and now), and with @to_max the planned looks after them
 * up to max_runs, at @n_old and @n_new runs a side now (paired: blocks),
 * each look held to its level.  The power of the looks together is
 * counted by recursive integration (a normal score with independent
 * increments; t's quantiles for the bounds at small sizes, with half
 * the degrees of freedom for the rank tests, whose exact distributions
 * are coarse there; their efficiency 3/pi).  Never inside the threshold M: a change within
 * it may be shown the same and pass.  +/-HUGE_VAL when no look can reach
 * its level, NaN with no scale or no spread seen.
 */
double cmp_mde(const struct cmp_result *r, const struct cmp_params *p, unsigned int n_old,
	       unsigned int n_new, bool to_max);

/*
 * @r's power (its spread r->sd, as cmp_mde()) at a true @change the bad
 * way of its threshold, with the looks of @p as cmp_mde() counts them;
 * NaN where cmp_mde() has no figure or @change is not the bad way.
 */
double cmp_power(const struct cmp_result *r, const struct cmp_params *p, unsigned int n_old,
		 unsigned int n_new, bool to_max, double change);

/*
 * The spread a gate plans and states its mde from: r->sd's upper bound at
 * its degrees of freedom (r->sd_df; 1 when not set).
 */
double cmp_planning_sd(const struct cmp_result *r);

/*
 * Each result's mde (with the runs a side @p may still take: max_runs)
 * and mde_now (with the looks taken): for reports, not the verdict.
 */
void cmp_fill_mde(struct cmp_result *res, unsigned int n, const struct cmp_params *p);

/*
 * The runs a side (max_runs) at which @seen's metric, looked at as @p's
 * look (before and now; unpaired, against the old side's runs), would
 * catch a change of @catch (at least its rule's change: what a pass
 * promises nothing within) at CMP_MDE_POWER, planned from the 80 % upper
 * bound of the spread seen: from the next planned look to
 * RUNSET_MAX_RUNS, or RUNSET_MAX_RUNS + 1 when not even those do; 0 when
 * no spread was seen.  What --catch plans (gate.c, sched_perf_compare).
 */
unsigned int cmp_runs_to_catch(const struct cmp_result *seen, const struct cmp_params *p,
			       double catch);

/*
 * The result of the primary metric of @res, else of the first metric
 * judged; NULL when every one is missing.  What a plan (--catch) is for.
 */
const struct cmp_result *cmp_primary_result(const struct cmp_result *res, unsigned int n);

/* The primary rule of @rules, else the first; NULL without rules. */
const struct cmp_rule *cmp_primary_rule(const struct cmp_rule *rules, unsigned int nr);

/*
 * What a gate plans to catch by default: the primary rule's change M
 * (the first rule's without a primary), as a fraction; 0 without rules.
 */
double cmp_rules_catch(const struct cmp_rule *rules, unsigned int nr);

/* @rule's alarm line: its own, or @share (0: CMP_ALARM_SHARE) of its change. */
double cmp_alarm(const struct cmp_rule *rule, double share);

/* A change as a percentage: one decimal, or three digits when huge (or inf). */
void cmp_percent(double change, char *buf, size_t len);

/*
 * An mde as printed: a percentage; "cannot reach" where no plan within
 * the runs it may take reaches the power (+/-inf); "n/a" without one.
 */
void cmp_mde_text(double mde, char *buf, size_t len);

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

/*
 * May the comparison of @res still let a regression through: a metric
 * regressed, the primary metric (the throughput the verdict rests on)
 * open (cmp_bad_side_open) or missing, or nothing judged at all (every
 * metric missing)?  A mechanism metric left open beside a primary does
 * not count (it fails the gate only when shown regressed); without a
 * primary every metric does.  Such a comparison exits 4 (open), never 0.
 */
bool cmp_gate_open(const struct cmp_result *res, unsigned int n);


#endif
