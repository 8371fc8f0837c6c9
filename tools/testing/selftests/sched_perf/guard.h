/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guard: what a run must undo (a sysctl it set, a sched feature it flipped,
 * a work directory, a temporary file) is undone however the run ends.
 *
 * The controller undoes its own work on exit and on SIGINT/SIGTERM/SIGHUP.
 * Nothing in a process survives SIGKILL, so guard_start() also forks a
 * guardian: a small process that learns every undo action over a pipe and
 * waits for that pipe to close.  The controller and every worker forked
 * after guard_start() hold the write end, so the guardian wakes only when
 * the whole run is gone (workers die with the controller through
 * PR_SET_PDEATHSIG).  A controller that ends normally, or whose signal
 * handler did the undoing, disarms the guardian first; a controller that
 * was SIGKILLed leaves the undoing to it.
 */
#ifndef SCHED_PERF_GUARD_H
#define SCHED_PERF_GUARD_H

#include <signal.h>

/* The largest argument of an undo action (a work directory path). */
#define GUARD_ARG_MAX 3584

/*
 * An undo action.  It runs in the controller's signal handler or in the
 * guardian, so it must be async-signal-safe and work from @arg alone.
 */
typedef void (*guard_fn)(const char *arg);

/*
 * Fork the guardian; call once, early, from the main thread.  Returns 0,
 * or -1 (the run goes on with signal and exit handling only).
 */
int guard_start(void);

/*
 * Register @fn(@arg); returns a handle for guard_done(), or -1.  Actions
 * added before guard_start() are the guardian's too (it is a fork of the
 * controller), so such an action may also use what the controller had
 * set up by then.
 */
int guard_add(guard_fn fn, const char *arg);

/*
 * Write @value to @path (a sysctl, a sched feature) in one write().
 * Async-signal-safe.  Returns 0, or -1 with errno.
 */
int guard_write_file(const char *path, const char *value);

/*
 * Keep @fd open in the guardian (it closes every other), e.g. a lock that
 * must stay held until its undo action has run.  Call before
 * guard_start(); one fd.
 */
void guard_keep_fd(int fd);

/* Register writing @value to @path (a sysctl, a sched feature). */
int guard_write_back(const char *path, const char *value);

/*
 * mkdtemp(@template) and register @remove(@template) with no moment in
 * between where a signal could leave the directory behind.  Returns
 * @template, or NULL with errno (nothing created).
 */
char *guard_mkdtemp(char *template, guard_fn remove);

/* Run action @id now (when not yet run) and forget it. */
void guard_done(int id);

/* Forget action @id without running it (its work was undone otherwise). */
void guard_forget(int id);

/*
 * Run @fn on SIGINT/SIGTERM/SIGHUP before the process dies (kill children,
 * undo), newest first.  @fn must be async-signal-safe.
 */
void on_fatal_signal(void (*fn)(void));

/* The signals on_fatal_signal() handles, e.g. to block them across fork(). */
void fatal_sigset(sigset_t *set);

#endif
