// SPDX-License-Identifier: GPL-2.0
/*
 * The gate: iterations per side, A/B interleaving, and asking for more
 * runs while a comparison cannot judge.  See gate.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "gate.h"
#include "runset.h"

static struct metric_set iteration_set;

/* The side the knob is at now: a warm-up follows only a real switch. */
enum { KNOB_UNSET, KNOB_A, KNOB_B };
static int knob_at;

static int one_side(const struct gate_plan *plan, const struct gate_ops *ops,
		    void *ctx, bool side_b, struct runset *rs,
		    struct gate_outcome *out)
{
	if (plan->ab && knob_at != (side_b ? KNOB_B : KNOB_A)) {
		if (ab_set(plan->ab, side_b)) {
			snprintf(out->why, sizeof(out->why), "cannot write %.100s to %.100s: %s",
				 side_b ? plan->ab->b : plan->ab->a, plan->ab->path,
				 strerror(errno));
			return -1;
		}
		knob_at = side_b ? KNOB_B : KNOB_A;
		/* what ran before the switch must not count for this side */
		if (ops->warmup(ctx)) {
			snprintf(out->why, sizeof(out->why), "warm-up iteration failed");
			return -1;
		}
	}
	iteration_set.nr = 0;
	if (ops->measured(ctx, side_b || !(plan->ab || plan->boots), &iteration_set)) {
		snprintf(out->why, sizeof(out->why), "iteration failed");
		return -1;
	}
	if (runset_append(rs, &iteration_set)) {
		snprintf(out->why, sizeof(out->why), "out of memory");
		return -1;
	}
	return 0;
}

/*
 * One timed iteration, or one A/B block; false when one failed.  Blocks
 * go A B, B A, A B, ...: a drift linear in time cancels over two blocks,
 * and the knob switches once per block, not twice.
 */
static bool one_round(const struct gate_plan *plan, const struct gate_ops *ops,
		      void *ctx, struct runset *a_side, struct runset *new_side,
		      struct gate_outcome *out)
{
	bool two = plan->ab || plan->boots, b_first = two && out->runs % 2;

	if (two && !b_first && one_side(plan, ops, ctx, false, a_side, out))
		return false;
	if (one_side(plan, ops, ctx, true, new_side, out))
		return false;
	if (b_first && one_side(plan, ops, ctx, false, a_side, out))
		return false;
	out->runs++;
	return true;
}

/* Is any metric still open: neither decided nor beyond deciding? */
static bool undecided(const struct gate_outcome *out)
{
	unsigned int i;

	for (i = 0; i < out->nr_results; i++)
		if (out->results[i].verdict == CMP_REGRESSED)
			return false;	/* the gate has failed: stop */
	for (i = 0; i < out->nr_results; i++)
		if (out->results[i].verdict == CMP_NOISY ||
		    out->results[i].verdict == CMP_TOO_FEW ||
		    out->results[i].verdict == CMP_UNDECIDED ||
		    out->results[i].verdict == CMP_WORSE ||
		    out->results[i].verdict == CMP_BETTER)
			return true;
	/* a host drifting through the runs will not stop for more of them */
	return false;
}

static void plan_catch(const struct gate_plan *plan, struct gate_outcome *out);

/* Seconds on the gate's clock. */
static double clock_of(const struct gate_ops *ops, void *ctx)
{
	return ops->clock ? ops->clock(ctx) : now_ns() / 1e9;
}

/*
 * One look at the runs so far.  Its levels are what the spending function
 * allows by now, less what the looks before spent (the last look gets all
 * that is left), for regressed / improved (each metric's share of alpha)
 * and same (alpha_same) apart; compare_runsets() replays the looks before
 * from their sizes, so that a look at which a metric's test could not
 * reach its level spent none of its share.
 */
static void compare(const struct gate_plan *plan, const struct gate_ops *ops, void *ctx,
		    const struct runset *old, const struct runset *new,
		    struct gate_outcome *out, bool last)
{
	struct cmp_params params = plan->params;

	params.paired = plan->ab;
	params.boots = plan->boots;
	params.max_runs = out->max_runs;
	params.now = out->runs;
	params.last = last;
	params.nr_before = out->looks;
	params.before = out->look_at;
	params.before_max = out->look_max;
	compare_runsets(old, new, plan->rules, plan->nr_rules, &params, out->results);
	out->params = params;
	out->nr_results = plan->nr_rules;
	out->compared = true;
	if (out->looks < CMP_MAX_LOOKS) {
		out->look_max[out->looks] = out->max_runs;
		out->look_at[out->looks++] = out->runs;
	}
	/* the runs the next looks lead to, from all seen so far */
	if (plan->catch && !last && undecided(out))
		plan_catch(plan, out);
	if (ops->looked)
		ops->looked(ctx, plan, out);
}

/*
 * The baseline's runs of the primary metric (of the first rule), or 0:
 * what the first look is planned with, before any comparison.
 */
static unsigned int baseline_runs(const struct gate_plan *plan)
{
	const struct runset_metric *m = NULL;
	unsigned int i;

	for (i = 0; plan->baseline && i < plan->nr_rules && !m; i++)
		if (plan->rules[i].primary)
			m = runset_find(plan->baseline, plan->rules[i].metric);
	if (!m && plan->baseline && plan->nr_rules)
		m = runset_find(plan->baseline, plan->rules[0].metric);
	return m ? m->n : 0;
}

/*
 * The runs a side the time limit allows at the pace so far: the rounds
 * already run and those that fit in the time left.  0 without a limit.
 */
static unsigned int runs_that_fit(const struct gate_plan *plan, const struct gate_outcome *out)
{
	double left = plan->time_limit - out->seconds, more;

	if (!(plan->time_limit > 0) || !out->runs)
		return 0;
	more = out->round_seconds > 0 ? floor(fmax(0, left) / out->round_seconds) : RUNSET_MAX_RUNS;
	return out->runs + (unsigned int)fmin(more, RUNSET_MAX_RUNS);
}

/*
 * Replan after a look from all the runs so far: the runs a side that
 * catch @plan->catch at CMP_MDE_POWER on the primary metric
 * (cmp_runs_to_catch()), within the plan's cap and the time left; and
 * what that plan can catch, said when it is short of the size asked.
 */
static void plan_catch(const struct gate_plan *plan, struct gate_outcome *out)
{
	const struct cmp_result *seen = cmp_primary_result(out->results, out->nr_results);
	unsigned int cap = plan->max_runs, next = cmp_next_look(out->runs);
	struct cmp_result planned;
	struct cmp_params p;

	out->fit = runs_that_fit(plan, out);
	if (out->fit && out->fit < cap)
		cap = out->fit > out->runs ? out->fit : out->runs;
	/*
	 * A saved baseline's runs bound what more new ones catch: beyond
	 * GATE_BASELINE_RATIO times them the estimate's spread is within
	 * 12 % of its floor, and a drifting host only moves further.
	 */
	if (plan->baseline && seen && seen->old.n && GATE_BASELINE_RATIO * seen->old.n < cap)
		cap = GATE_BASELINE_RATIO * seen->old.n > out->runs ?
		      GATE_BASELINE_RATIO * seen->old.n : out->runs;
	out->needed = seen ? cmp_runs_to_catch(seen, &out->params, plan->catch) : 0;
	if (!out->needed)
		return;
	out->max_runs = out->needed < cap ? out->needed : cap;
	/* a plan below the next look would end the gate where it stands */
	if (out->max_runs < next)
		out->max_runs = next < cap ? next : cap;
	if (out->max_runs < out->runs)
		out->max_runs = out->runs;
	planned = *seen;
	planned.sd = cmp_planning_sd(seen);
	p = out->params;
	p.max_runs = out->max_runs;
	out->can_catch = cmp_mde(&planned, &p, plan->baseline ? seen->old.n : out->runs,
				 out->runs, true);
}

void gate_run(const struct gate_plan *plan, const struct gate_ops *ops,
	      void *ctx, struct runset *a_side, struct runset *new_side,
	      struct gate_outcome *out)
{
	const struct runset *old = plan->ab || plan->boots ? a_side : plan->baseline;
	struct cmp_params first = plan->params;
	unsigned int look_at;
	double start = clock_of(ops, ctx);
	bool out_of_time;

	memset(out, 0, sizeof(*out));
	knob_at = KNOB_UNSET;
	out->can_catch = NAN;
	out->max_runs = plan->max_runs;
	/*
	 * A catching plan's first guess, which the first look replans; a
	 * saved baseline's runs bound it (plan_catch()).
	 */
	if (plan->catch && plan->baseline && baseline_runs(plan) &&
	    GATE_BASELINE_RATIO * baseline_runs(plan) < plan->max_runs)
		out->max_runs = GATE_BASELINE_RATIO * baseline_runs(plan);
	else if (plan->catch && GATE_FIRST_PLAN * plan->runs < plan->max_runs)
		out->max_runs = GATE_FIRST_PLAN * plan->runs;
	first.paired = plan->ab;
	first.boots = plan->boots;
	first.max_runs = out->max_runs;
	out->first_look = old && plan->nr_rules ?
			  cmp_first_look(&first, plan->rules, plan->nr_rules, plan->runs,
					 baseline_runs(plan)) : plan->runs;
	/*
	 * Against a saved baseline the first look waits for a new run long
	 * enough to show its own trend: a host drifting through both runs
	 * moves the new one by the drift times the runs between them, which
	 * a few new runs show as a step before they show the trend
	 * (CMP_DRIFT_GUARD_P).  Unpaired runs are short; looking later costs
	 * seconds, not power.
	 */
	if (plan->baseline && plan->catch) {
		unsigned int wait = GATE_BASELINE_FIRST * baseline_runs(plan);

		if (wait > out->first_look)
			out->first_look = wait < out->max_runs ? wait : out->max_runs;
	}
	while (out->runs < plan->runs)
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
	if (!old || !plan->nr_rules)
		goto done;
	/* the first look where the primary metric's test can reach its level */
	while (out->runs < out->first_look)
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
	out->seconds = clock_of(ops, ctx) - start;
	out->round_seconds = out->seconds / out->runs;
	compare(plan, ops, ctx, old, new_side, out, out->runs >= out->max_runs);
	/*
	 * More runs while a metric is open, looking again only at the
	 * planned sizes (then 1.5 times as many, ..., the plan): alpha is
	 * spent over those looks.  When the time runs out between two, the
	 * last look is taken early, in place of the planned ones left, and
	 * spends what they would have.
	 */
	look_at = out->runs;
	while (undecided(out) && out->runs < out->max_runs) {
		if (look_at <= out->runs)
			look_at = cmp_next_look(out->runs);
		if (look_at > out->max_runs)
			look_at = out->max_runs;
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
		out->seconds = clock_of(ops, ctx) - start;
		out->round_seconds = out->seconds / out->runs;
		out_of_time = plan->time_limit > 0 && out->seconds >= plan->time_limit;
		if (out->runs == look_at || out_of_time)
			compare(plan, ops, ctx, old, new_side, out,
				out_of_time || out->runs >= out->max_runs);
		if (out_of_time)
			break;
	}
	goto done;
failed:
	out->failed = true;
done:
	out->seconds = clock_of(ops, ctx) - start;
	if (out->runs)
		out->round_seconds = out->seconds / out->runs;
	if (plan->ab)
		ab_close(plan->ab);
}
