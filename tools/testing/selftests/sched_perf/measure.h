/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Measurement core: whatever a workload does between measure_begin() and
 * measure_end(), count it.  perf software/hardware counters inherited by
 * every task the caller creates, /proc/schedstat deltas, the workload's
 * wakeups, idle scans and wakeup preemptions from BPF on the sched
 * tracepoints (and on the kernel/sched patches' own where the kernel has
 * them), and the per-task /proc/<tid>/sched figures of every worker summed
 * just before it exits.
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
	unsigned int sources;	/* the bit of each source on; 0: none */
	double value[F_COUNT];
	const char *missing[F_COUNT];
};

/* Machine and kernel facts for the header of every report. */
#define MEASURE_META_MAX 16
struct measure_meta {
	unsigned int nr;
	struct {
		const char *key;
		char value[512];
	} kv[MEASURE_META_MAX];
};

/*
 * The counter sources, by name: perf (perf events inherited by the
 * workload's tasks), tasks (the workers' /proc/<tid>/sched), schedstat
 * (/proc/schedstat, and kernel.sched_schedstats on for the run), machine
 * (/proc/stat: the machine's other load), bpf (BPF programs on the sched
 * tracepoints, following the workload's tasks).
 */
#define MEASURE_SOURCES_ALL	0x1fu
#define MEASURE_SOURCE_NAMES	"perf,bpf,tasks,schedstat,machine"

/* The sources read unless --counters says otherwise: all but perf. */
unsigned int measure_default_sources(void);

/*
 * @list, names of MEASURE_SOURCE_NAMES separated by commas, or "all",
 * "default" or "none", into *@sources.  0, or -1 with the reason in @err.
 */
int measure_parse_sources(const char *list, unsigned int *sources, char *err, size_t len);

/*
 * Probe what this kernel offers from the @sources asked for (0 measures
 * nothing: the overhead baseline; a source not asked for leaves its
 * fields missing), and enable kernel.sched_schedstats for the run when
 * we may (restored by measure_teardown(), at exit and on SIGINT/SIGTERM).
 */
void measure_setup(struct measure *m, unsigned int sources);
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
