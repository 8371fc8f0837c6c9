// SPDX-License-Identifier: GPL-2.0
/*
 * perf events inherited by every task the workload makes: CPU time,
 * switches, migrations, faults, and the hardware counters where there is
 * a PMU.  Opened last at the window's start and read first at its end,
 * so that the other sources' reading is not counted.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "compiler.h"
#include "source.h"

#define NR_EVENTS	(F_BRANCH_MISSES - F_TASK_CLOCK + 1)

static const struct {
	const char *name;	/* as the report header names it */
	uint32_t type;
	uint64_t config;
} events[NR_EVENTS] = {
	{ "task_clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context_switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu_migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

static int fd[NR_EVENTS] = { [0 ... NR_EVENTS - 1] = -1 };

static const char *open_error(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case EINVAL:
		return "not supported";
	case EACCES:
	case EPERM:
		return "not permitted (perf_event_paranoid; run as root)";
	default:
		return "cannot open";
	}
}

static void open_events(struct measure *m)
{
	bool have_perf = !access("/proc/sys/kernel/perf_event_paranoid", F_OK);
	int i;

	for (i = 0; i < NR_EVENTS; i++) {
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = events[i].type,
			.config = events[i].config,
			/* follow every process and thread the workload makes */
			.inherit = 1,
			.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
		};
		const char *why = NULL;

		fd[i] = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd[i] < 0)
			why = have_perf ? open_error(errno) : "no perf events (CONFIG_PERF_EVENTS=n)";
		source_missing(m, F_TASK_CLOCK + i, F_TASK_CLOCK + i, why);
	}
}

static void close_events(struct measure *m)
{
	int i;

	for (i = 0; i < NR_EVENTS; i++) {
		if (fd[i] >= 0)
			close(fd[i]);
		fd[i] = -1;
	}
}

/* Which events does this machine have?  Opened once, closed again. */
static void perf_setup(struct measure *m)
{
	open_events(m);
	close_events(m);
}

static void perf_end(struct measure *m)
{
	int i;

	for (i = 0; i < NR_EVENTS; i++) {
		int f = F_TASK_CLOCK + i;
		uint64_t v[3];

		if (fd[i] < 0)
			continue;
		if (read(fd[i], v, sizeof(v)) != sizeof(v))
			m->missing[f] = "read failed";
		else if (!v[2])
			m->missing[f] = "not counted";
		else	/* scale for multiplexing, as perf stat does */
			m->value[f] = (double)v[0] * v[1] / v[2];
	}
	close_events(m);
}

static void perf_describe(const struct measure *m, struct measure_meta *meta)
{
	char buf[512];
	size_t len = 0;
	int i;

	for (i = 0; i < NR_EVENTS && len < sizeof(buf); i++) {
		const char *why = m->missing[F_TASK_CLOCK + i];

		len += snprintf(buf + len, sizeof(buf) - len, "%s%s%s%s", i ? " " : "",
				events[i].name, why ? ":" : "", why ? why : "");
	}
	meta_add(meta, "perf_counters", "%s", buf);
}

const struct counter_source src_perf = {
	.name = "perf",
	/* every context switch of a counted task takes perf's slow path */
	.on_request = true,
	.first = F_TASK_CLOCK,
	.last = F_BRANCH_MISSES,
	.setup = perf_setup,
	.teardown = close_events,
	.begin = open_events,
	.end = perf_end,
	.describe = perf_describe,
};
