// SPDX-License-Identifier: GPL-2.0
/*
 * Driver: runs any struct workload under the measurement core and hands
 * the figures to the verdict layer.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ab.h"
#include "cli.h"
#include "compare.h"
#include "driver.h"
#include "evidence.h"
#include "gate.h"
#include "guard.h"
#include "measure.h"
#include "mounts.h"
#include "outputs.h"
#include "runset.h"
#include "summary.h"
#include "testwork.h"
#include "verdict.h"

/* Iterations per side when comparing and --iterations was not given. */
#define GATE_DEFAULT_RUNS 8

static unsigned int instances(double pct)
{
	unsigned int n = pct * sysconf(_SC_NPROCESSORS_ONLN) / 100;

	return n ? n : 1;
}

static void load_bounds(const struct workload *wl, const struct run_config *c,
			struct bounds *bs, int usage_exit)
{
	struct metric_set *known = calloc(1, sizeof(*known));
	char err[512];

	if (!known || bounds_load(c->bounds, bs, err, sizeof(err)) ||
	    (summary_known_metrics(wl, known),
	     bounds_check_names(bs, wl->name, wl->variants, known, c->bounds,
				err, sizeof(err)))) {
		fprintf(stderr, "%s: bounds: %s\n", wl->name, known ? err : "out of memory");
		free(known);
		exit(usage_exit);
	}
	free(known);
}

/*
 * A peer's own lines (rt-tests hackbench's "Running in ... mode", perf
 * bench's "# Running 'sched/pipe' benchmark:") are for that peer's
 * parsers: printed on the peer's command line only.  In the KTAP of other
 * runs (nested under "# " by the kselftest runner) a parser could take
 * "# Running ..." for the start of a subtest.  A workload without a peer
 * command line prints its lines always: none looks like KTAP.
 */
static bool peer_lines(const struct workload *wl)
{
	return !wl->peer_cmdline || wl->peer_cmdline();
}

/* What one run of a program keeps while the gate drives it. */
struct run_ctx {
	const struct workload *wl;
	struct measure *m;
	struct wl_result res[MAX_ITERATIONS];	/* the new side's iterations */
	unsigned int nr_res;
	struct metric_set last;			/* the new side's latest figures */
};

static int measured_iteration(void *p, bool new_side, struct metric_set *set)
{
	struct run_ctx *c = p;
	struct wl_result r = { 0 };
	char name[METRIC_NAME_LEN];
	int ret;

	testwork_for_side(new_side);
	measure_begin(c->m);
	ret = c->wl->run_once(&r);
	measure_end(c->m);
	if (ret)
		return -1;
	if (peer_lines(c->wl))
		c->wl->report_iteration(&r);
	snprintf(name, sizeof(name), "%s_per_sec", c->wl->ops_name);
	metric_add(set, name, "/s", summary_rate(&r));
	measure_metrics(c->m, r.ops, set);
	if (new_side && c->nr_res < MAX_ITERATIONS) {
		c->res[c->nr_res++] = r;
		c->last = *set;
	}
	return 0;
}

static int warmup_iteration(void *p)
{
	struct run_ctx *c = p;
	struct wl_result r = { 0 };

	return c->wl->run_once(&r) ? -1 : 0;
}

/*
 * The size a comparison plans to catch: --catch, else the primary rule's
 * change M (the first rule's without a primary); 0 without rules.
 */
static double catch_of(const struct run_config *cfg, const struct cmp_rule *rules,
		       unsigned int nr)
{
	return cfg->catch_pct ? cfg->catch_pct / 100 : cmp_rules_catch(rules, nr);
}

/* The plan, before the first iteration: what it catches, in what time. */
static void plan_note(const struct workload *wl, const char *label,
		      const struct gate_plan *plan, const char *unit)
{
	if (!plan->catch)
		return;
	verdict_note("%s.%s: plan: catch -%.3g%% of the throughput at 90%% power within %g s (--gate-time) and %u %s per side; first look at %u\n",
		     wl->name, label, 100 * plan->catch, plan->time_limit, plan->max_runs, unit,
		     plan->runs);
}

/*
 * After each look, the plan made from it: "look 2 at 12 blocks (0.9 min):
 * plan 40 blocks a side, about 3.0 min, catches -5 %", or, when the time
 * or --max-runs cannot reach it, what the plan can catch.
 */
static void look_note(void *p, const struct gate_plan *plan, const struct gate_outcome *out)
{
	const struct run_ctx *c = p;
	const struct cmp_result *seen = cmp_primary_result(out->results, out->nr_results);
	const char *label = plan->ab ? "ab" : "baseline";
	const char *unit = plan->ab ? "blocks" : "iterations";
	double min = out->max_runs * out->round_seconds / 60;
	char can[32], what[200];

	if (!plan->catch || !out->compared)
		return;
	cmp_mde_text(out->can_catch, can, sizeof(can));
	if (!out->needed)
		snprintf(what, sizeof(what), "no plan: no spread seen");
	else if (out->runs >= out->max_runs)
		snprintf(what, sizeof(what), "the last");
	else if (out->needed <= out->max_runs)
		snprintf(what, sizeof(what), "plan %u %s a side, about %.1f min in all, catches -%.3g%%",
			 out->max_runs, unit, min, 100 * plan->catch);
	else
		snprintf(what, sizeof(what), "-%.3g%% needs %s%u %s a side; %s allows %u (about %.1f min): can catch %s",
			 100 * plan->catch, out->needed > RUNSET_MAX_RUNS ? "over " : "",
			 out->needed > RUNSET_MAX_RUNS ? RUNSET_MAX_RUNS : out->needed, unit,
			 plan->baseline && seen && out->max_runs == GATE_BASELINE_RATIO * seen->old.n ?
			 "the baseline's runs" :
			 out->fit && out->fit <= plan->max_runs ? "--gate-time" : "--max-runs",
			 out->max_runs, min, can);
	verdict_note("%s.%s: look %u at %u %s (%.1f min): %s\n", c->wl->name, label, out->looks,
		     out->runs, unit, out->seconds / 60, what);
}

/*
 * After a pass: the change each run could have caught, for the metric the
 * verdict rests on ("could have caught -4.1 %").
 */
static void caught_note(const struct workload *wl, const char *label,
			const struct gate_outcome *out)
{
	char buf[16];
	unsigned int i;

	if (cmp_gate_open(out->results, out->nr_results))
		return;
	for (i = 0; i < out->nr_results; i++) {
		const struct cmp_result *r = &out->results[i];

		if (!r->primary || r->verdict == CMP_REGRESSED || isnan(r->mde_now))
			continue;
		cmp_mde_text(r->mde_now, buf, sizeof(buf));
		verdict_note("%s.%s: passed: could have caught %s on %s at 90%% power\n",
			     wl->name, label, buf, r->metric);
	}
}

/* One KTAP result per change bound, whatever happened to the run. */
static void report_comparison(const struct workload *wl, const struct gate_plan *plan,
			      const struct gate_outcome *out)
{
	const char *label = plan->ab ? "ab" : "baseline";
	const char *unit = plan->ab ? "blocks" : "iterations";
	char name[160];
	unsigned int i;

	if (out->compared) {
		verdict_note("%s.%s: %u look%s, the last at %u %s per side (alpha %g spent over looks at %u, then about 1.5 times as many, up to %u)\n",
			     wl->name, label, out->looks, out->looks == 1 ? "" : "s", out->runs,
			     unit, plan->params.alpha, out->first_look, out->max_runs);
		verdict_compare(wl->name, label, out->results, out->nr_results);
		caught_note(wl, label, out);
		return;
	}
	for (i = 0; i < plan->nr_rules; i++) {
		snprintf(name, sizeof(name), "%s.%s.%s", wl->name, label,
			 plan->rules[i].metric);
		verdict_skip(name, "the run failed");
	}
}

/* A baseline that cannot be compared with this run ends it before it starts. */
static void load_baseline(const struct workload *wl, const struct run_config *c,
			  const struct runset *me, struct runset *base, int usage_exit)
{
	char err[512];

	if (runset_load(c->baseline, base, err, sizeof(err)) ||
	    runset_compatible(base, me, err, sizeof(err))) {
		fprintf(stderr, "%s: --baseline: %s\n", wl->name, err);
		exit(usage_exit);
	}
}

static void open_knob(const struct workload *wl, const struct run_config *c,
		      struct ab_knob *k, int usage_exit)
{
	char why[512];
	int ret = ab_open(k, c->ab, why, sizeof(why));

	if (ret == AB_BAD_INPUT) {
		fprintf(stderr, "%s: %s\n", wl->name, why);
		exit(usage_exit);
	}
	if (ret == AB_SKIP)
		verdict_skip_all(why);
}

/*
 * When asked (--evidence: one KTAP result), or when a check failed and a
 * tracer is there (a note): why did it fail?  See evidence.h.  Evidence
 * asked for that cannot be written is lost (verdict_lost()); evidence
 * nobody asked for is a note either way: the run has already failed.
 */
static void collect_evidence(const struct workload *wl, const struct run_config *c,
			     unsigned int runs, bool workload_failed)
{
	char where[PATH_MAX], why[PATH_MAX + 512], lost_why[PATH_MAX + 600], name[64];
	bool asked = c->evidence[0];
	int ret;

	/* a workload that broke is an error to fix, not a slow scheduler */
	if (!asked && (workload_failed || !verdict_failed() || !evidence_automatic()))
		return;
	snprintf(name, sizeof(name), "%s.evidence", wl->name);
	/* one iteration as long as one of the run's, the options of the load */
	ret = evidence_collect(asked ? c->evidence : NULL, wl->name, c->budget / runs,
			       c->nr_rerun, c->rerun, where, sizeof(where), why, sizeof(why));
	if (ret == EVIDENCE_LOST && asked) {
		verdict_lost("%s: --evidence not written: %s", wl->name, why);
		snprintf(lost_why, sizeof(lost_why), "not written: %s", why);
		verdict_skip(name, lost_why);
	} else if (ret && asked) {
		verdict_skip(name, why);
	} else if (ret) {
		verdict_note("evidence: none: %s%s\n",
			     ret == EVIDENCE_LOST ? "not written: " : "", why);
	} else if (asked) {
		verdict_check(true, name, "trace and summary.txt in %s", where);
	} else {
		verdict_note("evidence: a check failed: trace and summary.txt in %s\n", where);
	}
}

int sched_perf_main(const struct workload *wl, int argc, char **argv)
{
	static struct bounds bs;
	static struct runset base, a_side, new_side;
	static struct run_ctx ctx;
	static struct gate_outcome out;
	static struct cmp_rule rules[METRICS_MAX];
	struct metric_set *set = calloc(1, sizeof(*set));
	struct gate_plan plan = { .params = { CMP_ALPHA, CMP_MAX_CV } };
	struct gate_ops ops = { measured_iteration, warmup_iteration, look_note, NULL };
	int usage_exit = cli_usage_exit_code(argc, argv);
	const struct run_config *cfg;
	struct measure_meta meta;
	struct ab_knob knob;
	struct measure m;
	unsigned int i, nr_rules = 0;
	char why[512] = "", name[64];
	const char *mounts_note;
	bool comparing;
	int ret;

	if (wl->init)
		wl->init();
	cfg = set ? cli_parse(wl, argc, argv) : NULL;
	if (!cfg)
		return usage_exit;
	if (cfg->bisect)
		verdict_bisect_codes();
	/*
	 * The run's own mount namespace: before any thread (unshare()
	 * refuses it then), any mount, and the guardian, which must undo
	 * in the run's namespace (mounts.h); this program's path first, as
	 * seen from where it started (evidence.h).
	 */
	evidence_find_self();
	mounts_note = mounts_private_ns();
	/* from here on, whatever the run changes is undone however it ends */
	guard_start();
	testwork_setup();
	load_bounds(wl, cfg, &bs, usage_exit);
	wl->set_instances(instances(cfg->nr_threads_pct), cfg->nr_threads_set);
	comparing = cfg->baseline[0] || cfg->ab[0];
	/* a saved run is a baseline: enough runs for the test to judge */
	plan.runs = cfg->iterations ? cfg->iterations : comparing || cfg->save[0] ? GATE_DEFAULT_RUNS :
		    wl->peer_cmdline && wl->peer_cmdline() ? 1 :
		    wl->default_iterations ? wl->default_iterations : 5;
	/* a comparison plans its runs, within --max-runs and --gate-time */
	plan.max_runs = cfg->max_runs ? (cfg->max_runs > plan.runs ? cfg->max_runs : plan.runs) :
			comparing ? MAX_ITERATIONS : plan.runs;
	if (plan.max_runs > MAX_ITERATIONS)
		plan.max_runs = MAX_ITERATIONS;
	plan.params.alarm_share = cfg->alarm_share;
	plan.time_limit = cfg->gate_time;
	outputs_identity(wl, cfg->options, &new_side);
	a_side = new_side;	/* no runs yet: the identity only */
	if (cfg->baseline[0]) {
		load_baseline(wl, cfg, &new_side, &base, usage_exit);
		plan.baseline = &base;
	}
	if (comparing)
		nr_rules = bounds_changes(&bs, wl->name, wl->variant(), rules, METRICS_MAX);
	plan.rules = rules;
	plan.nr_rules = nr_rules;
	plan.catch = catch_of(cfg, rules, nr_rules);

	ret = wl->prepare(why, sizeof(why));
	if (ret == WL_SKIP)
		verdict_skip_all(why);
	if (ret)
		return 1;
	if (cfg->ab[0]) {
		open_knob(wl, cfg, &knob, usage_exit);
		plan.ab = &knob;
	}
	measure_setup(&m, cfg->counters);
	if (wl->fit_budget(cfg->budget / plan.runs)) {
		measure_teardown(&m);
		return 1;
	}

	verdict_begin(1 + bounds_count(&bs, wl->name, wl->variant()) + nr_rules +
		      !!cfg->evidence[0]);
	measure_describe(&m, &meta);
	for (i = 0; i < meta.nr; i++)
		verdict_note("%s: %s\n", meta.kv[i].key, meta.kv[i].value);
	if (mounts_note)
		verdict_note("mounts: %s\n", mounts_note);
	verdict_note("variant: %s; one op = one %s\n", wl->variant(), wl->op_name);
	if (cfg->ab[0])
		verdict_note("A/B: %s: A = %s (as found), B = %s; blocks A B, B A, ..., a warm-up iteration after each switch, B judged against A block by block\n",
			     knob.path, knob.a, knob.b);
	if (cfg->baseline[0])
		verdict_note("baseline: %s (kernel %s)\n", cfg->baseline, base.kernel);
	if (comparing && !nr_rules)
		verdict_note("no change bounds for %s in %s: nothing to compare\n",
			     wl->name, cfg->bounds);
	testwork_notes(wl, cfg->ab[0]);
	if (peer_lines(wl))
		wl->banner();
	testwork_stop();

	ctx.wl = wl;
	ctx.m = &m;
	if (nr_rules)
		plan_note(wl, plan.ab ? "ab" : "baseline", &plan, plan.ab ? "blocks" : "iterations");
	gate_run(&plan, &ops, &ctx, &a_side, &new_side, &out);
	cmp_fill_mde(out.results, out.nr_results, &out.params);
	summary_collect(wl, ctx.res, ctx.nr_res, &ctx.last, &new_side, set);
	summary_print(wl->name, set);

	snprintf(why, sizeof(why), "%u of %u iterations completed%s%s%s", out.runs,
		 out.runs > plan.runs ? out.runs : plan.runs,
		 out.runs > plan.runs ? " (more asked for by the comparison)" : "",
		 out.failed ? ": " : "", out.failed ? out.why : "");
	snprintf(name, sizeof(name), "%s.completed", wl->name);
	verdict_check(!out.failed, name, "%s", why);
	verdict_judge(&bs, wl->name, wl->variant(), set,
		      out.failed ? "workload failed" : NULL);
	if (nr_rules)
		report_comparison(wl, &plan, &out);
	outputs_write("--results", cfg->results, wl, &meta, &new_side, ctx.res, ctx.nr_res, set);
	outputs_write("--save", cfg->save, wl, &meta, &new_side, ctx.res, ctx.nr_res, set);
	outputs_save_a_side(cfg->save, cfg->ab, wl, &meta, &a_side);
	measure_teardown(&m);
	collect_evidence(wl, cfg, plan.runs, out.failed);
	free(set);
	verdict_finish();
}
