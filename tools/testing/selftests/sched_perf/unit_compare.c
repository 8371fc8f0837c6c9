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
static void test_noisy_but_apart(struct __test_metadata *_metadata, struct runset *old,
				 struct runset *new)
{
	static const double near_zero[N8] = {
		0.0003, 0.0001, 0.004, 0.0002, 0.0009, 0.0003, 0.01, 0.0004,
	};
	static const double full_scan[N8] = { 3.99, 4.0, 3.98, 4.01, 3.995, 4.0, 3.99, 4.0 };
	struct cmp_result r;
	unsigned int n = 99;

	add(fresh(old), "ctx_switches_per_op", near_zero, N8, 1);
	add(fresh(new), "ctx_switches_per_op", full_scan, N8, 1);
	/* compare noisy but apart judged */
	EXPECT_EQ(CMP_REGRESSED, judge(old, new, "ctx_switches_per_op", 0.5, &r, &n));
	EXPECT_EQ(1, n);
	EXPECT_DBL(r.rcv_old, >, CMP_MAX_CV);
	EXPECT_TRUE(r.apart);
	EXPECT_CONTAINS(r.why, "but every run apart");
	add(fresh(new), "ctx_switches_per_op", full_scan, N8, 0.001);
	/* compare noisy overlapping not judged */
	EXPECT_EQ(CMP_NOISY, judge(old, new, "ctx_switches_per_op", 0.5, &r, &n));
	EXPECT_FALSE(r.apart);
	EXPECT_CONTAINS(r.why, "too noisy to judge");
}

TEST(compare_verdicts)
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
	/* compare clear regression */
	EXPECT_EQ(CMP_REGRESSED, judge(&old, &new, "messages_per_sec", -0.05, &r, &n));
	EXPECT_EQ(1, n);
	EXPECT_DBL(fabs(r.change + 0.14), <, 1e-9);
	EXPECT_DBL(fabs(r.p - 2.0 / 12870), <, 1e-12);
	EXPECT_DBL(r.p_adj, ==, r.p);
	EXPECT_DBL(r.old.n, ==, N8);
	EXPECT_DBL(r.new.n, ==, N8);
	EXPECT_CONTAINS(r.why, "-14.0%");
	EXPECT_CONTAINS(r.why, "p_adj");
	EXPECT_CONTAINS(r.why, "1e+06");
	/* compare same data */
	EXPECT_EQ(CMP_SAME, judge(&old, &old, "messages_per_sec", -0.05, &r, &n));
	EXPECT_EQ(0, n);
	EXPECT_DBL(r.change, ==, 0);
	EXPECT_DBL(r.p, ==, 1);
	add(fresh(&new), "messages_per_sec", base8, N8, 1.14);
	/* compare improvement not failed */
	EXPECT_EQ(CMP_IMPROVED, judge(&old, &new, "messages_per_sec", -0.05, &r, &n));
	EXPECT_EQ(0, n);
	EXPECT_CONTAINS(r.why, "shown better (one-sided p");
	add(fresh(&new), "messages_per_sec", noisy, N8, 1);
	/* compare noisy side */
	EXPECT_EQ(CMP_NOISY, judge(&old, &new, "messages_per_sec", -0.05, &r, &n));
	EXPECT_EQ(0, n);
	EXPECT_DBL(r.rcv_new, >, CMP_MAX_CV);
	EXPECT_TRUE(isnan(r.p_adj));
	EXPECT_CONTAINS(r.why, "too noisy to judge: robust cv old 0.00 new 1.07");
	EXPECT_CONTAINS(r.why, "> 0.50");
	test_noisy_but_apart(_metadata, &old, &new);
	add(fresh(&old), "messages_per_sec", base8, 3, 1);
	add(fresh(&new), "messages_per_sec", base8, 3, 0.5);
	/* compare 3v3 too few */
	EXPECT_EQ(CMP_TOO_FEW, judge(&old, &new, "messages_per_sec", -0.05, &r, &n));
	EXPECT_EQ(0, n);
	EXPECT_CONTAINS(r.why, "3 vs 3");
	EXPECT_CONTAINS(r.why, "p 0.1 at best");
	add(fresh(&old), "messages_per_sec", base8, N8, 1);
	add(&old, "cycles", base8, N8, 1);
	add(fresh(&new), "messages_per_sec", base8, N8, 1);
	/* compare missing metric */
	EXPECT_EQ(CMP_MISSING, judge(&old, &new, "cycles", 0.05, &r, &n));
	EXPECT_EQ(0, n);
	EXPECT_CONTAINS(r.why, "in the new run set");
	EXPECT_TRUE(isnan(r.change));
	add(fresh(&old), "x", wide_old, N8, 1);
	add(fresh(&new), "x", wide_new, N8, 1);
	/* compare beyond threshold not significant undecided */
	EXPECT_EQ(CMP_UNDECIDED, judge(&old, &new, "x", -0.05, &r, &n));
	EXPECT_DBL(r.change, <, -0.049);
	EXPECT_DBL(fabs(r.p - 0.5053613053613054), <, 1e-12);
	EXPECT_CONTAINS(r.why, "undecided");
	EXPECT_CONTAINS(r.why, "neither shown beyond");
	/* undecided within the threshold: the words name the way it moved */
	add(fresh(&old), "x", wide_old, N8, 1);
	add(fresh(&new), "x", wide_old, N8, 0.97);
	/* compare undecided small fall names the bad threshold */
	EXPECT_EQ(CMP_UNDECIDED, judge(&old, &new, "x", -0.05, &r, &n));
	EXPECT_DBL(r.change, <, 0);
	EXPECT_DBL(r.change, >, -0.05);
	EXPECT_CONTAINS(r.why, "neither shown beyond -2.5%");
	add(fresh(&new), "x", wide_old, N8, 1.03);
	/* compare undecided small rise names the good threshold */
	EXPECT_EQ(CMP_UNDECIDED, judge(&old, &new, "x", -0.05, &r, &n));
	EXPECT_DBL(r.change, >, 0);
	EXPECT_CONTAINS(r.why, "neither shown beyond +2.5%");
	add(fresh(&new), "x", wide_old, N8, 1.03);
	/* compare undecided small rise of a cost names the bad threshold */
	EXPECT_EQ(CMP_UNDECIDED, judge(&old, &new, "x", 0.05, &r, &n));
	EXPECT_CONTAINS(r.why, "neither shown beyond +2.5%");
	add(fresh(&old), "x", base8, N8, 1);
	add(fresh(&new), "x", base8, N8, 0.98);
	/* compare significant within threshold */
	EXPECT_EQ(CMP_SAME, judge(&old, &new, "x", -0.05, &r, &n));
	EXPECT_DBL(r.p_adj, <, 0.001);
	EXPECT_CONTAINS(r.why, "within");

	/* the machine busier with other work in the new run (0.01 -> 0.30) */
	add(fresh(&old), "messages_per_sec", base8, N8, 1);
	add(&old, "foreign_cpu_share", base8, N8, 1e-8);
	add(&old, "task_clock_us_per_op", base8, N8, 1e-6);
	add(fresh(&new), "messages_per_sec", base8, N8, 0.8);
	add(&new, "foreign_cpu_share", base8, N8, 3e-7);
	add(&new, "task_clock_us_per_op", base8, N8, 1.2e-6);
	add(&old, "migrations_per_1k_ops", base8, N8, 1e-6);
	add(&new, "migrations_per_1k_ops", base8, N8, 1.9e-6);
	/* compare busier machine placement not judged */
	EXPECT_EQ(CMP_NOISY, judge(&old, &new, "migrations_per_1k_ops", 0.3, &r, &n));
	EXPECT_CONTAINS(r.why, "machine busy with other work");
	/* compare busier machine rate not judged */
	EXPECT_EQ(CMP_NOISY, judge(&old, &new, "messages_per_sec", -0.05, &r, &n));
	EXPECT_EQ(0, n);
	EXPECT_CONTAINS(r.why, "machine busy with other work: foreign CPU share 0.010 vs 0.300");
	/* compare busier machine per op still judged */
	EXPECT_EQ(CMP_REGRESSED, judge(&old, &new, "task_clock_us_per_op", 0.03, &r, &n));
}

TEST(compare_directions)
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
	/* compare rising metric directions */
	EXPECT_TRUE(up);
	EXPECT_TRUE(down);
	/* from a median of 0: no move is 0, any move is infinite */
	add(fresh(&old), "wakeups", zero, N8, 1);
	add(fresh(&new), "wakeups", zero, N8, 1);
	up = judge(&old, &new, "wakeups", 0.20, &r, NULL) == CMP_SAME && r.change == 0;
	add(fresh(&new), "wakeups", one, N8, 1);
	/* compare zero old median */
	EXPECT_TRUE(up);
	EXPECT_EQ(CMP_REGRESSED, judge(&old, &new, "wakeups", 0.20, &r, NULL));
	EXPECT_DBL(r.change, ==, HUGE_VAL);
}

TEST(compare_holm)
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
	/* compare bonferroni over present */
	EXPECT_EQ(2, n);
	EXPECT_EQ(CMP_REGRESSED, r[0].verdict);
	EXPECT_EQ(CMP_REGRESSED, r[1].verdict);
	EXPECT_EQ(CMP_NOISY, r[2].verdict);
	EXPECT_EQ(CMP_MISSING, r[3].verdict);
	EXPECT_DBL(fabs(r[0].p_adj - 3 * r[0].p), <, 1e-15);
	EXPECT_DBL(r[1].p_adj, ==, r[0].p_adj);
	EXPECT_TRUE(isnan(r[2].p_adj));
	EXPECT_DBL(r[3].share, ==, 0);
	EXPECT_DBL(fabs(r[2].share - 1.0 / 3), <, 1e-15);
}

TEST(compare_enough_runs)
{
	/* 2 / C(10, 5) = 0.0079, 2 / C(12, 6) = 0.0022 */
	/* cmp enough runs 5v5 not at 0.0025 */
	EXPECT_FALSE(cmp_enough_runs(5, 5, 0.0025));
	/* cmp enough runs 6v6 at 0.0025 */
	EXPECT_TRUE(cmp_enough_runs(6, 6, 0.0025));
	/* C(2000, 1000) overflows a double; its logarithm does not */
	/* cmp enough runs edges */
	EXPECT_TRUE(cmp_enough_runs(1000, 1000, 1e-300));
	EXPECT_FALSE(cmp_enough_runs(0, 8, 0.5));
	EXPECT_FALSE(cmp_enough_runs(1, 1, 0.99));
	EXPECT_TRUE(cmp_enough_runs(1, 1, 1.5));
	/* cmp verdict names */
	EXPECT_STREQ("same", cmp_verdict_name(CMP_SAME));
	EXPECT_STREQ("regressed", cmp_verdict_name(CMP_REGRESSED));
	EXPECT_STREQ("improved", cmp_verdict_name(CMP_IMPROVED));
	EXPECT_STREQ("noisy", cmp_verdict_name(CMP_NOISY));
	EXPECT_STREQ("too-few-runs", cmp_verdict_name(CMP_TOO_FEW));
	EXPECT_STREQ("missing", cmp_verdict_name(CMP_MISSING));
}

TEST(compare_roundtrip)
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
	/* compare roundtrip results open */
	ASSERT_NE(NULL, r);
	/* the driver's own lines come first, some of them the same keys */
	results_text(r, "meta.workload", "hackbench");
	results_text(r, "meta.kernel", "6.12.117 #1 SMP");
	results_metrics(r, "hackbench", &set);
	runset_write(&rs, r);
	/* runset roundtrip identity */
	EXPECT_EQ(0, results_commit(r, err, sizeof(err)));
	EXPECT_EQ(0, runset_load(path, &back, err, sizeof(err)));
	EXPECT_STREQ("hackbench", back.workload);
	EXPECT_STREQ("pipe-process", back.variant);
	EXPECT_STREQ(rs.options, back.options);
	EXPECT_EQ(4, back.nr_cpus);
	EXPECT_STREQ(rs.kconfig, back.kconfig);
	EXPECT_STREQ(rs.kernel, back.kernel);
	EXPECT_EQ(0, runset_compatible(&rs, &back, err, sizeof(err)));
	a = runset_find(&rs, "messages_per_sec");
	b = runset_find(&back, "messages_per_sec");
	for (i = 0; a && b && i < N8; i++)
		same &= a->v[i] == b->v[i];
	a = runset_find(&rs, "migrations_per_1k_ops");
	b = runset_find(&back, "migrations_per_1k_ops");
	for (i = 0; a && b && i < N8; i++)
		same &= a->v[i] == b->v[i];
	/* runset roundtrip values */
	EXPECT_TRUE(same);
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(N8, a->n);
	EXPECT_EQ(N8, b->n);
	/* runset roundtrip drops ragged metric */
	EXPECT_EQ(2, back.nr_metrics);
	EXPECT_EQ(NULL, runset_find(&back, "cycles"));
	EXPECT_EQ(NULL, runset_find(&back, "nan"));
	EXPECT_EQ(7, runset_find(&rs, "cycles")->n);
	runset_free(&rs);
	runset_free(&back);
	unlink(path);
}

static bool rejects(const char *name, const char *why)
{
	static struct runset rs;
	char path[512], err[512] = "";
	bool ok;

	snprintf(path, sizeof(path), "%s/runset/%s", unit_fixtures(), name);
	ok = runset_load(path, &rs, err, sizeof(err)) == -1 && has(err, path) &&
	     has(err, why) && rs.nr_metrics == 0 && !strchr(err, '\n');
	if (!ok)
		verdict_note("%s: %s\n", name, err);
	runset_free(&rs);
	return ok;
}

TEST(compare_load)
{
	static struct runset rs;
	char path[512], err[512] = "";

	snprintf(path, sizeof(path), "%s/runset/old", unit_fixtures());
	/* runset load fixture */
	EXPECT_EQ(0, runset_load(path, &rs, err, sizeof(err)));
	EXPECT_EQ(3, rs.nr_metrics);
	EXPECT_DBL(rs.m[0].n, ==, N8);
	EXPECT_EQ(4, rs.nr_cpus);
	EXPECT_STREQ("-g 4 --pipe", rs.options);
	runset_free(&rs);
	/* runset load rejects truncated */
	EXPECT_TRUE(rejects("truncated", "truncated: no runset.end"));
	/* runset load rejects end count */
	EXPECT_TRUE(rejects("end-mismatch", "truncated: runset.end says 4 runs lines, found 3"));
	/* runset load rejects version 1 */
	EXPECT_TRUE(rejects("version-1", "version 1, this program reads 2"));
	/* runset load rejects no version */
	EXPECT_TRUE(rejects("no-version", "no meta.runset_version"));
	/* runset load rejects ragged */
	EXPECT_TRUE(rejects("ragged", "migrations_per_1k_ops has 7 values"));
	EXPECT_TRUE(rejects("ragged", "messages_per_sec has 8"));
	/* runset load rejects non numeric */
	EXPECT_TRUE(rejects("non-numeric", "hackbench.runs.migrations_per_1k_ops: 'fast' is not a finite number"));
	/* runset load rejects no workload */
	EXPECT_TRUE(rejects("no-workload", "no meta.workload"));
	/* runset load rejects no runs */
	EXPECT_TRUE(rejects("no-runs", "no runs at all"));
	/* runset load rejects missing file */
	EXPECT_TRUE(rejects("no-such-file", "No such file"));
}

TEST(compare_compatible)
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
	/* runset compatible same */
	EXPECT_EQ(0, runset_compatible(&a, &b, err, sizeof(err)));
	snprintf(b.workload, sizeof(b.workload), "tcp_rr");
	snprintf(b.options, sizeof(b.options), "-g 8");
	/* runset compatible rejects workload */
	EXPECT_TRUE(runset_compatible(&a, &b, err, sizeof(err)));
	EXPECT_STREQ("another workload: hackbench vs tcp_rr", err);
	b = a;
	snprintf(b.variant, sizeof(b.variant), "socket-process");
	/* runset compatible rejects variant */
	EXPECT_TRUE(runset_compatible(&a, &b, err, sizeof(err)));
	EXPECT_STREQ("another variant: pipe-process vs socket-process", err);
	b = a;
	snprintf(b.options, sizeof(b.options), "-g 8");
	/* runset compatible rejects options */
	EXPECT_TRUE(runset_compatible(&a, &b, err, sizeof(err)));
	EXPECT_STREQ("other options: '-g 4' vs '-g 8'", err);
	b = a;
	b.nr_cpus = 8;
	/* runset compatible rejects cpus */
	EXPECT_TRUE(runset_compatible(&a, &b, err, sizeof(err)));
	EXPECT_STREQ("another nr_cpus: 4 vs 8", err);
	b = a;
	snprintf(b.kconfig, sizeof(b.kconfig), "unknown");
	/* runset compatible rejects kconfig */
	EXPECT_TRUE(runset_compatible(&a, &b, err, sizeof(err)));
	EXPECT_STREQ("another kconfig: 0123456789abcdef vs unknown", err);
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

TEST(compare_kconfig)
{
	char a[32], b[32], c[32], d[32], run[80];
	size_t len;

	/* order, drivers and options off the list change nothing */
	digest("CONFIG_HZ=250\nCONFIG_SMP=y\n# CONFIG_NUMA is not set\nCONFIG_E1000=y\n", a);
	digest("CONFIG_E1000=m\nCONFIG_SMP=y\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n", b);
	digest("CONFIG_HZ=1000\nCONFIG_SMP=y\n", c);
	/* sysinfo kconfig digest scheduler options only */
	EXPECT_STREQ(b, a);
	EXPECT_TRUE(strcmp(a, c));
	EXPECT_EQ(16, strlen(a));
	EXPECT_EQ(0, digest("CONFIG_E1000=y\nCONFIG_HZ_1000=y\n", d));
	EXPECT_STREQ("untouched", d);
	/*
	 * The digest itself, worked out apart from the code (FNV-1a 64 over
	 * "CONFIG_HZ=250\nCONFIG_SMP=y\n", the chosen lines sorted): a run
	 * set's kconfig must not change with the suite, or every stored
	 * baseline reads as another kernel.
	 */
	/* sysinfo kconfig digest value */
	EXPECT_STREQ("567016f544426ae9", a);
	sysinfo_kconfig(run, sizeof(run));
	len = strspn(run, "0123456789abcdef");
	/* runset kconfig running kernel */
	EXPECT_TRUE(!strcmp(run, "unknown") || (strlen(run) == 16 && len == 16))
		TH_LOG("the digest: %s", run);
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
TEST(compare_paired)
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
	/* compare paired drift cancels */
	EXPECT_EQ(CMP_REGRESSED, unit_judge(&old, &new, "messages_per_sec", -0.03, &pair, &r));
	EXPECT_DBL(fabs(r.p - 2.0 / 4096), <, 1e-12);
	EXPECT_DBL(r.change, <, -0.04);
	EXPECT_DBL(r.cv_block, <, 0.01);
	EXPECT_DBL(r.rcv_old, >, 0.1);
	/* compare unpaired drifting */
	EXPECT_EQ(CMP_DRIFTING, unit_judge(&old, &new, "messages_per_sec", -0.03, &seq, &r));
	EXPECT_DBL(r.rho_old, >, 0.9);
	EXPECT_CONTAINS(r.why, "drifting: cannot judge");
	for (k = 0; k < 12; k++)
		b[k] = a[k] * noise[11 - k];
	add(fresh(&new), "messages_per_sec", b, 12, 1);
	/* compare paired same proven */
	EXPECT_EQ(CMP_SAME, unit_judge(&old, &new, "messages_per_sec", -0.03, &pair, &r));
	EXPECT_DBL(r.p_same, <, CMP_ALPHA);
	EXPECT_CONTAINS(r.why, "within +/-3%");
	/* a count near zero: wild ratios, but every B beyond every A: judged */
	{
		static const double near_zero[12] = {
			0.0003, 0.0009, 0.0001, 0.0006, 0.0002, 0.0012, 0.0004, 0.0001,
			0.0008, 0.0003, 0.0005, 0.0002,
		};

		add(fresh(&old), "sis_scanned_per_wakeup", near_zero, 12, 1);
		add(fresh(&new), "sis_scanned_per_wakeup", noise, 12, 4);
		/* compare paired noisy ratios but apart */
		EXPECT_EQ(CMP_REGRESSED, unit_judge(&old, &new, "sis_scanned_per_wakeup", 0.5, &pair, &r));
		EXPECT_DBL(r.cv_block, >, CMP_MAX_CV);
		EXPECT_TRUE(r.apart);
	}
	/* the same data, 5 looks planned: judged at 0.01, too few blocks of 3 */
	add(fresh(&old), "messages_per_sec", a, 3, 1);
	add(fresh(&new), "messages_per_sec", a, 3, 0.8);
	pair.looks = 5;
	/* compare paired too few blocks */
	EXPECT_EQ(CMP_TOO_FEW, unit_judge(&old, &new, "messages_per_sec", -0.03, &pair, &r));
	EXPECT_DBL(r.level, ==, CMP_ALPHA / 5);
	EXPECT_CONTAINS(r.why, "p 0.25 at best");
}

/* What a gate plans to catch by default: the throughput's M, however placed */
TEST(compare_rules_catch)
{
	struct cmp_rule rules[3] = {
		{ .metric = "migrations_per_1k_ops", .change = 0.15 },
		{ .metric = "messages_per_sec", .change = -0.02, .primary = true },
		{ .metric = "ctx_switches_per_op", .change = 0.05 },
	};

	EXPECT_DBL(cmp_rules_catch(rules, 3), ==, 0.02);
	rules[1].primary = false;	/* none primary: the first rule's */
	EXPECT_DBL(cmp_rules_catch(rules, 3), ==, 0.15);
	EXPECT_DBL(cmp_rules_catch(rules, 0), ==, 0);
}

/*
 * Interleaved boots: each boot's run set is reduced to its mean, and the
 * boots are compared with Welch's t-test on the logarithms of those
 * means (Welch itself is checked against scipy in unit_stats).
 */
TEST(compare_boots)
{
	static const double spread[5] = { 0.98, 0.99, 1.0, 1.01, 1.03 };
	static const double base_a[3] = { 100, 104, 98 }, base_b[3] = { 90, 93, 88 };
	static struct runset a[3], b[3], old, new;
	struct cmp_params boots = { .alpha = CMP_ALPHA, .max_cv = CMP_MAX_CV, .looks = 1,
				    .boots = true };
	/*
	 * Welch's two-sided p on ln(100, 104, 98) against ln(90, 93, 88), the
	 * boots' figures on the ratio scale (the same p for both sides'
	 * figures times 1.002), worked out apart from the code
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
	/*
	 * each boot's figure is its mean (1.002 times the base: the spread's
	 * median is 1 but its mean 1.002, so a median would give the base)
	 */
	EXPECT_EQ(0, runset_of_boots(a, 3, &old));
	EXPECT_EQ(0, runset_of_boots(b, 3, &new));
	m = runset_find(&old, "messages_per_sec");
	ASSERT_NE(NULL, m);
	EXPECT_EQ(3, m->n);
	EXPECT_DBL(fabs(m->v[0] - 100.2), <, 1e-9);
	EXPECT_DBL(fabs(m->v[1] - 104.208), <, 1e-9);
	EXPECT_DBL(fabs(m->v[2] - 98.196), <, 1e-9);
	EXPECT_STREQ("hackbench", old.workload);
	/* compare boots welch on means */
	EXPECT_EQ(CMP_REGRESSED, unit_judge(&old, &new, "messages_per_sec", -0.03, &boots, &r));
	EXPECT_DBL(fabs(r.p - p), <, 1e-12);
	EXPECT_DBL(p, <, 0.05);
	EXPECT_EQ(3, r.old.n);
	/* compare boots same kernel */
	EXPECT_DBL(unit_judge(&old, &old, "messages_per_sec", -0.03, &boots, &r), !=, CMP_REGRESSED);
	EXPECT_DBL(r.p, ==, 1);
	runset_free(&old);
	runset_free(&new);
	runset_of_boots(a, 1, &old);
	runset_of_boots(b, 1, &new);
	/* compare boots one a side */
	EXPECT_EQ(CMP_TOO_FEW, unit_judge(&old, &new, "messages_per_sec", -0.03, &boots, &r));
	EXPECT_CONTAINS(r.why, "too few boots: 1 vs 1");
	for (k = 0; k < 3; k++) {
		runset_free(&a[k]);
		runset_free(&b[k]);
	}
}

/* The udp_rr A/A false alarm: a baseline climbing 14.2 -> 17.0 us. */
TEST(compare_drift)
{
	static const double climb[N8] = { 14.2, 14.5, 14.6, 15.1, 15.8, 16.2, 16.6, 17.0 };
	static const double flat[N8] = { 15.6, 15.7, 15.5, 15.8, 15.6, 15.4, 15.7, 15.5 };
	static struct runset old, new;
	struct cmp_result r;

	add(fresh(&old), "task_clock_us_per_op", climb, N8, 1);
	add(fresh(&new), "task_clock_us_per_op", flat, N8, 1);
	/* compare drifting baseline */
	EXPECT_EQ(CMP_DRIFTING, judge(&old, &new, "task_clock_us_per_op", 0.05, &r, NULL));
	EXPECT_DBL(r.rho_old, ==, 1);
	EXPECT_CONTAINS(r.why, "tau old +1.00");
	/* cmp looks and names */
	EXPECT_EQ(4, cmp_looks(8, 24));
	EXPECT_EQ(12, cmp_next_look(8));
	EXPECT_EQ(18, cmp_next_look(12));
	EXPECT_EQ(1, cmp_looks(8, 8));
	EXPECT_EQ(2, cmp_looks(1, 2));
	EXPECT_TRUE(cmp_decided(CMP_SAME));
	EXPECT_EQ(0, cmp_decided(CMP_UNDECIDED));
	EXPECT_STREQ("undecided", cmp_verdict_name(CMP_UNDECIDED));
	EXPECT_STREQ("drifting", cmp_verdict_name(CMP_DRIFTING));
	/* Pocock-type spending: 45 % by a third, all at the end or the last look */
	/* cmp spent by pocock */
	EXPECT_DBL(fabs(cmp_spent_by(0.01, 1.0 / 3, false) - 0.01 * log(1 + (M_E - 1) / 3)), <, 1e-15);
	EXPECT_DBL(fabs(cmp_spent_by(0.01, 1.0 / 3, false) / 0.01 - 0.4528), <, 1e-4);
	EXPECT_EQ(0, cmp_spent_by(0.05, 0, false));
	EXPECT_DBL(cmp_spent_by(0.05, 1, false), ==, 0.05);
	EXPECT_DBL(cmp_spent_by(0.05, 0.5, true), ==, 0.05);
	EXPECT_DBL(cmp_spent_by(0.05, 0.5, false), <, cmp_spent_by(0.05, 0.6, false));
}

