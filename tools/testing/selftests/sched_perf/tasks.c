// SPDX-License-Identifier: GPL-2.0
/*
 * Worker processes/threads, start barrier and fatal-signal cleanup.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "compiler.h"
#include "guard.h"
#include "tasks.h"

void (*task_exit_hook)(void);
unsigned int task_test_exit_delay_ms;

/* The barrier of the window being timed: its workers say when they finish. */
static struct start_barrier *open_window;

struct task {
	pid_t pid;
	pthread_t thread;
	task_fn fn;
	void *arg;
	int status;
	bool done;
	struct task_set *set;
};

struct task_set {
	enum task_mode mode;
	unsigned int max, nr;
	struct task *tasks;
	/* thread mode: finished workers are announced here */
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned int nr_done, nr_failed;
};

/* Every live child process, so a fatal signal can take them all down. */
static struct task_set *live_set;

static void kill_live_children(void)
{
	struct task_set *ts = live_set;
	unsigned int i;

	if (!ts || ts->mode != TASK_PROCESS)
		return;
	for (i = 0; i < ts->nr; i++)
		if (ts->tasks[i].pid > 0 && !ts->tasks[i].done)
			kill(ts->tasks[i].pid, SIGKILL);
}

/* Fatal-signal path: the workers must be gone before anyone cleans up. */
static void kill_and_reap_children(void)
{
	struct task_set *ts = live_set;
	unsigned int i;

	kill_live_children();
	for (i = 0; ts && ts->mode == TASK_PROCESS && i < ts->nr; i++)
		if (ts->tasks[i].pid > 0 && !ts->tasks[i].done)
			waitpid(ts->tasks[i].pid, NULL, 0);
}

struct task_set *task_set_new(enum task_mode mode, unsigned int max_tasks)
{
	struct task_set *ts = calloc(1, sizeof(*ts));

	if (!ts)
		return NULL;
	ts->tasks = calloc(max_tasks, sizeof(*ts->tasks));
	if (!ts->tasks) {
		free(ts);
		return NULL;
	}
	ts->mode = mode;
	ts->max = max_tasks;
	pthread_mutex_init(&ts->lock, NULL);
	pthread_cond_init(&ts->changed, NULL);
	if (mode == TASK_PROCESS) {
		static bool registered;

		live_set = ts;
		if (!registered) {
			on_fatal_signal(kill_and_reap_children);
			registered = true;
		}
	}
	return ts;
}

void task_set_free(struct task_set *ts)
{
	if (!ts)
		return;
	if (live_set == ts)
		live_set = NULL;
	pthread_mutex_destroy(&ts->lock);
	pthread_cond_destroy(&ts->changed);
	free(ts->tasks);
	free(ts);
}

static int rendezvous_init(struct rendezvous *r)
{
	int err;

	if (pipe(r->arrive))
		return -errno;
	if (!pipe(r->release))
		return 0;
	err = -errno;
	close(r->arrive[0]);
	close(r->arrive[1]);
	return err;
}

static void rendezvous_destroy(struct rendezvous *r)
{
	close(r->arrive[0]);
	close(r->arrive[1]);
	close(r->release[0]);
	close(r->release[1]);
}

/* Worker side: 0 once released, or -1 when the controller went away. */
static int rendezvous_pass(struct rendezvous *r)
{
	struct pollfd pfd = { .fd = r->release[0], .events = POLLIN };
	char c = 0;

	if (write(r->arrive[1], &c, 1) != 1)
		return -1;
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -1;
	return (pfd.revents & POLLIN) ? 0 : -1;
}

/* @n workers of @ts at @r: -1 when one of them failed first. */
static int rendezvous_wait(struct rendezvous *r, unsigned int n, struct task_set *ts)
{
	struct pollfd pfd = { .fd = r->arrive[0], .events = POLLIN };
	char buf[512];

	while (n) {
		ssize_t got;

		/*
		 * A worker that died without its byte must not hang us; looked
		 * for when none came for a while, as it costs a waitpid() per
		 * worker and this may run inside the timed window.
		 */
		if (poll(&pfd, 1, 100) <= 0) {
			if (task_set_failed(ts))
				return -1;
			continue;
		}
		got = read(pfd.fd, buf, n < sizeof(buf) ? n : sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		n -= got;
	}
	return 0;
}

static int rendezvous_release(struct rendezvous *r)
{
	char c = 0;

	return write(r->release[1], &c, 1) == 1 ? 0 : -1;
}

/*
 * A worker's work is done: say so, and wait until the window is closed.
 * One that failed exits at once, which its controller sees.
 */
static void finish_in_window(void)
{
	if (open_window)
		rendezvous_pass(&open_window->end);
}

static int run_worker(struct task *t)
{
	int status = t->fn(t->arg);

	if (!status)
		finish_in_window();
	if (task_test_exit_delay_ms)
		usleep(task_test_exit_delay_ms * 1000);
	if (task_exit_hook)
		task_exit_hook();
	return status;
}

static void *thread_main(void *arg)
{
	struct task *t = arg;
	struct task_set *ts = t->set;
	int status = run_worker(t);

	pthread_mutex_lock(&ts->lock);
	t->status = status;
	t->done = true;
	ts->nr_done++;
	if (status)
		ts->nr_failed++;
	pthread_cond_signal(&ts->changed);
	pthread_mutex_unlock(&ts->lock);
	return NULL;
}

/* Test-only: widen the fork/PR_SET_PDEATHSIG window (tests/kill_anywhere.sh). */
static unsigned int spawn_delay_us(void)
{
	static int delay = -1;

	if (delay < 0) {
		const char *env = getenv("SCHED_PERF_TEST_SPAWN_DELAY_US");

		delay = env ? atoi(env) : 0;
		if (delay < 0 || delay > 1000000)
			delay = 0;
	}
	return delay;
}

static __noreturn void worker_process(struct task *t, pid_t parent,
				      const sigset_t *mask)
{
	if (spawn_delay_us())
		usleep(spawn_delay_us());
	/*
	 * A worker dies with its controller, never lingers.  The signal is
	 * armed only now: when the controller died since fork(), nobody
	 * would send it, so look.
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	_exit(run_worker(t) ? 1 : 0);
}

/*
 * Fork one worker and count it in @ts with the fatal signals blocked, so
 * that the controller's handler knows of every child it has to kill.
 */
static int spawn_process(struct task_set *ts, struct task *t)
{
	pid_t parent = getpid(), pid;
	sigset_t fatal, old;
	int err = 0;

	/* PR_SET_PDEATHSIG follows the forking thread, not the process */
	if (gettid() != parent)
		return -EINVAL;
	fatal_sigset(&fatal);
	sigprocmask(SIG_BLOCK, &fatal, &old);
	pid = fork();
	if (pid == 0)
		worker_process(t, parent, &old);
	if (pid < 0) {
		err = -errno;
	} else {
		t->pid = pid;
		ts->nr++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

static int spawn_thread(struct task *t)
{
	pthread_attr_t attr;
	int err;

	pthread_attr_init(&attr);
	/* Hundreds of workers per CPU: keep stacks small, as hackbench does. */
	pthread_attr_setstacksize(&attr, 256 * 1024);
	err = pthread_create(&t->thread, &attr, thread_main, t);
	pthread_attr_destroy(&attr);
	return -err;
}

int task_set_spawn(struct task_set *ts, task_fn fn, void *arg)
{
	struct task *t;
	int err;

	if (ts->nr >= ts->max)
		return -ENOSPC;
	t = &ts->tasks[ts->nr];
	*t = (struct task){ .fn = fn, .arg = arg, .set = ts };
	if (ts->mode == TASK_PROCESS)
		return spawn_process(ts, t);
	err = spawn_thread(t);
	if (!err)
		ts->nr++;
	return err;
}

static struct task *find_pid(struct task_set *ts, pid_t pid)
{
	unsigned int i;

	for (i = 0; i < ts->nr; i++)
		if (ts->tasks[i].pid == pid)
			return &ts->tasks[i];
	return NULL;
}

/* Record a reaped child; returns true when it failed. */
static bool reap_child(struct task_set *ts, pid_t pid, int status)
{
	struct task *t = find_pid(ts, pid);

	if (!t || t->done)
		return false;
	t->done = true;
	ts->nr_done++;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return false;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && ts->nr_failed)
		return false;	/* we killed it after an earlier failure */
	if (WIFSIGNALED(status))
		fprintf(stderr, "worker %d killed by signal %d\n",
			pid, WTERMSIG(status));
	ts->nr_failed++;
	kill_live_children();
	return true;
}

static unsigned int wait_processes(struct task_set *ts)
{
	while (ts->nr_done < ts->nr) {
		int status;
		pid_t pid = waitpid(-1, &status, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		reap_child(ts, pid, status);
	}
	return ts->nr_failed;
}

bool task_set_failed(struct task_set *ts)
{
	unsigned int i;
	bool failed;

	if (ts->mode == TASK_THREAD) {
		pthread_mutex_lock(&ts->lock);
		failed = ts->nr_failed;
		pthread_mutex_unlock(&ts->lock);
		return failed;
	}
	for (i = 0; i < ts->nr; i++) {
		int status;

		if (!ts->tasks[i].done &&
		    waitpid(ts->tasks[i].pid, &status, WNOHANG) > 0)
			reap_child(ts, ts->tasks[i].pid, status);
	}
	return ts->nr_failed;
}

static unsigned int wait_threads(struct task_set *ts)
{
	unsigned int i, failed;

	pthread_mutex_lock(&ts->lock);
	while (ts->nr_done < ts->nr && !ts->nr_failed)
		pthread_cond_wait(&ts->changed, &ts->lock);
	failed = ts->nr_failed;
	if (failed)
		for (i = 0; i < ts->nr; i++)
			if (!ts->tasks[i].done)
				pthread_cancel(ts->tasks[i].thread);
	pthread_mutex_unlock(&ts->lock);
	for (i = 0; i < ts->nr; i++)
		pthread_join(ts->tasks[i].thread, NULL);
	return failed;
}

unsigned int task_set_wait(struct task_set *ts)
{
	if (ts->mode == TASK_PROCESS)
		return wait_processes(ts);
	return wait_threads(ts);
}

void task_set_abort(struct task_set *ts)
{
	unsigned int i;

	if (ts->mode == TASK_PROCESS) {
		kill_live_children();
		for (i = 0; i < ts->nr; i++)
			if (!ts->tasks[i].done)
				waitpid(ts->tasks[i].pid, NULL, 0);
		return;
	}
	for (i = 0; i < ts->nr; i++) {
		if (!ts->tasks[i].done)
			pthread_cancel(ts->tasks[i].thread);
		pthread_join(ts->tasks[i].thread, NULL);
	}
}

int barrier_init(struct start_barrier *g)
{
	int err = rendezvous_init(&g->start);

	if (err)
		return err;
	err = rendezvous_init(&g->end);
	if (err) {
		rendezvous_destroy(&g->start);
		return err;
	}
	open_window = g;
	return 0;
}

void barrier_destroy(struct start_barrier *g)
{
	rendezvous_destroy(&g->start);
	rendezvous_destroy(&g->end);
	if (open_window == g)
		open_window = NULL;
}

int barrier_pass(struct start_barrier *g)
{
	return rendezvous_pass(&g->start);
}

int barrier_wait_ready(struct start_barrier *g, unsigned int n, struct task_set *ts)
{
	return rendezvous_wait(&g->start, n, ts);
}

int barrier_open(struct start_barrier *g)
{
	return rendezvous_release(&g->start);
}

int barrier_window(struct start_barrier *g, unsigned int n, struct task_set *ts,
		   uint64_t *elapsed_ns)
{
	uint64_t start;

	if (barrier_wait_ready(g, n, ts))
		return WINDOW_NOT_READY;
	start = now_ns();
	barrier_open(g);
	if (rendezvous_wait(&g->end, ts->nr, ts)) {
		task_set_abort(ts);
		return WINDOW_FAILED;
	}
	if (elapsed_ns)
		*elapsed_ns = now_ns() - start;
	if (rendezvous_release(&g->end) || task_set_wait(ts))
		return WINDOW_FAILED;
	return 0;
}

/*
 * Raise a soft resource limit to @need, and the hard one when allowed
 * (root).  Returns 0, or -1 with errno when the limit stays too low.
 */
static int task_raise_limit(int resource, rlim_t need)
{
	struct rlimit rl;

	if (getrlimit(resource, &rl))
		return -1;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
		rl.rlim_max = need;
	rl.rlim_cur = need;
	return setrlimit(resource, &rl);
}

int task_room_for(rlim_t fds, unsigned int processes, char *why, size_t len)
{
	if (task_raise_limit(RLIMIT_NOFILE, fds)) {
		snprintf(why, len, "RLIMIT_NOFILE cannot be raised to %llu (%s)",
			 (unsigned long long)fds, strerror(errno));
		return -1;
	}
	if (processes && task_raise_limit(RLIMIT_NPROC, (rlim_t)processes + 64)) {
		snprintf(why, len, "RLIMIT_NPROC cannot be raised to %u tasks (%s)",
			 processes + 64, strerror(errno));
		return -1;
	}
	return 0;
}
