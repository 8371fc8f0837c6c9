/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHED_PERF_CLI_H
#define SCHED_PERF_CLI_H

#include <limits.h>
#include <stdbool.h>

#include "workload.h"

/* The most iterations a run takes (--iterations, --max-runs). */
#define MAX_ITERATIONS 1000

/*
 * The seconds a comparison (--ab, --baseline) may take by default: a
 * CI slot of ten minutes a program on 2 CPUs, about 130 paired hackbench
 * blocks of 4.5 s, which catch -5 % at 90 % up to a per-iteration CV of
 * about 0.1 (verdicts.rst: 98 % at 0.05, 82 % at 0.1).
 */
#define GATE_TIME_DEFAULT 600

/* A program's command line, parsed: the options every program has. */
struct run_config {
	double nr_threads_pct;
	bool nr_threads_set;
	unsigned long iterations;	/* 0: default */
	double budget;			/* seconds for all timed iterations */
	bool budget_set;
	char bounds[PATH_MAX];
	char results[PATH_MAX];		/* "" when none */
	unsigned int counters;		/* MEASURE_SOURCE bits; 0: none */
	bool no_counters;		/* --no-counters given */
	bool counters_set;		/* --counters given */
	char save[PATH_MAX];		/* --save: the run set, "" when none */
	char baseline[PATH_MAX];	/* --baseline: compare with it */
	char ab[256];			/* --ab: the knob of an A/B */
	bool bisect;			/* git bisect run exit codes */
	unsigned long max_runs;		/* per side; 0: no more than planned */
	double catch_pct;		/* --catch: the change to plan for, %; 0: M */
	double gate_time;		/* --gate-time: seconds a comparison may take */
	double alarm_share;		/* --alarm: of a rule's change; 0: the default */
	char evidence[PATH_MAX];	/* --evidence: trace a re-run into it */
	char options[512];		/* what changes the load, for run sets */
	/* every option given but OPT_THIS_RUN ones, as words: the re-run's */
	char **rerun;
	int nr_rerun;
};

/*
 * @argv parsed, the defaults where an option was not given (a comparison
 * without --budget takes a share of the default), every output it names
 * checked.  NULL after one line on stderr; exits 0 after --help.
 */
const struct run_config *cli_parse(const struct workload *wl, int argc, char **argv);

/* What bad input exits with: EXIT_BAD_INPUT, or 128 under --bisect (aborts git bisect run). */
int cli_usage_exit_code(int argc, char **argv);

#endif
