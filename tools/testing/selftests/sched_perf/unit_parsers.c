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

static int parse_fixture(const char *name, struct schedstat *ss, char *err)
{
	char *text = unit_fixture(name);
	int ret = schedstat_parse(text, ss, err, 128);

	free(text);
	return ret;
}

UNIT_TEST(schedstat_versions)
{
	struct schedstat v15, v16, v17;
	char err[128];

	EXPECT(!parse_fixture("schedstat-v15", &v15, err) && v15.version == 15 &&
	       v15.nr_cpus == 2 && v15.nr_domains == 2, "schedstat_v15_parses");
	/* v15 lists the idle type first, v16 the busy type first */
	EXPECT(v15.domains[0].lb_count[LB_IDLE] == 100 &&
	       v15.domains[0].lb_count[LB_BUSY] == 200 &&
	       v15.domains[0].lb_gained[LB_NEWLY_IDLE] == 304, "schedstat_v15_idle_order");
	EXPECT(!parse_fixture("schedstat-v16", &v16, err) && v16.version == 16 &&
	       v16.domains[1].lb_count[LB_BUSY] == 100 &&
	       v16.domains[1].lb_count[LB_IDLE] == 200 &&
	       v16.domains[1].lb_failed[LB_BUSY] == 102 &&
	       v16.domains[1].ttwu_wake_remote == 910 &&
	       v16.domains[1].ttwu_move_affine == 911 &&
	       v16.domains[1].alb_pushed == 903, "schedstat_v16_fields");
	EXPECT(v16.cpus[1].cpu == 1 && v16.cpus[1].sched_count == 2000 &&
	       v16.cpus[1].ttwu_count == 600 && v16.cpus[1].ttwu_local == 200 &&
	       v16.cpus[1].run_delay == 22345678 && v16.cpus[1].pcount == 5000,
	       "schedstat_cpu_fields");
	/* v17: name column, lb_imbalance split in four, so gained moves to 7 */
	EXPECT(!parse_fixture("schedstat-v17", &v17, err) && v17.version == 17 &&
	       v17.nr_domains == 2 && v17.domains[0].lb_gained[LB_BUSY] == 107 &&
	       v17.domains[0].lb_nobusyg[LB_NEWLY_IDLE] == 310 &&
	       v17.domains[0].ttwu_wake_remote == 910, "schedstat_v17_fields");
	schedstat_free(&v15);
	schedstat_free(&v16);
	schedstat_free(&v17);
}

UNIT_TEST(schedstat_errors)
{
	struct schedstat ss;
	char err[128] = "";

	EXPECT(parse_fixture("schedstat-v14", &ss, err) &&
	       strstr(err, "unsupported schedstat version 14"), "schedstat_rejects_v14");
	EXPECT(parse_fixture("schedstat-v16-truncated", &ss, err) &&
	       strstr(err, "malformed 'domain0'"), "schedstat_rejects_short_domain");
	EXPECT(schedstat_parse("cpu0 1 2 3\n", &ss, err, sizeof(err)) &&
	       strstr(err, "version"), "schedstat_needs_version");
	/* found by tests/fuzz: a blank first line, then a domain, crashed */
	EXPECT(parse_fixture("fuzz/schedstat/crash-blank-first-line", &ss, err) &&
	       strstr(err, "line 2: no 'version N' header"), "schedstat_blank_first_line");
	EXPECT(parse_fixture("fuzz/schedstat/error-escape", &ss, err) &&
	       strstr(err, "malformed 'cpu0?[2J' line"), "schedstat_error_printable");
}

UNIT_TEST(schedstat_wrap)
{
	struct schedstat a, b, v16;
	struct schedstat_delta d;
	char err[128];

	ASSERT(!parse_fixture("schedstat-v16-wrap-before", &b, err), "schedstat_wrap_fixture_schedstat_v16_wrap_before_parses");
	ASSERT(!parse_fixture("schedstat-v16-wrap-after", &a, err), "schedstat_wrap_fixture_schedstat_v16_wrap_after_parses");
	EXPECT(!schedstat_diff(&b, &a, &d), "schedstat_diff_same_topology");
	/* cpu0 wraps: 4294967000 -> 704 is +1000, 4294967290 -> 10 is +16 */
	EXPECT(d.sched_count == 1010 && d.ttwu_count == 26 && d.ttwu_local == 30,
	       "schedstat_diff_wraps_32bit");
	EXPECT(d.run_delay == 5000 && d.pcount == 30 && d.rq_cpu_time == 400,
	       "schedstat_diff_64bit_fields");
	EXPECT(d.lb_count == 6000 && d.ttwu_wake_remote == 2000 &&
	       d.ttwu_move_affine == 2000 && d.alb_pushed == 2000,
	       "schedstat_diff_domain_fields");
	ASSERT(!parse_fixture("schedstat-v15", &v16, err), "schedstat_wrap_fixture_schedstat_v15_parses");
	EXPECT(schedstat_diff(&v16, &a, &d) != 0, "schedstat_diff_rejects_version_change");
	b.cpus[1].cpu = 7;
	EXPECT(schedstat_diff(&b, &a, &d) != 0, "schedstat_diff_rejects_topology_change");
	schedstat_free(&a);
	schedstat_free(&b);
	schedstat_free(&v16);
}

UNIT_TEST(task_sched)
{
	struct task_sched t, sum = { 0 };
	char *with = unit_fixture("proc-sched-schedstats");
	char *without = unit_fixture("proc-sched-noschedstats");
	char *ps = unit_fixture("proc-schedstat");

	EXPECT(!task_sched_parse(with, &t) && t.has_schedstats &&
	       t.nr_migrations == 37 && t.nr_voluntary_switches == 4000 &&
	       t.nr_involuntary_switches == 321 && t.nr_wakeups == 4000 &&
	       t.nr_wakeups_migrate == 30 && t.nr_wakeups_remote == 1500 &&
	       t.nr_wakeups_affine_attempts == 900, "task_sched_with_schedstats");
	/* wait_sum is printed as ms with 6 decimals: 123.456789 ms */
	EXPECT(t.wait_sum_ns == 123456789ULL && t.wait_count == 4321,
	       "task_sched_wait_sum_ns");
	EXPECT(!task_schedstat_parse(ps, &t) && t.has_run_delay && t.exec_ns == 1234567890 &&
	       t.run_delay_ns == 98765432 && t.pcount == 4321, "task_schedstat_fields");
	/* faults come from getrusage(), not a file: added as the rest */
	t.has_faults = true;
	t.page_faults = 520;
	task_sched_add(&sum, &t);
	task_sched_add(&sum, &t);
	EXPECT(sum.nr_wakeups == 8000 && sum.run_delay_ns == 2 * 98765432ULL &&
	       sum.exec_ns == 2 * 1234567890ULL && sum.page_faults == 1040 && sum.has_faults,
	       "task_sched_sums");
	EXPECT(!task_sched_parse(without, &t) && !t.has_schedstats &&
	       t.nr_migrations == 3 && t.nr_voluntary_switches == 5 &&
	       t.nr_involuntary_switches == 2 && t.nr_wakeups == 0,
	       "task_sched_without_schedstats");
	EXPECT(task_sched_parse("version 16\ncpu0 1 2\n", &t) &&
	       task_schedstat_parse("garbage", &t), "task_sched_rejects_other_files");
	free(with);
	free(without);
	free(ps);
}

static int load(const char *name, struct bounds *bs, char *err)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/bounds/%s", unit_fixtures, name);
	return bounds_load(path, bs, err, 256);
}

/* bounds.icount over bounds: a line replaces its twin, or is added */
static void test_bounds_override(struct bounds *bs)
{
	char err[256] = "", path[512];

	snprintf(path, sizeof(path), "%s/bounds/over", unit_fixtures);
	EXPECT(!load("good", bs, err) && !bounds_override(path, bs, err, sizeof(err)) &&
	       bs->nr == 6 && bs->b[1].limit == 5 && bs->b[1].op == BOUND_AT_MOST &&
	       bs->b[2].limit == 0 && bs->b[5].kind == BOUND_CHANGE &&
	       bs->b[5].limit == -0.02, "bounds_override_replaces_and_adds");
	snprintf(path, sizeof(path), "%s/bounds/bad-op", unit_fixtures);
	EXPECT(!load("good", bs, err) && bounds_override(path, bs, err, sizeof(err)) &&
	       strstr(err, ":1: operator") && bs->nr == 5 && bs->b[1].limit == 20,
	       "bounds_override_bad_file_changes_nothing");
}

UNIT_TEST(bounds)
{
	static const char *const variants[] = { "pipe-process", "socket-process", NULL };
	static struct bounds bs;
	struct metric_set known = { 0 };
	char err[256] = "", path[512];

	EXPECT(!load("good", &bs, err) && bs.nr == 5 &&
	       bounds_count(&bs, "hackbench", "pipe-process") == 3 &&
	       bs.b[0].op == BOUND_AT_LEAST && bs.b[0].limit == 1000 &&
	       bs.b[3].limit == 1000 && !strcmp(bs.b[3].workload, "otherwl"),
	       "bounds_good_file");
	metric_add(&known, "messages_per_sec", "", 0);
	metric_add(&known, "migrations_per_1k_ops", "", 0);
	/* the socket bound replaces the generic <=, the generic >= stays */
	EXPECT(bounds_count(&bs, "hackbench", "socket-process") == 3 &&
	       !strcmp(bs.b[4].variant, "socket-process") && bs.b[4].limit == 200 &&
	       !strcmp(bs.b[4].metric, "migrations_per_1k_ops"), "bounds_variant_override");
	EXPECT(!bounds_check_names(&bs, "hackbench", variants, &known, "good", err,
				   sizeof(err)), "bounds_names_known");
	EXPECT(!load("unknown-metric", &bs, err) &&
	       bounds_check_names(&bs, "hackbench", variants, &known, "f", err, sizeof(err)) &&
	       strstr(err, "no metric 'no_such_metric'"), "bounds_unknown_metric");
	EXPECT(!load("unknown-variant", &bs, err) &&
	       bounds_check_names(&bs, "hackbench", variants, &known, "f", err, sizeof(err)) &&
	       strstr(err, "no variant 'pipes-process'"), "bounds_unknown_variant");
	EXPECT(load("bad-op", &bs, err) && strstr(err, ":1: operator '=>'"), "bounds_bad_op");
	EXPECT(load("bad-number", &bs, err) && strstr(err, "'lots' is not a number"),
	       "bounds_bad_number");
	EXPECT(load("duplicate", &bs, err) && strstr(err, ":2:") && strstr(err, "twice"),
	       "bounds_duplicate");
	EXPECT(load("no-dot", &bs, err) && strstr(err, "is not <workload>[@<variant>].<metric>"),
	       "bounds_needs_workload_prefix");
	EXPECT(load("extra-field", &bs, err) && strstr(err, "expected"),
	       "bounds_extra_field");
	EXPECT(load("no-such-file", &bs, err) && strstr(err, "No such file"),
	       "bounds_missing_file");
	/* lines longer than any buffer are one line each */
	snprintf(path, sizeof(path), "%s/fuzz/bounds/good-long-comment", unit_fixtures);
	EXPECT(!bounds_load(path, &bs, err, sizeof(err)) && bs.nr == 2 &&
	       bs.b[1].line == 3, "bounds_long_lines");
	/* a message quotes the file: its carriage return is shown as '?' */
	snprintf(path, sizeof(path), "%s/fuzz/bounds/bad-crlf-no-dot", unit_fixtures);
	EXPECT(bounds_load(path, &bs, err, sizeof(err)) &&
	       strstr(err, ":1: 'hackbench_messages_per_sec >= 1?' is not"),
	       "bounds_error_printable");
	EXPECT(bounds_load(unit_fixtures, &bs, err, sizeof(err)) && strstr(err, "Is a directory"),
	       "bounds_rejects_directory");
	test_bounds_override(&bs);
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

UNIT_TEST(results_roundtrip)
{
	static struct runset rs;
	char path[512] = "/tmp/sched_perf_unit.XXXXXX";
	struct metric_set set = { 0 };
	struct seen seen = { 0 };
	struct results *r;
	char err[256];
	int fd = mkstemp(path), n;
	FILE *f;

	close(fd);
	metric_add(&set, "migrations_per_1k_ops", "", 0.123456789);
	metric_missing(&set, "cycles", "not supported");
	r = results_open(path, err, sizeof(err));
	ASSERT(r, "results_open");
	results_text(r, "meta.kernel", "6.12.117 #1 SMP");
	results_metrics(r, "hackbench", &set);
	EXPECT(!results_commit(r, err, sizeof(err)), "results_commit");
	n = results_read(path, collect, &seen, err, sizeof(err));
	EXPECT(n == 2 && seen.n == 2 && seen.migrations == 0.123456789 &&
	       !strcmp(seen.kernel, "6.12.117 #1 SMP"), "results_roundtrip");
	f = fopen(path, "a");
	ASSERT(f, "results_reopen");
	fprintf(f, "broken line\n");
	fclose(f);
	EXPECT(results_read(path, collect, &seen, err, sizeof(err)) < 0 &&
	       strstr(err, "not a 'key: value' line"), "results_rejects_malformed");
	unlink(path);
	EXPECT(results_read(unit_fixtures, collect, &seen, err, sizeof(err)) < 0 &&
	       strstr(err, "Is a directory"), "results_rejects_directory");
	/* found by tests/fuzz: its stat line read back as another workload's */
	snprintf(path, sizeof(path), "%s/fuzz/runset/bad-runs-in-name", unit_fixtures);
	EXPECT(runset_load(path, &rs, err, sizeof(err)) &&
	       strstr(err, "messages.runs.per_sec: not <workload>.runs.<metric>"),
	       "runset_rejects_runs_in_name");
	runset_free(&rs);
}

UNIT_TEST(fileio)
{
	char path[] = "/tmp/sched_perf_unit.XXXXXX", err[256], line[4], small[8];
	int fd = mkstemp(path);
	char *text, *pos, *a, *b, *c;
	size_t len;

	if (fd < 0 || write(fd, "ab\n\ncd", 7) != 7)
		exit(1);
	close(fd);
	/* one byte beyond the limit tells a file of 7 bytes from a longer one */
	text = fileio_read_kernel(path, 7, &len);
	EXPECT(text && len == 7 && !strcmp(text + 4, "cd"), "fileio_at_the_limit");
	free(fileio_read_kernel(path, 6, &len));
	EXPECT(errno == EFBIG, "fileio_above_the_limit");
	pos = text;
	a = fileio_next_line(&pos, text + len);
	b = fileio_next_line(&pos, text + len);
	c = fileio_next_line(&pos, text + len);
	EXPECT(a && !strcmp(a, "ab") && b && !*b && c && !strcmp(c, "cd") &&
	       !fileio_next_line(&pos, text + len), "fileio_lines");
	free(text);
	EXPECT(!fileio_first_line(path, line, sizeof(line)) && !strcmp(line, "ab"),
	       "fileio_first_line");
	/* into the caller's buffer: 7 bytes and the NUL fit in 8, not in 7 */
	EXPECT(!fileio_read_into(path, small, 8, &len) && len == 7 && !strcmp(small + 4, "cd"),
	       "fileio_into_at_the_limit");
	EXPECT(fileio_read_into(path, small, 7, &len) && errno == EFBIG, "fileio_into_above_the_limit");
	unlink(path);
	EXPECT(!fileio_read_user("/dev/null", &len, err, sizeof(err)) &&
	       !strcmp(err, "/dev/null: not a regular file but a character device"),
	       "fileio_refuses_a_device");
}

UNIT_TEST(histogram)
{
	static struct histo a, b;
	uint64_t v;
	double p50, p99, p999;

	/* 1..10000 ns once each: quantiles within one bucket (1/16) */
	for (v = 1; v <= 10000; v++)
		histo_record(v % 2 ? &a : &b, v);
	histo_merge(&a, &b);
	p50 = histo_quantile(&a, 0.50);
	p99 = histo_quantile(&a, 0.99);
	p999 = histo_quantile(&a, 0.999);
	EXPECT(a.count == 10000 && p50 > 5000 * 0.94 && p50 < 5000 * 1.07 &&
	       p99 > 9900 * 0.94 && p99 < 9900 * 1.07 &&
	       p999 > 9990 * 0.94 && p999 < 9990 * 1.07, "histogram_quantiles");
	memset(&b, 0, sizeof(b));
	histo_record(&b, 7);
	histo_record(&b, 1ULL << 50);	/* beyond the range: last bucket */
	EXPECT(histo_quantile(&b, 0.5) == 7.5 && histo_quantile(&b, 1) > 1e12 &&
	       histo_quantile(&(struct histo){ 0 }, 0.5) == 0, "histogram_edges");
}
