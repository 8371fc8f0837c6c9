// SPDX-License-Identifier: GPL-2.0
/*
 * A run's figures from its iterations: the rates the driver measures
 * itself, the workload's own, and the medians and sums of what the
 * measurement core measured, for the verdict layer to judge.
 */
#include <stdio.h>

#include "cli.h"
#include "measure.h"
#include "stats.h"
#include "summary.h"
#include "verdict.h"

static struct metric_set *collecting;

static void publish_metric(const char *name, const char *unit, double v)
{
	metric_add(collecting, name, unit, v);
}

double summary_rate(const struct wl_result *r)
{
	double secs = r->elapsed_ns / 1e9;

	return secs > 0 ? r->ops / secs : 0;
}

/* The rates of every iteration: median, best and coefficient of variation. */
static void iteration_metrics(const struct workload *wl,
			      const struct wl_result *res, unsigned int n,
			      struct metric_set *set)
{
	struct wl_summary s = { 0 };
	struct sample_stats st = { 0 };
	double rate[MAX_ITERATIONS], ops = 0;
	char name[METRIC_NAME_LEN];
	unsigned int i;

	for (i = 0; i < n; i++) {
		rate[i] = summary_rate(&res[i]);
		ops += res[i].ops;
		s.mean_ns += res[i].elapsed_ns / (double)n;
		if (!i || res[i].elapsed_ns < s.best_ns)
			s.best_ns = res[i].elapsed_ns;
		if (res[i].elapsed_ns > s.worst_ns)
			s.worst_ns = res[i].elapsed_ns;
	}
	if (n)
		stats_describe(rate, n, 0.95, &st);

	metric_add(set, "iterations", "", n);
	snprintf(name, sizeof(name), "%s_total", wl->ops_name);
	metric_add(set, name, "", ops);
	s.ops_per_sec_median = st.median;
	snprintf(name, sizeof(name), "%s_per_sec", wl->ops_name);
	metric_add(set, name, "/s", st.median);
	snprintf(name, sizeof(name), "%s_per_sec_best", wl->ops_name);
	metric_add(set, name, "/s", st.max);
	snprintf(name, sizeof(name), "%s_per_sec_cv", wl->ops_name);
	metric_add(set, name, "", st.cv);
	collecting = set;
	wl->publish(&s, publish_metric);
}

void summary_known_metrics(const struct workload *wl, struct metric_set *set)
{
	struct wl_result r = { 0 };

	set->nr = 0;
	iteration_metrics(wl, &r, 1, set);
	measure_known(set);
}

void summary_print(const char *prefix, const struct metric_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		const struct metric *m = &set->m[i];

		if (m->missing)
			verdict_note("%s.%s: n/a (%s)\n", prefix, m->name, m->missing);
		else
			verdict_note("%s.%s: %.6g%s%s\n", prefix, m->name, m->value,
				     m->unit && *m->unit ? " " : "", m->unit ? m->unit : "");
	}
}

static double sum_of(const double *v, unsigned int n)
{
	double sum = 0;

	while (n--)
		sum += v[n];
	return sum;
}

void summary_collect(const struct workload *wl, const struct wl_result *res,
		     unsigned int nr_res, const struct metric_set *last,
		     const struct runset *rs, struct metric_set *set)
{
	unsigned int i;

	iteration_metrics(wl, res, nr_res, set);
	for (i = 0; i < last->nr; i++) {
		const struct metric *m = &last->m[i];
		const struct runset_metric *rm = runset_find(rs, m->name);
		double median;

		if (metric_find(set, m->name))
			continue;	/* the rate: already there */
		if (m->missing)
			metric_missing(set, m->name, m->missing);
		else if (rm && measure_is_total(m->name))
			metric_add(set, m->name, m->unit, sum_of(rm->v, rm->n));
		else if (rm && !stats_median(rm->v, rm->n, &median))
			metric_add(set, m->name, m->unit, median);
	}
}
