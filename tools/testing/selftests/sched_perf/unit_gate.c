// SPDX-License-Identifier: GPL-2.0
/*
 * The gate that gates (the alarm line, the primary metric, reachable
 * looks, exits, figures true to their labels).  Each check failed on the
 * rule before it: the interval's bound beyond the threshold, alpha split
 * evenly, compare --look spending from one look before, the in-boot
 * program exiting 0 on a shown "worse".
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compiler.h"
#include "runset.h"
#include "verdict.h"
#include "unit.h"

/*
 * The alpha the first-look cases were found at (CMP_ALPHA until issue
 * 49): what they check is the mechanism, which any alpha has.
 */
#define ALPHA_FOUND	0.05

#define BLOCKS 8

static struct runset *gate_fresh(struct runset *rs)
{
	runset_free(rs);
	runset_init(rs, "hackbench");
	return rs;
}

/* @n iterations of @metric: @level times a noise of about 0.3 %, times @f. */
static void add_series(struct runset *rs, const char *metric, double level, double f,
		       unsigned int n)
{
	static const double noise[BLOCKS] = {
		1.000, 1.003, 0.997, 1.002, 0.998, 1.001, 0.999, 1.0005,
	};
	static struct metric_set set;
	unsigned int i;

	for (i = 0; i < n; i++) {
		set.nr = 0;
		metric_add(&set, metric, "", level * noise[i % BLOCKS] * f);
		runset_append(rs, &set);
	}
}

static const struct cmp_rule four[] = {
	{ .metric = "messages_per_sec", .change = -0.05, .primary = true },
	{ .metric = "task_clock_us_per_op", .change = 0.05 },
	{ .metric = "ctx_switches_per_op", .change = 0.15 },
	{ .metric = "migrations_per_1k_ops", .change = 0.3 },
};

/* @n blocks a side of the four metrics, the throughput times @f. */
static void four_sides_of(struct runset *old, struct runset *new, double f, unsigned int n)
{
	unsigned int i;

	gate_fresh(old);
	gate_fresh(new);
	for (i = 0; i < 4; i++) {
		add_series(old, four[i].metric, 100 * (i + 1), 1, n);
		add_series(new, four[i].metric, 100 * (i + 1), i ? 1 : f, n);
	}
}

static void four_sides(struct runset *old, struct runset *new, double f)
{
	four_sides_of(old, new, f, BLOCKS);
}

/*
 * Item 4: with 4 gated metrics alpha split evenly gave each 0.0226 / 4 at
 * a first look of 8 blocks of 24, below 2 / 2^8: a -20 % was too few
 * runs.  The primary metric keeps 70 % and reaches it.
 */
TEST(gate_first_look_reachable)
{
	struct cmp_params p = { .alpha = ALPHA_FOUND, .max_cv = CMP_MAX_CV, .paired = true,
				.max_runs = 24, .now = BLOCKS };
	static struct runset old, new;
	struct cmp_result r[4];

	four_sides(&old, &new, 0.8);
	compare_runsets(&old, &new, four, 4, &p, r);
	EXPECT_EQ(CMP_REGRESSED, r[0].verdict);
	EXPECT_NEAR(CMP_PRIMARY_SHARE, r[0].share, 1e-12);
	/* the primary's level reachable at the first look, 8 blocks */
	EXPECT_DBL(r[0].level_metric, >, cmp_min_p(&p, BLOCKS, BLOCKS));
	EXPECT_EQ(BLOCKS, cmp_first_look(&p, four, 4, BLOCKS, 0));
	runset_free(&old);
	runset_free(&new);
}

/* Without a primary, the first look is where every metric's share can reach. */
TEST(gate_first_look_planned)
{
	struct cmp_params p = { .alpha = CMP_ALPHA, .paired = true, .max_runs = 24 };
	struct cmp_rule even[4];
	double level, same;
	unsigned int i, n;

	for (i = 0; i < 4; i++) {
		even[i] = four[i];
		even[i].primary = false;
	}
	n = cmp_first_look(&p, even, 4, BLOCKS, 0);
	p.now = n;
	cmp_look_levels(&p, 0.25, 0, &level, &same);
	verdict_note("first look without a primary: %u blocks, level %.4g\n", n, level);
	/* later without a primary, where its level is reached, not earlier */
	EXPECT_GT(n, BLOCKS);
	EXPECT_LT(n, 24U);
	EXPECT_DBL(cmp_min_p(&p, n, n), <, level);
	p.now = n - 1;
	cmp_look_levels(&p, 0.25, 0, &level, &same);
	EXPECT_DBL(cmp_min_p(&p, n - 1, n - 1), >=, level);
}

/*
 * Item 1: a -5 % rule fails on a change shown beyond -2.5 %: a true
 * -4 % with 0.3 % noise regressed; "the regression to catch" is named.
 */
TEST(gate_alarm_line)
{
	struct cmp_params p = { .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV, .paired = true };
	static struct runset old, new;
	struct cmp_result r[4];

	four_sides(&old, &new, 0.96);
	compare_runsets(&old, &new, four, 4, &p, r);
	/* -4 % regressed: the alarm at half the change, both named */
	EXPECT_EQ(CMP_REGRESSED, r[0].verdict);
	EXPECT_NEAR(-0.025, r[0].alarm, 0);
	EXPECT_CONTAINS(r[0].why, "estimated beyond the alarm line -2.5%");
	EXPECT_CONTAINS(r[0].why, "the regression to catch is -5.0%");
	p.alarm_share = 1;
	compare_runsets(&old, &new, four, 4, &p, r);
	/* the old rule: -4 % against a line at -5 % is shown within +/-5 % */
	EXPECT_EQ(CMP_SAME, r[0].verdict);
	runset_free(&old);
	runset_free(&new);
}

/*
 * Item 7: sched_perf_compare --look 12/24 --prev-look 8 spent by 12 less
 * by 8 although the gate's first look, which no test could reach, spent
 * nothing: the replay of the looks gives the gate's level.
 */
TEST(gate_look_spends_as_the_gate)
{
	static const unsigned int before[] = { BLOCKS };
	struct cmp_params p = { .alpha = ALPHA_FOUND, .paired = true, .max_runs = 24,
				.now = 12, .nr_before = 1, .before = before };
	double share = 0.25, level, same, by12 = cmp_spent_by(ALPHA_FOUND * share, 0.5, false);

	/* a quarter of alpha at 8 of 24: 0.0056, below 2 / 2^8 */
	EXPECT_DBL(cmp_spent_by(ALPHA_FOUND * share, 1.0 / 3, false), <, cmp_min_p(&p, 8, 8));
	cmp_look_levels(&p, share, 0, &level, &same);
	verdict_note("level at 12 after an unreachable 8: %.5g (all spent by 12: %.5g)\n", level, by12);
	/* the unreachable look spent nothing; SAME's level spent look by look */
	EXPECT_NEAR(by12, level, 1e-15);
	EXPECT_NEAR(cmp_spent_by(CMP_ALPHA_SAME, 0.5, false) -
		    cmp_spent_by(CMP_ALPHA_SAME, 1.0 / 3, false), same, 1e-15);
	/* the primary's 70 % reached at 8: its level at 12 is what 8 left */
	cmp_look_levels(&p, CMP_PRIMARY_SHARE, 0, &level, &same);
	EXPECT_NEAR(cmp_spent_by(ALPHA_FOUND * CMP_PRIMARY_SHARE, 0.5, false) -
		    cmp_spent_by(ALPHA_FOUND * CMP_PRIMARY_SHARE, 1.0 / 3, false), level, 1e-15);
}

/*
 * Issue 49: a plan that grew after a look.  The first look at 8 of a
 * first guess of 24 spent 45 % of alpha; replanned to 132, the replay of
 * that look by the new plan said it spent 15 %, so the looks after it
 * spent again what it had: A/A failed in 1.05-1.20 % of gates at CV
 * 0.1-0.18.  Each look is replayed by the plan it was taken under, and
 * the looks together never spend more than alpha.
 */
TEST(gate_grown_plan_spends_alpha_once)
{
	static const unsigned int at[] = { 8, 12, 18, 27, 41, 62, 93, 132 };
	static const unsigned int under[] = { 24, 132, 132, 132, 132, 132, 132, 132 };
	struct cmp_params p = { .alpha = CMP_ALPHA, .paired = true, .max_runs = 132,
				.before = at, .before_max = under };
	double level, same, spent = 0, spent_same = 0;
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(at); k++) {
		p.max_runs = under[k];
		p.now = at[k];
		p.nr_before = k;
		p.last = k + 1 == ARRAY_SIZE(at);
		cmp_look_levels(&p, 1, 0, &level, &same);
		/* a look the test cannot reach spends nothing (its level unused) */
		if (cmp_min_p(&p, at[k], at[k]) < level)
			spent += level;
		spent_same += same;
	}
	verdict_note("a plan grown from 24 to 132 after the first look: %.5g of alpha %g spent\n",
		     spent, CMP_ALPHA);
	/* gate grown plan spends at most alpha */
	EXPECT_DBL(spent, <=, CMP_ALPHA * (1 + 1e-12));
	EXPECT_DBL(spent_same, <=, CMP_ALPHA_SAME * (1 + 1e-12));
	/* and the first look spent what its own plan allowed */
	p.max_runs = 24;
	p.now = 8;
	p.nr_before = 0;
	p.last = false;
	cmp_look_levels(&p, 1, 0, &level, &same);
	EXPECT_NEAR(cmp_spent_by(CMP_ALPHA, 8.0 / 24, false), level, 1e-15);
	/* at an alpha that reaches 2 / 2^8 at 8 blocks: alpha, exactly */
	p.alpha = 0.05;
	for (k = 0, spent = 0; k < ARRAY_SIZE(at); k++) {
		p.max_runs = under[k];
		p.now = at[k];
		p.nr_before = k;
		p.last = k + 1 == ARRAY_SIZE(at);
		cmp_look_levels(&p, 1, 0, &level, &same);
		/* none until the grown plan's share passes what 8 of 24 spent */
		EXPECT_DBL(level, >=, 0);
		spent += level;
	}
	EXPECT_NEAR(0.05, spent, 1e-12);
}

/*
 * The look after a plan grew has no alpha while the looks before spent
 * more than the grown plan allows by then: the verdict says so, in
 * place of "not below 0" (a vm check's tcp_rr, 12 blocks then 18 of a
 * plan grown to over 100).
 */
TEST(gate_grown_plan_look_without_alpha)
{
	static const unsigned int at[] = { 12 };
	static const unsigned int under[] = { 36 };
	struct cmp_params p = { .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV, .paired = true,
				.max_runs = 1000, .now = 18, .nr_before = 1,
				.before = at, .before_max = under };
	static struct runset old, new;
	struct cmp_result r[4];

	four_sides_of(&old, &new, 0.8, 18);
	compare_runsets(&old, &new, four, 4, &p, r);
	/* look without alpha is too few, not regressed */
	EXPECT_EQ(CMP_TOO_FEW, r[0].verdict);
	EXPECT_DBL(r[0].level_metric, ==, 0);
	EXPECT_CONTAINS(r[0].why, "this look has no alpha left to spend");
	EXPECT_LACKS(r[0].why, "not below 0");
	/* the same runs under the plan the first look was taken with: judged */
	p.max_runs = 36;
	compare_runsets(&old, &new, four, 4, &p, r);
	EXPECT_EQ(CMP_REGRESSED, r[0].verdict);
	runset_free(&old);
	runset_free(&new);
}

/* Item 7: the looks so far in the result; the medians beside the shift. */
TEST(gate_figures_true_to_labels)
{
	static const unsigned int before[] = { BLOCKS };
	struct cmp_params p = { .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV, .paired = true,
				.max_runs = 24, .now = BLOCKS, .nr_before = 0, .before = before };
	static struct runset old, new;
	struct cmp_result r[4];
	char buf[32];

	four_sides(&old, &new, 0.9);
	compare_runsets(&old, &new, four, 4, &p, r);
	EXPECT_EQ(1U, r[0].looks);
	add_series(&old, "messages_per_sec", 100, 1, 4);
	add_series(&new, "messages_per_sec", 100, 0.9, 4);
	p.now = 12;
	p.nr_before = 1;
	compare_runsets(&old, &new, four, 4, &p, r);
	EXPECT_EQ(2U, r[0].looks);
	EXPECT_CONTAINS(r[0].why, "medians 100.025 -> 90.0225 (-10.0%), shift -10.0% [");
	/* a huge change printed in bounded room */
	cmp_percent(1e300, buf, sizeof(buf));
	EXPECT_LT(strlen(buf), 12U) TH_LOG("%s", buf);
	runset_free(&old);
	runset_free(&new);
}

/* Item 5: the verdict layer's exit and KTAP lines for one comparison. */
struct report {
	const struct cmp_result *res;
	unsigned int n;
};

static void report_comparison(void *arg)
{
	const struct report *rep = arg;

	verdict_begin(rep->n);
	verdict_compare("hackbench", "ab", rep->res, rep->n);
	verdict_finish();
}

static int report_exit(const struct cmp_result *res, unsigned int n, char *out, size_t len)
{
	struct report rep = { res, n };

	return unit_capture(report_comparison, &rep, out, len);
}

static struct cmp_result judged(const char *metric, enum cmp_verdict v, bool primary)
{
	struct cmp_result r = { .verdict = v, .primary = primary, .change = -0.08,
				.threshold = -0.05, .alarm = -0.025, .p_ni = 1,
				.level_same = 0.05, .mde = NAN, .mde_now = NAN };

	snprintf(r.metric, sizeof(r.metric), "%s", metric);
	snprintf(r.why, sizeof(r.why), "figures -8.0%% [-11.7%%, -0.6%%]");
	return r;
}

TEST(gate_exits)
{
	struct cmp_result r[2] = {
		judged("messages_per_sec", CMP_WORSE, true),
		judged("ctx_switches_per_op", CMP_SAME, false),
	};
	static char out[8192];
	int code;

	code = report_exit(r, 2, out, sizeof(out));
	verdict_note("a shown worse: exit %d\n", code);
	/* a shown worse is open (4), its reason fixed, its figures before */
	EXPECT_EQ(4, code);
	EXPECT_CONTAINS(out, "\nok 1 hackbench.ab.messages_per_sec # SKIP worse\n");
	EXPECT_CONTAINS(out, "# hackbench.ab.messages_per_sec: worse: figures -8.0%");
	/* regressed fails */
	r[0].verdict = CMP_REGRESSED;
	EXPECT_EQ(1, report_exit(r, 2, out, sizeof(out)));
	EXPECT_CONTAINS(out, "\nnot ok 1 hackbench.ab.messages_per_sec\n");
	/* all the same passes */
	r[0].verdict = CMP_SAME;
	EXPECT_EQ(0, report_exit(r, 2, out, sizeof(out)));
	/* the primary missing, or nothing judged: open */
	r[0].verdict = CMP_MISSING;
	EXPECT_EQ(4, report_exit(r, 2, out, sizeof(out)));
	r[0].primary = false;
	r[1].verdict = CMP_MISSING;
	EXPECT_EQ(4, report_exit(r, 2, out, sizeof(out)));
}
