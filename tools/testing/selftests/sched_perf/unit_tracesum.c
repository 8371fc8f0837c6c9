// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tracesum.c over two small traces in FIXTURE_DIR: `perf
 * script` text (trace-perf-script) and `trace-cmd report -N` text
 * (trace-cmd-report), each with a line that is no event, a truncated or
 * garbled one, and comms with spaces.  The expected figures are counted
 * by hand in the comments.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "tracesum.h"
#include "verdict.h"
#include "unit.h"

/* Feed every line of fixture @name; NULL when it cannot be read. */
static struct tracesum *feed(const char *name)
{
	char path[512], *line = NULL;
	struct tracesum *ts = tracesum_new();
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", unit_fixtures(), name);
	f = fopen(path, "r");
	if (!f || !ts) {
		if (f)
			fclose(f);
		tracesum_free(ts);
		return NULL;
	}
	while (getline(&line, &cap, f) > 0)
		tracesum_line(ts, line);
	free(line);
	fclose(f);
	return ts;
}

/* The summary as text, in @buf. */
static void summary_text(const struct tracesum *ts, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	buf[0] = '\0';
	if (f) {
		tracesum_summary(ts, "title", 5, f);
		fclose(f);
	}
}

/* The contents of @dir/@name, in @buf ("" when unreadable). */
static void table_text(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* @ts's counts against @want's, each its own check */
static void expect_counts(struct __test_metadata *_metadata, const struct tracesum *ts,
			  const struct tracesum_counts *want)
{
	struct tracesum_counts c = { 0 };

	tracesum_counts(ts, &c);
	EXPECT_EQ(want->switches, c.switches);
	EXPECT_EQ(want->wakeups, c.wakeups);
	EXPECT_EQ(want->migrations, c.migrations);
	EXPECT_EQ(want->preemptions, c.preemptions);
	EXPECT_EQ(want->latencies, c.latencies);
}

/* @name's text in @dir, in @buf ("" when unreadable), then unlinked. */
static void table_take(const char *dir, const char *name, char *buf, size_t len)
{
	char path[600];

	table_text(dir, name, buf, len);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/*
 * perf script: wakeup 18, switch D -> 18 (43 us), migrate 11960 0->1,
 * wakeup 11960, switch 2001 R+ -> 11960 (a preemption, 48 us), migrate
 * 2001 1->0 and 0->1; a line of prose and a truncated switch are ignored.
 */
TEST(tracesum_perf_script)
{
	struct tracesum *ts = feed("trace-perf-script");
	char text[4096] = "";

	ASSERT_NE(NULL, ts) TH_LOG("fixture trace-perf-script unreadable");
	expect_counts(_metadata, ts, &(struct tracesum_counts){ .switches = 2, .wakeups = 2,
		      .migrations = 3, .preemptions = 1, .latencies = 2 });
	summary_text(ts, text, sizeof(text));
	/* the summary: per task, per CPU pair, latency, who preempted whom */
	EXPECT_CONTAINS(text, "  2001 hackbench: 2, 0, 1\n");
	EXPECT_CONTAINS(text, "  0 -> 1: 2\n");
	EXPECT_CONTAINS(text, "  1 -> 0: 1\n");
	EXPECT_CONTAINS(text, "n=2 p50 48.0");
	EXPECT_CONTAINS(text, "perf preempted hackbench: 1");
	tracesum_free(ts);
}

/*
 * trace-cmd report -N: wakeup 3002, switch from the idle task (no
 * preemption) to 3002 (50 us), 3002 R+ -> "kworker/0:1 H" (a preemption),
 * migrate 3002 0->1, wakeup_new 3003, switch S -> 3003 (2000 us); a line
 * without a timestamp is ignored.
 */
TEST(tracesum_trace_cmd)
{
	struct tracesum *ts = feed("trace-cmd-report");
	char text[4096] = "", dir[] = "/tmp/sched_perf-unit-XXXXXX", table[1024];

	ASSERT_NE(NULL, ts) TH_LOG("fixture trace-cmd-report unreadable");
	expect_counts(_metadata, ts, &(struct tracesum_counts){ .switches = 3, .wakeups = 2,
		      .migrations = 1, .preemptions = 1, .latencies = 2 });
	summary_text(ts, text, sizeof(text));
	/* comms with spaces */
	EXPECT_CONTAINS(text, "  3002 Web Content: 1, 1, 1\n");
	EXPECT_CONTAINS(text, "kworker/0:1 H preempted Web Content: 1");
	EXPECT_CONTAINS(text, "max 2000.0");

	/* the tables */
	ASSERT_NE(NULL, mkdtemp(dir));
	EXPECT_EQ(0, tracesum_write_tables(ts, dir, table, sizeof(table))) TH_LOG("%s", table);
	table_take(dir, "migrations.tsv", table, sizeof(table));
	EXPECT_STREQ("# from_cpu\tto_cpu\tmigrations\n0\t1\t1\n", table);
	/* 50 us in [50, 100), 2000 us in [2000, 5000) */
	table_take(dir, "wakeup_latency.tsv", table, sizeof(table));
	EXPECT_CONTAINS(table, "\n50\t100\t1\n");
	EXPECT_CONTAINS(table, "\n2000\t5000\t1\n");
	table_take(dir, "preemptions.tsv", table, sizeof(table));
	EXPECT_CONTAINS(table, "kworker/0:1 H\tWeb Content\t1\n");
	table_take(dir, "tasks.tsv", table, sizeof(table));
	EXPECT_EQ(0, rmdir(dir)) TH_LOG("%s: a table not named here", dir);
	tracesum_free(ts);
}

/* Any text: mangled copies of real lines and an endless comm. */
TEST(tracesum_garbage)
{
	static const char good[] =
		"x 1 [000] 5.000001: sched:sched_switch: prev_comm=a prev_pid=7 prev_prio=1 prev_state=R+ ==> next_comm=b next_pid=8 next_prio=1";
	static char huge[70000];
	struct tracesum *ts = tracesum_new();
	char line[sizeof(good)];
	unsigned int i, seed = 1;

	ASSERT_NE(NULL, ts);
	for (i = 0; i < 20000; i++) {
		memcpy(line, good, sizeof(good));
		seed = seed * 1103515245 + 12345;
		line[seed % (sizeof(good) - 1)] = (char)(seed >> 16);
		seed = seed * 1103515245 + 12345;
		line[seed % sizeof(good)] = '\0';
		ASSERT_LE(0, tracesum_line(ts, line)) TH_LOG("mangled line %u: %s", i, line);
	}
	memset(huge, 'c', sizeof(huge) - 1);
	memcpy(huge, "x [0] 1.0: sched_wakeup: comm=", 31);
	EXPECT_EQ(0, tracesum_line(ts, huge));
	tracesum_free(ts);
}
