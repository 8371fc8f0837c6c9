// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of compare.c and runset.c: verdicts on constructed run sets,
 * the run count the exact U test needs, the run set's round trip through
 * a results file, and the run sets runset_load() must refuse (fixtures in
 * FIXTURE_DIR/runset).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "results.h"
#include "runset.h"
#include "sysinfo.h"
#include "verdict.h"
#include "unit.h"

#define N8 8

/* throughput of 8 runs, noise about 0.06 % */
static const double base8[N8] = {
	1000000, 1001000, 999000, 1000500, 999500, 1000200, 999800, 1000300,
};

/* @n values of @metric, appended one iteration at a time as the driver does */
static void add(struct runset *rs, const char *metric, const double *v,
		unsigned int n, double scale)
{
	static struct metric_set set;
	unsigned int i;

	for (i = 0; i < n; i++) {
		set.nr = 0;
		metric_add(&set, metric, "", v[i] * scale);
		runset_append(rs, &set);
	}
}

static struct runset *fresh(struct runset *rs)
{
	runset_free(rs);
	runset_init(rs, "hackbench");
	return rs;
}

/* One rule on @metric with threshold @change; the verdict of it. */
static enum cmp_verdict judge(const struct runset *old, const struct runset *new,
			      const char *metric, double change,
			      struct cmp_result *r, unsigned int *regressed)
{
	struct cmp_rule rule = { .change = change };
	unsigned int n;

	snprintf(rule.metric, sizeof(rule.metric), "%s", metric);
	n = compare_runsets(old, new, &rule, 1, NULL, r);
	if (regressed)
		*regressed = n;
	return r->verdict;
}

static bool has(const char *s, const char *sub)
{
	return strstr(s, sub) != NULL;
}

/*
 * A side noisy on its own scale (robust cv of @near_zero 1.19) but every
 * run of the other side far beyond it: judged.  Shift the other side into
 * its range and the noise guard holds again.  (A metric without a floor:
 * CPUs scanned per wakeup, where these figures were seen, spreads by its
 * floor of 0.01 now, and is no longer noisy at all.)
 */
static void test_noisy_but_apart(struct runset *old, struct runset *new)
{
	static const double near_zero[N8] = {
		0.0003, 0.0001, 0.004, 0.0002, 0.0009, 0.0003, 0.01, 0.0004,
	};
	static const double full_scan[N8] = { 3.99, 4.0, 3.98, 4.01, 3.995, 4.0, 3.99, 4.0 };
	struct cmp_result r;
	unsigned int n = 99;

	add(fresh(old), "ctx_switches_per_op", near_zero, N8, 1);
	add(fresh(new), "ctx_switches_per_op", full_scan, N8, 1);
	EXPECT(judge(old, new, "ctx_switches_per_op", 0.5, &r, &n) == CMP_REGRESSED &&
	       n == 1 && r.rcv_old > CMP_MAX_CV && r.apart &&
	       has(r.why, "but every run apart"), "compare_noisy_but_apart_judged");
	add(fresh(new), "ctx_switches_per_op", full_scan, N8, 0.001);
	EXPECT(judge(old, new, "ctx_switches_per_op", 0.5, &r, &n) == CMP_NOISY &&
	       !r.apart && has(r.why, "too noisy to judge"), "compare_noisy_overlapping_not_judged");
}

UNIT_TEST(compare_verdicts)
{
	static const double noisy[N8] = {
		1000000, 200000, 1800000, 300000, 1700000, 250000, 1900000, 1000000,
	};
	/*
	 * medians 101 -> 93.5 (-7.4 %), Hodges-Lehmann -4.95 %, the runs
	 * well mixed: U = 39, exact
	 * two-sided p = 2 P(U <= 25) = 0.50536 (the null counted out in Python);
	 * in an order without trend (spearmanr p 0.49 and 0.91): not drifting
	 */
	static const double wide_old[N8] = { 100, 80, 115, 95, 120, 90, 102, 110 };
	static const double wide_new[N8] = { 93, 118, 75, 105, 85, 112, 91, 94 };
	static struct runset old, new;
	struct cmp_result r;
	unsigned int n = 99;

	add(fresh(&old), "messages_per_sec", base8, N8, 1);
	add(fresh(&new), "messages_per_sec", base8, N8, 0.86);
	EXPECT(judge(&old, &new, "messages_per_sec", -0.05, &r, &n) == CMP_REGRESSED &&
	       n == 1 && fabs(r.change + 0.14) < 1e-9 &&
	       fabs(r.p - 2.0 / 12870) < 1e-12 && r.p_adj == r.p &&
	       r.old.n == N8 && r.new.n == N8 &&
	       has(r.why, "-14.0%") && has(r.why, "p_adj") && has(r.why, "1e+06"),
	       "compare_clear_regression");
	EXPECT(judge(&old, &old, "messages_per_sec", -0.05, &r, &n) == CMP_SAME &&
	       n == 0 && r.change == 0 && r.p == 1, "compare_same_data");
	add(fresh(&new), "messages_per_sec", base8, N8, 1.14);
	EXPECT(judge(&old, &new, "messages_per_sec", -0.05, &r, &n) == CMP_IMPROVED &&
	       n == 0 && has(r.why, "shown better than +2.5%"), "compare_improvement_not_failed");
	add(fresh(&new), "messages_per_sec", noisy, N8, 1);
	EXPECT(judge(&old, &new, "messages_per_sec", -0.05, &r, &n) == CMP_NOISY &&
	       n == 0 && r.rcv_new > CMP_MAX_CV && isnan(r.p_adj) &&
	       has(r.why, "too noisy to judge: robust cv old 0.00 new 1.07") &&
	       has(r.why, "> 0.50"),
	       "compare_noisy_side");
	test_noisy_but_apart(&old, &new);
	add(fresh(&old), "messages_per_sec", base8, 3, 1);
	add(fresh(&new), "messages_per_sec", base8, 3, 0.5);
	EXPECT(judge(&old, &new, "messages_per_sec", -0.05, &r, &n) == CMP_TOO_FEW &&
	       n == 0 && has(r.why, "3 vs 3") && has(r.why, "p 0.1 at best"),
	       "compare_3v3_too_few");
	add(fresh(&old), "messages_per_sec", base8, N8, 1);
	add(&old, "cycles", base8, N8, 1);
	add(fresh(&new), "messages_per_sec", base8, N8, 1);
	EXPECT(judge(&old, &new, "cycles", 0.05, &r, &n) == CMP_MISSING && n == 0 &&
	       has(r.why, "in the new run set") && isnan(r.change),
	       "compare_missing_metric");
	add(fresh(&old), "x", wide_old, N8, 1);
	add(fresh(&new), "x", wide_new, N8, 1);
	EXPECT(judge(&old, &new, "x", -0.05, &r, &n) == CMP_UNDECIDED && r.change < -0.049 &&
	       fabs(r.p - 0.5053613053613054) < 1e-12 &&
	       has(r.why, "undecided") && has(r.why, "neither shown beyond"),
	       "compare_beyond_threshold_not_significant_undecided");
	/* undecided within the threshold: the words name the way it moved */
	add(fresh(&old), "x", wide_old, N8, 1);
	add(fresh(&new), "x", wide_old, N8, 0.97);
	EXPECT(judge(&old, &new, "x", -0.05, &r, &n) == CMP_UNDECIDED &&
	       r.change < 0 && r.change > -0.05 && has(r.why, "neither shown beyond -2.5%"),
	       "compare_undecided_small_fall_names_the_bad_threshold");
	add(fresh(&new), "x", wide_old, N8, 1.03);
	EXPECT(judge(&old, &new, "x", -0.05, &r, &n) == CMP_UNDECIDED &&
	       r.change > 0 && has(r.why, "neither shown beyond +2.5%"),
	       "compare_undecided_small_rise_names_the_good_threshold");
	add(fresh(&new), "x", wide_old, N8, 1.03);
	EXPECT(judge(&old, &new, "x", 0.05, &r, &n) == CMP_UNDECIDED &&
	       has(r.why, "neither shown beyond +2.5%"),
	       "compare_undecided_small_rise_of_a_cost_names_the_bad_threshold");
	add(fresh(&old), "x", base8, N8, 1);
	add(fresh(&new), "x", base8, N8, 0.98);
	EXPECT(judge(&old, &new, "x", -0.05, &r, &n) == CMP_SAME && r.p_adj < 0.001 &&
	       has(r.why, "within"), "compare_significant_within_threshold");

	/* the machine busier with other work in the new run (0.01 -> 0.30) */
	add(fresh(&old), "messages_per_sec", base8, N8, 1);
	add(&old, "foreign_cpu_share", base8, N8, 1e-8);
	add(&old, "task_clock_us_per_op", base8, N8, 1e-6);
	add(fresh(&new), "messages_per_sec", base8, N8, 0.8);
	add(&new, "foreign_cpu_share", base8, N8, 3e-7);
	add(&new, "task_clock_us_per_op", base8, N8, 1.2e-6);
	add(&old, "migrations_per_1k_ops", base8, N8, 1e-6);
	add(&new, "migrations_per_1k_ops", base8, N8, 1.9e-6);
	EXPECT(judge(&old, &new, "migrations_per_1k_ops", 0.3, &r, &n) == CMP_NOISY &&
	       has(r.why, "machine busy with other work"),
	       "compare_busier_machine_placement_not_judged");
	EXPECT(judge(&old, &new, "messages_per_sec", -0.05, &r, &n) == CMP_NOISY && n == 0 &&
	       has(r.why, "machine busy with other work: foreign CPU share 0.010 vs 0.300"),
	       "compare_busier_machine_rate_not_judged");
	EXPECT(judge(&old, &new, "task_clock_us_per_op", 0.03, &r, &n) == CMP_REGRESSED,
	       "compare_busier_machine_per_op_still_judged");
}

UNIT_TEST(compare_directions)
{
	static const double zero[N8] = { 0 };
	static const double one[N8] = { 1, 1, 1, 1, 1, 1, 1, 1 };
	static struct runset old, new;
	struct cmp_result r;
	bool up, down;

	/* a metric that must not rise: +30 % regresses, -30 % improves */
	add(fresh(&old), "migrations", base8, N8, 1);
	add(fresh(&new), "migrations", base8, N8, 1.3);
	up = judge(&old, &new, "migrations", 0.20, &r, NULL) == CMP_REGRESSED;
	add(fresh(&new), "migrations", base8, N8, 0.7);
	down = judge(&old, &new, "migrations", 0.20, &r, NULL) == CMP_IMPROVED;
	EXPECT(up && down, "compare_rising_metric_directions");
	/* from a median of 0: no move is 0, any move is infinite */
	add(fresh(&old), "wakeups", zero, N8, 1);
	add(fresh(&new), "wakeups", zero, N8, 1);
	up = judge(&old, &new, "wakeups", 0.20, &r, NULL) == CMP_SAME && r.change == 0;
	add(fresh(&new), "wakeups", one, N8, 1);
	EXPECT(up && judge(&old, &new, "wakeups", 0.20, &r, NULL) == CMP_REGRESSED &&
	       r.change == HUGE_VAL, "compare_zero_old_median");
}

UNIT_TEST(compare_holm)
{
	static const double noisy[N8] = {
		1000000, 200000, 1800000, 300000, 1700000, 250000, 1900000, 1000000,
	};
	static const struct cmp_rule rules[] = {
		{ .metric = "a", .change = -0.05 }, { .metric = "b", .change = -0.05 },
		{ .metric = "noisy", .change = -0.05 }, { .metric = "gone", .change = -0.05 },
	};
	static struct runset old, new;
	struct cmp_result r[4];
	unsigned int n;

	fresh(&old);
	fresh(&new);
	add(&old, "a", base8, N8, 1);
	add(&old, "b", base8, N8, 1);
	add(&old, "noisy", base8, N8, 1);
	add(&old, "gone", base8, N8, 1);
	add(&new, "a", base8, N8, 0.8);
	add(&new, "b", base8, N8, 0.9);
	add(&new, "noisy", noisy, N8, 1);
	n = compare_runsets(&old, &new, rules, 4, NULL, r);
	/*
	 * Three metrics present, none primary: a third of alpha each, the
	 * noisy one's kept (the split is over what a replay of the looks
	 * knows: the metrics present); the missing one has none.
	 */
	EXPECT(n == 2 && r[0].verdict == CMP_REGRESSED && r[1].verdict == CMP_REGRESSED &&
	       r[2].verdict == CMP_NOISY && r[3].verdict == CMP_MISSING &&
	       fabs(r[0].p_adj - 3 * r[0].p) < 1e-15 && r[1].p_adj == r[0].p_adj &&
	       isnan(r[2].p_adj) && r[3].share == 0 && fabs(r[2].share - 1.0 / 3) < 1e-15,
	       "compare_bonferroni_over_present");
}

UNIT_TEST(compare_enough_runs)
{
	/* 2 / C(10, 5) = 0.0079, 2 / C(12, 6) = 0.0022 */
	EXPECT(!cmp_enough_runs(5, 5, 0.0025), "cmp_enough_runs_5v5_not_at_0.0025");
	EXPECT(cmp_enough_runs(6, 6, 0.0025), "cmp_enough_runs_6v6_at_0.0025");
	/* C(2000, 1000) overflows a double; its logarithm does not */
	EXPECT(cmp_enough_runs(1000, 1000, 1e-300) && !cmp_enough_runs(0, 8, 0.5) &&
	       !cmp_enough_runs(1, 1, 0.99) && cmp_enough_runs(1, 1, 1.5),
	       "cmp_enough_runs_edges");
	EXPECT(!strcmp(cmp_verdict_name(CMP_SAME), "same") &&
	       !strcmp(cmp_verdict_name(CMP_REGRESSED), "regressed") &&
	       !strcmp(cmp_verdict_name(CMP_IMPROVED), "improved") &&
	       !strcmp(cmp_verdict_name(CMP_NOISY), "noisy") &&
	       !strcmp(cmp_verdict_name(CMP_TOO_FEW), "too-few-runs") &&
	       !strcmp(cmp_verdict_name(CMP_MISSING), "missing"), "cmp_verdict_names");
}

UNIT_TEST(compare_roundtrip)
{
	char path[] = "/tmp/sched_perf_runset.XXXXXX", err[512] = "";
	static struct runset rs, back;
	static struct metric_set set;
	const struct runset_metric *a, *b;
	struct results *r;
	unsigned int i;
	bool same = true;
	int fd = mkstemp(path);

	close(fd);
	runset_init(&rs, "hackbench");
	snprintf(rs.variant, sizeof(rs.variant), "pipe-process");
	snprintf(rs.options, sizeof(rs.options), "-g 4 --pipe -l 1000: x");
	snprintf(rs.kconfig, sizeof(rs.kconfig), "0123456789abcdef");
	snprintf(rs.kernel, sizeof(rs.kernel), "6.12.117 #1 SMP");
	rs.nr_cpus = 4;
	for (i = 0; i < N8; i++) {
		set.nr = 0;
		metric_add(&set, "messages_per_sec", "msg/s", 1234567.5 + i);
		metric_add(&set, "migrations_per_1k_ops", "", 0.25 * i);
		/* missing once: not written, so the others still line up */
		if (i == 3)
			metric_missing(&set, "cycles", "not supported");
		else
			metric_add(&set, "cycles", "", 1e9 + i);
		metric_add(&set, "nan", "", NAN);
		runset_append(&rs, &set);
	}
	r = results_open(path, err, sizeof(err));
	ASSERT(r, "compare_roundtrip_results_open");
	/* the driver's own lines come first, some of them the same keys */
	results_text(r, "meta.workload", "hackbench");
	results_text(r, "meta.kernel", "6.12.117 #1 SMP");
	results_metrics(r, "hackbench", &set);
	runset_write(&rs, r);
	EXPECT(!results_commit(r, err, sizeof(err)) && !runset_load(path, &back, err, sizeof(err)) &&
	       !strcmp(back.workload, "hackbench") && !strcmp(back.variant, "pipe-process") &&
	       !strcmp(back.options, rs.options) && back.nr_cpus == 4 &&
	       !strcmp(back.kconfig, rs.kconfig) && !strcmp(back.kernel, rs.kernel) &&
	       !runset_compatible(&rs, &back, err, sizeof(err)), "runset_roundtrip_identity");
	a = runset_find(&rs, "messages_per_sec");
	b = runset_find(&back, "messages_per_sec");
	for (i = 0; a && b && i < N8; i++)
		same &= a->v[i] == b->v[i];
	a = runset_find(&rs, "migrations_per_1k_ops");
	b = runset_find(&back, "migrations_per_1k_ops");
	for (i = 0; a && b && i < N8; i++)
		same &= a->v[i] == b->v[i];
	EXPECT(same && a && b && a->n == N8 && b->n == N8, "runset_roundtrip_values");
	EXPECT(back.nr_metrics == 2 && !runset_find(&back, "cycles") &&
	       !runset_find(&back, "nan") && runset_find(&rs, "cycles")->n == 7,
	       "runset_roundtrip_drops_ragged_metric");
	runset_free(&rs);
	runset_free(&back);
	unlink(path);
}

static bool rejects(const char *name, const char *why)
{
	static struct runset rs;
	char path[512], err[512] = "";
	bool ok;

	snprintf(path, sizeof(path), "%s/runset/%s", unit_fixtures, name);
	ok = runset_load(path, &rs, err, sizeof(err)) == -1 && has(err, path) &&
	     has(err, why) && rs.nr_metrics == 0 && !strchr(err, '\n');
	if (!ok)
		verdict_note("%s: %s\n", name, err);
	runset_free(&rs);
	return ok;
}

UNIT_TEST(compare_load)
{
	static struct runset rs;
	char path[512], err[512] = "";

	snprintf(path, sizeof(path), "%s/runset/old", unit_fixtures);
	EXPECT(!runset_load(path, &rs, err, sizeof(err)) && rs.nr_metrics == 3 &&
	       rs.m[0].n == N8 && rs.nr_cpus == 4 && !strcmp(rs.options, "-g 4 --pipe"),
	       "runset_load_fixture");
	runset_free(&rs);
	EXPECT(rejects("truncated", "truncated: no runset.end"), "runset_load_rejects_truncated");
	EXPECT(rejects("end-mismatch", "truncated: runset.end says 4 runs lines, found 3"),
	       "runset_load_rejects_end_count");
	EXPECT(rejects("version-1", "version 1, this program reads 2"),
	       "runset_load_rejects_version_1");
	EXPECT(rejects("no-version", "no meta.runset_version"), "runset_load_rejects_no_version");
	EXPECT(rejects("ragged", "migrations_per_1k_ops has 7 values") &&
	       rejects("ragged", "messages_per_sec has 8"), "runset_load_rejects_ragged");
	EXPECT(rejects("non-numeric", "hackbench.runs.migrations_per_1k_ops: 'fast' is not a finite number"),
	       "runset_load_rejects_non_numeric");
	EXPECT(rejects("no-workload", "no meta.workload"), "runset_load_rejects_no_workload");
	EXPECT(rejects("no-runs", "no runs at all"), "runset_load_rejects_no_runs");
	EXPECT(rejects("no-such-file", "No such file"), "runset_load_rejects_missing_file");
}

UNIT_TEST(compare_compatible)
{
	static struct runset a, b;
	char err[512] = "";

	runset_init(&a, "hackbench");
	snprintf(a.variant, sizeof(a.variant), "pipe-process");
	snprintf(a.options, sizeof(a.options), "-g 4");
	snprintf(a.kconfig, sizeof(a.kconfig), "0123456789abcdef");
	a.nr_cpus = 4;
	b = a;
	snprintf(b.kernel, sizeof(b.kernel), "another kernel: not compared");
	EXPECT(!runset_compatible(&a, &b, err, sizeof(err)), "runset_compatible_same");
	snprintf(b.workload, sizeof(b.workload), "tcp_rr");
	snprintf(b.options, sizeof(b.options), "-g 8");
	EXPECT(runset_compatible(&a, &b, err, sizeof(err)) &&
	       !strcmp(err, "another workload: hackbench vs tcp_rr"),
	       "runset_compatible_rejects_workload");
	b = a;
	snprintf(b.variant, sizeof(b.variant), "socket-process");
	EXPECT(runset_compatible(&a, &b, err, sizeof(err)) &&
	       !strcmp(err, "another variant: pipe-process vs socket-process"),
	       "runset_compatible_rejects_variant");
	b = a;
	snprintf(b.options, sizeof(b.options), "-g 8");
	EXPECT(runset_compatible(&a, &b, err, sizeof(err)) &&
	       !strcmp(err, "other options: '-g 4' vs '-g 8'"),
	       "runset_compatible_rejects_options");
	b = a;
	b.nr_cpus = 8;
	EXPECT(runset_compatible(&a, &b, err, sizeof(err)) &&
	       !strcmp(err, "another nr_cpus: 4 vs 8"), "runset_compatible_rejects_cpus");
	b = a;
	snprintf(b.kconfig, sizeof(b.kconfig), "unknown");
	EXPECT(runset_compatible(&a, &b, err, sizeof(err)) &&
	       !strcmp(err, "another kconfig: 0123456789abcdef vs unknown"),
	       "runset_compatible_rejects_kconfig");
}

static int digest(const char *text, char *out)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int n;

	snprintf(out, 32, "untouched");
	if (!f)
		return -1;
	n = sysinfo_kconfig_digest(f, out, 32);
	fclose(f);
	return n;
}

UNIT_TEST(compare_kconfig)
{
	char a[32], b[32], c[32], d[32], run[80];
	size_t len;

	/* order, drivers and options off the list change nothing */
	digest("CONFIG_HZ=250\nCONFIG_SMP=y\n# CONFIG_NUMA is not set\nCONFIG_E1000=y\n", a);
	digest("CONFIG_E1000=m\nCONFIG_SMP=y\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n", b);
	digest("CONFIG_HZ=1000\nCONFIG_SMP=y\n", c);
	EXPECT(!strcmp(a, b) && strcmp(a, c) && strlen(a) == 16 &&
	       digest("CONFIG_E1000=y\nCONFIG_HZ_1000=y\n", d) == 0 &&
	       !strcmp(d, "untouched"), "sysinfo_kconfig_digest_scheduler_options_only");
	/*
	 * The digest itself, worked out apart from the code (FNV-1a 64 over
	 * "CONFIG_HZ=250\nCONFIG_SMP=y\n", the chosen lines sorted): a run
	 * set's kconfig must not change with the suite, or every stored
	 * baseline reads as another kernel.
	 */
	EXPECT(!strcmp(a, "567016f544426ae9"), "sysinfo_kconfig_digest_value");
	sysinfo_kconfig(run, sizeof(run));
	len = strspn(run, "0123456789abcdef");
	EXPECT(!strcmp(run, "unknown") || (strlen(run) == 16 && len == 16),
	       "runset_kconfig_running_kernel");
	verdict_note("kconfig digest of the running kernel: %s\n", run);
}

enum cmp_verdict unit_judge(const struct runset *old, const struct runset *new,
			    const char *metric, double change,
			    const struct cmp_params *params, struct cmp_result *r)
{
	struct cmp_rule rule = { .change = change };

	snprintf(rule.metric, sizeof(rule.metric), "%s", metric);
	compare_runsets(old, new, &rule, 1, params, r);
	return r->verdict;
}

/*
 * Paired blocks: a host that drifts 3 % per iteration hides a 5 % drop
 * from the unpaired test (each side trends: drifting), and the pairs see it.
 */
UNIT_TEST(compare_paired)
{
	static const double noise[12] = {
		1.004, 0.997, 1.002, 0.999, 1.003, 0.996, 1.001, 0.998, 1.002, 0.999,
		1.0, 1.003,
	};
	static struct runset old, new;
	struct cmp_params pair = { .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV, .looks = 1,
				   .paired = true };
	struct cmp_params seq = { .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV, .looks = 1 };
	double a[12], b[12];
	struct cmp_result r;
	int k;

	for (k = 0; k < 12; k++) {
		a[k] = 1000 * (1 + 0.03 * k) * noise[k];
		b[k] = a[k] * 0.95 * noise[11 - k];
	}
	add(fresh(&old), "messages_per_sec", a, 12, 1);
	add(fresh(&new), "messages_per_sec", b, 12, 1);
	/* all 12 ratios below 1: signed-rank p = 2 / 2^12 */
	EXPECT(unit_judge(&old, &new, "messages_per_sec", -0.03, &pair, &r) == CMP_REGRESSED &&
	       fabs(r.p - 2.0 / 4096) < 1e-12 && r.change < -0.04 && r.cv_block < 0.01 &&
	       r.rcv_old > 0.1, "compare_paired_drift_cancels");
	EXPECT(unit_judge(&old, &new, "messages_per_sec", -0.03, &seq, &r) == CMP_DRIFTING &&
	       r.rho_old > 0.9 && has(r.why, "drifting: cannot judge"),
	       "compare_unpaired_drifting");
	for (k = 0; k < 12; k++)
		b[k] = a[k] * noise[11 - k];
	add(fresh(&new), "messages_per_sec", b, 12, 1);
	EXPECT(unit_judge(&old, &new, "messages_per_sec", -0.03, &pair, &r) == CMP_SAME &&
	       r.p_same < CMP_ALPHA && has(r.why, "within +/-3%"),
	       "compare_paired_same_proven");
	/* a count near zero: wild ratios, but every B beyond every A: judged */
	{
		static const double near_zero[12] = {
			0.0003, 0.0009, 0.0001, 0.0006, 0.0002, 0.0012, 0.0004, 0.0001,
			0.0008, 0.0003, 0.0005, 0.0002,
		};

		add(fresh(&old), "sis_scanned_per_wakeup", near_zero, 12, 1);
		add(fresh(&new), "sis_scanned_per_wakeup", noise, 12, 4);
		EXPECT(unit_judge(&old, &new, "sis_scanned_per_wakeup", 0.5, &pair, &r) ==
		       CMP_REGRESSED && r.cv_block > CMP_MAX_CV && r.apart,
		       "compare_paired_noisy_ratios_but_apart");
	}
	/* the same data, 5 looks planned: judged at 0.01, too few blocks of 3 */
	add(fresh(&old), "messages_per_sec", a, 3, 1);
	add(fresh(&new), "messages_per_sec", a, 3, 0.8);
	pair.looks = 5;
	EXPECT(unit_judge(&old, &new, "messages_per_sec", -0.03, &pair, &r) == CMP_TOO_FEW &&
	       r.level == CMP_ALPHA / 5 && has(r.why, "p 0.25 at best"),
	       "compare_paired_too_few_blocks");
}

/*
 * Interleaved boots: each boot's run set is reduced to its median, and
 * the boots are compared with Welch's t-test on the logarithms of those
 * medians (Welch itself is checked against scipy in unit_stats).
 */
UNIT_TEST(compare_boots)
{
	static const double spread[5] = { 0.98, 0.99, 1.0, 1.01, 1.03 };
	static const double base_a[3] = { 100, 104, 98 }, base_b[3] = { 90, 93, 88 };
	static struct runset a[3], b[3], old, new;
	struct cmp_params boots = { .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV, .looks = 1,
				    .boots = true };
	/*
	 * Welch's two-sided p on ln(100, 104, 98) against ln(90, 93, 88), the
	 * boots' medians on the ratio scale, worked out apart from the code
	 * (50-digit arithmetic: t -4.5677, 3.9724 degrees of freedom, the
	 * regularized incomplete beta function).
	 */
	const double p = 0.010447139801440360547;
	const struct runset_metric *m;
	struct cmp_result r;
	int k;

	for (k = 0; k < 3; k++) {
		add(fresh(&a[k]), "messages_per_sec", spread, 5, base_a[k]);
		add(fresh(&b[k]), "messages_per_sec", spread, 5, base_b[k]);
	}
	runset_free(&old);
	runset_free(&new);
	EXPECT(!runset_of_boot_medians(a, 3, &old) && !runset_of_boot_medians(b, 3, &new) &&
	       (m = runset_find(&old, "messages_per_sec")) && m->n == 3 &&
	       m->v[0] == 100 && m->v[1] == 104 && m->v[2] == 98 &&
	       !strcmp(old.workload, "hackbench"), "runset_of_boot_medians");
	EXPECT(unit_judge(&old, &new, "messages_per_sec", -0.03, &boots, &r) == CMP_REGRESSED &&
	       fabs(r.p - p) < 1e-12 && p < 0.05 && r.old.n == 3, "compare_boots_welch_on_medians");
	EXPECT(unit_judge(&old, &old, "messages_per_sec", -0.03, &boots, &r) != CMP_REGRESSED &&
	       r.p == 1, "compare_boots_same_kernel");
	runset_free(&old);
	runset_free(&new);
	runset_of_boot_medians(a, 1, &old);
	runset_of_boot_medians(b, 1, &new);
	EXPECT(unit_judge(&old, &new, "messages_per_sec", -0.03, &boots, &r) == CMP_TOO_FEW &&
	       has(r.why, "too few boots: 1 vs 1"), "compare_boots_one_a_side");
	for (k = 0; k < 3; k++) {
		runset_free(&a[k]);
		runset_free(&b[k]);
	}
}

/* The udp_rr A/A false alarm: a baseline climbing 14.2 -> 17.0 us. */
UNIT_TEST(compare_drift)
{
	static const double climb[N8] = { 14.2, 14.5, 14.6, 15.1, 15.8, 16.2, 16.6, 17.0 };
	static const double flat[N8] = { 15.6, 15.7, 15.5, 15.8, 15.6, 15.4, 15.7, 15.5 };
	static struct runset old, new;
	struct cmp_result r;

	add(fresh(&old), "task_clock_us_per_op", climb, N8, 1);
	add(fresh(&new), "task_clock_us_per_op", flat, N8, 1);
	EXPECT(judge(&old, &new, "task_clock_us_per_op", 0.05, &r, NULL) == CMP_DRIFTING &&
	       r.rho_old == 1 && has(r.why, "tau old +1.00"), "compare_drifting_baseline");
	EXPECT(cmp_looks(8, 24) == 4 && cmp_next_look(8) == 12 && cmp_next_look(12) == 18 &&
	       cmp_looks(8, 8) == 1 && cmp_looks(1, 2) == 2 && cmp_decided(CMP_SAME) &&
	       !cmp_decided(CMP_UNDECIDED) && !strcmp(cmp_verdict_name(CMP_UNDECIDED), "undecided") &&
	       !strcmp(cmp_verdict_name(CMP_DRIFTING), "drifting"), "cmp_looks_and_names");
	/* Pocock-type spending: 45 % by a third, all at the end or the last look */
	EXPECT(fabs(cmp_spent_by(0.01, 1.0 / 3, false) - 0.01 * log(1 + (M_E - 1) / 3)) < 1e-15 &&
	       fabs(cmp_spent_by(0.01, 1.0 / 3, false) / 0.01 - 0.4528) < 1e-4 &&
	       cmp_spent_by(0.05, 0, false) == 0 && cmp_spent_by(0.05, 1, false) == 0.05 &&
	       cmp_spent_by(0.05, 0.5, true) == 0.05 &&
	       cmp_spent_by(0.05, 0.5, false) < cmp_spent_by(0.05, 0.6, false),
	       "cmp_spent_by_pocock");
}

