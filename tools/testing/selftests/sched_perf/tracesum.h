/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a scheduler trace says, in a few lines a maintainer can read:
 * migrations per CPU pair and per task, wakeup-to-run latency, who
 * preempted whom.  Text in (the lines of `trace-cmd report` or `perf
 * script`, sched_switch / sched_wakeup / sched_wakeup_new /
 * sched_migrate_task events), files out.
 */
#ifndef SCHED_PERF_TRACESUM_H
#define SCHED_PERF_TRACESUM_H

#include <stddef.h>
#include <stdio.h>

struct tracesum;

struct tracesum_counts {
	unsigned long switches, wakeups, migrations, preemptions, latencies;
	double first_ts, last_ts;	/* seconds, of the events used */
};

struct tracesum *tracesum_new(void);
void tracesum_free(struct tracesum *ts);

/*
 * Feed one line of text.  Lines that are no sched event of ours, or that
 * do not parse, are ignored: 1 when the line was used, 0 otherwise, -1
 * when memory ran out.
 */
int tracesum_line(struct tracesum *ts, const char *line);
void tracesum_counts(const struct tracesum *ts, struct tracesum_counts *c);

/*
 * The human summary to @f, under the heading @title; the top @top tasks
 * and pairs.
 */
void tracesum_summary(const struct tracesum *ts, const char *title,
		      unsigned int top, FILE *f);
/*
 * migrations.tsv, tasks.tsv, wakeup_latency.tsv and preemptions.tsv in
 * @dir, all whole or none (outfile.h).  Returns 0, or -1 with "PATH: why"
 * in @err.
 */
int tracesum_write_tables(const struct tracesum *ts, const char *dir,
			  char *err, size_t len);


#endif
