// SPDX-License-Identifier: GPL-2.0
/*
 * The derived figures, one row each.  See metric_rows.h.  The order of
 * the rows is the order of the metrics in KTAP and in the results file.
 */
#include <math.h>
#include <string.h>

#include "compiler.h"
#include "metric_rows.h"

#define LS	ROW_LOAD_SENSITIVE
#define TERMS(...)	{ __VA_ARGS__ }
#define PER_OP		TERMS(PLUS(F_OPS))

/* A raw count, summed over iterations. */
#define TOTAL(name, unit, field, flags) \
	{ name, unit, ROW_TOTAL | (flags), TERMS(PLUS(field)), TERMS(0), 1 }
/* @field per operation, times @scale. */
#define PER(name, unit, field, scale, flags) \
	{ name, unit, flags, TERMS(PLUS(field)), PER_OP, scale }
/* @num / @den: both single fields. */
#define SHARE(name, num, den, flags) \
	{ name, "", flags, TERMS(PLUS(num)), TERMS(PLUS(den)), 1 }

/* A window's own figure, times @scale: median over iterations. */
#define VALUE(name, unit, field, scale, flags) \
	{ name, unit, ROW_VALUE | (flags), TERMS(PLUS(field)), TERMS(0), scale }
/* A share of the wakeups whose placement is known. */
#define PLACED(name, field) \
	{ name, "", 0, TERMS(PLUS(field)), \
	  TERMS(PLUS(F_TP_PLACED_PREV), PLUS(F_TP_PLACED_WAKER), \
		PLUS(F_TP_PLACED_LLC), PLUS(F_TP_PLACED_OTHER)), 1 }

/* Every scan select_idle_sibling() ran, by how it ended. */
#define SCANS \
	TERMS(PLUS(F_TP_SIS_ASYM_FOUND), PLUS(F_TP_SIS_ASYM_NONE), \
	      PLUS(F_TP_SIS_SCAN_FOUND), PLUS(F_TP_SIS_SCAN_NONE), \
	      PLUS(F_TP_SIS_SCAN_BUDGET_ZERO), PLUS(F_TP_SIS_SCAN_BUDGET_SPENT), \
	      PLUS(F_TP_SIS_CLUSTER_PREV), PLUS(F_TP_SIS_CLUSTER_RECENT))

const struct metric_row metric_rows[] = {
	/* perf events */
	TOTAL("task_clock", "ns", F_TASK_CLOCK, 0),
	TOTAL("context_switches", "", F_CONTEXT_SWITCHES, 0),
	TOTAL("cpu_migrations", "", F_CPU_MIGRATIONS, LS),
	TOTAL("page_faults", "", F_PAGE_FAULTS, 0),
	TOTAL("cycles", "", F_CYCLES, 0),
	TOTAL("instructions", "", F_INSTRUCTIONS, 0),
	TOTAL("cache_misses", "", F_CACHE_MISSES, 0),
	TOTAL("branch_misses", "", F_BRANCH_MISSES, 0),
	PER("migrations_per_1k_ops", "", F_CPU_MIGRATIONS, 1000, LS),
	PER("ctx_switches_per_op", "", F_CONTEXT_SWITCHES, 1, 0),
	PER("task_clock_us_per_op", "us", F_TASK_CLOCK, 1e-3, 0),
	SHARE("ipc", F_INSTRUCTIONS, F_CYCLES, 0),

	/* the workers' own figures */
	TOTAL("tasks_observed", "", F_TASKS_OBSERVED, 0),
	PER("task_migrations_per_1k_ops", "", F_TASK_MIGRATIONS, 1000, LS),
	PER("voluntary_switches_per_op", "", F_VOLUNTARY_SWITCHES, 1, 0),
	PER("involuntary_switches_per_op", "", F_INVOLUNTARY_SWITCHES, 1, 0),
	{ "involuntary_share", "", 0, TERMS(PLUS(F_INVOLUNTARY_SWITCHES)),
	  TERMS(PLUS(F_VOLUNTARY_SWITCHES), PLUS(F_INVOLUNTARY_SWITCHES)), 1 },
	PER("run_delay_us_per_op", "us", F_RUN_DELAY_NS, 1e-3, LS),
	PER("wait_us_per_op", "us", F_WAIT_SUM_NS, 1e-3, LS),
	PER("wakeups_per_op", "", F_WAKEUPS, 1, 0),
	PER("wakeup_migrations_per_1k_ops", "", F_WAKEUPS_MIGRATE, 1000, LS),
	SHARE("wakeups_remote_share", F_WAKEUPS_REMOTE, F_WAKEUPS, 0),
	SHARE("wakeups_affine_share", F_WAKEUPS_AFFINE, F_WAKEUPS_AFFINE_ATTEMPTS, 0),
	SHARE("wakeups_sync_share", F_WAKEUPS_SYNC, F_WAKEUPS, 0),

	/* /proc/schedstat */
	PER("ss_run_delay_us_per_op", "us", F_SS_RUN_DELAY_NS, 1e-3, LS),
	PER("ss_ttwu_per_op", "", F_SS_TTWU, 1, 0),
	{ "ss_ttwu_remote_share", "", 0, TERMS(PLUS(F_SS_TTWU), MINUS(F_SS_TTWU_LOCAL)),
	  TERMS(PLUS(F_SS_TTWU)), 1 },
	PER("ss_wake_remote_per_1k_ops", "", F_SS_WAKE_REMOTE, 1000, 0),
	PER("ss_move_affine_per_1k_ops", "", F_SS_MOVE_AFFINE, 1000, 0),
	PER("ss_lb_gained_per_1k_ops", "", F_SS_LB_GAINED, 1000, 0),
	PER("ss_alb_pushed_per_1k_ops", "", F_SS_ALB_PUSHED, 1000, 0),
	PER("ss_goidle_per_1k_ops", "", F_SS_GOIDLE, 1000, 0),

	/*
	 * The same questions from BPF on the tracepoints every kernel has
	 * (src_bpf.c), for the workload's tasks alone: where wakeups put the
	 * wakee, how often a wakee preempted, how long it waited to run.
	 */
	PER("tp_wakeups_per_op", "", F_TP_WAKEUPS, 1, 0),
	PLACED("tp_wake_prev_cpu_share", F_TP_PLACED_PREV),
	PLACED("tp_wake_waker_cpu_share", F_TP_PLACED_WAKER),
	PLACED("tp_wake_llc_share", F_TP_PLACED_LLC),
	PLACED("tp_wake_other_llc_share", F_TP_PLACED_OTHER),
	{ "tp_wake_migrations_per_1k_ops", "", LS,
	  TERMS(PLUS(F_TP_PLACED_WAKER), PLUS(F_TP_PLACED_LLC), PLUS(F_TP_PLACED_OTHER)),
	  PER_OP, 1000 },
	SHARE("tp_wakeup_preempt_share", F_TP_WAKEUP_PREEMPTS, F_TP_RAN, 0),
	PER("tp_involuntary_switches_per_op", "", F_TP_INVOLUNTARY, 1, 0),
	VALUE("tp_wakeup_latency_p50_us", "us", F_TP_LAT_P50_NS, 1e-3, LS),
	VALUE("tp_wakeup_latency_p99_us", "us", F_TP_LAT_P99_NS, 1e-3, LS),
	PER("tp_wakeup_preempts_per_op", "", F_TP_WAKEUP_PREEMPTS, 1, 0),

	/*
	 * How the idle sibling search ended and why a wakee did or did not
	 * preempt, for the workload's wakees: the series' tracepoints.
	 */
	PER("tp_sis_calls_per_op", "", F_TP_SIS_CALLS, 1, 0),
	SHARE("tp_sis_scanned_per_wakeup", F_TP_SIS_EXAMINED, F_TP_SIS_CALLS, LS),
	{ "tp_sis_fast_share", "", 0,
	  TERMS(PLUS(F_TP_SIS_TARGET_IDLE), PLUS(F_TP_SIS_PREV_IDLE),
		PLUS(F_TP_SIS_PREV_KTHREAD), PLUS(F_TP_SIS_RECENT_IDLE),
		PLUS(F_TP_SIS_NO_LLC), PLUS(F_TP_SIS_SMT_IDLE)),
	  TERMS(PLUS(F_TP_SIS_CALLS)), 1 },
	{ "tp_sis_found_share", "", 0,
	  TERMS(PLUS(F_TP_SIS_SCAN_FOUND), PLUS(F_TP_SIS_ASYM_FOUND)), SCANS, 1 },
	{ "tp_sis_budget_cut_share", "", 0,
	  TERMS(PLUS(F_TP_SIS_SCAN_BUDGET_ZERO), PLUS(F_TP_SIS_SCAN_BUDGET_SPENT)), SCANS, 1 },
	SHARE("tp_sis_unknown_share", F_TP_SIS_UNKNOWN, F_TP_SIS_CALLS, 0),
	PER("tp_wakeup_checks_per_op", "", F_TP_WP_CHECKS, 1, 0),
	{ "tp_check_preempt_share", "", 0,
	  TERMS(PLUS(F_TP_WP_PREEMPT_PICK), PLUS(F_TP_WP_PREEMPT_SHORT),
		PLUS(F_TP_WP_PREEMPT_IDLE), PLUS(F_TP_WP_PREEMPT_SYNC)),
	  TERMS(PLUS(F_TP_WP_CHECKS)), 1 },
	SHARE("tp_check_short_share", F_TP_WP_PREEMPT_SHORT, F_TP_WP_CHECKS, 0),
	SHARE("tp_check_slice_kept_share", F_TP_WP_KEPT_SLICE, F_TP_WP_CHECKS, 0),
	SHARE("tp_check_pick_kept_share", F_TP_WP_KEPT_PICK, F_TP_WP_CHECKS, 0),
	SHARE("tp_check_pending_share", F_TP_WP_KEPT_RESCHED, F_TP_WP_CHECKS, 0),
	SHARE("tp_check_unknown_share", F_TP_WP_UNKNOWN, F_TP_WP_CHECKS, 0),

	/* the rest of the machine: is someone else busy? */
	SHARE(METRIC_FOREIGN_SHARE, F_FOREIGN_NS, F_CAPACITY_NS, 0),
	SHARE("steal_share", F_STEAL_NS, F_CAPACITY_NS, 0),
	/* what --counters tasks costs: the workers' reads, in the window */
	SHARE("tasks_read_share", F_TASKS_READ_NS, F_CAPACITY_NS, 0),
};

const size_t metric_nr_rows = ARRAY_SIZE(metric_rows);

const struct metric_row *metric_row_find(const char *name)
{
	size_t i;

	for (i = 0; i < metric_nr_rows; i++)
		if (!strcmp(metric_rows[i].name, name))
			return &metric_rows[i];
	return NULL;
}

bool metric_is_throughput(const char *name)
{
	size_t len = strlen(name);

	return !metric_row_find(name) && len >= 8 && !strcmp(name + len - 8, "_per_sec");
}

bool metric_load_sensitive(const char *name)
{
	const struct metric_row *row = metric_row_find(name);

	if (row)
		return row->flags & ROW_LOAD_SENSITIVE;
	return metric_is_throughput(name);
}

static int term_field(short term)
{
	return (term > 0 ? term : -term) - 1;
}

/* The reason of the first missing field among @terms, or NULL. */
static const char *terms_missing(const short *terms, const char *const *missing)
{
	int i;

	for (i = 0; i < ROW_TERMS && terms[i]; i++)
		if (missing[term_field(terms[i])])
			return missing[term_field(terms[i])];
	return NULL;
}

static double terms_sum(const short *terms, const double *value)
{
	double sum = 0;
	int i;

	for (i = 0; i < ROW_TERMS && terms[i]; i++)
		sum += terms[i] > 0 ? value[term_field(terms[i])] : -value[term_field(terms[i])];
	return sum;
}

void metric_row_eval(const struct metric_row *row, const double *value,
		     const char *const *missing, struct metric_set *set)
{
	const char *why = terms_missing(row->den, missing);
	double num;

	if (!why)
		why = terms_missing(row->num, missing);
	if (why) {
		metric_missing(set, row->name, why);
		return;
	}
	num = terms_sum(row->num, value);
	if (row->flags & ROW_TOTAL)
		metric_add(set, row->name, row->unit, num);
	else if (row->flags & ROW_VALUE)
		metric_add(set, row->name, row->unit, num * row->scale);
	else
		metric_ratio(set, row->name, row->unit, num, terms_sum(row->den, value),
			     row->scale);
}
