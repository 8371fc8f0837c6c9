// SPDX-License-Identifier: GPL-2.0
/*
 * Measurement core: the loop over the counter sources (source.h), and the
 * facts about the kernel every report starts with.  Nothing here knows
 * which workload runs, nor which figures a source counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "compiler.h"
#include "fileio.h"
#include "mounts.h"
#include "source.h"
#include "sysinfo.h"

void meta_add(struct measure_meta *meta, const char *key, const char *fmt,
	      const char *value)
{
	if (meta->nr >= MEASURE_META_MAX)
		return;
	meta->kv[meta->nr].key = key;
	snprintf(meta->kv[meta->nr].value, sizeof(meta->kv[0].value), fmt, value);
	meta->nr++;
}

/*
 * The order of a window's end: perf first, so that the others' reading is
 * not counted, then the machine, which needs perf's task-clock.  A
 * window begins in the reverse order.
 */
static const struct counter_source *const sources[] = {
	&src_perf, &src_machine, &src_tasks, &src_schedstat, &src_fair,
};

/* The order of their lines in the report header. */
static const struct counter_source *const described[] = {
	&src_schedstat, &src_fair, &src_perf, &src_tasks,
};

#define for_each_source(i) for (i = 0; i < (int)ARRAY_SIZE(sources); i++)

void source_missing(struct measure *m, int first, int last, const char *why)
{
	int f;

	for (f = first; f <= last; f++)
		m->missing[f] = why;
}

void measure_setup(struct measure *m, bool enabled)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->enabled = enabled;
	/* preempt, features and fair_stats are in debugfs: mount it if we may */
	mounts_debugfs();
	if (!enabled) {
		source_missing(m, 0, F_OPS - 1, "counters disabled");
		return;
	}
	for_each_source(i)
		if (sources[i]->setup)
			sources[i]->setup(m);
}

void measure_teardown(struct measure *m)
{
	int i;

	if (!m->enabled)
		return;
	for_each_source(i)
		if (sources[i]->teardown)
			sources[i]->teardown(m);
}

void measure_mark_unfilled(struct measure *m)
{
	int f;

	for (f = 0; f < F_OPS; f++)
		if (!m->missing[f] && isnan(m->value[f]))
			m->missing[f] = MEASURE_UNFILLED;
}

void measure_begin(struct measure *m)
{
	int i;

	if (!m->enabled)
		return;
	/* what no source writes in this window stays NaN: see measure_end() */
	for (i = 0; i < F_OPS; i++)
		m->value[i] = NAN;
	for (i = ARRAY_SIZE(sources) - 1; i >= 0; i--)
		if (sources[i]->begin)
			sources[i]->begin(m);
}

void measure_end(struct measure *m)
{
	int i;

	if (!m->enabled)
		return;
	for_each_source(i)
		if (sources[i]->end)
			sources[i]->end(m);
	measure_mark_unfilled(m);
}

void measure_metrics(const struct measure *m, double ops,
		     struct metric_set *set)
{
	double value[F_COUNT];
	const char *missing[F_COUNT];
	size_t i;

	memcpy(value, m->value, sizeof(value));
	memcpy(missing, m->missing, sizeof(missing));
	value[F_OPS] = ops;
	missing[F_OPS] = NULL;
	for (i = 0; i < metric_nr_rows; i++)
		metric_row_eval(&metric_rows[i], value, missing, set);
}

void measure_known(struct metric_set *set)
{
	size_t i;

	for (i = 0; i < metric_nr_rows; i++)
		metric_missing(set, metric_rows[i].name, "not measured");
}

bool measure_is_total(const char *metric)
{
	const struct metric_row *row = metric_row_find(metric);

	return row && (row->flags & ROW_TOTAL);
}

void measure_describe(const struct measure *m, struct measure_meta *meta)
{
	int i;

	meta->nr = 0;
	sysinfo_describe(meta);
	for (i = 0; i < (int)ARRAY_SIZE(described); i++)
		if (described[i]->describe)
			described[i]->describe(m, meta);
}
