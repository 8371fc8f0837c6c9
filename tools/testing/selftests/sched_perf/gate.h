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
 * --max-runs per side and until the extra ones took another --budget.
 * Its first look is at N, or later when the primary metric's test could
 * not reach its level at N (cmp_first_look()); then it looks again at
 * planned sizes only: about 1.5 times as many each time, up to
 * --max-runs.  Alpha is spent over the looks by a spending function of
 * the Pocock type (at a share t of --max-runs, alpha ln(1 + (e - 1) t) in
 * all: cmp_spent_by(), compare.h), regressed / improved and same each
 * from its own budget, each metric from its share; the last look taken
 * spends what is left, and a look a metric's test could not reach spends
 * none of its share.  Looking again does not raise either error above its alpha.
 *
 * A size to catch (@catch, e.g. -0.05 for 5 %) replans --max-runs after
 * the first look, from the spread it saw: the runs the primary metric
 * needs to catch that change at CMP_MDE_POWER, within the --max-runs
 * given (gate_outcome's planned and needed).
 */
#ifndef SCHED_PERF_GATE_H
#define SCHED_PERF_GATE_H

#include "ab.h"
#include "compare.h"
#include "metrics.h"
#include "runset.h"

struct gate_ops {
	/* One timed, measured iteration; its figures into @set.  0 or -1. */
	int (*measured)(void *ctx, bool new_side, struct metric_set *set);
	/* One iteration that counts for nothing (after a knob switch). */
	int (*warmup)(void *ctx);
};

struct gate_plan {
	unsigned int runs;		/* per side */
	unsigned int max_runs;		/* per side, >= runs */
	double extra_seconds;		/* wall time the extra runs may take */
	struct ab_knob *ab;		/* NULL: one side */
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
	unsigned int first_look;	/* planned: cmp_first_look() */
	unsigned int max_runs;		/* the plan's, or as --catch planned it */
	unsigned int needed;		/* --catch: runs it needs, maybe > max_runs; 0 */
	double round_seconds;		/* wall time of one round (block), at the end */
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
