/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The gate: how many timed iterations a run makes, on which side of a
 * comparison, and when the comparison has enough of them.
 *
 *   plain run      N iterations
 *   --baseline F   N iterations, compared with F's
 *   --ab KNOB      N blocks A B, B A, A B, ..., one untimed warm-up
 *                  iteration after each switch of the knob, judged as
 *                  pairs (block k: B_k against A_k)
 *
 * When a metric is neither proven the same nor shown to differ (or too
 * few runs, or too noisy), the gate runs more iterations (blocks), up to
 * its plan's runs per side and while the comparison's time (@time_limit,
 * from its first iteration) lasts.  Its first look is at N, or later
 * when the primary metric's test could not reach its level at N
 * (cmp_first_look()); then it looks again at planned sizes only: about
 * 1.5 times as many each time, up to the plan.  Alpha is spent over the
 * looks by a spending function of the Pocock type (at a share t of the
 * plan, alpha ln(1 + (e - 1) t) in all: cmp_spent_by(), compare.h),
 * regressed / improved and same each from its own budget, each metric
 * from its share; the last look taken spends what is left, and a look a
 * metric's test could not reach spends none of its share.  Looking again
 * does not raise either error above its alpha.
 *
 * The plan: a size to catch (@catch, e.g. 0.05 for 5 %; the driver's
 * default is the primary rule's change M) replans after each look, from
 * the spread seen so far: the runs the primary metric needs to catch
 * that change at CMP_MDE_POWER (needed), within @max_runs and what the
 * time left allows at the rounds' pace (fit); the plan is the smaller,
 * and when it is short of needed the gate says what it can catch
 * (can_catch); against a saved baseline at most GATE_BASELINE_RATIO
 * times its runs.  Without @catch the plan is @max_runs.  A gate stops at
 * a look where the host drifted (drifting): more runs only drift further.
 */
#ifndef SCHED_PERF_GATE_H
#define SCHED_PERF_GATE_H

#include "ab.h"
#include "compare.h"
#include "metrics.h"
#include "runset.h"

struct gate_outcome;
struct gate_plan;

struct gate_ops {
	/* One timed, measured iteration; its figures into @set.  0 or -1. */
	int (*measured)(void *ctx, bool new_side, struct metric_set *set);
	/* One iteration that counts for nothing (after a knob switch). */
	int (*warmup)(void *ctx);
	/* After each look, its verdicts and the plan made from it; may be NULL. */
	void (*looked)(void *ctx, const struct gate_plan *plan, const struct gate_outcome *out);
	/* Seconds on the gate's clock; NULL: the monotonic clock (a simulation's own). */
	double (*clock)(void *ctx);
};

/* A catching plan's first guess, before any spread is seen: this many times N. */
#define GATE_FIRST_PLAN	3
/* At most this many new runs per run of a saved baseline (plan_catch()). */
#define GATE_BASELINE_RATIO	4
/* The first look against a saved baseline at this many times its runs. */
#define GATE_BASELINE_FIRST	3
/*
 * Gates over boots (vmab's engine, and the simulator's boots): at most
 * this many a side; the looks without a plan (--no-catch) up to this
 * many; and the host seconds of boots a plan may take by default, a CI
 * slot (about 12 boots a side under -icount on a 2-CPU host).
 */
#define GATE_BOOTS_MAX		50
#define GATE_BOOTS_FIXED	9
#define GATE_BOOTS_BUDGET	1200

struct gate_plan {
	unsigned int runs;		/* per side */
	unsigned int max_runs;		/* per side, >= runs: the plan's cap */
	double time_limit;		/* seconds the comparison may take; 0: none */
	struct ab_knob *ab;		/* NULL: one side */
	/*
	 * Rounds of two boots (kernels), A B, B A, ...: each measured
	 * "iteration" is one boot's figure of its kernel, judged unpaired
	 * by Welch's t (cmp_params.boots); no knob, no warm-up.
	 */
	bool boots;
	const struct runset *baseline;	/* NULL: nothing to compare with */
	const struct cmp_rule *rules;
	unsigned int nr_rules;
	struct cmp_params params;
	double catch;			/* a size to catch (fraction); 0: none */
};

struct gate_outcome {
	unsigned int runs;		/* timed iterations on the new side */
	unsigned int looks;		/* comparisons made */
	unsigned int look_at[CMP_MAX_LOOKS];	/* runs a side at each */
	unsigned int look_max[CMP_MAX_LOOKS];	/* the plan each was taken under */
	unsigned int first_look;	/* planned: cmp_first_look() */
	unsigned int max_runs;		/* the plan now: runs a side */
	unsigned int needed;		/* catch: runs it needs, maybe > max_runs; 0 */
	unsigned int fit;		/* runs a side the time limit allows; 0: no limit */
	double can_catch;		/* the primary's mde at the plan (NaN: none) */
	double round_seconds;		/* time of one round (block) so far */
	double seconds;			/* since the first iteration */
	struct cmp_params params;	/* the last look's, for cmp_fill_mde() */
	bool failed;			/* an iteration failed: stopped there */
	bool compared;
	unsigned int nr_results;
	struct cmp_result results[METRICS_MAX];
	char why[256];			/* when failed */
};

/*
 * Run @plan: timed iterations land in @new_side (and in @a_side for an
 * A/B), then the comparison, if any, in @out.
 */
void gate_run(const struct gate_plan *plan, const struct gate_ops *ops,
	      void *ctx, struct runset *a_side, struct runset *new_side,
	      struct gate_outcome *out);

#endif
