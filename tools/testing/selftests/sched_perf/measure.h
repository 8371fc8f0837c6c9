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

#include "metric_rows.h"

/*
 * One measurement window's raw fields (enum field), each a value or the
 * reason it is missing; the counter sources (source.h) fill them.
 */
struct measure {
	bool enabled;
	double value[F_COUNT];
	const char *missing[F_COUNT];
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
/* Every metric measure_metrics() may produce, each missing. */
void measure_known(struct metric_set *set);
void measure_describe(const struct measure *m, struct measure_meta *meta);
/*
 * A field that no source wrote in a window, nor marked missing (a field
 * added past the end of a source's range, say), is missing with this
 * reason after measure_end(), never a real 0.
 */
#define MEASURE_UNFILLED	"no counter source filled it"
void measure_mark_unfilled(struct measure *m);
/* One header line: @key and @value formatted by @fmt (one %s). */
void meta_add(struct measure_meta *meta, const char *key, const char *fmt,
	      const char *value);

/*
 * Is @metric a raw count (perf counters, tasks observed) that adds up over
 * iterations, rather than a rate or a per-op figure?
 */
bool measure_is_total(const char *metric);

#endif
