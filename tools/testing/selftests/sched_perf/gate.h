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
 * It looks again at planned sizes only: N, then about 1.5 times as many
 * each time, up to --max-runs.  Alpha is spent over the looks by a
 * spending function of the Pocock type (at a share t of --max-runs,
 * alpha ln(1 + (e - 1) t) in all: cmp_spent_by(), compare.h), DIFFERENT
 * and SAME each from its own budget; the last look taken spends what is
 * left, and a look no test could reach spends nothing.  Looking again
 * does not raise either error above its alpha.
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
};

struct gate_outcome {
	unsigned int runs;		/* timed iterations on the new side */
	unsigned int looks;		/* comparisons made */
	double spent, spent_same;	/* of alpha and alpha_same, so far */
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
