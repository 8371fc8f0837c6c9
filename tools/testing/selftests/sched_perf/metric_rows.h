/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every figure the measurement core derives, declared once as a row of
 * data: its name, unit, whether it is a raw total or a ratio, whether it
 * moves with the load of the rest of the machine, and the raw fields it
 * is computed from.  The counter sources (src_*.c) fill the fields; the
 * rows turn them into metrics.  Pure data and arithmetic, so that
 * sched_perf_compare and the unit tests can link it without measuring.
 */
#ifndef SCHED_PERF_METRIC_ROWS_H
#define SCHED_PERF_METRIC_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "metrics.h"

/* The raw figures of one measurement window, whichever source fed them. */
enum field {
	/* perf events (src_perf.c) */
	F_TASK_CLOCK,
	F_CONTEXT_SWITCHES,
	F_CPU_MIGRATIONS,
	F_PAGE_FAULTS,
	F_CYCLES,
	F_INSTRUCTIONS,
	F_CACHE_MISSES,
	F_BRANCH_MISSES,
	/* every worker's /proc/<tid>/sched and schedstat, summed (src_tasks.c) */
	F_TASKS_OBSERVED,
	F_TASK_MIGRATIONS,
	F_VOLUNTARY_SWITCHES,
	F_INVOLUNTARY_SWITCHES,
	F_RUN_DELAY_NS,
	F_WAIT_SUM_NS,
	F_WAKEUPS,
	F_WAKEUPS_MIGRATE,
	F_WAKEUPS_REMOTE,
	F_WAKEUPS_AFFINE,
	F_WAKEUPS_AFFINE_ATTEMPTS,
	F_WAKEUPS_SYNC,
	F_TASKS_READ_NS,	/* CPU time the workers spent reading their figures */
	/* /proc/schedstat, machine-wide (src_schedstat.c) */
	F_SS_RUN_DELAY_NS,
	F_SS_TTWU,
	F_SS_TTWU_LOCAL,
	F_SS_WAKE_REMOTE,
	F_SS_MOVE_AFFINE,
	F_SS_LB_GAINED,
	F_SS_ALB_PUSHED,
	F_SS_GOIDLE,
	/* the workload's wakeups, from BPF on the sched tracepoints (src_bpf.c) */
	F_TP_WAKEUPS,
	F_TP_PLACED_PREV,	/* on the CPU the wakee last ran on */
	F_TP_PLACED_WAKER,	/* else on the waker's CPU */
	F_TP_PLACED_LLC,	/* else on another CPU of the previous CPU's LLC */
	F_TP_PLACED_OTHER,	/* else on another LLC */
	F_TP_RAN,		/* wakees switched in (latency samples) */
	F_TP_WAKEUP_PREEMPTS,	/* of them, in place of a runnable task */
	F_TP_INVOLUNTARY,	/* the workload's tasks switched out runnable */
	F_TP_LAT_P50_NS,	/* wakeup to switch-in, the window's median */
	F_TP_LAT_P99_NS,
	/* the same programs on the series' tracepoints (the kernel/sched patches) */
	F_TP_SIS_CALLS,		/* select_idle_sibling() returns for a worker */
	F_TP_SIS_EXAMINED,	/* CPUs its scans examined */
	F_TP_SIS_UNKNOWN,	/* a reason past the list of sched_tp_sis.h */
#define SIS_REASON(name)	F_TP_SIS_##name,
#include "sched_tp_sis.h"
#undef SIS_REASON
	F_TP_WP_CHECKS,		/* wakeup preemption decisions for a worker */
	F_TP_WP_UNKNOWN,
#define WP_REASON(name)	F_TP_WP_##name,
#include "sched_tp_wp.h"
#undef WP_REASON
	/* the machine's CPU time not ours, and stolen (src_machine.c) */
	F_FOREIGN_NS,
	F_STEAL_NS,
	F_CAPACITY_NS,
	/* the workload's operations in the window */
	F_OPS,
	F_COUNT,
};

/* How many reasons each tracepoint gives (sched_tp_sis.h, sched_tp_wp.h). */
enum {
#define SIS_REASON(name)	SIS_NR_##name,
#include "sched_tp_sis.h"
#undef SIS_REASON
	SCHED_SIS_NR
};

enum {
#define WP_REASON(name)	WP_NR_##name,
#include "sched_tp_wp.h"
#undef WP_REASON
	SCHED_WAKEUP_PREEMPT_NR
};

/* The first field of each list of reasons, and the bpf source's last. */
#define F_TP_SIS_FIRST	(F_TP_SIS_UNKNOWN + 1)
#define F_TP_WP_FIRST	(F_TP_WP_UNKNOWN + 1)
#define F_TP_LAST	(F_TP_WP_UNKNOWN + SCHED_WAKEUP_PREEMPT_NR)

/* A row's terms: PLUS(field) adds the field, MINUS(field) subtracts it. */
#define PLUS(f)		((short)((f) + 1))
#define MINUS(f)	((short)(-((f) + 1)))
#define ROW_TERMS	10

enum {
	ROW_TOTAL = 1 << 0,		/* the numerator alone, summed over iterations */
	ROW_LOAD_SENSITIVE = 1 << 1,	/* moves with the rest of the machine's load */
	/* the numerator times scale, no denominator: a window's figure */
	ROW_VALUE = 1 << 2,
};

struct metric_row {
	const char *name;
	const char *unit;
	unsigned int flags;
	short num[ROW_TERMS];	/* terms, 0-terminated */
	short den[ROW_TERMS];	/* terms, 0-terminated; none for a total */
	double scale;		/* ratio: num / den * scale */
};

extern const struct metric_row metric_rows[];
extern const size_t metric_nr_rows;

/* The row that declares @name, or NULL (a workload's own figure). */
const struct metric_row *metric_row_find(const char *name);

/*
 * Is @name the workload's throughput, the wall-clock rate the driver names
 * <ops>_per_sec: the primary metric of a comparison (compare.h)?
 */
bool metric_is_throughput(const char *name);

/*
 * Does @name move with the load of the rest of the machine: a row marked
 * so (placement counts, time spent waiting for a CPU), or the workload's
 * wall-clock rate, which the driver names <ops>_per_sec?
 */
bool metric_load_sensitive(const char *name);

/*
 * The measure of that load: the share of the machine's CPU time that went
 * to other work during a run (its row below), and the two rules on it.  A
 * bound on a load-sensitive metric is not judged when the share was above
 * LOAD_MAX_FOREIGN (it measures the machine, not the kernel); a comparison
 * of one is not judged when the two sides' shares differ by more than
 * LOAD_MAX_FOREIGN_APART (a busier machine, not a worse kernel).
 */
#define METRIC_FOREIGN_SHARE	"foreign_cpu_share"
#define LOAD_MAX_FOREIGN	0.25
#define LOAD_MAX_FOREIGN_APART	0.05

/*
 * Append @row's metric to @set from @value[] and @missing[] (indexed by
 * enum field): missing with the first missing field's reason, checked
 * denominator first, else the value.
 */
void metric_row_eval(const struct metric_row *row, const double *value,
		     const char *const *missing, struct metric_set *set);

#endif
