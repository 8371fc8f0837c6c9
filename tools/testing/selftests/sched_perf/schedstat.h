/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsers for the scheduler's text interfaces: /proc/schedstat (versions
 * 15, 16 and 17), /proc/<pid>/sched and /proc/<pid>/schedstat.  Pure text
 * in, numbers out, so they can be tested against fixture files.
 */
#ifndef SCHED_PERF_SCHEDSTAT_H
#define SCHED_PERF_SCHEDSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Load-balance idle types, in one order whatever the file version says. */
enum lb_type {
	LB_BUSY,
	LB_IDLE,
	LB_NEWLY_IDLE,
	LB_TYPES,
};

/* rq counters; the unsigned int ones wrap at 2^32 in the kernel. */
struct schedstat_cpu {
	unsigned int cpu;
	uint32_t yld_count, sched_count, sched_goidle;
	uint32_t ttwu_count, ttwu_local;
	uint64_t rq_cpu_time, run_delay, pcount;
};

struct schedstat_domain {
	unsigned int cpu, level;
	uint32_t lb_count[LB_TYPES], lb_balanced[LB_TYPES];
	uint32_t lb_failed[LB_TYPES], lb_gained[LB_TYPES];
	uint32_t lb_hot_gained[LB_TYPES];
	uint32_t lb_nobusyq[LB_TYPES], lb_nobusyg[LB_TYPES];
	uint32_t alb_count, alb_failed, alb_pushed;
	uint32_t ttwu_wake_remote, ttwu_move_affine;
};

struct schedstat {
	unsigned int version;
	uint64_t timestamp;
	size_t nr_cpus, nr_domains;
	struct schedstat_cpu *cpus;
	struct schedstat_domain *domains;
};

/* Totals over every CPU and domain of the change between two snapshots. */
struct schedstat_delta {
	uint64_t yld_count, sched_count, sched_goidle;
	uint64_t ttwu_count, ttwu_local;
	uint64_t rq_cpu_time, run_delay, pcount;
	uint64_t lb_count, lb_failed, lb_gained, lb_hot_gained;
	uint64_t alb_pushed;
	uint64_t ttwu_wake_remote, ttwu_move_affine;
};

/*
 * Parse the whole text of /proc/schedstat.  Returns 0, or -1 with a
 * one-line reason in @err (unknown version, malformed line...).
 */
int schedstat_parse(const char *text, struct schedstat *ss,
		    char *err, size_t errlen);
void schedstat_free(struct schedstat *ss);

/*
 * @after - @before.  CPUs and domains are matched by (cpu, level); the
 * 32-bit counters are subtracted modulo 2^32.  Returns -1 when the two
 * snapshots do not describe the same topology.
 */
int schedstat_diff(const struct schedstat *before,
		   const struct schedstat *after, struct schedstat_delta *d);

/* What one task's /proc/<pid>/sched and /proc/<pid>/schedstat say. */
struct task_sched {
	uint64_t nr_migrations;
	uint64_t nr_switches, nr_voluntary_switches, nr_involuntary_switches;
	/* only printed while schedstats are enabled */
	bool has_schedstats;
	uint64_t wait_sum_ns, wait_count;
	uint64_t nr_wakeups, nr_wakeups_sync, nr_wakeups_migrate;
	uint64_t nr_wakeups_local, nr_wakeups_remote;
	uint64_t nr_wakeups_affine, nr_wakeups_affine_attempts;
	/* from /proc/<pid>/schedstat (CONFIG_SCHED_INFO) */
	bool has_run_delay;
	uint64_t exec_ns, run_delay_ns, pcount;
	/* from /proc/<pid>/stat: minor and major faults */
	bool has_faults;
	uint64_t page_faults;
};

/* Returns 0, or -1 when the text is not a /proc/<pid>/sched file. */
int task_sched_parse(const char *text, struct task_sched *ts);
/* Returns 0, or -1 when the text is not "exec run_delay pcount". */
int task_schedstat_parse(const char *text, struct task_sched *ts);
void task_sched_add(struct task_sched *sum, const struct task_sched *ts);
void task_sched_sub(struct task_sched *a, const struct task_sched *b);

#endif
