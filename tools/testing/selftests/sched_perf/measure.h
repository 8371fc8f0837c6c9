/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement core: whatever a workload does between measure_begin() and
 * measure_end(), count it.  perf software/hardware counters inherited by
 * every task the caller creates, /proc/schedstat deltas, the fair class's
 * idle-scan and wakeup-preemption counters (debugfs sched/fair_stats, from
 * this project's kernel/sched patches), and the per-task /proc/<tid>/sched
 * figures of every worker summed just before it exits.
 */
#ifndef SCHED_PERF_MEASURE_H
#define SCHED_PERF_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "fairstats.h"
#include "metrics.h"
#include "schedstat.h"

enum perf_counter {
	PC_TASK_CLOCK,
	PC_CONTEXT_SWITCHES,
	PC_CPU_MIGRATIONS,
	PC_PAGE_FAULTS,
	PC_CYCLES,
	PC_INSTRUCTIONS,
	PC_CACHE_MISSES,
	PC_BRANCH_MISSES,
	PC_COUNT,
};

struct task_accum;

struct measure {
	bool enabled;

	int fd[PC_COUNT];
	double count[PC_COUNT];
	const char *perf_missing[PC_COUNT];

	const char *schedstat_missing;	/* no /proc/schedstat at all */
	const char *ttwu_missing;	/* file there but counters frozen */
	struct schedstat before, after;
	struct schedstat_delta delta;

	const char *fair_missing;	/* no fair_stats, or it stopped */
	struct fair_stats fair_before, fair_after;
	struct fair_stats_delta fair;

	const char *task_missing;
	struct task_accum *accum;	/* shared with worker processes */
	struct task_sched tasks;	/* sum over workers, after end */
	unsigned int nr_tasks;

	/* the whole machine, from /proc/stat: is someone else busy? */
	bool cpu_ok;
	struct cpu_time {
		double busy_ns, steal_ns, wall_ns;
	} cpu_before, cpu_after;
};

/* Machine and kernel facts for the header of every report. */
#define MEASURE_META_MAX 12
struct measure_meta {
	unsigned int nr;
	struct {
		const char *key;
		char value[512];
	} kv[MEASURE_META_MAX];
};

/*
 * Probe what this kernel offers, and enable kernel.sched_schedstats for
 * the run when we may (restored by measure_teardown(), at exit and on
 * SIGINT/SIGTERM).  @enabled false measures nothing (overhead baseline).
 */
void measure_setup(struct measure *m, bool enabled);
void measure_teardown(struct measure *m);

void measure_begin(struct measure *m);
void measure_end(struct measure *m);

/* Raw totals and per-operation figures for @ops operations. */
void measure_metrics(const struct measure *m, double ops,
		     struct metric_set *set);
void measure_describe(const struct measure *m, struct measure_meta *meta);

/*
 * Is @metric a raw count (perf counters, tasks observed) that adds up over
 * iterations, rather than a rate or a per-op figure?
 */
bool measure_is_total(const char *metric);

#endif
