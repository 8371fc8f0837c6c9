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
	if (ops->measured(ctx, side_b || !plan->ab, &iteration_set)) {
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
	bool b_first = plan->ab && out->runs % 2;

	if (plan->ab && !b_first && one_side(plan, ops, ctx, false, a_side, out))
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
		    out->results[i].verdict == CMP_BETTER ||
		    out->results[i].verdict == CMP_DRIFTING)
			return true;
	return false;
}

static void plan_catch(const struct gate_plan *plan, struct gate_outcome *out);

/*
 * One look at the runs so far.  Its levels are what the spending function
 * allows by now, less what the looks before spent (the last look gets all
 * that is left), for regressed / improved (each metric's share of alpha)
 * and same (alpha_same) apart; compare_runsets() replays the looks before
 * from their sizes, so that a look at which a metric's test could not
 * reach its level spent none of its share.
 */
static void compare(const struct gate_plan *plan, const struct runset *old,
		    const struct runset *new, struct gate_outcome *out, bool last)
{
	struct cmp_params params = plan->params;

	params.paired = plan->ab;
	params.max_runs = out->max_runs;
	params.now = out->runs;
	params.last = last;
	params.nr_before = out->looks;
	params.before = out->look_at;
	compare_runsets(old, new, plan->rules, plan->nr_rules, &params, out->results);
	out->params = params;
	out->nr_results = plan->nr_rules;
	out->compared = true;
	if (out->looks < CMP_MAX_LOOKS)
		out->look_at[out->looks++] = out->runs;
	/* --catch: the runs the next looks lead to, from all seen so far */
	if (plan->catch && !last && undecided(out))
		plan_catch(plan, out);
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
 * Replan max_runs for --catch, within the plan's own max_runs, after each
 * look from all the runs so far: the runs a side that catch @plan->catch
 * at CMP_MDE_POWER on the primary metric (cmp_runs_to_catch()).
 */
static void plan_catch(const struct gate_plan *plan, struct gate_outcome *out)
{
	const struct cmp_result *seen = cmp_primary_result(out->results, out->nr_results);
	unsigned int floor = cmp_next_look(out->runs);

	out->needed = seen ? cmp_runs_to_catch(seen, &out->params, plan->catch) : 0;
	if (!out->needed)
		return;
	out->max_runs = out->needed < plan->max_runs ? out->needed : plan->max_runs;
	if (out->max_runs < floor)
		out->max_runs = floor < plan->max_runs ? floor : plan->max_runs;
}

void gate_run(const struct gate_plan *plan, const struct gate_ops *ops,
	      void *ctx, struct runset *a_side, struct runset *new_side,
	      struct gate_outcome *out)
{
	const struct runset *old = plan->ab ? a_side : plan->baseline;
	struct cmp_params first = plan->params;
	unsigned int look_at;
	uint64_t start = now_ns(), extra_start;
	bool out_of_time;

	memset(out, 0, sizeof(*out));
	knob_at = KNOB_UNSET;
	out->max_runs = plan->max_runs;
	first.paired = plan->ab;
	first.max_runs = plan->max_runs;
	out->first_look = old && plan->nr_rules ?
			  cmp_first_look(&first, plan->rules, plan->nr_rules, plan->runs,
					 baseline_runs(plan)) : plan->runs;
	while (out->runs < plan->runs)
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
	if (!old || !plan->nr_rules)
		goto done;
	/* the first look where the primary metric's test can reach its level */
	while (out->runs < out->first_look)
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
	compare(plan, old, new_side, out, out->runs >= out->max_runs);
	/*
	 * More runs while a metric is open, looking again only at the
	 * planned sizes (then 1.5 times as many, ..., max_runs): alpha is
	 * spent over those looks.  When the time runs out between two, the
	 * last look is taken early, in place of the planned ones left, and
	 * spends what they would have.
	 */
	extra_start = now_ns();
	look_at = out->runs;
	while (undecided(out) && out->runs < out->max_runs) {
		if (look_at <= out->runs)
			look_at = cmp_next_look(out->runs);
		if (look_at > out->max_runs)
			look_at = out->max_runs;
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
		out_of_time = now_ns() - extra_start >= plan->extra_seconds * 1e9;
		if (out->runs == look_at || out_of_time)
			compare(plan, old, new_side, out,
				out_of_time || out->runs >= out->max_runs);
		if (out_of_time)
			break;
	}
	goto done;
failed:
	out->failed = true;
done:
	if (out->runs)
		out->round_seconds = (now_ns() - start) / 1e9 / out->runs;
	if (plan->ab)
		ab_close(plan->ab);
}
