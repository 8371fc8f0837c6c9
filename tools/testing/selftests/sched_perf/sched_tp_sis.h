/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_select_idle_sibling_tp's reasons (the kernel/sched patches), in
 * the order of enum sched_sis_reason in include/trace/events/sched.h (its
 * SIS_<name>): the value a program receives is the place in this list.
 * No guard: metric_rows.h includes it with SIS_REASON() defined.
 * tests/patches.sh holds it to the patches' enum.
 */
SIS_REASON(TARGET_IDLE)
SIS_REASON(PREV_IDLE)
SIS_REASON(PREV_KTHREAD)
SIS_REASON(RECENT_IDLE)
SIS_REASON(ASYM_FOUND)
SIS_REASON(ASYM_NONE)
SIS_REASON(NO_LLC)
SIS_REASON(SMT_IDLE)
SIS_REASON(SCAN_FOUND)
SIS_REASON(SCAN_NONE)
SIS_REASON(SCAN_BUDGET_ZERO)
SIS_REASON(SCAN_BUDGET_SPENT)
SIS_REASON(CLUSTER_PREV)
SIS_REASON(CLUSTER_RECENT)
