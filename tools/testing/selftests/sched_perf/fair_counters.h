/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The columns of sched/fair_stats this program knows, one line each, as
 * the file's header names them (the patches of kernel/sched).  No guard:
 * fairstats.h and fairstats.c include it with FAIR_COUNTER() defined to
 * make the enum (FC_<column>) and the names from this one list.  A new
 * kernel counter is one line here, then the metric rows that use it
 * (metric_rows.c).
 */
FAIR_COUNTER(sis_calls)
FAIR_COUNTER(sis_idle_target)
FAIR_COUNTER(sis_idle_prev)
FAIR_COUNTER(sis_idle_recent)
FAIR_COUNTER(sis_idle_smt)
FAIR_COUNTER(sis_kthread_prev)
FAIR_COUNTER(sis_no_llc)
FAIR_COUNTER(sis_scans)
FAIR_COUNTER(sis_scans_asym)
FAIR_COUNTER(sis_scan_cpus)
FAIR_COUNTER(sis_scans_found)
FAIR_COUNTER(sis_scans_failed)
FAIR_COUNTER(sis_scans_failed_cluster)
FAIR_COUNTER(sis_budget_zero)
FAIR_COUNTER(sis_budget_spent)
FAIR_COUNTER(wakeup_checks)
FAIR_COUNTER(wakeup_preempts)
FAIR_COUNTER(wakeup_slice_kept)
