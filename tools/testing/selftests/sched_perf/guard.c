// SPDX-License-Identifier: GPL-2.0
/*
 * Guard: undo actions that run on exit, on fatal signals, and in a
 * guardian process when the controller was SIGKILLed.  See guard.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler.h"
#include "guard.h"

#define GUARD_MAX	32	/* undo actions alive at once */
#define MAX_CLEANUPS	8	/* on_fatal_signal() hooks */

enum guard_op { GUARD_ADD, GUARD_FORGET, GUARD_DISARM };

/* One message on the pipe: at most PIPE_BUF bytes, so writes are atomic. */
struct guard_msg {
	int op;
	int id;
	guard_fn fn;		/* same image in the guardian: fork(), no exec */
	char arg[GUARD_ARG_MAX];
};

_Static_assert(sizeof(struct guard_msg) <= 4096, "guard_msg above PIPE_BUF");

struct guard_action {
	guard_fn fn;
	bool live;		/* set last, with release order: see publish() */
	char arg[GUARD_ARG_MAX];
};

/* Controller side.  Read by the signal handler, written outside it. */
static struct guard_action actions[GUARD_MAX];
static int nr_actions;
static int guard_fd = -1;
static pid_t guardian_pid, controller_pid;
static int kept_fd = -1;	/* guard_keep_fd(): open in the guardian too */

static void (*cleanups[MAX_CLEANUPS])(void);
static int nr_cleanups;

/*
 * The signal handler reads what the main thread writes: a plain store of
 * the flag or count with release order, once the entry it covers is whole.
 */
#define publish(var, val) __atomic_store_n(&(var), (val), __ATOMIC_RELEASE)

static void fatal_signal(int sig)
{
	int i;

	for (i = nr_cleanups - 1; i >= 0; i--)
		cleanups[i]();
	signal(sig, SIG_DFL);
	raise(sig);
}

void on_fatal_signal(void (*fn)(void))
{
	struct sigaction sa = { .sa_handler = fatal_signal };

	if (nr_cleanups >= MAX_CLEANUPS)
		return;
	cleanups[nr_cleanups] = fn;
	publish(nr_cleanups, nr_cleanups + 1);
	/* one cleanup at a time: a second signal waits for the first */
	fatal_sigset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void fatal_sigset(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/* Async-signal-safe: one write of at most PIPE_BUF bytes. */
static void send_msg(int op, int id, guard_fn fn, const char *arg)
{
	static struct guard_msg msg;	/* 3.6 KiB: not on a worker's stack */
	int saved = errno;

	if (guard_fd < 0)
		return;
	msg.op = op;
	msg.id = id;
	msg.fn = fn;
	msg.arg[0] = '\0';
	if (arg)
		strncat(msg.arg, arg, GUARD_ARG_MAX - 1);
	while (write(guard_fd, &msg, sizeof(msg)) < 0 && errno == EINTR)
		;
	errno = saved;
}

/* Every live action, newest first.  Async-signal-safe. */
static void undo_all(struct guard_action *a, int n)
{
	int i;

	for (i = n - 1; i >= 0; i--) {
		if (!a[i].live)
			continue;
		a[i].live = false;
		a[i].fn(a[i].arg);
	}
}

/* The controller undoes its own work, then the guardian may go. */
static void undo_and_disarm(void)
{
	if (getpid() != controller_pid)
		return;		/* a worker: never undo the run's work */
	undo_all(actions, nr_actions);
	send_msg(GUARD_DISARM, 0, NULL, NULL);
}

static void guard_at_exit(void)
{
	undo_and_disarm();
	if (guard_fd < 0 || getpid() != controller_pid)
		return;
	close(guard_fd);
	guard_fd = -1;
	/* nothing of the run outlives it, not even the guardian */
	while (waitpid(guardian_pid, NULL, 0) < 0 && errno == EINTR)
		;
}

static bool read_msg(int fd, struct guard_msg *msg)
{
	size_t done = 0;

	while (done < sizeof(*msg)) {
		ssize_t r = read(fd, (char *)msg + done, sizeof(*msg) - done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		done += r;
	}
	return true;
}

static void close_other_fds(int keep)
{
	int devnull = open("/dev/null", O_RDWR);
	long fd, max = sysconf(_SC_OPEN_MAX);

	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
	}
	/* stderr stays: a runner reading it waits for the undoing to end */
	for (fd = 3; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
		if (fd != keep && fd != kept_fd)
			close(fd);
}

/* The guardian: record actions until disarmed or orphaned. */
static __noreturn void guardian(int fd)
{
	static struct guard_action mine[GUARD_MAX];
	static struct guard_msg msg;
	int n = nr_actions;

	/* the actions added before guard_start(): a fork has them already */
	memcpy(mine, actions, sizeof(mine));

	signal(SIGINT, SIG_IGN);	/* the terminal's ^C is the controller's */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	prctl(PR_SET_NAME, "sched_perf-grd");
	close_other_fds(fd);
	while (read_msg(fd, &msg)) {
		if (msg.op == GUARD_DISARM)
			_exit(0);
		if (msg.id < 0 || msg.id >= GUARD_MAX)
			continue;
		if (msg.op == GUARD_FORGET) {
			mine[msg.id].live = false;
			continue;
		}
		mine[msg.id].fn = msg.fn;
		memcpy(mine[msg.id].arg, msg.arg, sizeof(msg.arg));
		mine[msg.id].live = true;
		if (msg.id >= n)
			n = msg.id + 1;
	}
	/* EOF without DISARM: the controller and its workers are gone */
	undo_all(mine, n);
	_exit(0);
}

int guard_start(void)
{
	int fds[2];
	pid_t pid;

	controller_pid = getpid();
	on_fatal_signal(undo_and_disarm);
	atexit(guard_at_exit);
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[1]);
		guardian(fds[0]);
	}
	close(fds[0]);
	guard_fd = fds[1];
	guardian_pid = pid;
	return 0;
}

void guard_keep_fd(int fd)
{
	kept_fd = fd;
}

int guard_add(guard_fn fn, const char *arg)
{
	struct guard_action *a;
	int id;

	if (!controller_pid)
		controller_pid = getpid();	/* no guard_start(): local only */
	for (id = 0; id < nr_actions && actions[id].live; id++)
		;	/* reuse a slot whose action is done */
	if (id >= GUARD_MAX || strlen(arg) >= GUARD_ARG_MAX)
		return -1;
	a = &actions[id];
	a->fn = fn;
	snprintf(a->arg, sizeof(a->arg), "%s", arg);
	publish(a->live, true);
	if (id == nr_actions)
		publish(nr_actions, id + 1);
	send_msg(GUARD_ADD, id, fn, arg);
	return id;
}

void guard_forget(int id)
{
	if (id < 0 || id >= nr_actions)
		return;
	actions[id].live = false;
	send_msg(GUARD_FORGET, id, NULL, NULL);
}

void guard_done(int id)
{
	if (id < 0 || id >= nr_actions || !actions[id].live)
		return;
	actions[id].live = false;
	actions[id].fn(actions[id].arg);
	send_msg(GUARD_FORGET, id, NULL, NULL);
}

char *guard_mkdtemp(char *template, guard_fn remove)
{
	sigset_t fatal, old;
	char *dir;
	int err;

	fatal_sigset(&fatal);
	sigprocmask(SIG_BLOCK, &fatal, &old);
	dir = mkdtemp(template);
	err = errno;
	if (dir && guard_add(remove, dir) < 0) {
		rmdir(dir);
		dir = NULL;
		err = ENOMEM;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = err;
	return dir;
}

int guard_write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t r;
	int err;

	if (fd < 0)
		return -1;
	r = write(fd, value, strlen(value));
	err = errno;
	close(fd);
	errno = err;
	return r == (ssize_t)strlen(value) ? 0 : -1;
}

/* "PATH=VALUE": split at the first '=' (no sysctl or debugfs path has one). */
static void write_back(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char path[GUARD_ARG_MAX];

	if (!eq || eq - arg >= (long)sizeof(path))
		return;
	memcpy(path, arg, eq - arg);
	path[eq - arg] = '\0';
	/* a failure here has nowhere to go: the run is ending */
	guard_write_file(path, eq + 1);
}

int guard_write_back(const char *path, const char *value)
{
	char arg[GUARD_ARG_MAX];

	if (snprintf(arg, sizeof(arg), "%s=%s", path, value) >= (int)sizeof(arg))
		return -1;
	return guard_add(write_back, arg);
}
