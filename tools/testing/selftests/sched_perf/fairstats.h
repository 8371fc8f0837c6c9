/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser of /sys/kernel/debug/sched/fair_stats, the select_idle_sibling()
 * and wakeup-preemption counters our fair-class patches add:
 *
 *   version 2
 *   cpu sis_calls sis_idle_target ... wakeup_slice_kept
 *   cpu0 100 10 ...
 *
 * One row per online CPU, one u64 per column named by the header.  Pure
 * text in, numbers out, so it can be tested against fixture files.
 */
#ifndef SCHED_PERF_FAIRSTATS_H
#define SCHED_PERF_FAIRSTATS_H

#include <stddef.h>
#include <stdint.h>

#define FAIR_STATS_PATH "/sys/kernel/debug/sched/fair_stats"

/* CPU numbers at or above this are taken for garbage, not a machine. */
#define FAIR_STATS_MAX_CPUS 65536

/*
 * The one version this parser knows: version 1 (an out-of-tree draft)
 * counted every check_preempt_wakeup_fair() call, not wakeups only.  A
 * file may order the columns as it likes and add others.
 */
#define FAIR_STATS_VERSION 2

/* FC_sis_calls ...: the columns of fair_counters.h, in its order */
enum fair_counter {
#define FAIR_COUNTER(column) FC_##column,
#include "fair_counters.h"
#undef FAIR_COUNTER
	FC_COUNT,
};

/* The header's name of each counter: fair_counter_names[FC_sis_calls]... */
extern const char *const fair_counter_names[FC_COUNT];

struct fair_stats_cpu {
	unsigned int cpu;
	uint64_t v[FC_COUNT];
};

struct fair_stats {
	unsigned int version;
	size_t nr_cpus;
	struct fair_stats_cpu *cpus;	/* ascending by cpu number */
};

/* Totals over the CPUs of both snapshots; nr_cpus is how many. */
struct fair_stats_delta {
	uint64_t v[FC_COUNT];
	size_t nr_cpus;
};

/*
 * Parse the whole text of the file (it ends at the first NUL).  Columns
 * are found by name: any order, and columns this program does not know
 * are skipped, values unread.  Returns 0, or -1 with a one-line reason in
 * @err ("line N: ..." where a line is at fault) and @fs zeroed, nothing
 * left allocated.  @fs is overwritten, not freed: free an earlier parse
 * into it first.
 */
int fair_stats_parse(const char *text, struct fair_stats *fs,
		     char *err, size_t errlen);
/* Frees the rows and zeroes @fs; fine on a zeroed struct. */
void fair_stats_free(struct fair_stats *fs);

/*
 * @after - @before summed over the CPUs, each counter modulo 2^64.  CPUs
 * are matched by number; one in only one snapshot (hotplug during the
 * run) is an error naming it: "cpu2 went offline during the run", "cpu4
 * came online during the run".  Returns 0, or -1 with @d zeroed and a
 * one-line reason in @err.
 */
int fair_stats_diff(const struct fair_stats *before,
		    const struct fair_stats *after,
		    struct fair_stats_delta *d, char *err, size_t errlen);


#endif
