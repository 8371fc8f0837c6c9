// SPDX-License-Identifier: GPL-2.0
/*
 * Measurement core.  Nothing here knows which workload runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "fileio.h"
#include "guard.h"
#include "measure.h"
#include "mounts.h"
#include "tasks.h"

#define SCHEDSTAT_SYSCTL "/proc/sys/kernel/sched_schedstats"

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} counters[PC_COUNT] = {
	[PC_TASK_CLOCK] = { "task_clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	[PC_CONTEXT_SWITCHES] = { "context_switches", PERF_TYPE_SOFTWARE,
				  PERF_COUNT_SW_CONTEXT_SWITCHES },
	[PC_CPU_MIGRATIONS] = { "cpu_migrations", PERF_TYPE_SOFTWARE,
				PERF_COUNT_SW_CPU_MIGRATIONS },
	[PC_PAGE_FAULTS] = { "page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	[PC_CYCLES] = { "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[PC_INSTRUCTIONS] = { "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	[PC_CACHE_MISSES] = { "cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	[PC_BRANCH_MISSES] = { "branch_misses", PERF_TYPE_HARDWARE,
			       PERF_COUNT_HW_BRANCH_MISSES },
};

/* Shared with forked workers: they add their own figures before exiting. */
struct task_accum {
	pthread_mutex_t lock;
	struct task_sched sum;
	unsigned int nr_tasks, nr_unreadable;
};

static struct task_accum *accum;
static int schedstat_sysctl_undo = -1;	/* guard action, while enabled */

/*
 * The largest /proc or debugfs file read whole: /proc/schedstat and
 * fair_stats take up to about 1 KiB per CPU, so this covers
 * FAIR_STATS_MAX_CPUS.
 */
#define KFILE_MAX	(128UL << 20)

/* A whole /proc or debugfs file as a malloc'd string; NULL on error. */
static char *read_file(const char *path)
{
	size_t len;

	return fileio_read_kernel(path, KFILE_MAX, &len);
}

/* First line of a file, newline stripped; false when unreadable. */
static bool read_line(const char *path, char *out, size_t len)
{
	return !fileio_first_line(path, out, len);
}

/* ---- per-task figures ------------------------------------------------- */

static bool read_task(const char *dir, struct task_sched *ts)
{
	char path[64];
	char *text;
	int ret;

	snprintf(path, sizeof(path), "%s/sched", dir);
	text = read_file(path);
	if (!text)
		return false;
	ret = task_sched_parse(text, ts);
	free(text);
	snprintf(path, sizeof(path), "%s/schedstat", dir);
	text = read_file(path);
	if (text)
		task_schedstat_parse(text, ts);
	free(text);
	return !ret;
}

/* Runs in every worker (process or thread) right before it exits. */
static void account_exiting_task(void)
{
	struct task_sched ts;
	bool ok = read_task("/proc/thread-self", &ts);

	pthread_mutex_lock(&accum->lock);
	if (ok) {
		task_sched_add(&accum->sum, &ts);
		accum->nr_tasks++;
	} else {
		accum->nr_unreadable++;
	}
	pthread_mutex_unlock(&accum->lock);
}

static void setup_task_accounting(struct measure *m)
{
	pthread_mutexattr_t attr;
	struct task_sched probe;

	if (!read_task("/proc/thread-self", &probe)) {
		m->task_missing = "no /proc/<pid>/sched (CONFIG_SCHED_DEBUG=n?)";
		return;
	}
	accum = mmap(NULL, sizeof(*accum), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (accum == MAP_FAILED) {
		accum = NULL;
		m->task_missing = "cannot map shared memory";
		return;
	}
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&accum->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	m->accum = accum;
}

/* ---- kernel.sched_schedstats ------------------------------------------ */

static void restore_schedstats_sysctl(void)
{
	guard_done(schedstat_sysctl_undo);
	schedstat_sysctl_undo = -1;
}

static void setup_schedstats(struct measure *m)
{
	char cur[8];
	int fd;

	if (access("/proc/schedstat", R_OK)) {
		m->schedstat_missing = "no /proc/schedstat (CONFIG_SCHEDSTATS=n)";
		return;
	}
	if (!read_line(SCHEDSTAT_SYSCTL, cur, sizeof(cur)) || cur[0] != '0')
		return;
	/* back to 0 at the end, on a signal, and after a SIGKILL too */
	schedstat_sysctl_undo = guard_write_back(SCHEDSTAT_SYSCTL, "0");
	fd = open(SCHEDSTAT_SYSCTL, O_RDWR | O_CLOEXEC);
	if (fd < 0 || pwrite(fd, "1", 1, 0) != 1) {
		if (fd >= 0)
			close(fd);
		guard_forget(schedstat_sysctl_undo);
		schedstat_sysctl_undo = -1;
		m->ttwu_missing = "kernel.sched_schedstats=0 and cannot enable it (not root)";
		return;
	}
	close(fd);
}

static bool snapshot_schedstat(struct measure *m, struct schedstat *ss)
{
	char err[128];
	char *text;
	int ret;

	if (m->schedstat_missing)
		return false;
	schedstat_free(ss);	/* the previous iteration's */
	text = read_file("/proc/schedstat");
	if (!text) {
		m->schedstat_missing = "cannot read /proc/schedstat";
		return false;
	}
	ret = schedstat_parse(text, ss, err, sizeof(err));
	free(text);
	if (ret) {
		static char why[160];

		snprintf(why, sizeof(why), "/proc/schedstat: %s", err);
		m->schedstat_missing = why;
		return false;
	}
	return true;
}

/* ---- debugfs --------------------------------------------------------- */

/* Why @path cannot be read, in a few words. */
static const char *unreadable(const char *path)
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

/* Why this kernel offers us no fair_stats file; NULL when it does. */
static const char *fair_stats_absent(void)
{
	static char why[224];

	if (!access(FAIR_STATS_PATH, R_OK))
		return NULL;
	if (errno == ENOENT && !access(DEBUGFS_DIR "/sched", F_OK))
		return "no " FAIR_STATS_PATH " (kernel without the counters of kernel/sched/*.patch)";
	snprintf(why, sizeof(why), "no readable " FAIR_STATS_PATH ": %s",
		 unreadable(FAIR_STATS_PATH));
	return why;
}

static bool snapshot_fair(struct measure *m, struct fair_stats *fs)
{
	static char why[192];
	char err[128];
	char *text;
	int ret;

	if (m->fair_missing)
		return false;
	fair_stats_free(fs);	/* the previous iteration's */
	text = read_file(FAIR_STATS_PATH);
	if (!text) {
		m->fair_missing = "cannot read " FAIR_STATS_PATH;
		return false;
	}
	ret = fair_stats_parse(text, fs, err, sizeof(err));
	free(text);
	if (ret) {
		snprintf(why, sizeof(why), "%s: %s", FAIR_STATS_PATH, err);
		m->fair_missing = why;
		return false;
	}
	return true;
}

static void diff_fair(struct measure *m)
{
	static char why[160];
	char err[128];

	if (!snapshot_fair(m, &m->fair_after))
		return;
	if (fair_stats_diff(&m->fair_before, &m->fair_after, &m->fair, err, sizeof(err))) {
		snprintf(why, sizeof(why), "fair_stats: %s", err);
		m->fair_missing = why;
	}
}

/* ---- perf counters ---------------------------------------------------- */

static const char *perf_open_error(int err)
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

static void open_counters(struct measure *m)
{
	bool have_perf = !access("/proc/sys/kernel/perf_event_paranoid", F_OK);
	int i;

	for (i = 0; i < PC_COUNT; i++) {
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.type = counters[i].type,
			.config = counters[i].config,
			/* follow every process and thread the workload makes */
			.inherit = 1,
			.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				       PERF_FORMAT_TOTAL_TIME_RUNNING,
		};

		m->fd[i] = syscall(SYS_perf_event_open, &attr, 0, -1, -1,
				   PERF_FLAG_FD_CLOEXEC);
		if (m->fd[i] >= 0)
			m->perf_missing[i] = NULL;
		else if (!have_perf)
			m->perf_missing[i] = "no perf events (CONFIG_PERF_EVENTS=n)";
		else
			m->perf_missing[i] = perf_open_error(errno);
	}
}

/* Which counters does this machine have?  Opened once, closed again. */
static void probe_counters(struct measure *m)
{
	int i;

	open_counters(m);
	for (i = 0; i < PC_COUNT; i++) {
		if (m->fd[i] >= 0)
			close(m->fd[i]);
		m->fd[i] = -1;
	}
}

static void read_counters(struct measure *m)
{
	int i;

	for (i = 0; i < PC_COUNT; i++) {
		uint64_t v[3];

		if (m->fd[i] < 0)
			continue;
		if (read(m->fd[i], v, sizeof(v)) != sizeof(v))
			m->perf_missing[i] = "read failed";
		else if (!v[2])
			m->perf_missing[i] = "not counted";
		else	/* scale for multiplexing, as perf stat does */
			m->count[i] = (double)v[0] * v[1] / v[2];
		close(m->fd[i]);
		m->fd[i] = -1;
	}
}

/* ---- public ----------------------------------------------------------- */

void measure_setup(struct measure *m, bool enabled)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->enabled = enabled;
	/* preempt, features and fair_stats are in debugfs: mount it if we may */
	mounts_debugfs();
	for (i = 0; i < PC_COUNT; i++) {
		m->fd[i] = -1;
		m->perf_missing[i] = "counters disabled";
	}
	if (!enabled) {
		m->schedstat_missing = m->task_missing = "counters disabled";
		m->fair_missing = "counters disabled";
		return;
	}
	m->fair_missing = fair_stats_absent();
	setup_schedstats(m);
	setup_task_accounting(m);
	probe_counters(m);
}

void measure_teardown(struct measure *m)
{
	restore_schedstats_sysctl();
	schedstat_free(&m->before);
	schedstat_free(&m->after);
	fair_stats_free(&m->fair_before);
	fair_stats_free(&m->fair_after);
	if (m->accum)
		munmap(m->accum, sizeof(*m->accum));
	m->accum = accum = NULL;
	task_exit_hook = NULL;
}

/* ---- the rest of the machine ------------------------------------------ */

/*
 * CPU time the machine spent busy (user nice system irq softirq) and
 * stolen by a hypervisor, from the "cpu" line of /proc/stat (USER_HZ).
 */
static bool snapshot_cpu(struct cpu_time *ct)
{
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal = 0;
	long hz = sysconf(_SC_CLK_TCK);
	struct timespec now;
	char line[256];

	if (hz <= 0 || !read_line("/proc/stat", line, sizeof(line)) ||
	    sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice,
		   &sys, &idle, &iowait, &irq, &softirq, &steal) < 7)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &now);
	ct->busy_ns = (user + nice + sys + irq + softirq) * 1e9 / hz;
	ct->steal_ns = steal * 1e9 / hz;
	ct->wall_ns = now.tv_sec * 1e9 + now.tv_nsec;
	return true;
}

/*
 * The share of all CPUs' time in the window that went to work that was
 * not ours (busy time minus our task-clock), and to other guests (steal):
 * a run on a machine busy with something else is no evidence about the
 * kernel's speed.  Our kernel threads (softirq, writeback) count as
 * foreign, which is why the gate compares the share of the two sides,
 * not its size.
 */
static void machine_metrics(const struct measure *m, struct metric_set *set)
{
	const char *why = !m->cpu_ok ? "no /proc/stat" :
			  m->perf_missing[PC_TASK_CLOCK];
	double capacity = (m->cpu_after.wall_ns - m->cpu_before.wall_ns) *
			  sysconf(_SC_NPROCESSORS_ONLN);
	double foreign;

	if (why || capacity <= 0) {
		metric_missing(set, "foreign_cpu_share", why ? why : "no time passed");
		metric_missing(set, "steal_share", why ? why : "no time passed");
		return;
	}
	foreign = m->cpu_after.busy_ns - m->cpu_before.busy_ns - m->count[PC_TASK_CLOCK];
	metric_add(set, "foreign_cpu_share", "", foreign > 0 ? foreign / capacity : 0);
	metric_add(set, "steal_share", "",
		   (m->cpu_after.steal_ns - m->cpu_before.steal_ns) / capacity);
}

void measure_begin(struct measure *m)
{
	if (!m->enabled)
		return;
	if (m->accum) {
		memset(&m->accum->sum, 0, sizeof(m->accum->sum));
		m->accum->nr_tasks = m->accum->nr_unreadable = 0;
		task_exit_hook = account_exiting_task;
	}
	snapshot_schedstat(m, &m->before);
	snapshot_fair(m, &m->fair_before);
	m->cpu_ok = snapshot_cpu(&m->cpu_before);
	open_counters(m);
}

void measure_end(struct measure *m)
{
	if (!m->enabled)
		return;
	read_counters(m);
	m->cpu_ok &= snapshot_cpu(&m->cpu_after);
	task_exit_hook = NULL;
	if (snapshot_schedstat(m, &m->after) &&
	    schedstat_diff(&m->before, &m->after, &m->delta))
		m->schedstat_missing = "CPU topology changed during the run";
	diff_fair(m);
	if (m->accum) {
		m->tasks = m->accum->sum;
		m->nr_tasks = m->accum->nr_tasks;
		if (!m->nr_tasks)
			m->task_missing = "no worker task reported its figures";
	}
}

static void perf_metrics(const struct measure *m, double ops,
			 struct metric_set *set)
{
	int i;

	for (i = 0; i < PC_COUNT; i++) {
		if (m->perf_missing[i])
			metric_missing(set, counters[i].name, m->perf_missing[i]);
		else
			metric_add(set, counters[i].name,
				   i == PC_TASK_CLOCK ? "ns" : "", m->count[i]);
	}
#define PERF_RATIO(name, unit, num, den, scale)				\
	do {								\
		if (m->perf_missing[num])				\
			metric_missing(set, name, m->perf_missing[num]);	\
		else							\
			metric_ratio(set, name, unit, m->count[num], den, scale); \
	} while (0)
	PERF_RATIO("migrations_per_1k_ops", "", PC_CPU_MIGRATIONS, ops, 1000);
	PERF_RATIO("ctx_switches_per_op", "", PC_CONTEXT_SWITCHES, ops, 1);
	PERF_RATIO("task_clock_us_per_op", "us", PC_TASK_CLOCK, ops, 1e-3);
	if (m->perf_missing[PC_CYCLES])
		metric_missing(set, "ipc", m->perf_missing[PC_CYCLES]);
	else
		PERF_RATIO("ipc", "", PC_INSTRUCTIONS, m->count[PC_CYCLES], 1);
#undef PERF_RATIO
}

static void task_metrics(const struct measure *m, double ops,
			 struct metric_set *set)
{
	const struct task_sched *t = &m->tasks;
	const char *why = m->task_missing;
	const char *why_ss = why ? why :
		"no schedstat lines in /proc/<pid>/sched (CONFIG_SCHEDSTATS=n or kernel.sched_schedstats=0)";
	double switches = t->nr_voluntary_switches + t->nr_involuntary_switches;

	if (why) {
		metric_missing(set, "tasks_observed", why);
		metric_missing(set, "task_migrations_per_1k_ops", why);
		metric_missing(set, "voluntary_switches_per_op", why);
		metric_missing(set, "involuntary_switches_per_op", why);
		metric_missing(set, "involuntary_share", why);
	} else {
		metric_add(set, "tasks_observed", "", m->nr_tasks);
		metric_ratio(set, "task_migrations_per_1k_ops", "", t->nr_migrations, ops, 1000);
		metric_ratio(set, "voluntary_switches_per_op", "", t->nr_voluntary_switches, ops, 1);
		metric_ratio(set, "involuntary_switches_per_op", "", t->nr_involuntary_switches,
			     ops, 1);
		metric_ratio(set, "involuntary_share", "", t->nr_involuntary_switches, switches, 1);
	}
	if (why || !t->has_run_delay)
		metric_missing(set, "run_delay_us_per_op", why ? why : "no /proc/<pid>/schedstat");
	else
		metric_ratio(set, "run_delay_us_per_op", "us", t->run_delay_ns, ops, 1e-3);

	if (why || !t->has_schedstats) {
		metric_missing(set, "wait_us_per_op", why_ss);
		metric_missing(set, "wakeups_per_op", why_ss);
		metric_missing(set, "wakeup_migrations_per_1k_ops", why_ss);
		metric_missing(set, "wakeups_remote_share", why_ss);
		metric_missing(set, "wakeups_affine_share", why_ss);
		metric_missing(set, "wakeups_sync_share", why_ss);
		return;
	}
	metric_ratio(set, "wait_us_per_op", "us", t->wait_sum_ns, ops, 1e-3);
	metric_ratio(set, "wakeups_per_op", "", t->nr_wakeups, ops, 1);
	metric_ratio(set, "wakeup_migrations_per_1k_ops", "", t->nr_wakeups_migrate, ops, 1000);
	metric_ratio(set, "wakeups_remote_share", "", t->nr_wakeups_remote, t->nr_wakeups, 1);
	metric_ratio(set, "wakeups_affine_share", "", t->nr_wakeups_affine,
		     t->nr_wakeups_affine_attempts, 1);
	metric_ratio(set, "wakeups_sync_share", "", t->nr_wakeups_sync, t->nr_wakeups, 1);
}

static void schedstat_metrics(const struct measure *m, double ops,
			      struct metric_set *set)
{
	static const char *const gated[] = {
		"ss_ttwu_per_op", "ss_ttwu_remote_share", "ss_wake_remote_per_1k_ops",
		"ss_move_affine_per_1k_ops", "ss_lb_gained_per_1k_ops",
		"ss_alb_pushed_per_1k_ops", "ss_goidle_per_1k_ops",
	};
	const struct schedstat_delta *d = &m->delta;
	const char *why = m->schedstat_missing ? m->schedstat_missing : m->ttwu_missing;
	size_t i;

	if (m->schedstat_missing)
		metric_missing(set, "ss_run_delay_us_per_op", m->schedstat_missing);
	else
		metric_ratio(set, "ss_run_delay_us_per_op", "us", d->run_delay, ops, 1e-3);
	if (why) {
		for (i = 0; i < ARRAY_SIZE(gated); i++)
			metric_missing(set, gated[i], why);
		return;
	}
	metric_ratio(set, "ss_ttwu_per_op", "", d->ttwu_count, ops, 1);
	metric_ratio(set, "ss_ttwu_remote_share", "", d->ttwu_count - d->ttwu_local,
		     d->ttwu_count, 1);
	metric_ratio(set, "ss_wake_remote_per_1k_ops", "", d->ttwu_wake_remote, ops, 1000);
	metric_ratio(set, "ss_move_affine_per_1k_ops", "", d->ttwu_move_affine, ops, 1000);
	metric_ratio(set, "ss_lb_gained_per_1k_ops", "", d->lb_gained, ops, 1000);
	metric_ratio(set, "ss_alb_pushed_per_1k_ops", "", d->alb_pushed, ops, 1000);
	metric_ratio(set, "ss_goidle_per_1k_ops", "", d->sched_goidle, ops, 1000);
}

/*
 * The idle sibling search and wakeup preemption, machine-wide.  Ratios of
 * the kernel's own counters rather than per-op figures where the question
 * is how each decision went (CPUs scanned per search, share of checks
 * that preempted), so that they do not move with the op mix.  The
 * *_unaccounted_share metrics are the patches' own identities: every
 * search ends in one fast path or one scan, every scan finds or fails,
 * and a check preempts, is kept by curr's protected slice, or neither.
 */
static void fair_metrics(const struct measure *m, double ops,
			 struct metric_set *set)
{
	static const char *const names[] = {
		"sis_calls_per_op", "sis_scanned_per_wakeup", "sis_found_share",
		"sis_budget_cut_share", "sis_fast_share", "sis_unaccounted_share",
		"sis_scan_unaccounted_share", "wakeup_checks_per_op",
		"wakeup_preempt_share", "wakeup_slice_kept_share",
		"wakeup_unaccounted_share",
	};
	const char *why = m->fair_missing ? m->fair_missing : m->ttwu_missing;
	const uint64_t *v = m->fair.v;
	double fast, ended, decided;
	size_t i;

	if (why) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			metric_missing(set, names[i], why);
		return;
	}
	fast = (double)v[FC_SIS_IDLE_TARGET] + v[FC_SIS_IDLE_PREV] + v[FC_SIS_IDLE_RECENT] +
	       v[FC_SIS_IDLE_SMT] + v[FC_SIS_KTHREAD_PREV] + v[FC_SIS_NO_LLC];
	ended = fast + v[FC_SIS_SCANS];
	decided = (double)v[FC_WAKEUP_PREEMPTS] + v[FC_WAKEUP_SLICE_KEPT];
	metric_ratio(set, "sis_calls_per_op", "", v[FC_SIS_CALLS], ops, 1);
	metric_ratio(set, "sis_scanned_per_wakeup", "", v[FC_SIS_SCAN_CPUS], v[FC_SIS_CALLS], 1);
	metric_ratio(set, "sis_found_share", "", v[FC_SIS_SCANS_FOUND], v[FC_SIS_SCANS], 1);
	metric_ratio(set, "sis_budget_cut_share", "",
		     (double)v[FC_SIS_BUDGET_ZERO] + v[FC_SIS_BUDGET_SPENT], v[FC_SIS_SCANS], 1);
	metric_ratio(set, "sis_fast_share", "", fast, v[FC_SIS_CALLS], 1);
	metric_ratio(set, "sis_unaccounted_share", "", fabs(v[FC_SIS_CALLS] - ended),
		     v[FC_SIS_CALLS], 1);
	metric_ratio(set, "sis_scan_unaccounted_share", "",
		     fabs((double)v[FC_SIS_SCANS] - v[FC_SIS_SCANS_FOUND] - v[FC_SIS_SCANS_FAILED]),
		     v[FC_SIS_SCANS], 1);
	metric_ratio(set, "wakeup_checks_per_op", "", v[FC_WAKEUP_CHECKS], ops, 1);
	metric_ratio(set, "wakeup_preempt_share", "", v[FC_WAKEUP_PREEMPTS], v[FC_WAKEUP_CHECKS], 1);
	metric_ratio(set, "wakeup_slice_kept_share", "", v[FC_WAKEUP_SLICE_KEPT],
		     v[FC_WAKEUP_CHECKS], 1);
	/* preempted and kept by its slice exclude each other: at most the checks */
	metric_ratio(set, "wakeup_unaccounted_share", "",
		     decided > v[FC_WAKEUP_CHECKS] ? decided - v[FC_WAKEUP_CHECKS] : 0,
		     v[FC_WAKEUP_CHECKS], 1);
}

bool measure_is_total(const char *metric)
{
	int i;

	for (i = 0; i < PC_COUNT; i++)
		if (!strcmp(metric, counters[i].name))
			return true;
	return !strcmp(metric, "tasks_observed");
}

void measure_metrics(const struct measure *m, double ops,
		     struct metric_set *set)
{
	perf_metrics(m, ops, set);
	task_metrics(m, ops, set);
	schedstat_metrics(m, ops, set);
	fair_metrics(m, ops, set);
	machine_metrics(m, set);
}

static void meta_add(struct measure_meta *meta, const char *key,
		     const char *fmt, const char *value)
{
	if (meta->nr >= MEASURE_META_MAX)
		return;
	meta->kv[meta->nr].key = key;
	snprintf(meta->kv[meta->nr].value, sizeof(meta->kv[0].value), fmt, value);
	meta->nr++;
}

/* The current mode is the one in parentheses: "none (voluntary) full". */
static void describe_preemption(struct measure_meta *meta)
{
	struct utsname u;
	char line[128], *open_paren, *close_paren;

	if (read_line(DEBUGFS_DIR "/sched/preempt", line, sizeof(line))) {
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
			 unreadable(DEBUGFS_DIR "/sched/preempt"));
	else if (strstr(u.version, "PREEMPT"))
		meta_add(meta, "preempt", "%s", "full");
	else
		meta_add(meta, "preempt", "%s", "none or voluntary");
}

void measure_describe(const struct measure *m, struct measure_meta *meta)
{
	char buf[512], nr[16];
	struct utsname u;
	size_t len = 0;
	int i;

	meta->nr = 0;
	uname(&u);
	meta_add(meta, "kernel", "%s", u.release);
	snprintf(nr, sizeof(nr), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	meta_add(meta, "nr_cpus", "%s", nr);
	describe_preemption(meta);
	if (read_line(DEBUGFS_DIR "/sched/features", buf, sizeof(buf)))
		meta_add(meta, "sched_features", "%s", buf);
	else
		meta_add(meta, "sched_features", "unreadable: %s",
			 unreadable(DEBUGFS_DIR "/sched/features"));
	if (m->schedstat_missing)
		meta_add(meta, "schedstat", "%s", m->schedstat_missing);
	else if (read_line("/proc/schedstat", buf, sizeof(buf)))
		meta_add(meta, "schedstat", "%s", m->ttwu_missing ? m->ttwu_missing : buf);
	meta_add(meta, "fair_stats", "%s", m->fair_missing ? m->fair_missing :
		 FAIR_STATS_PATH " (idle scan, wakeup preemption)");
	if (schedstat_sysctl_undo >= 0)
		meta_add(meta, "sched_schedstats", "%s", "enabled for this run, restored after");
	for (i = 0; i < PC_COUNT && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s%s%s",
				i ? " " : "", counters[i].name,
				m->perf_missing[i] ? ":" : "",
				m->perf_missing[i] ? m->perf_missing[i] : "");
	meta_add(meta, "perf_counters", "%s", buf);
	meta_add(meta, "task_stats", "%s", m->task_missing ? m->task_missing :
		 "/proc/<tid>/sched of every worker");
}
