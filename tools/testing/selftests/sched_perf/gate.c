// SPDX-License-Identifier: GPL-2.0
/*
 * The gate: iterations per side, A/B interleaving, and asking for more
 * runs while a comparison cannot judge.  See gate.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "gate.h"
#include "workload.h"

static struct metric_set iteration_set;

static int one_side(const struct gate_plan *plan, const struct gate_ops *ops,
		    void *ctx, bool side_b, struct runset *rs,
		    struct gate_outcome *out)
{
	if (plan->ab) {
		if (ab_set(plan->ab, side_b)) {
			snprintf(out->why, sizeof(out->why), "cannot write %.100s to %.100s: %s",
				 side_b ? plan->ab->b : plan->ab->a, plan->ab->path,
				 strerror(errno));
			return -1;
		}
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

/* One timed iteration, or an A and a B one; false when one failed. */
static bool one_round(const struct gate_plan *plan, const struct gate_ops *ops,
		      void *ctx, struct runset *a_side, struct runset *new_side,
		      struct gate_outcome *out)
{
	if (plan->ab && one_side(plan, ops, ctx, false, a_side, out))
		return false;
	if (one_side(plan, ops, ctx, true, new_side, out))
		return false;
	out->runs++;
	return true;
}

static bool undecided(const struct gate_outcome *out)
{
	unsigned int i;

	for (i = 0; i < out->nr_results; i++)
		if (out->results[i].verdict == CMP_NOISY ||
		    out->results[i].verdict == CMP_TOO_FEW)
			return true;
	return false;
}

static void compare(const struct gate_plan *plan, const struct runset *old,
		    const struct runset *new, struct gate_outcome *out)
{
	compare_runsets(old, new, plan->rules, plan->nr_rules, &plan->params,
			out->results);
	out->nr_results = plan->nr_rules;
	out->compared = true;
}

void gate_run(const struct gate_plan *plan, const struct gate_ops *ops,
	      void *ctx, struct runset *a_side, struct runset *new_side,
	      struct gate_outcome *out)
{
	const struct runset *old = plan->ab ? a_side : plan->baseline;
	uint64_t extra_start;

	memset(out, 0, sizeof(*out));
	while (out->runs < plan->runs)
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
	if (!old || !plan->nr_rules)
		goto done;
	compare(plan, old, new_side, out);
	extra_start = wl_now_ns();
	while (undecided(out) && out->runs < plan->max_runs &&
	       wl_now_ns() - extra_start < plan->extra_seconds * 1e9) {
		if (!one_round(plan, ops, ctx, a_side, new_side, out))
			goto failed;
		compare(plan, old, new_side, out);
	}
	goto done;
failed:
	out->failed = true;
done:
	if (plan->ab)
		ab_close(plan->ab);
}
