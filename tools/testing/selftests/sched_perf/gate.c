// SPDX-License-Identifier: GPL-2.0
/*
 * The gate: iterations per side, A/B interleaving, and asking for more
 * runs while a comparison cannot judge.  See gate.h.
 */
#include <errno.h>
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

/* A judged metric whose test can reach its level at this look. */
static bool reachable(const struct gate_outcome *out)
{
	unsigned int i;

	for (i = 0; i < out->nr_results; i++) {
		const struct cmp_result *r = &out->results[i];

		if (r->verdict != CMP_MISSING && r->verdict != CMP_NOISY &&
		    r->verdict != CMP_DRIFTING && r->min_p < r->level_metric)
			return true;
	}
	return false;
}

/*
 * One look.  Its levels are what the spending function allows by now,
 * less what the looks before spent (the last look gets all that is
 * left), for DIFFERENT (alpha) and SAME (alpha_same) apart.  A look at
 * which no metric's test could reach its level spent nothing: its share
 * goes to the next.
 */
static void compare(const struct gate_plan *plan, const struct runset *old,
		    const struct runset *new, struct gate_outcome *out, bool last)
{
	struct cmp_params params = plan->params;

	params.paired = plan->ab;
	params.looks = cmp_looks(plan->runs, plan->max_runs);
	cmp_spend_look(&params, (double)out->runs / plan->max_runs, last, out->spent,
		       out->spent_same);
	compare_runsets(old, new, plan->rules, plan->nr_rules, &params, out->results);
	out->nr_results = plan->nr_rules;
	out->compared = true;
	out->looks++;
	if (reachable(out))
		out->spent += params.level;
	out->spent_same += params.level_same;
}

void gate_run(const struct gate_plan *plan, const struct gate_ops *ops,
	      void *ctx, struct runset *a_side, struct runset *new_side,
	      struct gate_outcome *out)
{
	const struct runset *old = plan->ab ? a_side : plan->baseline;
	unsigned int look_at;
	uint64_t extra_start;
	bool out_of_time;

	memset(out, 0, sizeof(*out));
	knob_at = KNOB_UNSET;
	while (out->runs < plan->runs)
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
	if (!old || !plan->nr_rules)
		goto done;
	compare(plan, old, new_side, out, out->runs >= plan->max_runs);
	/*
	 * More runs while a metric is open, looking again only at the
	 * planned sizes (runs, then 1.5 times as many, ..., max_runs): alpha
	 * is spent over those looks.  When the time runs out between two,
	 * the last look is taken early, in place of the planned ones left,
	 * and spends what they would have.
	 */
	extra_start = now_ns();
	look_at = plan->runs;
	while (undecided(out) && out->runs < plan->max_runs) {
		if (look_at <= out->runs)
			look_at = cmp_next_look(out->runs);
		if (look_at > plan->max_runs)
			look_at = plan->max_runs;
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
		out_of_time = now_ns() - extra_start >= plan->extra_seconds * 1e9;
		if (out->runs == look_at || out_of_time)
			compare(plan, old, new_side, out,
				out_of_time || out->runs >= plan->max_runs);
		if (out_of_time)
			break;
	}
	goto done;
failed:
	out->failed = true;
done:
	if (plan->ab)
		ab_close(plan->ab);
}
