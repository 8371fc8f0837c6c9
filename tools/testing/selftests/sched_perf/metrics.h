/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flat set of named figures.  Everything that is measured or derived
 * lands here; the verdict layer and the results file only ever see this.
 */
#ifndef SCHED_PERF_METRICS_H
#define SCHED_PERF_METRICS_H

#include <stdbool.h>

#define METRIC_NAME_LEN 64
#define METRICS_MAX 96

struct metric {
	char name[METRIC_NAME_LEN];
	const char *unit;
	double value;
	/*
	 * NULL, or why the figure is not available: its cause first, the
	 * same text on every run ("no /proc/schedstat"), then any detail
	 * after " (" or ": ".  The cause is a check's SKIP reason.
	 */
	const char *missing;
};

struct metric_set {
	unsigned int nr;
	struct metric m[METRICS_MAX];
};

void metric_add(struct metric_set *set, const char *name, const char *unit,
		double value);
void metric_missing(struct metric_set *set, const char *name,
		    const char *why);
/* @num / @den * @scale, or missing (with @why) when @den is zero. */
void metric_ratio(struct metric_set *set, const char *name, const char *unit,
		  double num, double den, double scale);
const struct metric *metric_find(const struct metric_set *set,
				 const char *name);
#endif
