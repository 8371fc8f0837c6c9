// SPDX-License-Identifier: GPL-2.0
/*
 * The KTAP result lines: a name and nothing else, or a SKIP with a fixed
 * reason; every figure on the "# <name>: ..." line before (verdict.h).
 * 0-day's parser names a result by all the text after "ok N ".
 */
#include <stdio.h>
#include <string.h>

#include "metric_rows.h"
#include "unit.h"

static void checks_and_skips(void *arg)
{
	verdict_begin(5);
	verdict_check(true, "w.rate_per_sec", "%g >= %g", 4.5e5, 2000.0);
	verdict_check(false, "w.moves_per_op", "%s", "");
	verdict_skip("w.runs_per_op", "no /proc/schedstat (CONFIG_SCHEDSTATS=n)");
	verdict_skip("w.waits_per_op", "not measured");
	verdict_skip("w.scans_per_op", "share 0.82 of it: off");
	verdict_finish();
}

UNIT_TEST(ktap_result_lines)
{
	static char out[4096];
	int code = unit_capture(checks_and_skips, NULL, out, sizeof(out));

	EXPECT(code == 1, "ktap_a_failed_check_exits_1");
	EXPECT(strstr(out, "\n# w.rate_per_sec: 450000 >= 2000\nok 1 w.rate_per_sec\n") != NULL,
	       "ktap_figures_on_the_line_before");
	EXPECT(strstr(out, "\nnot ok 2 w.moves_per_op\n") != NULL &&
	       !strstr(out, "# w.moves_per_op:"), "ktap_no_note_without_figures");
	EXPECT(strstr(out, "\n# w.runs_per_op: no /proc/schedstat (CONFIG_SCHEDSTATS=n)\n"
			   "ok 3 w.runs_per_op # SKIP no /proc/schedstat\n") != NULL,
	       "ktap_skip_reason_is_the_cause");
	EXPECT(strstr(out, "\nok 4 w.waits_per_op # SKIP not measured\n") != NULL &&
	       !strstr(out, "# w.waits_per_op:"), "ktap_skip_reason_whole");
	EXPECT(strstr(out, "\n# w.scans_per_op: share 0.82 of it: off\n"
			   "ok 5 w.scans_per_op # SKIP not available\n") != NULL,
	       "ktap_skip_reason_never_a_figure");
}

/* A bound on a rate, the machine 82 % someone else's */
static void busy_machine(void *arg)
{
	static struct bounds bs = { .nr = 1, .b = { {
		.kind = BOUND_ABSOLUTE, .workload = "w", .metric = "rate_per_sec",
		.op = BOUND_AT_LEAST, .limit = 10 } } };
	static struct metric_set set;

	metric_add(&set, "rate_per_sec", "/s", 5);
	metric_add(&set, METRIC_FOREIGN_SHARE, "", *(double *)arg);
	verdict_begin(1);
	verdict_judge(&bs, "w", "v", &set, NULL);
	verdict_finish();
}

UNIT_TEST(ktap_busy_machine)
{
	static char out[4096];
	double foreign = 0.82;

	EXPECT(unit_capture(busy_machine, &foreign, out, sizeof(out)) == 0,
	       "ktap_busy_skip_exits_0");
	EXPECT(strstr(out, "\n# w.rate_per_sec: machine busy with other work: foreign CPU share 0.82 > 0.25\n"
			   "ok 1 w.rate_per_sec # SKIP\n") != NULL,
	       "ktap_busy_skip_has_its_reason_before_only");
	foreign = 0.1;
	EXPECT(unit_capture(busy_machine, &foreign, out, sizeof(out)) == 1 &&
	       strstr(out, "\n# w.rate_per_sec: 5 >= 10\nnot ok 1 w.rate_per_sec\n") != NULL,
	       "ktap_quiet_machine_judges_the_bound");
}

UNIT_TEST(ktap_figures)
{
	EXPECT(!verdict_has_figure("tcp_rr.migrations_per_1k_ops") &&
	       !verdict_has_figure("no /proc/schedstat") && !verdict_has_figure("ipv4"),
	       "ktap_words_with_digits_are_no_figure");
	EXPECT(verdict_has_figure("0.82") && verdict_has_figure("p 0.03") &&
	       verdict_has_figure("sched_schedstats=0") && verdict_has_figure("2 of 5"),
	       "ktap_numbers_are_figures");
}
