/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A counter source: one kind of kernel figure (perf events, the workers'
 * /proc/<tid>/sched, /proc/schedstat, BPF on the sched tracepoints, the machine's CPU
 * time), as operations the measurement core runs in a loop.  A source
 * fills its fields of enum field (metric_rows.h) at the end of each
 * window, each with a value or the reason it is missing; the rows of
 * metric_rows.c turn the fields into metrics.  Adding a source touches
 * its own file and the list in measure.c.
 */
#ifndef SCHED_PERF_SOURCE_H
#define SCHED_PERF_SOURCE_H

#include "measure.h"
#include "sysinfo.h"

struct counter_source {
	const char *name;	/* as --counters names it */
	int first, last;	/* its fields of enum field */
	/* read only when --counters names it: it slows what it measures */
	bool on_request;
	/* What this kernel offers (counters enabled only); once per run. */
	void (*setup)(struct measure *m);
	void (*teardown)(struct measure *m);
	/* The window: begin just before the workload, end just after. */
	void (*begin)(struct measure *m);
	void (*end)(struct measure *m);
	/* Its lines of the report header: what it found and why not. */
	void (*describe)(const struct measure *m, struct measure_meta *meta);
};

extern const struct counter_source src_perf, src_tasks, src_schedstat,
	src_machine, src_bpf;

/* Does this run read @src (--counters)? */
bool source_on(const struct measure *m, const struct counter_source *src);

/* The fields [@first, @last] missing for @why (NULL: present). */
void source_missing(struct measure *m, int first, int last, const char *why);

/*
 * kernel.sched_schedstats: why the schedstats-gated counters do not move
 * (it is 0 and we may not set it), else NULL.  src_schedstat owns the
 * sysctl; other sources of schedstats-gated counters ask it.
 */
const char *schedstats_off_why(void);

#endif
