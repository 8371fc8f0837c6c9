// SPDX-License-Identifier: GPL-2.0
/*
 * Test only: a known slowdown in every workload's operations (busy loops,
 * or each operation's wall time stretched), on both sides of an A/B or
 * the B side only, and a stop before the first iteration; the tests and
 * benches set them through the environment (workload.h, testwork.h).
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "tasks.h"
#include "testwork.h"
#include "verdict.h"

/*
 * Test only: calibrated loops or the stretch, and whether only an A/B
 * run's B side gets them.
 */
static unsigned long test_work_loops;
static double test_work_stretch;
static bool test_work_b_only;

unsigned long wl_test_work_loops;
double wl_test_stretch;

/*
 * Where this thread's last operation ended; 0 before its first (workers
 * are made per iteration, so the wait for the start is never stretched).
 */
static __thread uint64_t stretch_mark_ns;

void wl_test_stretch_op(void)
{
	uint64_t now = now_ns(), until;

	if (stretch_mark_ns) {
		until = now + (uint64_t)(wl_test_stretch * (now - stretch_mark_ns));
		while (now < until)
			now = now_ns();
	}
	stretch_mark_ns = now;
}

/*
 * SCHED_PERF_TEST_WORK_NS (test only): how many empty loops take that
 * long here, timed once before any worker exists (the fastest of three).
 * SCHED_PERF_TEST_STRETCH_PCT=P (test only): P % slower, i.e. each
 * operation's wall time times 100 / (100 - P).
 * SCHED_PERF_TEST_WORK_SIDE=b: in an A/B run, the B side's iterations
 * only (a knob that slows the kernel by a known amount, for bench/gate.sh).
 * SCHED_PERF_TEST_EXIT_DELAY_MS=N: every worker sleeps N ms where it reads
 * its own figures, which must be after the timed window (tests/window.sh).
 */
void testwork_setup(void)
{
	const char *env = getenv("SCHED_PERF_TEST_WORK_NS");
	const char *pct = getenv("SCHED_PERF_TEST_STRETCH_PCT");
	double ns = env ? atof(env) : 0, best = 0, p = pct ? atof(pct) : 0;
	int i;

	env = getenv("SCHED_PERF_TEST_EXIT_DELAY_MS");
	task_test_exit_delay_ms = env ? strtoul(env, NULL, 10) : 0;
	env = getenv("SCHED_PERF_TEST_WORK_SIDE");
	test_work_b_only = env && !strcmp(env, "b");
	/* set after the loops are timed: this thread never marks an op */
	if (p > 0 && p < 100)
		test_work_stretch = p / (100 - p);
	if (!(ns > 0 && ns <= 1e9))
		return;
	for (i = 0; i < 3; i++) {
		uint64_t t0 = now_ns();
		double per_loop;

		wl_test_work_loops = 1 << 22;
		wl_test_work();
		per_loop = (now_ns() - t0) / (double)(1 << 22);
		if (!i || per_loop < best)
			best = per_loop;
	}
	wl_test_work_loops = best > 0 ? ns / best : 0;
	test_work_loops = wl_test_work_loops;
}

/*
 * Test only: SCHED_PERF_TEST_STOP=1 stops the controller once it is set
 * up (its mounts made, the KTAP header out) and before its first
 * iteration, until SIGCONT, so that a test can hold runs side by side for
 * sure (tests/side_by_side.sh) instead of hoping that they overlap.  Taken
 * out of the environment first: the evidence recorder's re-run of the
 * program must not stop too.
 */
void testwork_stop(void)
{
	const char *env = getenv("SCHED_PERF_TEST_STOP");
	bool stop = env && !strcmp(env, "1");

	unsetenv("SCHED_PERF_TEST_STOP");
	if (!stop)
		return;
	verdict_note("TEST ONLY: SCHED_PERF_TEST_STOP=1: stopped before the first iteration until SIGCONT\n");
	raise(SIGSTOP);
}

void testwork_for_side(bool new_side)
{
	bool off = test_work_b_only && !new_side;

	/* workers are made per iteration: they take the loops from here */
	wl_test_work_loops = off ? 0 : test_work_loops;
	wl_test_stretch = off ? 0 : test_work_stretch;
}

void testwork_notes(const struct workload *wl, bool ab)
{
	const char *side = test_work_b_only && ab ? ", on the B side only" : "";

	if (test_work_loops)
		verdict_note("TEST ONLY: SCHED_PERF_TEST_WORK_NS=%s of busy work per %s%s\n",
			     getenv("SCHED_PERF_TEST_WORK_NS"), wl->op_name, side);
	if (test_work_stretch > 0)
		verdict_note("TEST ONLY: SCHED_PERF_TEST_STRETCH_PCT=%s: every %s's wall time stretched by %.2f %%%s\n",
			     getenv("SCHED_PERF_TEST_STRETCH_PCT"), wl->op_name,
			     100 * test_work_stretch, side);
	if (task_test_exit_delay_ms)
		verdict_note("TEST ONLY: SCHED_PERF_TEST_EXIT_DELAY_MS=%u: every worker sleeps as it reads its figures\n",
			     task_test_exit_delay_ms);
}
