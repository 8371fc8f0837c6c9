/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdict layer: bounds (bounds.h) judged against any metric, and
 * comparisons, reported as KTAP through the kernel's kselftest.h.
 */
#ifndef SCHED_PERF_VERDICT_H
#define SCHED_PERF_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "bounds.h"
#include "compare.h"
#include "compiler.h"
#include "metrics.h"

/*
 * The suite's exit codes, the same for every program and tool: kselftest's
 * 0 (pass), 1 (fail) and 4 (skip), and 2 for input that cannot be used.
 */
#define EXIT_REGRESSED	1	/* a check failed: a bound, or a metric regressed */
#define EXIT_BAD_INPUT	2	/* nothing run, nothing written; or an output lost */
#define EXIT_OPEN	4	/* as kselftest's skip: not judged, not passed */

/*
 * KTAP output.  A result is "ok|not ok N <name>" or "ok N <name> # SKIP
 * <reason>" and nothing more: @name (<workload>.<check>) is the same on
 * every run, whatever was measured, and so is a SKIP's reason for one
 * cause (CI parsers name a test by all the text after "ok N ", 0-day's
 * the SKIP reason included).  This run's figures, bounds and verdict
 * numbers go on a "# <name>: ..." line just before the result.
 */
void verdict_begin(unsigned int plan);
/* How many results were reported so far. */
unsigned int verdict_reported(void);
__printf(1, 2) void verdict_note(const char *fmt, ...);
/* A pass or a fail named @name, after "# <name>: <@fmt's figures>" */
__printf(3, 4) void verdict_check(bool pass, const char *name,
				  const char *fmt, ...);
/*
 * A SKIP named @name.  Its reason is the cause of @why, the text before
 * the first " (" or ": " (a metric's missing text, metrics.h): the whole
 * of @why, where there is more, goes on the line before.
 */
void verdict_skip(const char *name, const char *why);
/* Does @s hold a figure, a digit that does not continue a word? */
bool verdict_has_figure(const char *s);
/* One KTAP line per bound that applies; SKIP when a metric is missing. */
void verdict_judge(const struct bounds *bs, const char *workload,
		   const char *variant, const struct metric_set *set,
		   const char *skip_all);
/*
 * One KTAP result per comparison, named <workload>.<label>.<metric>: a
 * regression fails, an improvement or no change passes, a comparison that
 * cannot judge (noisy, too few runs, missing) is a SKIP with its verdict
 * word as the reason; the figures go on "# <name>: ..." lines before.
 */
void verdict_compare(const char *workload, const char *label,
		     const struct cmp_result *res, unsigned int n);
/*
 * git bisect run exit codes from now on: verdict_finish() exits 1 on a
 * failure, else 125 when a comparison may still be worse than its
 * threshold (cmp_bad_side_open: undecided, worse, too noisy, too few
 * runs, drifting), else 0; verdict_skip_all() exits 125.
 */
void verdict_bisect_codes(void);
/* Has a check or a comparison failed so far? */
bool verdict_failed(void);
/*
 * An output the run was asked for could not be written: @fmt is one line
 * naming the file and the error, without its newline.  verdict_finish()
 * prints each such line on stderr after the KTAP totals and exits
 * VERDICT_EXIT_LOST (VERDICT_BISECT_LOST with --bisect), whatever the
 * checks said: a run whose results or baseline are lost is never a pass.
 */
#define VERDICT_EXIT_LOST	EXIT_BAD_INPUT	/* not done as asked */
#define VERDICT_BISECT_LOST	128	/* git bisect run stops: fix the disk */
__printf(1, 2) void verdict_lost(const char *fmt, ...);
/*
 * Totals, then exit: 0 when every check passed or skipped, 1 otherwise,
 * VERDICT_EXIT_LOST after verdict_lost().
 */
__noreturn void verdict_finish(void);
/* The whole program cannot run here: KTAP skip, exit 4. */
__noreturn void verdict_skip_all(const char *why);

#endif
