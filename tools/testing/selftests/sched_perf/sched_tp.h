/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reasons the series' tracepoints give (the kernel/sched patches), in
 * the order of their enums in include/trace/events/sched.h, so that the
 * value a program receives is the place in the list:
 * sched_select_idle_sibling_tp's enum sched_sis_reason (SIS_<name>) and
 * sched_wakeup_preempt_tp's enum sched_wakeup_preempt_reason
 * (WAKEUP_<name>).  tests/patches.sh holds these lists to the patches'.
 */
#ifndef SCHED_PERF_SCHED_TP_H
#define SCHED_PERF_SCHED_TP_H

#define SCHED_SIS_REASONS(X)						\
	X(TARGET_IDLE) X(PREV_IDLE) X(PREV_KTHREAD) X(RECENT_IDLE)	\
	X(ASYM_FOUND) X(ASYM_NONE) X(NO_LLC) X(SMT_IDLE)		\
	X(SCAN_FOUND) X(SCAN_NONE) X(SCAN_BUDGET_ZERO)			\
	X(SCAN_BUDGET_SPENT) X(CLUSTER_PREV) X(CLUSTER_RECENT)

#define SCHED_WAKEUP_PREEMPT_REASONS(X)					\
	X(PREEMPT_PICK) X(PREEMPT_SHORT) X(PREEMPT_IDLE) X(PREEMPT_SYNC)	\
	X(KEPT_SLICE) X(KEPT_PICK) X(KEPT_SYNC) X(KEPT_RESCHED)		\
	X(KEPT_IDLE) X(KEPT_POLICY) X(KEPT_DELAYED) X(KEPT_DISABLED)	\
	X(KEPT_THROTTLED) X(KEPT_CURR) X(KEPT_CLASS)

#define SCHED_TP_COUNT(name)	+ 1
#define SCHED_SIS_NR		(0 SCHED_SIS_REASONS(SCHED_TP_COUNT))
#define SCHED_WAKEUP_PREEMPT_NR	(0 SCHED_WAKEUP_PREEMPT_REASONS(SCHED_TP_COUNT))

#endif
