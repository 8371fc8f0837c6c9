// SPDX-License-Identifier: GPL-2.0
/*
 * Measurement core: the loop over the counter sources (source.h), and the
 * facts about the kernel every report starts with.  Nothing here knows
 * which workload runs, nor which figures a source counts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "compiler.h"
#include "fileio.h"
#include "mounts.h"
#include "source.h"

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

void meta_add(struct measure_meta *meta, const char *key, const char *fmt,
	      const char *value)
{
	if (meta->nr >= MEASURE_META_MAX)
		return;
	meta->kv[meta->nr].key = key;
	snprintf(meta->kv[meta->nr].value, sizeof(meta->kv[0].value), fmt, value);
	meta->nr++;
}

const char *debugfs_unreadable(const char *path)
{
	static char why[160];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return "read failed";
	}
	if (errno == ENOENT && access(DEBUGFS_DIR "/sched", F_OK))
		return geteuid() ? "debugfs not mounted (mounted for the run only as root)" :
				   "debugfs cannot be mounted, or CONFIG_SCHED_DEBUG=n";
	snprintf(why, sizeof(why), "%s: %s", path, strerror(errno));
	return why;
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

void measure_begin(struct measure *m)
{
	int i;

	if (!m->enabled)
		return;
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

/* The current mode is the one in parentheses: "none (voluntary) full". */
static void describe_preemption(struct measure_meta *meta)
{
	struct utsname u;
	char line[128], *open_paren, *close_paren;

	if (!fileio_first_line(DEBUGFS_DIR "/sched/preempt", line, sizeof(line))) {
		open_paren = strchr(line, '(');
		close_paren = open_paren ? strchr(open_paren, ')') : NULL;
		if (close_paren) {
			*close_paren = '\0';
			meta_add(meta, "preempt", "%s (dynamic)", open_paren + 1);
			return;
		}
	}
	uname(&u);
	if (strstr(u.version, "PREEMPT_RT"))
		meta_add(meta, "preempt", "%s", "rt");
	else if (strstr(u.version, "PREEMPT_DYNAMIC"))
		meta_add(meta, "preempt", "dynamic (mode unknown: %s)",
			 debugfs_unreadable(DEBUGFS_DIR "/sched/preempt"));
	else if (strstr(u.version, "PREEMPT"))
		meta_add(meta, "preempt", "%s", "full");
	else
		meta_add(meta, "preempt", "%s", "none or voluntary");
}

void measure_describe(const struct measure *m, struct measure_meta *meta)
{
	char buf[512], nr[16];
	struct utsname u;
	int i;

	meta->nr = 0;
	uname(&u);
	meta_add(meta, "kernel", "%s", u.release);
	snprintf(nr, sizeof(nr), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	meta_add(meta, "nr_cpus", "%s", nr);
	describe_preemption(meta);
	if (!fileio_first_line(DEBUGFS_DIR "/sched/features", buf, sizeof(buf)))
		meta_add(meta, "sched_features", "%s", buf);
	else
		meta_add(meta, "sched_features", "unreadable: %s",
			 debugfs_unreadable(DEBUGFS_DIR "/sched/features"));
	for (i = 0; i < (int)ARRAY_SIZE(described); i++)
		if (described[i]->describe)
			described[i]->describe(m, meta);
}
