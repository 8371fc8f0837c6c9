// SPDX-License-Identifier: GPL-2.0
/*
 * The rest of the machine, from the "cpu" line of /proc/stat: the CPU
 * time of all CPUs in the window that went to work that was not ours
 * (busy time minus our task-clock) and to other guests (steal).  A run
 * on a machine busy with something else is no evidence about the
 * kernel's speed.  Our kernel threads (softirq, writeback) count as
 * foreign, which is why the gate compares the share of the two sides,
 * not its size.  Ends after src_perf, whose task-clock it needs.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "source.h"

struct cpu_time {
	double busy_ns, steal_ns, wall_ns;
};

static struct cpu_time before;
static bool before_ok;

/* Busy (user nice system irq softirq) and stolen time, in USER_HZ. */
static bool snapshot(struct cpu_time *ct)
{
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal = 0;
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec now;
	char line[256];

	if (hz <= 0 || fileio_first_line("/proc/stat", line, sizeof(line)) ||
	    sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice,
		   &sys, &idle, &iowait, &irq, &softirq, &steal) < 7)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ct->busy_ns = (user + nice + sys + irq + softirq) * 1e9 / hz;
	ct->steal_ns = steal * 1e9 / hz;
	ct->wall_ns = now.tv_sec * 1e9 + now.tv_nsec;
	return true;
}

static void machine_begin(struct measure *m)
{
	before_ok = snapshot(&before);
}

static void machine_end(struct measure *m)
{
	struct cpu_time after;
	bool ok = before_ok && snapshot(&after);
	const char *why = !ok ? "no /proc/stat" : m->missing[F_TASK_CLOCK];
	double capacity;

	source_missing(m, F_FOREIGN_NS, F_STEAL_NS, why);
	if (why) {
		source_missing(m, F_CAPACITY_NS, F_CAPACITY_NS, why);
		return;
	}
	capacity = (after.wall_ns - before.wall_ns) * sysconf(_SC_NPROCESSORS_ONLN);
	source_missing(m, F_CAPACITY_NS, F_CAPACITY_NS, capacity > 0 ? NULL : "no time passed");
	m->value[F_FOREIGN_NS] = after.busy_ns - before.busy_ns - m->value[F_TASK_CLOCK];
	if (m->value[F_FOREIGN_NS] < 0)
		m->value[F_FOREIGN_NS] = 0;
	m->value[F_STEAL_NS] = after.steal_ns - before.steal_ns;
	m->value[F_CAPACITY_NS] = capacity;
}

const struct counter_source src_machine = {
	.name = "machine",
	.first = F_FOREIGN_NS,
	.last = F_CAPACITY_NS,
	.begin = machine_begin,
	.end = machine_end,
};
