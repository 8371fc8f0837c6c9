// SPDX-License-Identifier: GPL-2.0
/*
 * The workers' own figures: every worker (process or thread) reads its
 * /proc/thread-self/sched and schedstat (and its faults from getrusage())
 * right before it exits and adds them to a sum in shared memory.  They
 * cover exactly the workload's tasks, which perf's inherited counters do
 * too but /proc/schedstat, machine-wide, does not.  The kernel keeps these
 * counts for every task anyway, so reading them costs the workload
 * nothing while it runs; perf events put every context switch of a
 * counted task on perf's slow path.  So when perf is off, the CPU time,
 * switches, migrations and faults that perf would count come from here,
 * for the workers alone.  The reads happen after the timed window has
 * closed (barrier_window()), and their own CPU time is measured:
 * tasks_read_share, against the machine's CPU time over the measurement.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include "fileio.h"
#include "schedstat.h"
#include "source.h"
#include "tasks.h"

/* Shared with forked workers: they add their own figures before exiting. */
struct task_accum {
	pthread_mutex_t lock;
	struct task_sched sum;
	unsigned int nr_tasks, nr_unreadable;
	double read_ns;		/* the workers' CPU time in account_exiting_task() */
};

static struct task_accum *accum;
static const char *task_missing;

/* /proc/<tid>/sched is about 2 KiB, 4 with the schedstat lines */
#define TASK_SCHED_MAX		16384
#define TASK_SCHEDSTAT_MAX	128

static bool read_task(const char *dir, struct task_sched *ts)
{
	char path[64], text[TASK_SCHED_MAX];
	size_t len;

	snprintf(path, sizeof(path), "%s/sched", dir);
	if (fileio_read_into(path, text, sizeof(text), &len) || task_sched_parse(text, ts))
		return false;
	snprintf(path, sizeof(path), "%s/schedstat", dir);
	if (!fileio_read_into(path, text, TASK_SCHEDSTAT_MAX, &len))
		task_schedstat_parse(text, ts);
	return true;
}

/* The calling thread's page faults: a system call, cheaper than its stat file. */
static void read_faults(struct task_sched *ts)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return;
	ts->has_faults = true;
	ts->page_faults = ru.ru_minflt + ru.ru_majflt;
}

static double thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Runs in every worker (process or thread) right before it exits. */
static void account_exiting_task(void)
{
	double start = thread_cpu_ns();
	struct task_sched ts;
	bool ok = read_task("/proc/thread-self", &ts);

	read_faults(&ts);
	pthread_mutex_lock(&accum->lock);
	if (ok) {
		task_sched_add(&accum->sum, &ts);
		accum->nr_tasks++;
	} else {
		accum->nr_unreadable++;
	}
	accum->read_ns += thread_cpu_ns() - start;
	pthread_mutex_unlock(&accum->lock);
}

static void tasks_setup(struct measure *m)
{
	pthread_mutexattr_t attr;
	struct task_sched probe;

	task_missing = NULL;
	if (!read_task("/proc/thread-self", &probe)) {
		task_missing = "no /proc/<pid>/sched (CONFIG_SCHED_DEBUG=n?)";
		return;
	}
	accum = mmap(NULL, sizeof(*accum), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (accum == MAP_FAILED) {
		accum = NULL;
		task_missing = "cannot map shared memory";
		return;
	}
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&accum->lock, &attr);
	pthread_mutexattr_destroy(&attr);
}

static void tasks_teardown(struct measure *m)
{
	if (accum)
		munmap(accum, sizeof(*accum));
	accum = NULL;
	task_exit_hook = NULL;
}

static void tasks_begin(struct measure *m)
{
	if (!accum)
		return;
	memset(&accum->sum, 0, sizeof(accum->sum));
	accum->nr_tasks = accum->nr_unreadable = 0;
	accum->read_ns = 0;
	task_exit_hook = account_exiting_task;
}

static void put_sums(struct measure *m, const struct task_sched *t, unsigned int nr_tasks)
{
	static const char *const no_schedstats =
		"no schedstat lines in /proc/<pid>/sched (CONFIG_SCHEDSTATS=n or kernel.sched_schedstats=0)";

	m->value[F_TASKS_OBSERVED] = nr_tasks;
	m->value[F_TASK_MIGRATIONS] = t->nr_migrations;
	m->value[F_VOLUNTARY_SWITCHES] = t->nr_voluntary_switches;
	m->value[F_INVOLUNTARY_SWITCHES] = t->nr_involuntary_switches;
	m->value[F_RUN_DELAY_NS] = t->run_delay_ns;
	m->value[F_WAIT_SUM_NS] = t->wait_sum_ns;
	m->value[F_WAKEUPS] = t->nr_wakeups;
	m->value[F_WAKEUPS_MIGRATE] = t->nr_wakeups_migrate;
	m->value[F_WAKEUPS_REMOTE] = t->nr_wakeups_remote;
	m->value[F_WAKEUPS_AFFINE] = t->nr_wakeups_affine;
	m->value[F_WAKEUPS_AFFINE_ATTEMPTS] = t->nr_wakeups_affine_attempts;
	m->value[F_WAKEUPS_SYNC] = t->nr_wakeups_sync;
	m->value[F_TASKS_READ_NS] = accum->read_ns;
	if (!t->has_run_delay)
		source_missing(m, F_RUN_DELAY_NS, F_RUN_DELAY_NS, "no /proc/<pid>/schedstat");
	if (!t->has_schedstats)
		source_missing(m, F_WAIT_SUM_NS, F_WAKEUPS_SYNC, no_schedstats);
}

/* With perf off: perf's software counts, of the workers, from their files. */
static void put_perf_fields(struct measure *m, const struct task_sched *t)
{
	source_missing(m, F_TASK_CLOCK, F_PAGE_FAULTS, task_missing);
	if (task_missing)
		return;
	m->value[F_CONTEXT_SWITCHES] = t->nr_switches;
	m->value[F_CPU_MIGRATIONS] = t->nr_migrations;
	m->value[F_TASK_CLOCK] = t->exec_ns;
	m->value[F_PAGE_FAULTS] = t->page_faults;
	if (!t->has_run_delay)
		source_missing(m, F_TASK_CLOCK, F_TASK_CLOCK, "no /proc/<pid>/schedstat");
	if (!t->has_faults)
		source_missing(m, F_PAGE_FAULTS, F_PAGE_FAULTS, "getrusage(RUSAGE_THREAD) failed");
}

static void tasks_end(struct measure *m)
{
	task_exit_hook = NULL;
	if (accum && !accum->nr_tasks)
		task_missing = "no worker task reported its figures";
	source_missing(m, F_TASKS_OBSERVED, F_TASKS_READ_NS, task_missing);
	if (!task_missing)
		put_sums(m, &accum->sum, accum->nr_tasks);
	if (!source_on(m, &src_perf))
		put_perf_fields(m, accum ? &accum->sum : NULL);
}

static void tasks_describe(const struct measure *m, struct measure_meta *meta)
{
	meta_add(meta, "task_stats", "%s", task_missing ? task_missing : source_on(m, &src_perf) ?
		 "/proc/<tid>/sched of every worker" :
		 "/proc/<tid>/sched of every worker; also task_clock, context_switches, cpu_migrations and page_faults of the workers (perf off)");
}

const struct counter_source src_tasks = {
	.name = "tasks",
	.first = F_TASKS_OBSERVED,
	.last = F_TASKS_READ_NS,
	.setup = tasks_setup,
	.teardown = tasks_teardown,
	.begin = tasks_begin,
	.end = tasks_end,
	.describe = tasks_describe,
};
