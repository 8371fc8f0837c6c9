// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the suite's parsers over fixture files: /proc/schedstat
 * v15/v16/v17 (and 32-bit wrap), /proc/<pid>/sched with and without the
 * schedstat lines, /proc/<pid>/schedstat, the bounds file, the results
 * file and the bounded file reader.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "fileio.h"
#include "histo.h"
#include "metrics.h"
#include "results.h"
#include "schedstat.h"
#include "stats.h"
#include "tracesum.h"
#include "verdict.h"
#include "unit.h"

static int parse_fixture(struct __test_metadata *_metadata, const char *name,
			 struct schedstat *ss, char *err)
{
	char *text = unit_fixture(name);
	int ret = schedstat_parse(text, ss, err, 128);

	free(text);
	return ret;
}

TEST(schedstat_versions)
{
	struct schedstat v15, v16, v17;
	char err[128];

	ASSERT_EQ(0, parse_fixture(_metadata, "schedstat-v15", &v15, err)) TH_LOG("%s", err);
	EXPECT_EQ(15, v15.version);
	EXPECT_EQ(2, v15.nr_cpus);
	EXPECT_EQ(2, v15.nr_domains);
	/* v15 lists the idle type first, v16 the busy type first */
	EXPECT_EQ(100, v15.domains[0].lb_count[LB_IDLE]);
	EXPECT_EQ(200, v15.domains[0].lb_count[LB_BUSY]);
	EXPECT_EQ(304, v15.domains[0].lb_gained[LB_NEWLY_IDLE]);
	ASSERT_EQ(0, parse_fixture(_metadata, "schedstat-v16", &v16, err)) TH_LOG("%s", err);
	EXPECT_EQ(16, v16.version);
	EXPECT_EQ(100, v16.domains[1].lb_count[LB_BUSY]);
	EXPECT_EQ(200, v16.domains[1].lb_count[LB_IDLE]);
	EXPECT_EQ(102, v16.domains[1].lb_failed[LB_BUSY]);
	EXPECT_EQ(910, v16.domains[1].ttwu_wake_remote);
	EXPECT_EQ(911, v16.domains[1].ttwu_move_affine);
	EXPECT_EQ(903, v16.domains[1].alb_pushed);
	/* a CPU's fields */
	EXPECT_EQ(1, v16.cpus[1].cpu);
	EXPECT_EQ(2000, v16.cpus[1].sched_count);
	EXPECT_EQ(600, v16.cpus[1].ttwu_count);
	EXPECT_EQ(200, v16.cpus[1].ttwu_local);
	EXPECT_EQ(22345678, v16.cpus[1].run_delay);
	EXPECT_EQ(5000, v16.cpus[1].pcount);
	/* v17: name column, lb_imbalance split in four, so gained moves to 7 */
	ASSERT_EQ(0, parse_fixture(_metadata, "schedstat-v17", &v17, err)) TH_LOG("%s", err);
	EXPECT_EQ(17, v17.version);
	EXPECT_EQ(2, v17.nr_domains);
	EXPECT_EQ(107, v17.domains[0].lb_gained[LB_BUSY]);
	EXPECT_EQ(310, v17.domains[0].lb_nobusyg[LB_NEWLY_IDLE]);
	EXPECT_EQ(910, v17.domains[0].ttwu_wake_remote);
	schedstat_free(&v15);
	schedstat_free(&v16);
	schedstat_free(&v17);
}

TEST(schedstat_errors)
{
	struct schedstat ss;
	char err[128] = "";

	EXPECT_NE(0, parse_fixture(_metadata, "schedstat-v14", &ss, err));
	EXPECT_CONTAINS(err, "unsupported schedstat version 14");
	EXPECT_NE(0, parse_fixture(_metadata, "schedstat-v16-truncated", &ss, err));
	EXPECT_CONTAINS(err, "malformed 'domain0'");
	EXPECT_NE(0, schedstat_parse("cpu0 1 2 3\n", &ss, err, sizeof(err)));
	EXPECT_CONTAINS(err, "version");
	/* found by tests/fuzz: a blank first line, then a domain, crashed */
	EXPECT_NE(0, parse_fixture(_metadata, "fuzz/schedstat/crash-blank-first-line", &ss, err));
	EXPECT_CONTAINS(err, "line 2: no 'version N' header");
	/* the message printable */
	EXPECT_NE(0, parse_fixture(_metadata, "fuzz/schedstat/error-escape", &ss, err));
	EXPECT_CONTAINS(err, "malformed 'cpu0?[2J' line");
}

TEST(schedstat_wrap)
{
	struct schedstat a, b, v15;
	struct schedstat_delta d;
	char err[128];

	ASSERT_EQ(0, parse_fixture(_metadata, "schedstat-v16-wrap-before", &b, err)) TH_LOG("%s", err);
	ASSERT_EQ(0, parse_fixture(_metadata, "schedstat-v16-wrap-after", &a, err)) TH_LOG("%s", err);
	EXPECT_EQ(0, schedstat_diff(&b, &a, &d));
	/* cpu0 wraps: 4294967000 -> 704 is +1000, 4294967290 -> 10 is +16 */
	EXPECT_EQ(1010, d.sched_count);
	EXPECT_EQ(26, d.ttwu_count);
	EXPECT_EQ(30, d.ttwu_local);
	/* the 64-bit fields */
	EXPECT_EQ(5000, d.run_delay);
	EXPECT_EQ(30, d.pcount);
	EXPECT_EQ(400, d.rq_cpu_time);
	/* the domains' fields */
	EXPECT_EQ(6000, d.lb_count);
	EXPECT_EQ(2000, d.ttwu_wake_remote);
	EXPECT_EQ(2000, d.ttwu_move_affine);
	EXPECT_EQ(2000, d.alb_pushed);
	/* another version or topology refused */
	ASSERT_EQ(0, parse_fixture(_metadata, "schedstat-v15", &v15, err)) TH_LOG("%s", err);
	EXPECT_NE(0, schedstat_diff(&v15, &a, &d));
	b.cpus[1].cpu = 7;
	EXPECT_NE(0, schedstat_diff(&b, &a, &d));
	schedstat_free(&a);
	schedstat_free(&b);
	schedstat_free(&v15);
}

TEST(task_sched)
{
	struct task_sched t, sum = { 0 };
	char *with = unit_fixture("proc-sched-schedstats");
	char *without = unit_fixture("proc-sched-noschedstats");
	char *ps = unit_fixture("proc-schedstat");

	/* with the schedstat lines */
	EXPECT_EQ(0, task_sched_parse(with, &t));
	EXPECT_TRUE(t.has_schedstats);
	EXPECT_EQ(37, t.nr_migrations);
	EXPECT_EQ(4000, t.nr_voluntary_switches);
	EXPECT_EQ(321, t.nr_involuntary_switches);
	EXPECT_EQ(4000, t.nr_wakeups);
	EXPECT_EQ(30, t.nr_wakeups_migrate);
	EXPECT_EQ(1500, t.nr_wakeups_remote);
	EXPECT_EQ(900, t.nr_wakeups_affine_attempts);
	/* wait_sum is printed as ms with 6 decimals: 123.456789 ms */
	EXPECT_EQ(123456789ULL, t.wait_sum_ns);
	EXPECT_EQ(4321, t.wait_count);
	/* /proc/<pid>/schedstat */
	EXPECT_EQ(0, task_schedstat_parse(ps, &t));
	EXPECT_TRUE(t.has_run_delay);
	EXPECT_EQ(1234567890, t.exec_ns);
	EXPECT_EQ(98765432, t.run_delay_ns);
	EXPECT_EQ(4321, t.pcount);
	/* faults come from getrusage(), not a file: added as the rest */
	t.has_faults = true;
	t.page_faults = 520;
	task_sched_add(&sum, &t);
	task_sched_add(&sum, &t);
	EXPECT_EQ(8000, sum.nr_wakeups);
	EXPECT_EQ(2 * 98765432ULL, sum.run_delay_ns);
	EXPECT_EQ(2 * 1234567890ULL, sum.exec_ns);
	EXPECT_EQ(1040, sum.page_faults);
	EXPECT_TRUE(sum.has_faults);
	/* without the schedstat lines */
	EXPECT_EQ(0, task_sched_parse(without, &t));
	EXPECT_FALSE(t.has_schedstats);
	EXPECT_EQ(3, t.nr_migrations);
	EXPECT_EQ(5, t.nr_voluntary_switches);
	EXPECT_EQ(2, t.nr_involuntary_switches);
	EXPECT_EQ(0, t.nr_wakeups);
	/* other files refused */
	EXPECT_NE(0, task_sched_parse("version 16\ncpu0 1 2\n", &t));
	EXPECT_NE(0, task_schedstat_parse("garbage", &t));
	free(with);
	free(without);
	free(ps);
}

static int load(const char *name, struct bounds *bs, char *err)
{
	char path[4096 + 256];

	snprintf(path, sizeof(path), "%s/bounds/%s", unit_fixtures(), name);
	return bounds_load(path, bs, err, 256);
}

/* bounds.icount over bounds: a line replaces its twin, or is added */
static void test_bounds_override(struct __test_metadata *_metadata, struct bounds *bs)
{
	char err[256] = "", path[4096 + 256];

	snprintf(path, sizeof(path), "%s/bounds/over", unit_fixtures());
	ASSERT_EQ(0, load("good", bs, err)) TH_LOG("%s", err);
	EXPECT_EQ(0, bounds_override(path, bs, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(6, bs->nr);
	EXPECT_NEAR(5, bs->b[1].limit, 0);
	EXPECT_EQ(BOUND_AT_MOST, bs->b[1].op);
	EXPECT_NEAR(0, bs->b[2].limit, 0);
	EXPECT_EQ(BOUND_CHANGE, bs->b[5].kind);
	EXPECT_NEAR(-0.02, bs->b[5].limit, 0);
	/* a bad file changes nothing */
	snprintf(path, sizeof(path), "%s/bounds/bad-op", unit_fixtures());
	ASSERT_EQ(0, load("good", bs, err)) TH_LOG("%s", err);
	EXPECT_NE(0, bounds_override(path, bs, err, sizeof(err)));
	EXPECT_CONTAINS(err, ":1: operator");
	EXPECT_EQ(5, bs->nr);
	EXPECT_NEAR(20, bs->b[1].limit, 0);
}

/* @name's bounds refused with @words in the message */
#define EXPECT_REFUSED(name, words) do {				\
	EXPECT_NE(0, load(name, &bs, err)) TH_LOG("%s loaded", name);	\
	EXPECT_CONTAINS(err, words);					\
} while (0)

TEST(bounds)
{
	static const char *const variants[] = { "pipe-process", "socket-process", NULL };
	static struct bounds bs;
	struct metric_set known = { 0 };
	char err[256] = "", path[4096 + 256];

	ASSERT_EQ(0, load("good", &bs, err)) TH_LOG("%s", err);
	EXPECT_EQ(5, bs.nr);
	EXPECT_EQ(3, bounds_count(&bs, "hackbench", "pipe-process"));
	EXPECT_EQ(BOUND_AT_LEAST, bs.b[0].op);
	EXPECT_NEAR(1000, bs.b[0].limit, 0);
	EXPECT_NEAR(1000, bs.b[3].limit, 0);
	EXPECT_STREQ("otherwl", bs.b[3].workload);
	metric_add(&known, "messages_per_sec", "", 0);
	metric_add(&known, "migrations_per_1k_ops", "", 0);
	/* the socket bound replaces the generic <=, the generic >= stays */
	EXPECT_EQ(3, bounds_count(&bs, "hackbench", "socket-process"));
	EXPECT_STREQ("socket-process", bs.b[4].variant);
	EXPECT_NEAR(200, bs.b[4].limit, 0);
	EXPECT_STREQ("migrations_per_1k_ops", bs.b[4].metric);
	EXPECT_EQ(0, bounds_check_names(&bs, "hackbench", variants, &known, "good", err,
					sizeof(err))) TH_LOG("%s", err);
	/* names the program does not know */
	ASSERT_EQ(0, load("unknown-metric", &bs, err)) TH_LOG("%s", err);
	EXPECT_NE(0, bounds_check_names(&bs, "hackbench", variants, &known, "f", err, sizeof(err)));
	EXPECT_CONTAINS(err, "no metric 'no_such_metric'");
	ASSERT_EQ(0, load("unknown-variant", &bs, err)) TH_LOG("%s", err);
	EXPECT_NE(0, bounds_check_names(&bs, "hackbench", variants, &known, "f", err, sizeof(err)));
	EXPECT_CONTAINS(err, "no variant 'pipes-process'");
	/* bad files refused, the line and what is wrong named */
	EXPECT_REFUSED("bad-op", ":1: operator '=>'");
	EXPECT_REFUSED("bad-number", "'lots' is not a number");
	EXPECT_REFUSED("duplicate", ":2:");
	EXPECT_CONTAINS(err, "twice");
	EXPECT_REFUSED("no-dot", "is not <workload>[@<variant>].<metric>");
	EXPECT_REFUSED("extra-field", "expected");
	EXPECT_REFUSED("no-such-file", "No such file");
	/* lines longer than any buffer are one line each */
	snprintf(path, sizeof(path), "%s/fuzz/bounds/good-long-comment", unit_fixtures());
	EXPECT_EQ(0, bounds_load(path, &bs, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(2, bs.nr);
	EXPECT_EQ(3, bs.b[1].line);
	/* a message quotes the file: its carriage return is shown as '?' */
	snprintf(path, sizeof(path), "%s/fuzz/bounds/bad-crlf-no-dot", unit_fixtures());
	EXPECT_NE(0, bounds_load(path, &bs, err, sizeof(err)));
	EXPECT_CONTAINS(err, ":1: 'hackbench_messages_per_sec >= 1?' is not");
	EXPECT_NE(0, bounds_load(unit_fixtures(), &bs, err, sizeof(err)));
	EXPECT_CONTAINS(err, "Is a directory");
	test_bounds_override(_metadata, &bs);
}

struct seen {
	int n;
	double migrations;
	char kernel[64];
};

static void collect(const char *key, const char *value, void *ctx)
{
	struct seen *s = ctx;

	s->n++;
	if (!strcmp(key, "hackbench.migrations_per_1k_ops"))
		s->migrations = strtod(value, NULL);
	if (!strcmp(key, "meta.kernel"))
		snprintf(s->kernel, sizeof(s->kernel), "%s", value);
}

TEST(results_roundtrip)
{
	static struct runset rs;
	char path[4096 + 256] = "/tmp/sched_perf_unit.XXXXXX";
	struct metric_set set = { 0 };
	struct seen seen = { 0 };
	struct results *r;
	char err[256];
	int fd = mkstemp(path);
	FILE *f;

	ASSERT_LE(0, fd);
	close(fd);
	metric_add(&set, "migrations_per_1k_ops", "", 0.123456789);
	metric_missing(&set, "cycles", "not supported");
	r = results_open(path, err, sizeof(err));
	ASSERT_NE(NULL, r) TH_LOG("%s", err);
	results_text(r, "meta.kernel", "6.12.117 #1 SMP");
	results_metrics(r, "hackbench", &set);
	EXPECT_EQ(0, results_commit(r, err, sizeof(err))) TH_LOG("%s", err);
	/* read back as written */
	EXPECT_EQ(2, results_read(path, collect, &seen, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(2, seen.n);
	EXPECT_NEAR(0.123456789, seen.migrations, 0);
	EXPECT_STREQ("6.12.117 #1 SMP", seen.kernel);
	f = fopen(path, "a");
	ASSERT_NE(NULL, f);
	fprintf(f, "broken line\n");
	fclose(f);
	EXPECT_GT(0, results_read(path, collect, &seen, err, sizeof(err)));
	EXPECT_CONTAINS(err, "not a 'key: value' line");
	unlink(path);
	EXPECT_GT(0, results_read(unit_fixtures(), collect, &seen, err, sizeof(err)));
	EXPECT_CONTAINS(err, "Is a directory");
	/* found by tests/fuzz: its stat line read back as another workload's */
	snprintf(path, sizeof(path), "%s/fuzz/runset/bad-runs-in-name", unit_fixtures());
	EXPECT_NE(0, runset_load(path, &rs, err, sizeof(err)));
	EXPECT_CONTAINS(err, "messages.runs.per_sec: not <workload>.runs.<metric>");
	runset_free(&rs);
}

TEST(fileio)
{
	char path[] = "/tmp/sched_perf_unit.XXXXXX", err[256], line[4], small[8];
	int fd = mkstemp(path);
	char *text, *pos, *a, *b, *c;
	size_t len;

	ASSERT_LE(0, fd);
	ASSERT_EQ(7, write(fd, "ab\n\ncd", 7));
	close(fd);
	/* one byte beyond the limit tells a file of 7 bytes from a longer one */
	text = fileio_read_kernel(path, 7, &len);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(7, len);
	EXPECT_STREQ("cd", text + 4);
	free(fileio_read_kernel(path, 6, &len));
	EXPECT_EQ(EFBIG, errno);
	/* its lines */
	pos = text;
	a = fileio_next_line(&pos, text + len);
	b = fileio_next_line(&pos, text + len);
	c = fileio_next_line(&pos, text + len);
	ASSERT_NE(NULL, a);
	EXPECT_STREQ("ab", a);
	ASSERT_NE(NULL, b);
	EXPECT_STREQ("", b);
	ASSERT_NE(NULL, c);
	EXPECT_STREQ("cd", c);
	EXPECT_EQ(NULL, fileio_next_line(&pos, text + len));
	free(text);
	EXPECT_EQ(0, fileio_first_line(path, line, sizeof(line)));
	EXPECT_STREQ("ab", line);
	/* into the caller's buffer: 7 bytes and the NUL fit in 8, not in 7 */
	EXPECT_EQ(0, fileio_read_into(path, small, 8, &len));
	EXPECT_EQ(7, len);
	EXPECT_STREQ("cd", small + 4);
	EXPECT_NE(0, fileio_read_into(path, small, 7, &len));
	EXPECT_EQ(EFBIG, errno);
	unlink(path);
	/* a device refused */
	EXPECT_EQ(NULL, fileio_read_user("/dev/null", &len, err, sizeof(err)));
	EXPECT_STREQ("/dev/null: not a regular file but a character device", err);
}

TEST(histogram)
{
	static struct histo a, b;
	uint64_t v;

	/* 1..10000 ns once each: quantiles within one bucket (1/16) */
	for (v = 1; v <= 10000; v++)
		histo_record(v % 2 ? &a : &b, v);
	histo_merge(&a, &b);
	EXPECT_EQ(10000, a.count);
	EXPECT_NEAR(5000 * 1.005, histo_quantile(&a, 0.50), 5000 * 0.065);
	EXPECT_NEAR(9900 * 1.005, histo_quantile(&a, 0.99), 9900 * 0.065);
	EXPECT_NEAR(9990 * 1.005, histo_quantile(&a, 0.999), 9990 * 0.065);
	/* the edges: one value, beyond the range (the last bucket), empty */
	memset(&b, 0, sizeof(b));
	histo_record(&b, 7);
	histo_record(&b, 1ULL << 50);
	EXPECT_NEAR(7.5, histo_quantile(&b, 0.5), 0);
	EXPECT_DBL(histo_quantile(&b, 1), >, 1e12);
	EXPECT_NEAR(0, histo_quantile(&(struct histo){ 0 }, 0.5), 0);
}
