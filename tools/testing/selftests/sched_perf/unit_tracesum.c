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

	snprintf(path, sizeof(path), "%s/%s", unit_fixtures, name);
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

/*
 * perf script: wakeup 18, switch D -> 18 (43 us), migrate 11960 0->1,
 * wakeup 11960, switch 2001 R+ -> 11960 (a preemption, 48 us), migrate
 * 2001 1->0 and 0->1; a line of prose and a truncated switch are ignored.
 */
UNIT_TEST(tracesum_perf_script)
{
	struct tracesum *ts = feed("trace-perf-script");
	struct tracesum_counts c = { 0 };
	char text[4096] = "";

	if (ts) {
		tracesum_counts(ts, &c);
		summary_text(ts, text, sizeof(text));
	}
	EXPECT(ts && c.switches == 2 && c.wakeups == 2 && c.migrations == 3 &&
	       c.preemptions == 1 && c.latencies == 2, "tracesum_perf_script_counts");
	EXPECT(strstr(text, "  2001 hackbench: 2, 0, 1\n") &&
	       strstr(text, "  0 -> 1: 2\n") && strstr(text, "  1 -> 0: 1\n") &&
	       strstr(text, "n=2 p50 48.0") && strstr(text, "perf preempted hackbench: 1"),
	       "tracesum_perf_script_summary");
	tracesum_free(ts);
}

/*
 * trace-cmd report -N: wakeup 3002, switch from the idle task (no
 * preemption) to 3002 (50 us), 3002 R+ -> "kworker/0:1 H" (a preemption),
 * migrate 3002 0->1, wakeup_new 3003, switch S -> 3003 (2000 us); a line
 * without a timestamp is ignored.
 */
UNIT_TEST(tracesum_trace_cmd)
{
	struct tracesum *ts = feed("trace-cmd-report");
	struct tracesum_counts c = { 0 };
	char text[4096] = "", dir[] = "/tmp/sched_perf-unit-XXXXXX", table[1024];
	bool wrote = false;

	if (ts) {
		tracesum_counts(ts, &c);
		summary_text(ts, text, sizeof(text));
	}
	EXPECT(ts && c.switches == 3 && c.wakeups == 2 && c.migrations == 1 &&
	       c.preemptions == 1 && c.latencies == 2, "tracesum_trace_cmd_counts");
	EXPECT(strstr(text, "  3002 Web Content: 1, 1, 1\n") &&
	       strstr(text, "kworker/0:1 H preempted Web Content: 1") &&
	       strstr(text, "max 2000.0"), "tracesum_trace_cmd_summary_comms_with_spaces");
	if (ts && mkdtemp(dir)) {
		wrote = !tracesum_write_tables(ts, dir, table, sizeof(table));
		table_text(dir, "migrations.tsv", table, sizeof(table));
		wrote &= !strcmp(table, "# from_cpu\tto_cpu\tmigrations\n0\t1\t1\n");
		/* 50 us in [50, 100), 2000 us in [2000, 5000) */
		table_text(dir, "wakeup_latency.tsv", table, sizeof(table));
		wrote &= strstr(table, "\n50\t100\t1\n") && strstr(table, "\n2000\t5000\t1\n");
		table_text(dir, "preemptions.tsv", table, sizeof(table));
		wrote &= strstr(table, "kworker/0:1 H\tWeb Content\t1\n") != NULL;
		for (const char *n = "migrations.tsv\0tasks.tsv\0wakeup_latency.tsv\0preemptions.tsv\0";
		     *n; n += strlen(n) + 1) {
			char path[600];

			snprintf(path, sizeof(path), "%s/%s", dir, n);
			unlink(path);
		}
		rmdir(dir);
	}
	EXPECT(wrote, "tracesum_tables");
	tracesum_free(ts);
}

/* Any text: mangled copies of real lines and an endless comm. */
UNIT_TEST(tracesum_garbage)
{
	static const char good[] =
		"x 1 [000] 5.000001: sched:sched_switch: prev_comm=a prev_pid=7 prev_prio=1 prev_state=R+ ==> next_comm=b next_pid=8 next_prio=1";
	struct tracesum *ts = tracesum_new();
	char line[sizeof(good)], *huge = malloc(70000);
	unsigned int i, seed = 1;
	bool sane = ts && huge;

	for (i = 0; sane && i < 20000; i++) {
		memcpy(line, good, sizeof(good));
		seed = seed * 1103515245 + 12345;
		line[seed % (sizeof(good) - 1)] = (char)(seed >> 16);
		seed = seed * 1103515245 + 12345;
		line[seed % sizeof(good)] = '\0';
		sane = tracesum_line(ts, line) >= 0;
	}
	if (sane) {
		memset(huge, 'c', 69999);
		huge[69999] = '\0';
		memcpy(huge, "x [0] 1.0: sched_wakeup: comm=", 31);
		sane = tracesum_line(ts, huge) == 0;
	}
	EXPECT(sane, "tracesum_survives_garbage");
	free(huge);
	tracesum_free(ts);
}

