/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a workload tells the driver.  A workload makes load and times its
 * own window; it knows nothing of counters, statistics or KTAP.
 */
#ifndef SCHED_PERF_WORKLOAD_H
#define SCHED_PERF_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "clock.h"
#include "opts.h"

/*
 * Test-only slowdowns (see the documentation), so that bench/gate.sh can
 * make a kernel "5 % slower" on purpose; every workload calls
 * wl_test_work() once per operation.  Two kinds:
 *  - SCHED_PERF_TEST_WORK_NS: a fixed amount of busy work, calibrated
 *    in testwork.c before any worker starts;
 *  - SCHED_PERF_TEST_STRETCH_PCT: each operation's own wall time, since
 *    the last call in this thread, stretched by spinning on the clock, so
 *    that a thread that does one thing after another runs that much
 *    slower whatever its operations cost (dirdeep, where busy work
 *    overlaps the I/O it waits for and moves throughput by less than its
 *    share).  wl_test_work_done() stretches the tail of a window too.
 * Both are one predictable branch unless set.
 */
extern unsigned long wl_test_work_loops;
extern double wl_test_stretch;		/* extra wall time per unit of it */
void wl_test_stretch_op(void);

static inline void wl_test_work(void)
{
	unsigned long i;

	for (i = 0; i < wl_test_work_loops; i++)
		__asm__ __volatile__("" ::: "memory");
	if (wl_test_stretch > 0)
		wl_test_stretch_op();
}

/*
 * A window that ends by the clock, in the stretched time: a stretched run
 * does the same operations in the same order, each P % slower, so that
 * its throughput moves by P % whatever mix of cheap and dear operations
 * the window holds (dirdeep's build and exercise phases).
 */
static inline uint64_t wl_test_window_ns(uint64_t ns)
{
	return ns * (1 + wl_test_stretch);
}

/* The end of a timed window that is not an operation (a clean-up). */
static inline void wl_test_work_done(void)
{
	if (wl_test_stretch > 0)
		wl_test_stretch_op();
}

/* One timed iteration. */
struct wl_result {
	uint64_t ops;		/* messages, transactions, bogo-ops */
	uint64_t elapsed_ns;	/* the workload's own timed window */
};

/* Figures a workload may publish under its own names. */
struct wl_summary {
	double best_ns, mean_ns, worst_ns;	/* per-iteration elapsed */
	double ops_per_sec_median;
};

/* Return values of workload callbacks besides 0. */
#define WL_ERROR	-1	/* message already printed */
#define WL_SKIP		-2	/* cannot run here; reason in the buffer */

struct workload {
	const char *name;		/* prefix of bounds and results keys */
	const char *op_name;		/* what one op is, for the report */
	const char *ops_name;		/* plural, names the rate metrics */
	/*
	 * The workload's options (OPT_END() ends them), before the common
	 * ones in --help, then @opts_notes (or NULL).  Every one changes the
	 * load: the run set notes it, and a re-run repeats it.
	 */
	const struct opt_spec *opts;
	const char *opts_notes;
	unsigned int default_nr_threads_pct;
	/* 0: the driver's defaults (5 iterations in 20 s) */
	unsigned int default_iterations;
	double default_budget;
	/* NULL-terminated names of the variants bounds may be given for */
	const char *const *variants;

	/* Optional: called first (workloads that share code set their mode). */
	void (*init)(void);
	/*
	 * --nr-threads resolved to a count (LKP's floor(P% x CPUs), >= 1);
	 * @explicit when the user gave --nr-threads.
	 */
	void (*set_instances)(unsigned int n, bool explicit);
	/* Everything validated; check limits.  WL_SKIP with @why. */
	int (*prepare)(char *why, size_t len);
	/* Size one iteration to about @seconds unless the user fixed it. */
	int (*fit_budget)(double seconds);
	/*
	 * Peer-compatible banner (stdout).  It and report_iteration() are
	 * printed only on the peer's command line where peer_cmdline() is
	 * given (a peer's "# Running ..." in KTAP reads as a subtest), always
	 * otherwise: they must never look like KTAP.
	 */
	void (*banner)(void);
	/* One timed iteration; WL_ERROR after printing why. */
	int (*run_once)(struct wl_result *res);
	/* Peer-compatible line per iteration (stdout). */
	void (*report_iteration)(const struct wl_result *res);
	/* Workload-specific figures, e.g. LKP's own throughput formula. */
	void (*publish)(const struct wl_summary *s,
			void (*add)(const char *name, const char *unit, double v));
	/*
	 * Optional: true when the command line is the peer's own (e.g. LKP
	 * calling rt-tests hackbench): one iteration, no budget fitting, the
	 * peer's own lines.
	 */
	bool (*peer_cmdline)(void);
	/* The variant this run is (one of @variants). */
	const char *(*variant)(void);
};

#endif
