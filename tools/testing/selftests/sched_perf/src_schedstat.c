// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/schedstat, machine-wide: wakeups, run delay, load balancing and
 * idle entries of all CPUs and domains.  It also owns
 * kernel.sched_schedstats, which the per-task counters
 * need as well: set to 1 for the run when it is 0 and we are root, and
 * back to 0 at exit, on a signal and after SIGKILL (guard.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fileio.h"
#include "guard.h"
#include "schedstat.h"
#include "source.h"

#define SCHEDSTAT_SYSCTL "/proc/sys/kernel/sched_schedstats"
/* about 1 KiB per CPU */
#define SCHEDSTAT_MAX	(128UL << 20)

static const char *schedstats_off;
static const char *schedstat_missing;
static int sysctl_undo = -1;	/* guard action, while enabled */
static struct schedstat before, after;

static void enable_schedstats(void)
{
	char cur[8];
	int fd;

	if (fileio_first_line(SCHEDSTAT_SYSCTL, cur, sizeof(cur)) || cur[0] != '0')
		return;
	/* back to 0 at the end, on a signal, and after a SIGKILL too */
	sysctl_undo = guard_write_back(SCHEDSTAT_SYSCTL, "0");
	fd = open(SCHEDSTAT_SYSCTL, O_RDWR | O_CLOEXEC);
	if (fd < 0 || pwrite(fd, "1", 1, 0) != 1) {
		if (fd >= 0)
			close(fd);
		guard_forget(sysctl_undo);
		sysctl_undo = -1;
		schedstats_off = "schedstats off and not root to enable them (kernel.sched_schedstats=0)";
		return;
	}
	close(fd);
}

const char *schedstats_off_why(void)
{
	return schedstats_off;
}

static void schedstat_setup(struct measure *m)
{
	schedstat_missing = schedstats_off = NULL;
	if (access("/proc/schedstat", R_OK)) {
		schedstat_missing = "no /proc/schedstat (CONFIG_SCHEDSTATS=n)";
		return;
	}
	enable_schedstats();
}

static void schedstat_teardown(struct measure *m)
{
	guard_done(sysctl_undo);
	sysctl_undo = -1;
	schedstat_free(&before);
	schedstat_free(&after);
}

static bool snapshot(struct schedstat *ss)
{
	static char why[160];
	char err[128];
	size_t len;
	char *text;
	int ret;

	if (schedstat_missing)
		return false;
	schedstat_free(ss);	/* the previous iteration's */
	text = fileio_read_kernel("/proc/schedstat", SCHEDSTAT_MAX, &len);
	if (!text) {
		schedstat_missing = "cannot read /proc/schedstat";
		return false;
	}
	ret = schedstat_parse(text, ss, err, sizeof(err));
	free(text);
	if (ret) {
		snprintf(why, sizeof(why), "unreadable /proc/schedstat: %s", err);
		schedstat_missing = why;
		return false;
	}
	return true;
}

static void schedstat_begin(struct measure *m)
{
	snapshot(&before);
}

static void schedstat_end(struct measure *m)
{
	struct schedstat_delta d;

	if (snapshot(&after) && schedstat_diff(&before, &after, &d))
		schedstat_missing = "CPU topology changed during the run";
	source_missing(m, F_SS_RUN_DELAY_NS, F_SS_RUN_DELAY_NS, schedstat_missing);
	/* the rest counts only while schedstats are enabled */
	source_missing(m, F_SS_TTWU, F_SS_GOIDLE,
		       schedstat_missing ? schedstat_missing : schedstats_off);
	if (schedstat_missing)
		return;
	m->value[F_SS_RUN_DELAY_NS] = d.run_delay;
	m->value[F_SS_TTWU] = d.ttwu_count;
	m->value[F_SS_TTWU_LOCAL] = d.ttwu_local;
	m->value[F_SS_WAKE_REMOTE] = d.ttwu_wake_remote;
	m->value[F_SS_MOVE_AFFINE] = d.ttwu_move_affine;
	m->value[F_SS_LB_GAINED] = d.lb_gained;
	m->value[F_SS_ALB_PUSHED] = d.alb_pushed;
	m->value[F_SS_GOIDLE] = d.sched_goidle;
}

static void schedstat_describe(const struct measure *m, struct measure_meta *meta)
{
	char line[512];

	if (schedstat_missing)
		meta_add(meta, "schedstat", "%s", schedstat_missing);
	else if (!fileio_first_line("/proc/schedstat", line, sizeof(line)))
		meta_add(meta, "schedstat", "%s", schedstats_off ? schedstats_off : line);
	if (sysctl_undo >= 0)
		meta_add(meta, "sched_schedstats", "%s", "enabled for this run, restored after");
}

const struct counter_source src_schedstat = {
	.name = "schedstat",
	.first = F_SS_RUN_DELAY_NS,
	.last = F_SS_GOIDLE,
	.setup = schedstat_setup,
	.teardown = schedstat_teardown,
	.begin = schedstat_begin,
	.end = schedstat_end,
	.describe = schedstat_describe,
};
