// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/debug/sched/fair_stats, machine-wide: the idle sibling
 * search and wakeup preemption counters of this project's kernel/sched
 * patches.  Counted only while schedstats are enabled.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fairstats.h"
#include "fileio.h"
#include "mounts.h"
#include "source.h"

/* about 1 KiB per CPU, up to FAIR_STATS_MAX_CPUS */
#define FAIR_FILE_MAX	(128UL << 20)

static const char *fair_missing;
static struct fair_stats before, after;

/* Why this kernel offers us no fair_stats file; NULL when it does. */
static const char *fair_stats_absent(void)
{
	static char why[224];

	if (!access(FAIR_STATS_PATH, R_OK))
		return NULL;
	if (errno == ENOENT && !access(DEBUGFS_DIR "/sched", F_OK))
		return "no " FAIR_STATS_PATH " (kernel without the counters of kernel/sched/*.patch)";
	snprintf(why, sizeof(why), "no readable " FAIR_STATS_PATH ": %s",
		 debugfs_unreadable(FAIR_STATS_PATH));
	return why;
}

static void fair_setup(struct measure *m)
{
	fair_missing = fair_stats_absent();
}

static void fair_teardown(struct measure *m)
{
	fair_stats_free(&before);
	fair_stats_free(&after);
}

static bool snapshot(struct fair_stats *fs)
{
	static char why[192];
	char err[128];
	size_t len;
	char *text;
	int ret;

	if (fair_missing)
		return false;
	fair_stats_free(fs);	/* the previous iteration's */
	text = fileio_read_kernel(FAIR_STATS_PATH, FAIR_FILE_MAX, &len);
	if (!text) {
		fair_missing = "cannot read " FAIR_STATS_PATH;
		return false;
	}
	ret = fair_stats_parse(text, fs, err, sizeof(err));
	free(text);
	if (ret) {
		snprintf(why, sizeof(why), "unreadable %s: %s", FAIR_STATS_PATH, err);
		fair_missing = why;
		return false;
	}
	return true;
}

static void fair_begin(struct measure *m)
{
	snapshot(&before);
}

static void fair_end(struct measure *m)
{
	static char why[160];
	struct fair_stats_delta d;
	char err[128];
	int i;

	if (snapshot(&after) && fair_stats_diff(&before, &after, &d, err, sizeof(err))) {
		snprintf(why, sizeof(why), "fair_stats not comparable: %s", err);
		fair_missing = why;
	}
	/* the counters move only while schedstats are enabled */
	source_missing(m, F_FAIR, F_FAIR_END, fair_missing ? fair_missing : schedstats_off_why());
	if (fair_missing)
		return;
	for (i = 0; i < FC_COUNT; i++)
		m->value[F_FAIR + i] = d.v[i];
}

static void fair_describe(const struct measure *m, struct measure_meta *meta)
{
	meta_add(meta, "fair_stats", "%s", fair_missing ? fair_missing :
		 FAIR_STATS_PATH " (idle scan, wakeup preemption)");
}

const struct counter_source src_fair = {
	.name = "fair",
	.first = F_FAIR,
	.last = F_FAIR_END,
	.setup = fair_setup,
	.teardown = fair_teardown,
	.begin = fair_begin,
	.end = fair_end,
	.describe = fair_describe,
};
