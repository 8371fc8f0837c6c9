// SPDX-License-Identifier: GPL-2.0
/*
 * hackbench workload: groups of F senders and F receivers; every sender
 * writes a message of S bytes to each receiver of its group, L times.
 * Semantics, options and output lines are those of rt-tests hackbench,
 * the binary the 0-day robot runs, so its parser reads our output.
 *
 * This file makes load and times it.  It knows nothing of counters.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "opts.h"
#include "tasks.h"
#include "workload.h"

#define MAX_FDS		1000
#define MAX_DATASIZE	(1 << 20)
#define PROBE_SECONDS	0.2

static struct {
	unsigned int groups, fds, datasize;
	unsigned long loops;
	bool pipe, threads;
	bool groups_set, loops_set, pipe_set;
	/* any rt-tests sizing/mode option given: rt-tests defaults apply */
	bool peer_cmdline;
} hb = {
	.fds = 20,
	.datasize = 100,
	.pipe = true,
};

struct channel {
	int fd[2];		/* [0] receiver end, [1] sender end */
};

struct worker {
	struct channel *chan;	/* this group's F channels */
	unsigned int index;	/* receiver: which channel it reads */
	struct start_barrier *barrier;
};

/* An rt-tests option: rt-tests' defaults for the others, one iteration. */
static int rt_tests_opt(const char *prog, const struct opt_spec *o,
			const char *arg)
{
	hb.peer_cmdline = true;
	return opt_store(prog, o, arg);
}

static const struct opt_spec hackbench_opts[] = {
	OPT_UINT('g', "groups", "N", &hb.groups, 1, 100000,
		 "groups of F senders + F receivers\n(default: --nr-threads)",
		 .given = &hb.groups_set, .parse = rt_tests_opt),
	OPT_UINT('f', "fds", "F", &hb.fds, 1, MAX_FDS,
		 "senders and receivers per group (20)",
		 .parse = rt_tests_opt),
	OPT_ULONG('l', "loops", "L", &hb.loops, 1, 1000000000UL,
		  "messages per sender and receiver pair (default:\n"
		  "sized to the time budget; 100 with rt-tests options)",
		  .given = &hb.loops_set, .parse = rt_tests_opt),
	OPT_UINT('s', "datasize", "S", &hb.datasize, 1, MAX_DATASIZE,
		 "bytes per message (100)", .parse = rt_tests_opt),
	OPT_SET('p', "pipe", &hb.pipe, true, "pipes (default)",
		.given = &hb.pipe_set, .parse = rt_tests_opt),
	OPT_SET(0, "socket", &hb.pipe, false, "AF_UNIX socketpairs",
		.given = &hb.pipe_set),
	OPT_SET('P', "process", &hb.threads, false, "processes (default)",
		.parse = rt_tests_opt),
	OPT_SET('T', "threads", &hb.threads, true, "threads",
		.parse = rt_tests_opt),
	OPT_END(),
};

static void hackbench_set_instances(unsigned int n, bool explicit)
{
	if (hb.peer_cmdline) {
		/* what rt-tests does with the options not given */
		if (!hb.groups_set)
			hb.groups = explicit ? n : 10;
		if (!hb.pipe_set)
			hb.pipe = false;
		return;
	}
	/* LKP: nr_threads is the number of groups */
	if (!hb.groups_set)
		hb.groups = n;
}

static unsigned int nr_tasks(void)
{
	return hb.groups * hb.fds * 2;
}

static uint64_t messages_per_iteration(unsigned long loops)
{
	return (uint64_t)hb.groups * hb.fds * hb.fds * loops;
}

static int hackbench_prepare(char *why, size_t len)
{
	/* threads share one fd table: every group's fds stay open at once */
	rlim_t fds = hb.threads ? (rlim_t)hb.groups * hb.fds * 2 + 64 :
				  (rlim_t)hb.fds * 2 + 64;

	if (task_room_for(fds, hb.threads ? 0 : nr_tasks(), why, len))
		return WL_SKIP;
	/* a writer to a dead reader gets EPIPE, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static int open_channel(struct channel *c)
{
	if (hb.pipe)
		return pipe(c->fd);
	return socketpair(AF_UNIX, SOCK_STREAM, 0, c->fd);
}

static int receiver(void *arg)
{
	struct worker *w = arg;
	int fd = w->chan[w->index].fd[0];
	unsigned long msgs = hb.loops * hb.fds;
	char *buf = malloc(hb.datasize);

	if (!buf || barrier_pass(w->barrier)) {
		fprintf(stderr, "hackbench: receiving worker cannot start\n");
		return 1;
	}
	while (msgs--) {
		size_t done = 0;

		while (done < hb.datasize) {
			ssize_t r = read(fd, buf + done, hb.datasize - done);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				fprintf(stderr, "hackbench: receiving worker: %s, %lu messages missing\n",
					r ? strerror(errno) : "unexpected EOF (a sender died?)",
					msgs + 1);
				free(buf);
				return 1;
			}
			done += r;
		}
	}
	free(buf);
	return 0;
}

static int sender(void *arg)
{
	struct worker *w = arg;
	char *buf = malloc(hb.datasize);
	unsigned long i;
	unsigned int j;

	if (!buf || barrier_pass(w->barrier)) {
		fprintf(stderr, "hackbench: sending worker cannot start\n");
		return 1;
	}
	memset(buf, '-', hb.datasize);
	for (i = 0; i < hb.loops; i++) {
		for (j = 0; j < hb.fds; j++) {
			size_t done = 0;

			while (done < hb.datasize) {
				ssize_t r = write(w->chan[j].fd[1], buf + done,
						  hb.datasize - done);

				if (r < 0 && errno == EINTR)
					continue;
				if (r < 0) {
					fprintf(stderr, "hackbench: sending worker: write: %s (a receiver died?)\n",
						strerror(errno));
					free(buf);
					return 1;
				}
				done += r;
			}
			wl_test_work();
		}
	}
	free(buf);
	return 0;
}

static void close_ends(struct channel *chan, unsigned int end)
{
	unsigned int j;

	for (j = 0; j < hb.fds; j++) {
		close(chan[j].fd[end]);
		chan[j].fd[end] = -1;
	}
}

/*
 * Create one group.  In process mode the controller drops each end as soon
 * as the workers holding it exist, so that a dead peer shows up as EOF or
 * EPIPE instead of a blocked read.
 */
static int spawn_group(struct task_set *ts, struct channel *chan,
		       struct worker *w, struct start_barrier *barrier)
{
	unsigned int j;

	for (j = 0; j < hb.fds; j++) {
		if (open_channel(&chan[j])) {
			perror("hackbench: pipe/socketpair");
			while (j--) {
				close(chan[j].fd[0]);
				close(chan[j].fd[1]);
			}
			return -1;
		}
	}
	for (j = 0; j < hb.fds; j++) {
		w[j] = (struct worker){ .chan = chan, .index = j, .barrier = barrier };
		if (task_set_spawn(ts, receiver, &w[j]))
			goto fail;
	}
	if (!hb.threads)
		close_ends(chan, 0);
	for (j = 0; j < hb.fds; j++) {
		w[hb.fds + j] = (struct worker){ .chan = chan, .barrier = barrier };
		if (task_set_spawn(ts, sender, &w[hb.fds + j]))
			goto fail;
	}
	if (!hb.threads)
		close_ends(chan, 1);
	return 0;
fail:
	perror("hackbench: fork/pthread_create");
	return -1;
}

static void close_all(struct channel *chan, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (chan[i].fd[0] >= 0)
			close(chan[i].fd[0]);
		if (chan[i].fd[1] >= 0)
			close(chan[i].fd[1]);
	}
}

static int hackbench_run_once(struct wl_result *res)
{
	unsigned int g, tasks = nr_tasks();
	struct channel *chan = calloc(hb.groups * hb.fds, sizeof(*chan));
	struct worker *w = calloc(tasks, sizeof(*w));
	struct task_set *ts = task_set_new(hb.threads ? TASK_THREAD : TASK_PROCESS, tasks);
	struct start_barrier barrier;
	int ret = WL_ERROR;

	if (!chan || !w || !ts || barrier_init(&barrier)) {
		fprintf(stderr, "hackbench: out of memory or fds\n");
		goto out_free;
	}
	for (g = 0; g < hb.groups; g++)
		if (spawn_group(ts, chan + g * hb.fds, w + g * 2 * hb.fds, &barrier))
			goto out_abort;
	switch (barrier_window(&barrier, tasks, ts, &res->elapsed_ns)) {
	case WINDOW_NOT_READY:
		fprintf(stderr, "hackbench: a worker failed before the start\n");
		goto out_abort;
	case WINDOW_FAILED:
		fprintf(stderr, "hackbench: a sender or receiver failed\n");
		goto out_barrier;
	}
	res->ops = messages_per_iteration(hb.loops);
	ret = 0;
	goto out_barrier;
out_abort:
	task_set_abort(ts);
out_barrier:
	barrier_destroy(&barrier);
	if (hb.threads)
		close_all(chan, hb.groups * hb.fds);
out_free:
	task_set_free(ts);
	free(w);
	free(chan);
	return ret;
}

/* 0-day's loop count: 30000 x CPUs / groups keeps the total work per CPU. */
static unsigned long lkp_loops(void)
{
	unsigned long l = 30000UL * sysconf(_SC_NPROCESSORS_ONLN) / hb.groups;

	return l ? l : 1;
}

static int hackbench_fit_budget(double seconds)
{
	struct wl_result probe;
	double rate;
	unsigned long want, cap = lkp_loops();

	if (hb.loops_set)
		return 0;
	if (hb.peer_cmdline) {
		hb.loops = 100;		/* rt-tests' default */
		return 0;
	}
	/* short probes, doubling, until one is long enough to time */
	for (hb.loops = 10;; hb.loops *= 2) {
		if (hackbench_run_once(&probe))
			return WL_ERROR;
		if (probe.elapsed_ns >= PROBE_SECONDS * 1e9 || hb.loops >= cap)
			break;
	}
	rate = probe.ops / (probe.elapsed_ns / 1e9);
	want = seconds * rate / messages_per_iteration(1);
	hb.loops = want < 10 ? 10 : want > cap ? cap : want;
	return 0;
}

static void hackbench_banner(void)
{
	printf("Running in %s mode with %u groups using %u file descriptors each (== %u tasks)\n",
	       hb.threads ? "threaded" : "process", hb.groups, 2 * hb.fds, nr_tasks());
	printf("Each sender will pass %lu messages of %u bytes\n", hb.loops, hb.datasize);
}

static void hackbench_report_iteration(const struct wl_result *res)
{
	/* rt-tests truncates to milliseconds */
	uint64_t ms = res->elapsed_ns / 1000000;

	printf("Time: %llu.%03llu\n", (unsigned long long)(ms / 1000),
	       (unsigned long long)(ms % 1000));
}

/*
 * LKP's hackbench.throughput: (tasks x loops x datasize) >> 10 over the
 * best time, in KB/s.  Not the bytes really moved; kept for comparability.
 */
static void hackbench_publish(const struct wl_summary *s,
			      void (*add)(const char *name, const char *unit, double v))
{
	double kb = (double)(((uint64_t)nr_tasks() * hb.loops * hb.datasize) >> 10);

	add("throughput", "KB/s", s->best_ns ? kb / (s->best_ns / 1e9) : 0);
	add("throughput_avg", "KB/s", s->mean_ns ? kb / (s->mean_ns / 1e9) : 0);
	add("throughput_worst", "KB/s", s->worst_ns ? kb / (s->worst_ns / 1e9) : 0);
	add("groups", "", hb.groups);
	add("loops", "", hb.loops);
}

static const char *const hackbench_variants[] = {
	"pipe-process", "pipe-threads", "socket-process", "socket-threads", NULL,
};

static const char *hackbench_variant(void)
{
	return hackbench_variants[(hb.pipe ? 0 : 2) + hb.threads];
}

static bool hackbench_peer_cmdline(void)
{
	return hb.peer_cmdline;
}

const struct workload hackbench_workload = {
	.name = "hackbench",
	.op_name = "message",
	.ops_name = "messages",
	.opts = hackbench_opts,
	.opts_notes =
	"  Any of -g -f -l -s -p -T -P means an rt-tests command line: one iteration,\n"
	"  rt-tests defaults (10 groups or --nr-threads, 100 loops, sockets unless -p).\n",
	.default_nr_threads_pct = 50,
	.variants = hackbench_variants,
	.set_instances = hackbench_set_instances,
	.prepare = hackbench_prepare,
	.fit_budget = hackbench_fit_budget,
	.banner = hackbench_banner,
	.run_once = hackbench_run_once,
	.report_iteration = hackbench_report_iteration,
	.publish = hackbench_publish,
	.peer_cmdline = hackbench_peer_cmdline,
	.variant = hackbench_variant,
};
