/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHED_PERF_SUMMARY_H
#define SCHED_PERF_SUMMARY_H

#include "metrics.h"
#include "runset.h"
#include "workload.h"

/* Operations per second of one timed iteration. */
double summary_rate(const struct wl_result *r);

/* Every metric name this program can produce, for checking bounds. */
void summary_known_metrics(const struct workload *wl, struct metric_set *set);

/* Each figure of @set as a note: "prefix.name: value unit", or n/a and why. */
void summary_print(const char *prefix, const struct metric_set *set);

/*
 * The figures judged by the absolute bounds, into @set: the workload's
 * own over the @nr_res iterations @res (rates: the median), the median
 * over iterations (@rs) of every measured rate and per-op figure of
 * @last, the latest iteration's, and the sum of the raw counts (as perf
 * stat of the whole run would count them).
 */
void summary_collect(const struct workload *wl, const struct wl_result *res,
		     unsigned int nr_res, const struct metric_set *last,
		     const struct runset *rs, struct metric_set *set);

#endif
