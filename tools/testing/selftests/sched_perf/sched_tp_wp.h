/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_wakeup_preempt_tp's reasons (the kernel/sched patches), in the
 * order of enum sched_wakeup_preempt_reason in
 * include/trace/events/sched.h (its WAKEUP_<name>): the value a program
 * receives is the place in this list.  No guard: metric_rows.h includes
 * it with WP_REASON() defined.  tests/patches.sh holds it to the
 * patches' enum.
 */
WP_REASON(PREEMPT_PICK)
WP_REASON(PREEMPT_SHORT)
WP_REASON(PREEMPT_IDLE)
WP_REASON(PREEMPT_SYNC)
WP_REASON(KEPT_SLICE)
WP_REASON(KEPT_PICK)
WP_REASON(KEPT_SYNC)
WP_REASON(KEPT_RESCHED)
WP_REASON(KEPT_IDLE)
WP_REASON(KEPT_POLICY)
WP_REASON(KEPT_DELAYED)
WP_REASON(KEPT_DISABLED)
WP_REASON(KEPT_THROTTLED)
WP_REASON(KEPT_CURR)
WP_REASON(KEPT_CLASS)
