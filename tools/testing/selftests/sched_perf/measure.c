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
 * not counted, BPF's counts next for the same reason, then the workers' figures (the task-clock when perf is
 * off), then the machine, which needs the task-clock.  A window begins in
 * the reverse order.
 */
static const struct counter_source *const sources[] = {
	&src_perf, &src_bpf, &src_tasks, &src_machine, &src_schedstat,
};

/* The order of their lines in the report header. */
static const struct counter_source *const described[] = {
	&src_schedstat, &src_perf, &src_tasks, &src_bpf,
};

/* A source's bit in measure.sources: its place in sources[]. */
#define SOURCE_BIT(i)	(1u << (i))
_Static_assert(MEASURE_SOURCES_ALL == (1u << ARRAY_SIZE(sources)) - 1,
	       "MEASURE_SOURCES_ALL: a bit for each source");

/* The first source of this run (asked for) after @i, or past the end. */
static int next_source(const struct measure *m, int i)
{
	while (++i < (int)ARRAY_SIZE(sources) && !(m->sources & SOURCE_BIT(i)))
		;
	return i;
}

/* the sources of this run, in the order of a window's end */
#define for_each_source(m, i)						\
	for (i = next_source(m, -1); i < (int)ARRAY_SIZE(sources); i = next_source(m, i))

/* The bit of the source named by the @len bytes at @name, or 0. */
static unsigned int source_named(const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sources); i++)
		if (strlen(sources[i]->name) == len && !strncmp(sources[i]->name, name, len))
			return SOURCE_BIT(i);
	return 0;
}

unsigned int measure_default_sources(void)
{
	unsigned int i, on = 0;

	for (i = 0; i < ARRAY_SIZE(sources); i++)
		if (!sources[i]->on_request)
			on |= SOURCE_BIT(i);
	return on;
}

int measure_parse_sources(const char *list, unsigned int *out, char *err, size_t len)
{
	unsigned int bit;
	const char *p = list;
	size_t n;

	*out = 0;
	if (!strcmp(list, "all") || !strcmp(list, "none") || !strcmp(list, "default")) {
		*out = *list == 'a' ? MEASURE_SOURCES_ALL : *list == 'd' ? measure_default_sources() : 0;
		return 0;
	}
	do {
		n = strcspn(p, ",");
		bit = source_named(p, n);
		if (!bit) {
			snprintf(err, len, "'%.*s' is not a counter source (%s, all, default or none)",
				 (int)n, p, MEASURE_SOURCE_NAMES);
			return -1;
		}
		*out |= bit;
		p += n;
	} while (*p++ == ',');
	return 0;
}

void source_missing(struct measure *m, int first, int last, const char *why)
{
	int f;

	for (f = first; f <= last; f++)
		m->missing[f] = why;
}

void measure_setup(struct measure *m, unsigned int on)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->sources = on & MEASURE_SOURCES_ALL;
	/* preempt and features are in debugfs: mount it if we may */
	mounts_debugfs();
	if (!m->sources) {
		source_missing(m, 0, F_OPS - 1, "counters disabled");
		return;
	}
	for (i = 0; i < (int)ARRAY_SIZE(sources); i++)
		if (!(m->sources & SOURCE_BIT(i)))
			source_missing(m, sources[i]->first, sources[i]->last,
				       "source off (--counters)");
	for_each_source(m, i)
		if (sources[i]->setup)
			sources[i]->setup(m);
}

void measure_teardown(struct measure *m)
{
	int i;

	if (!m->sources)
		return;
	for_each_source(m, i)
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

	if (!m->sources)
		return;
	/* what no source writes in this window stays NaN: see measure_end() */
	for (i = 0; i < F_OPS; i++)
		m->value[i] = NAN;
	for (i = ARRAY_SIZE(sources) - 1; i >= 0; i--)
		if ((m->sources & SOURCE_BIT(i)) && sources[i]->begin)
			sources[i]->begin(m);
}

void measure_end(struct measure *m)
{
	int i;

	if (!m->sources)
		return;
	for_each_source(m, i)
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

bool source_on(const struct measure *m, const struct counter_source *src)
{
	int i;

	for_each_source(m, i)
		if (sources[i] == src)
			return true;
	return false;
}

void measure_describe(const struct measure *m, struct measure_meta *meta)
{
	char on[64] = "";
	size_t len = 0;
	int i;

	meta->nr = 0;
	sysinfo_describe(meta);
	for_each_source(m, i)
		len += snprintf(on + len, sizeof(on) - len, "%s%s", len ? "," : "",
				sources[i]->name);
	meta_add(meta, "counter_sources", "%s", len ? on : "none (--no-counters)");
	for (i = 0; i < (int)ARRAY_SIZE(described); i++)
		if (described[i]->describe && source_on(m, described[i]))
			described[i]->describe(m, meta);
}
