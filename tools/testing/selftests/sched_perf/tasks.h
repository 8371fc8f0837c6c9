/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Task layer shared by every workload: spawn workers as processes or
 * threads, hold them at a start barrier, reap them, and never hang when one
 * of them dies.  Workloads use this instead of fork()/pthread_create() so
 * that the measurement core can observe each worker just before it exits
 * without the workload knowing about it.
 */
#ifndef SCHED_PERF_TASKS_H
#define SCHED_PERF_TASKS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

enum task_mode {
	TASK_PROCESS,
	TASK_THREAD,
};

typedef int (*task_fn)(void *arg);

/*
 * Called in every worker after its function returned, in the worker's own
 * context (process or thread).  The measurement core installs it.
 */
extern void (*task_exit_hook)(void);
/* Test only: a worker sleeps this long where it reads its figures (testwork.c). */
extern unsigned int task_test_exit_delay_ms;

struct task_set;

struct task_set *task_set_new(enum task_mode mode, unsigned int max_tasks);
void task_set_free(struct task_set *ts);

/* Start one worker; returns 0 or -errno.  @fn's return value is its status. */
int task_set_spawn(struct task_set *ts, task_fn fn, void *arg);

/*
 * Wait for every worker.  When one fails (non-zero status, signal), the
 * others are killed or cancelled so that nobody waits forever on a dead
 * peer.  Returns the number of failed workers.
 */
unsigned int task_set_wait(struct task_set *ts);

/* Has any worker failed so far?  Never blocks. */
bool task_set_failed(struct task_set *ts);

/* Kill whatever is still running (error paths). */
void task_set_abort(struct task_set *ts);

/*
 * A point each worker reaches and waits at until the controller lets all
 * of them on at once (hackbench's ready/wake pipes): a byte from each
 * worker on @arrive, then one on @release that nobody consumes, so that
 * every waiter sees it.
 */
struct rendezvous {
	int arrive[2];
	int release[2];
};

/*
 * The timed window's two ends: workers are ready at @start (set-up is not
 * timed) and have finished their work at @end (reading their figures and
 * exiting are not timed either).
 */
struct start_barrier {
	struct rendezvous start;
	struct rendezvous end;
};

int barrier_init(struct start_barrier *g);
void barrier_destroy(struct start_barrier *g);
/* Worker side: returns 0, or -1 when the controller went away. */
int barrier_pass(struct start_barrier *g);
/*
 * Controller side: wait until @n workers of @ts are ready (-1 when one of
 * them failed first), then release them with barrier_open().
 */
int barrier_wait_ready(struct start_barrier *g, unsigned int n, struct task_set *ts);
int barrier_open(struct start_barrier *g);

/*
 * An iteration's timed window, as every workload has it: wait until the
 * @n workers of @ts are ready, start the clock, release them, stop the
 * clock when every worker of @ts has finished its work, then let them
 * read their own figures (task_exit_hook) and exit, and reap them.  So
 * neither those reads nor the workers' exit are timed, whichever counter
 * sources are on.  0 with *@elapsed_ns (when not NULL); WINDOW_NOT_READY
 * when one failed before the start (the caller aborts @ts); WINDOW_FAILED
 * when one failed inside it (all of them are reaped).
 */
#define WINDOW_NOT_READY	-1
#define WINDOW_FAILED		-2
int barrier_window(struct start_barrier *g, unsigned int n, struct task_set *ts,
		   uint64_t *elapsed_ns);

/*
 * Room for a run: @fds open files, and @processes worker processes (0
 * for threads).  0, or -1 with the limit that stays too low in @why.
 */
int task_room_for(rlim_t fds, unsigned int processes, char *why, size_t len);

#endif
