// SPDX-License-Identifier: GPL-2.0
/*
 * pipe workload: perf bench sched pipe semantics.  Two tasks and two
 * pipes per pair: the initiator writes an int to the first pipe, the
 * responder reads it and writes it back on the second, the initiator
 * reads it: one operation is one such round trip, two wakeups and (when
 * the two tasks share a CPU) two context switches.  Processes by default,
 * threads with -T; one pair as perf, or N independent pairs.
 *
 * This file makes load and times it.  It knows nothing of counters.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "opts.h"
#include "tasks.h"
#include "workload.h"

#define MAX_PAIRS	65536
#define MAX_LOOPS	1000000000UL
/* the clock is read once per this many round trips (a power of two) */
#define CLOCK_EVERY	16
#define MSG_GO		0	/* perf sends 0 both ways */
#define MSG_STOP	1	/* initiator to responder: the window is over */

static struct {
	unsigned long loops;	/* round trips per pair; 0: by the clock */
	unsigned int pairs;
	double duration;	/* seconds per iteration when loops is 0 */
	bool threads, pairs_set;
} pp;

struct pair {
	int ping[2];		/* initiator -> responder */
	int pong[2];		/* responder -> initiator */
	uint64_t *done;		/* round trips, shared with worker processes */
	struct start_barrier *barrier;
};

static uint64_t *done;		/* pp.pairs counters, MAP_SHARED */

static const struct opt_spec pipe_opts[] = {
	OPT_ULONG('l', "loop", "N", &pp.loops, 1, MAX_LOOPS,
		  "round trips per pair, then stop: perf's command\n"
		  "line, one iteration (default: by the clock,\n"
		  "budget / iterations)"),
	OPT_UINT('n', "pairs", "N", &pp.pairs, 1, MAX_PAIRS,
		 "independent pairs (default 1, as perf, or\n--nr-threads)",
		 .given = &pp.pairs_set),
	OPT_SET('P', "process", &pp.threads, false, "processes (default)"),
	OPT_SET('T', "threaded", &pp.threads, true, "threads (perf's -T)"),
	OPT_SET(0, "threads", &pp.threads, true, "threads, as the other programs"),
	OPT_END(),
};

/* One pair, as perf, unless --pairs or --nr-threads asks for more. */
static void pipe_set_instances(unsigned int n, bool explicit)
{
	if (!pp.pairs_set)
		pp.pairs = explicit ? n : 1;
}

static int pipe_prepare(char *why, size_t len)
{
	/* threads share one fd table: 4 pipe ends per pair */
	if (task_room_for((rlim_t)pp.pairs * 4 + 64, pp.threads ? 0 : 2 * pp.pairs, why, len))
		return WL_SKIP;
	done = mmap(NULL, pp.pairs * sizeof(*done), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (done == MAP_FAILED) {
		fprintf(stderr, "pipe: cannot map the counters: %s\n", strerror(errno));
		return WL_ERROR;
	}
	/* a writer to a dead reader gets EPIPE, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static int pipe_fit_budget(double seconds)
{
	pp.duration = seconds;
	return 0;
}

/* One int through @fd: 0, or -1 after printing why. */
static int xfer(const char *who, int fd, int *m, bool out)
{
	size_t got = 0;

	while (got < sizeof(*m)) {
		ssize_t r = out ? write(fd, (char *)m + got, sizeof(*m) - got) :
				  read(fd, (char *)m + got, sizeof(*m) - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			fprintf(stderr, "pipe: %s: %s: %s\n", who, out ? "write" : "read",
				r ? strerror(errno) : "unexpected EOF (the other task died?)");
			return -1;
		}
		got += r;
	}
	return 0;
}

/*
 * A worker process holds copies of all four ends: it keeps its own two,
 * so that a dead peer shows up as EOF or EPIPE instead of a blocked read.
 */
static void keep_ends(int drop1, int drop2)
{
	if (!pp.threads) {
		close(drop1);
		close(drop2);
	}
}

static int initiate(void *arg)
{
	struct pair *p = arg;
	uint64_t n = 0, deadline = 0;
	int m;

	keep_ends(p->ping[0], p->pong[1]);
	if (barrier_pass(p->barrier)) {
		fprintf(stderr, "pipe: initiator cannot start\n");
		return 1;
	}
	if (!pp.loops)
		deadline = now_ns() + pp.duration * 1e9;
	for (;;) {
		if (pp.loops ? n >= pp.loops :
		    !(n % CLOCK_EVERY) && now_ns() >= deadline)
			break;
		m = MSG_GO;
		if (xfer("initiator", p->ping[1], &m, true) ||
		    xfer("initiator", p->pong[0], &m, false))
			return 1;
		n++;
		wl_test_work();
	}
	*p->done = n;
	m = MSG_STOP;
	return xfer("initiator", p->ping[1], &m, true) ? 1 : 0;
}

static int respond(void *arg)
{
	struct pair *p = arg;
	int m;

	keep_ends(p->ping[1], p->pong[0]);
	if (barrier_pass(p->barrier)) {
		fprintf(stderr, "pipe: responder cannot start\n");
		return 1;
	}
	for (;;) {
		if (xfer("responder", p->ping[0], &m, false))
			return 1;
		if (m == MSG_STOP)
			return 0;
		if (xfer("responder", p->pong[1], &m, true))
			return 1;
	}
}

static void close_pair(struct pair *p)
{
	int *fd[] = { &p->ping[0], &p->ping[1], &p->pong[0], &p->pong[1] };
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (*fd[i] >= 0)
			close(*fd[i]);
		*fd[i] = -1;
	}
}

/*
 * Open one pair's pipes and start its two tasks.  In process mode the
 * controller drops the ends at once, so that the next pair's tasks do
 * not inherit them.
 */
static int spawn_pair(struct task_set *ts, struct pair *p)
{
	p->ping[0] = p->ping[1] = p->pong[0] = p->pong[1] = -1;
	if (pipe(p->ping) || pipe(p->pong)) {
		perror("pipe: pipe");
		close_pair(p);
		return -1;
	}
	if (task_set_spawn(ts, initiate, p) || task_set_spawn(ts, respond, p)) {
		perror("pipe: fork/pthread_create");
		close_pair(p);
		return -1;
	}
	if (!pp.threads)
		close_pair(p);
	return 0;
}

static int pipe_run_once(struct wl_result *res)
{
	struct task_set *ts = task_set_new(pp.threads ? TASK_THREAD : TASK_PROCESS,
					   2 * pp.pairs);
	struct pair *pairs = calloc(pp.pairs, sizeof(*pairs));
	struct start_barrier barrier;
	unsigned int i, opened = 0;
	int ret = WL_ERROR;

	if (!ts || !pairs || barrier_init(&barrier)) {
		fprintf(stderr, "pipe: out of memory or fds\n");
		goto out_free;
	}
	memset(done, 0, pp.pairs * sizeof(*done));
	for (i = 0; i < pp.pairs; i++, opened++) {
		pairs[i].done = &done[i];
		pairs[i].barrier = &barrier;
		if (spawn_pair(ts, &pairs[i]))
			goto out_abort;
	}
	switch (barrier_window(&barrier, 2 * pp.pairs, ts, &res->elapsed_ns)) {
	case WINDOW_NOT_READY:
		fprintf(stderr, "pipe: a task failed before the start\n");
		goto out_abort;
	case WINDOW_FAILED:
		fprintf(stderr, "pipe: an initiator or responder failed\n");
		goto out_barrier;
	}
	for (res->ops = 0, i = 0; i < pp.pairs; i++)
		res->ops += done[i];
	ret = 0;
	goto out_barrier;
out_abort:
	task_set_abort(ts);
out_barrier:
	barrier_destroy(&barrier);
	if (pp.threads)
		for (i = 0; i < opened; i++)
			close_pair(&pairs[i]);
out_free:
	task_set_free(ts);
	free(pairs);
	return ret;
}

static const char *task_kind(void)
{
	return pp.threads ? "threads" : "processes";
}

/* perf's header; its "Executed" line follows each iteration */
static void pipe_banner(void)
{
	printf("# Running 'sched/pipe' benchmark:\n");
	if (pp.pairs > 1)
		printf("# %u independent pairs of %s\n", pp.pairs, task_kind());
}

/*
 * perf's lines (blank lines left out).  usecs/op is one pair's round
 * trip time (the window times pairs over round trips): perf's with one
 * pair; ops/sec is all pairs together.
 */
static void pipe_report_iteration(const struct wl_result *res)
{
	uint64_t us = res->elapsed_ns / 1000;
	double ops = res->ops ? res->ops : 1;

	if (pp.pairs > 1)
		printf("# Executed %llu pipe operations in %u pairs of %s\n",
		       (unsigned long long)res->ops, pp.pairs, task_kind());
	else
		printf("# Executed %llu pipe operations between two %s\n",
		       (unsigned long long)res->ops, task_kind());
	printf("     Total time: %llu.%03llu [sec]\n", (unsigned long long)(us / 1000000),
	       (unsigned long long)(us % 1000000 / 1000));
	printf(" %14lf usecs/op\n", us * (double)pp.pairs / ops);
	printf(" %14llu ops/sec\n", us ? (unsigned long long)(res->ops * 1e6 / us) : 0ULL);
}

static void pipe_publish(const struct wl_summary *s,
			 void (*add)(const char *name, const char *unit, double v))
{
	double rate = s->ops_per_sec_median;

	/* perf's usecs/op, from the median rate: one pair's round trip */
	add("usecs_per_op", "us", rate > 0 ? 1e6 * pp.pairs / rate : 0);
	add("pairs", "", pp.pairs);
	add("loops", "", pp.loops);
}

static const char *const pipe_variants[] = { "process", "threads", NULL };

static const char *pipe_variant(void)
{
	return pipe_variants[pp.threads];
}

/* -l is perf's command line: one iteration of that many round trips. */
static bool pipe_peer_cmdline(void)
{
	return pp.loops;
}

const struct workload pipe_workload = {
	.name = "pipe",
	.op_name = "round trip",
	.ops_name = "round_trips",
	.opts = pipe_opts,
	/* 0 %: one pair, whatever the CPUs, unless --nr-threads is given */
	.default_nr_threads_pct = 0,
	.default_budget = 10,
	.variants = pipe_variants,
	.set_instances = pipe_set_instances,
	.prepare = pipe_prepare,
	.fit_budget = pipe_fit_budget,
	.banner = pipe_banner,
	.run_once = pipe_run_once,
	.report_iteration = pipe_report_iteration,
	.publish = pipe_publish,
	.peer_cmdline = pipe_peer_cmdline,
	.variant = pipe_variant,
};
