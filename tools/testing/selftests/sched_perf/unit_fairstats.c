// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of fairstats.c: the fair_stats files the kernel prints
 * (FIXTURE_DIR/fair_stats-*), every malformed file the parser must refuse
 * with a one-line reason and nothing left allocated, deltas across CPUs,
 * column orders, counter wrap and CPU hotplug, and garbage that must not
 * crash it.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compiler.h"
#include "fairstats.h"
#include "verdict.h"
#include "unit.h"

#define ERRLEN 256

static char *load(const char *name)
{
	char file[128];

	snprintf(file, sizeof(file), "fair_stats-%s", name);
	return unit_fixture(file);
}

static int parse(const char *name, struct fair_stats *fs, char *err)
{
	char *text = load(name);
	int ret = fair_stats_parse(text, fs, err, ERRLEN);

	free(text);
	return ret;
}

static bool zeroed(const struct fair_stats *fs)
{
	return !fs->cpus && !fs->nr_cpus && !fs->version;
}

/* A reason fit for a log: there, on one line. */
static bool one_line(const char *err)
{
	return err[0] && !strchr(err, '\n');
}

/*
 * Parsing must fail with a one-line reason holding @why and @why2 (when
 * not NULL), and leave @fs with nothing allocated.
 */
static bool rejects(const char *name, const char *why, const char *why2)
{
	struct fair_stats fs;
	char err[ERRLEN] = "";
	bool ok;

	ok = parse(name, &fs, err) == -1 && zeroed(&fs) && one_line(err) &&
	     strstr(err, why) && (!why2 || strstr(err, why2));
	if (!ok)
		verdict_note("fair_stats-%s: '%s'\n", name, err);
	return ok;
}

static bool same_values(const struct fair_stats *a, const struct fair_stats *b)
{
	size_t i;

	if (a->nr_cpus != b->nr_cpus)
		return false;
	for (i = 0; i < a->nr_cpus; i++)
		if (a->cpus[i].cpu != b->cpus[i].cpu ||
		    memcmp(a->cpus[i].v, b->cpus[i].v, sizeof(a->cpus[i].v)))
			return false;
	return true;
}

UNIT_TEST(fair_stats_names)
{
	bool ok = !strcmp(fair_counter_names[FC_sis_calls], "sis_calls") &&
		  !strcmp(fair_counter_names[FC_sis_scans_found], "sis_scans_found") &&
		  !strcmp(fair_counter_names[FC_wakeup_slice_kept], "wakeup_slice_kept");
	int i, j;

	for (i = 0; i < FC_COUNT; i++)
		for (j = 0; j < i; j++)
			ok &= fair_counter_names[i] &&
			      strcmp(fair_counter_names[i], fair_counter_names[j]);
	EXPECT(ok, "fair_stats_counter_names");
}

UNIT_TEST(fair_stats_parse)
{
	struct fair_stats two, four, re, v2;
	char err[ERRLEN] = "";
	const uint64_t *c0, *c1;

	EXPECT(!parse("v2-2cpu", &two, err) && two.version == 2 && two.nr_cpus == 2 &&
	       two.cpus[0].cpu == 0 && two.cpus[1].cpu == 1, "fair_stats_v2_2cpu_parses");
	c0 = two.cpus[0].v;
	c1 = two.cpus[1].v;
	/* cpu0 100 10 20 5 1 64 180 40 24 3 2 500 120 380 60 0 0 0, cpu1 250 .. */
	EXPECT(c0[FC_sis_calls] == 100 && c0[FC_sis_idle_target] == 10 &&
	       c0[FC_sis_scans] == 64 && c0[FC_sis_scans_found] == 40 &&
	       c0[FC_sis_budget_spent] == 2 && c0[FC_sis_no_llc] == 380 &&
	       c0[FC_wakeup_slice_kept] == 60 && c1[FC_sis_calls] == 250 &&
	       c1[FC_sis_kthread_prev] == 7 && c1[FC_sis_scans_failed] == 55 &&
	       c1[FC_wakeup_checks] == 900 && c1[FC_wakeup_slice_kept] == 110 &&
	       c1[FC_sis_scans_failed_cluster] == 0,
	       "fair_stats_v2_values_in_their_counters");
	/* this fixture has no newline after its last row */
	EXPECT(!parse("v2-4cpu", &four, err) && four.nr_cpus == 4 &&
	       four.cpus[3].cpu == 3 && four.cpus[3].v[FC_wakeup_slice_kept] == 200 &&
	       four.cpus[2].v[FC_sis_scan_cpus] == 140, "fair_stats_v2_4cpu_parses");
	/* columns and rows in another order: the same numbers, CPUs sorted */
	EXPECT(!parse("v2-2cpu-reordered", &re, err) && same_values(&two, &re),
	       "fair_stats_reordered_columns_same_values");
	/* two unknown columns (one not even decimal), blank lines at the end */
	EXPECT(!parse("v2-extra-column", &v2, err) && v2.version == 2 &&
	       same_values(&two, &v2), "fair_stats_v2_extra_columns_skipped");
	fair_stats_free(&two);
	fair_stats_free(&four);
	fair_stats_free(&re);
	fair_stats_free(&v2);
}

/* Each malformed fixture: where the error must point, and what it must say. */
static const struct {
	const char *fixture, *where, *what, *name;
} rejected[] = {
	{ "version-0", "line 1", "version 0", "fair_stats_rejects_version_0" },
	{ "version-x", "line 1", "version 'x' is not a number", "fair_stats_rejects_version_x" },
	{ "no-version", "line 1",
	  "expected 'version N', got 'cpu'",
	  "fair_stats_rejects_no_version" },
	{ "no-header", "line 2",
	  "expected the header 'cpu <column>...', got 'cpu0'",
	  "fair_stats_rejects_no_header" },
	{ "missing-column", "line 2",
	  "lacks the column sis_scans_found",
	  "fair_stats_rejects_missing_column" },
	{ "duplicate-column", "line 2",
	  "column sis_scans appears twice",
	  "fair_stats_rejects_duplicate_column" },
	{ "short-row", "line 4",
	  "cpu1 has 14 values, the header names 18",
	  "fair_stats_rejects_short_row" },
	{ "long-row", "line 3",
	  "cpu0 has 16 values, the header names 18",
	  "fair_stats_rejects_long_row" },
	{ "non-numeric", "line 4",
	  "cpu1 sis_scans: '15O' is not a number",
	  "fair_stats_rejects_non_numeric" },
	{ "overflow", "line 3",
	  "cpu0 wakeup_checks: '18446744073709551616' is out of range",
	  "fair_stats_rejects_overflow" },
	{ "negative", "line 4",
	  "cpu1 sis_scans_failed: negative value '-55'",
	  "fair_stats_rejects_negative" },
	{ "duplicate-cpu", "line 5",
	  "cpu0 listed a second time",
	  "fair_stats_rejects_duplicate_cpu" },
	{ "no-rows", "no cpu rows", "kernel.sched_schedstats", "fair_stats_rejects_no_rows" },
	{ "v1-refused", "line 1", "version 1 counts every wakeup_preempt() call",
	  "fair_stats_rejects_version_1" },
	{ "truncated", "line 5", "cpu2 has 6 values", "fair_stats_rejects_truncated" },
	{ "not-cpu-row", "line 4", "'node1', not cpu<N>", "fair_stats_rejects_non_cpu_row" },
	{ "cpu-out-of-range", "line 4",
	  "'cpu65536': CPU number out of range",
	  "fair_stats_rejects_cpu_out_of_range" },
	{ "blank-line-inside", "line 5",
	  "row after the blank line 4",
	  "fair_stats_rejects_blank_line_inside" },
};

UNIT_TEST(fair_stats_rejects)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rejected); i++)
		EXPECT(rejects(rejected[i].fixture, rejected[i].where, rejected[i].what),
		       rejected[i].name);
}

UNIT_TEST(fair_stats_edges)
{
	char *two = load("v2-2cpu"), *nul;
	size_t n = strlen(two);
	struct fair_stats fs;
	char err[ERRLEN] = "";
	bool ok;

	ok = fair_stats_parse("", &fs, err, sizeof(err)) && zeroed(&fs) &&
	     strstr(err, "empty text");
	ok &= fair_stats_parse("\n\t\n \t", &fs, err, sizeof(err)) && strstr(err, "empty text");
	ok &= fair_stats_parse(NULL, &fs, err, sizeof(err)) && strstr(err, "empty text");
	EXPECT(ok, "fair_stats_rejects_empty_text");
	/* the file, a NUL, then a row that must not be read */
	nul = calloc(1, n + 32);
	if (!nul)
		exit(1);
	memcpy(nul, two, n);
	memcpy(nul + n + 1, "cpu9 garbage", 12);
	/* a row left from an earlier CPU must not leak when a later one fails */
	ok = parse("duplicate-cpu", &fs, err) == -1 && zeroed(&fs);
	fair_stats_free(&fs);
	ok &= zeroed(&fs) && !fair_stats_parse(nul, &fs, NULL, 0);
	fair_stats_free(&fs);
	EXPECT(ok && fair_stats_parse("x", &fs, NULL, 0) && zeroed(&fs),
	       "fair_stats_failure_leaves_nothing");
	EXPECT(!fair_stats_parse(nul, &fs, err, sizeof(err)) && fs.nr_cpus == 2 &&
	       fs.cpus[1].cpu == 1 && fs.cpus[1].v[FC_wakeup_slice_kept] == 110,
	       "fair_stats_nul_ends_text");
	fair_stats_free(&fs);
	free(nul);
	free(two);
	ok = fair_stats_parse("version 4294967296\n", &fs, err, sizeof(err)) &&
	     strstr(err, "version '4294967296' is not a number from 1 to 4294967295");
	ok &= fair_stats_parse("version 2 2\n", &fs, err, sizeof(err)) &&
	      strstr(err, "line 1: '2' after the version number");
	ok &= fair_stats_parse("version 3\ncpu sis_calls\n", &fs, err, sizeof(err)) &&
	      strstr(err, "line 1: version 3: this suite knows version 2 only");
	EXPECT(ok, "fair_stats_rejects_version_out_of_range");
}

/* Appends to a growing string; the tests below build megabyte lines. */
struct text {
	char *s;
	size_t len, cap;
};

static void put(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		if (!t->s)
			exit(1);
	}
	memcpy(t->s + t->len, s, n + 1);
	t->len += n;
}

#define WIDE 100000	/* unknown columns before the known ones */

UNIT_TEST(fair_stats_long_lines)
{
	struct text t = { 0 };
	struct fair_stats fs;
	char err[ERRLEN] = "", word[32];
	int i, k;
	bool ok;

	put(&t, "version 2\ncpu");
	for (i = 0; i < WIDE; i++) {
		snprintf(word, sizeof(word), " future_%d", i);
		put(&t, word);
	}
	for (k = 0; k < FC_COUNT; k++) {
		put(&t, " ");
		put(&t, fair_counter_names[k]);
	}
	put(&t, "\ncpu1");
	for (i = 0; i < WIDE; i++)
		put(&t, " 123456789");
	for (k = 0; k < FC_COUNT; k++) {
		snprintf(word, sizeof(word), " %d", k * 1000);
		put(&t, word);
	}
	ok = !fair_stats_parse(t.s, &fs, err, sizeof(err)) && fs.nr_cpus == 1 &&
	     fs.cpus[0].v[FC_sis_calls] == 0 &&
	     fs.cpus[0].v[FC_wakeup_slice_kept] == FC_wakeup_slice_kept * 1000;
	fair_stats_free(&fs);
	/* a megabyte word where a row should start: the reason stays short */
	put(&t, "\n");
	for (i = 0; i < WIDE; i++)
		put(&t, "xxxxxxxxxx");
	ok &= fair_stats_parse(t.s, &fs, err, sizeof(err)) && zeroed(&fs) &&
	      strstr(err, "line 4: row starts with 'xxxxxxxx") &&
	      strstr(err, "...', not cpu<N>") && strlen(err) < 80;
	EXPECT(ok, "fair_stats_long_lines");
	free(t.s);
}

/* A small, fixed generator: the same garbage every run. */
static uint32_t next_rand(uint32_t *state)
{
	*state = *state * 1103515245 + 12345;
	return *state >> 8;
}

/* Overwrite, drop or cut bytes of @s (length @len) at random; new length. */
static size_t mutate(char *s, size_t len, uint32_t *state)
{
	static const char alphabet[] = "0123456789\n \t-+cpuversion_x\x7f\xff";
	unsigned int edits = 1 + next_rand(state) % 4, e;
	size_t at;

	for (e = 0; e < edits && len; e++) {
		at = next_rand(state) % len;
		switch (next_rand(state) % 4) {
		case 0:
			s[at] = alphabet[next_rand(state) % (sizeof(alphabet) - 1)];
			break;
		case 1:
			s[at] = next_rand(state);
			break;
		case 2:
			memmove(s + at, s + at + 1, len - at);
			len--;
			break;
		default:
			len = at;
			break;
		}
	}
	s[len] = '\0';
	return len;
}

#define MUTATIONS 20000

UNIT_TEST(fair_stats_mutations)
{
	char *orig = load("v2-4cpu"), *buf, err[ERRLEN];
	size_t len = strlen(orig);
	struct fair_stats fs;
	uint32_t state = 1;
	unsigned int i, bad = 0, failed = 0;

	buf = malloc(len + 1);
	if (!buf)
		exit(1);
	for (i = 0; i < MUTATIONS; i++) {
		memcpy(buf, orig, len + 1);
		mutate(buf, len, &state);
		err[0] = '\0';
		if (fair_stats_parse(buf, &fs, err, sizeof(err))) {
			failed++;
			bad += !zeroed(&fs) || !one_line(err);
		} else {
			bad += !fs.nr_cpus || fs.nr_cpus > 4 || !fs.cpus;
		}
		fair_stats_free(&fs);
	}
	EXPECT(!bad && failed > MUTATIONS / 2, "fair_stats_survives_mutated_input");
	free(buf);
	free(orig);
}

/*
 * v2-4cpu -> v2-4cpu-after (whose columns are in another order),
 * per counter, cpu0 + cpu1 + cpu2 + cpu3:
 */
static const uint64_t delta4[FC_COUNT] = {
	[FC_sis_calls] = 500,		/* 80 + 100 + 20 + 300 */
	[FC_sis_idle_target] = 30,	/* 5 + 10 + 0 + 15 */
	[FC_sis_idle_prev] = 60,	/* 10 + 20 + 5 + 25 */
	[FC_sis_idle_recent] = 10,	/* 2 + 3 + 1 + 4 */
	[FC_sis_kthread_prev] = 4,	/* 1 + 1 + 0 + 2 */
	[FC_sis_scans] = 384,		/* 60 + 60 + 14 + 250 */
	[FC_sis_scan_cpus] = 1000,	/* 100 + 200 + 50 + 650 */
	[FC_sis_scans_found] = 240,	/* 40 + 40 + 10 + 150 */
	[FC_sis_scans_failed] = 144,	/* 20 + 20 + 4 + 100 */
	[FC_sis_budget_zero] = 10,	/* 1 + 2 + 3 + 4 */
	[FC_sis_budget_spent] = 0,	/* unchanged everywhere */
	[FC_wakeup_checks] = 1000,	/* 100 + 200 + 300 + 400 */
	[FC_wakeup_preempts] = 100,	/* 30 + 40 + 10 + 20 */
	[FC_sis_no_llc] = 900,		/* 70 + 160 + 290 + 380 */
	[FC_wakeup_slice_kept] = 20,	/* 5 + 5 + 5 + 5 */
};

static bool delta_zero(const struct fair_stats_delta *d)
{
	static const struct fair_stats_delta zero;

	return !memcmp(d, &zero, sizeof(zero));
}

UNIT_TEST(fair_stats_diff)
{
	struct fair_stats before, after, two, re, wb, wa, three, five;
	struct fair_stats_delta d;
	char err[ERRLEN] = "";
	bool ok;

	ASSERT(!parse("v2-4cpu", &before, err), "fair_stats_diff_fixture_v2_4cpu_parses");
	ASSERT(!parse("v2-4cpu-after", &after, err), "fair_stats_diff_fixture_v2_4cpu_after_parses");
	EXPECT(!fair_stats_diff(&before, &after, &d, err, sizeof(err)) && d.nr_cpus == 4 &&
	       !memcmp(d.v, delta4, sizeof(delta4)), "fair_stats_diff_sums_cpus");
	/* the same numbers in another column order: nothing changed */
	ASSERT(!parse("v2-2cpu", &two, err), "fair_stats_diff_fixture_v2_2cpu_parses");
	ASSERT(!parse("v2-2cpu-reordered", &re, err), "fair_stats_diff_fixture_v2_2cpu_reordered_parses");
	ok = !fair_stats_diff(&two, &re, &d, err, sizeof(err)) && d.nr_cpus == 2;
	d.nr_cpus = 0;
	EXPECT(ok && delta_zero(&d), "fair_stats_diff_across_column_orders");
	/*
	 * sis_calls: cpu0 18446744073709551610 -> 5 is +11, cpu1 unchanged;
	 * wakeup_slice_kept: cpu0 2^64-1 -> 0 is +1, cpu1 110 -> 112 is +2
	 */
	ASSERT(!parse("wrap-before", &wb, err), "fair_stats_diff_fixture_wrap_before_parses");
	ASSERT(!parse("wrap-after", &wa, err), "fair_stats_diff_fixture_wrap_after_parses");
	EXPECT(!fair_stats_diff(&wb, &wa, &d, err, sizeof(err)) &&
	       d.v[FC_sis_calls] == 11 && d.v[FC_wakeup_slice_kept] == 3 && d.v[FC_sis_scans_found] == 0,
	       "fair_stats_diff_wraps_64bit");
	ASSERT(!parse("hotplug-3cpu", &three, err), "fair_stats_diff_fixture_hotplug_3cpu_parses");
	EXPECT(fair_stats_diff(&before, &three, &d, err, sizeof(err)) == -1 &&
	       !strcmp(err, "cpu2 went offline during the run") && delta_zero(&d),
	       "fair_stats_diff_cpu_offline");
	ASSERT(!parse("hotplug-5cpu", &five, err), "fair_stats_diff_fixture_hotplug_5cpu_parses");
	EXPECT(fair_stats_diff(&before, &five, &d, err, sizeof(err)) == -1 &&
	       !strcmp(err, "cpu4 came online during the run") && delta_zero(&d),
	       "fair_stats_diff_cpu_online");
	/* a hand-made snapshot out of order, and two empty ones */
	before.cpus[0].cpu = 9;
	ok = fair_stats_diff(&before, &after, &d, err, sizeof(err)) == -1 &&
	     strstr(err, "ascending");
	fair_stats_free(&before);
	EXPECT(ok && fair_stats_diff(&before, &before, &d, err, sizeof(err)) == -1 &&
	       strstr(err, "no CPUs"), "fair_stats_diff_rejects_bad_snapshots");
	fair_stats_free(&after);
	fair_stats_free(&two);
	fair_stats_free(&re);
	fair_stats_free(&wb);
	fair_stats_free(&wa);
	fair_stats_free(&three);
	fair_stats_free(&five);
}

