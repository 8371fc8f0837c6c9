// SPDX-License-Identifier: GPL-2.0
/*
 * The command line every program shares: its options (after the
 * workload's own), their defaults and help, and the outputs they name,
 * checked before a run starts.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "measure.h"
#include "opts.h"
#include "verdict.h"

/*
 * The share of the default --budget a comparison takes when --budget was
 * not given: iterations of 1.5 s (dirdeep 2.25 s), still longer than
 * those bench/gate_ab.sh measured the gate with.  A comparison runs its
 * blocks, a warm-up after each switch and up to another budget: at the
 * full default, a gate of every program took 414 s on 2 CPUs; the share
 * keeps it within 5 minutes.
 */
#define COMPARE_BUDGET_SHARE 0.6

static struct run_config cfg;

/* --budget when not given: the workload's own, else 20 s */
static double default_budget(const struct workload *wl)
{
	return wl->default_budget ? wl->default_budget : 20;
}

static void nr_threads_default(const void *ctx, char *buf, size_t len)
{
	const struct workload *wl = ctx;

	snprintf(buf, len, "%u%%", wl->default_nr_threads_pct);
}

static void iterations_default(const void *ctx, char *buf, size_t len)
{
	const struct workload *wl = ctx;

	snprintf(buf, len, "%u", wl->default_iterations ? wl->default_iterations : 5);
}

static void budget_default(const void *ctx, char *buf, size_t len)
{
	const struct workload *wl = ctx;

	snprintf(buf, len, "%g; %g", default_budget(wl),
		 COMPARE_BUDGET_SHARE * default_budget(wl));
}

static void max_runs_default(const void *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%u", MAX_ITERATIONS);
}

static void gate_time_default(const void *ctx, char *buf, size_t len)
{
	snprintf(buf, len, "%u", GATE_TIME_DEFAULT);
}

static int parse_results(const char *prog, const struct opt_spec *o,
			 const char *arg)
{
	if (!strcmp(arg, "none")) {
		cfg.results[0] = '\0';
		return 0;
	}
	return opt_store(prog, o, arg);
}

static int parse_counters(const char *prog, const struct opt_spec *o, const char *arg)
{
	char err[160];

	if (measure_parse_sources(arg, &cfg.counters, err, sizeof(err))) {
		fprintf(stderr, "%s: --counters: %s\n", prog, err);
		return -1;
	}
	*o->given = true;
	return 0;
}

/* The options of every program, after the workload's own. */
static const struct opt_spec common_opts[] = {
	OPT_PERCENT(0, "nr-threads", "P[%]", &cfg.nr_threads_pct,
		    "instances as LKP sizes them: floor(P x CPUs / 100),\n"
		    "at least 1 (default %s)",
		    .help_default = nr_threads_default,
		    .given = &cfg.nr_threads_set, .flags = OPT_LOAD),
	OPT_ULONG(0, "iterations", "N", &cfg.iterations, 1, MAX_ITERATIONS,
		  "timed iterations (default %s; 1 with a peer\n"
		  "command line)",
		  .help_default = iterations_default, .flags = OPT_THIS_RUN),
	OPT_DOUBLE(0, "budget", "SEC", &cfg.budget, 0.1, 86400,
		   "seconds for all iterations together (default %s\n"
		   "with --baseline or --ab)",
		   .help_default = budget_default, .given = &cfg.budget_set,
		   .flags = OPT_THIS_RUN),
	OPT_STRING(0, "bounds", "FILE", cfg.bounds,
		   "bounds file (default: 'bounds' beside this program)"),
	OPT_STRING(0, "results", "FILE", cfg.results,
		   "results file, or 'none' (default: a new file in\n"
		   "$SCHED_PERF_RESULTS_DIR, else $TMPDIR, else /tmp)",
		   .parse = parse_results, .flags = OPT_THIS_RUN),
	OPT_SET(0, "no-counters", &cfg.no_counters, true,
		"measure nothing (overhead baseline): --counters none"),
	OPT_CALLBACK(0, "counters", "LIST", parse_counters,
		     "counter sources, comma-separated: perf (events\n"
		     "inherited by the workers), bpf (BPF on the sched\n"
		     "tracepoints: the workers' wakeups), tasks (their\n"
		     "/proc/<tid>/sched), schedstat (/proc/schedstat),\n"
		     "machine (/proc/stat); or\n"
		     "all, default, none.  Default: all but perf, whose\n"
		     "events slow each switch they count (CPU time,\n"
		     "switches, migrations, faults then from tasks)",
		     .given = &cfg.counters_set),
	OPT_STRING(0, "save", "FILE", cfg.save,
		   "also write the results (with every iteration) to\n"
		   "FILE, a baseline for --baseline and sched_perf_compare\n"
		   "(8 iterations unless --iterations); with --ab the B\n"
		   "side, and the A side to FILE.a",
		   .flags = OPT_THIS_RUN),
	OPT_STRING(0, "baseline", "FILE", cfg.baseline,
		   "compare with FILE's runs (the change bounds; 8\n"
		   "iterations unless --iterations)",
		   .flags = OPT_THIS_RUN),
	OPT_STRING(0, "ab", "KNOB", cfg.ab,
		   "in-boot A/B: a sched feature (NO_RUN_TO_PARITY) or\n"
		   "PATH=VALUE under /proc/sys, /sys/kernel/debug/sched\n"
		   "or /sys/module/*/parameters;\n"
		   "A = as found, B = KNOB, in blocks A B, B A, ...;\n"
		   "each block's B judged against its A (paired)",
		   .flags = OPT_THIS_RUN),
	OPT_ULONG(0, "max-runs", "N", &cfg.max_runs, 1, MAX_ITERATIONS,
		  "while a comparison is open (neither decided nor\n"
		  "passed), up to N iterations (blocks) per side\n"
		  "(default %s), within --gate-time",
		  .help_default = max_runs_default, .flags = OPT_THIS_RUN),
	OPT_PERCENT(0, "catch", "P[%]", &cfg.catch_pct,
		    "the regression to catch: after each look, plan the\n"
		    "iterations (blocks) per side that catch a fall of P\n"
		    "percent of the throughput at 90 percent power, from\n"
		    "the noise seen, within --max-runs and --gate-time\n"
		    "(default: the throughput's change line, M); the plan\n"
		    "is printed after each look, and what it can catch\n"
		    "when the time cannot reach P",
		    .flags = OPT_THIS_RUN),
	OPT_DOUBLE(0, "gate-time", "SEC", &cfg.gate_time, 1, 86400,
		   "seconds a comparison may take in all, its plan\n"
		   "included (default %s)",
		   .help_default = gate_time_default, .flags = OPT_THIS_RUN),
	OPT_DOUBLE(0, "alarm", "F", &cfg.alarm_share, 0.01, 1,
		   "the gate fails on a change shown beyond F of a\n"
		   "rule's change, for rules without their own 'alarm'\n"
		   "(default 0.5: beyond -2.5 percent for a -5 one)",
		   .flags = OPT_THIS_RUN),
	OPT_SET(0, "bisect", &cfg.bisect, true,
		"exit for git bisect run: 0 good, 1 bad, 125 cannot\n"
		"judge or skipped, 128 bad input or an output not\n"
		"written (aborts the bisect)",
		.flags = OPT_THIS_RUN),
	OPT_STRING(0, "evidence", "DIR", cfg.evidence,
		   "after the run, one more iteration under trace-cmd\n"
		   "(else perf record): the trace and a summary in DIR;\n"
		   "done anyway, in a new directory, when a check\n"
		   "fails and a tracer is installed\n"
		   "(SCHED_PERF_EVIDENCE=0: not then)",
		   .flags = OPT_THIS_RUN),
	OPT_HELP("this help"),
	OPT_END(),
};

static void print_usage(const struct workload *wl, FILE *f)
{
	fprintf(f, "usage: %s [options]\n", wl->name);
	opt_usage(f, wl->opts, wl);
	if (wl->opts_notes)
		fputs(wl->opts_notes, f);
	opt_usage(f, common_opts, wl);
	fputs("exit: 0 pass, 1 a check failed, 2 bad input or an output not written\n"
	      "(full filesystem, I/O error: one line on stderr after the KTAP), 4 skipped\n", f);
}

static void default_paths(const struct workload *wl, struct run_config *c)
{
	char exe[PATH_MAX] = "";
	const char *dir = getenv("SCHED_PERF_RESULTS_DIR");
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char stamp[32];
	time_t now = time(NULL);

	exe[n > 0 ? n : 0] = '\0';
	snprintf(c->bounds, sizeof(c->bounds), "%s/bounds", n > 0 ? dirname(exe) : ".");
	/* an empty variable is unset, as in evidence.c */
	if (!dir || !*dir)
		dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", localtime(&now));
	snprintf(c->results, sizeof(c->results), "%s/sched_perf-%s-%s-%d.results",
		 dir, wl->name, stamp, getpid());
}

/* Can files be made in @dir?  0, or -1 after one line on stderr. */
static int check_writable_dir(const struct workload *wl, const char *opt,
			      const char *dir)
{
	if (access(dir, W_OK | X_OK)) {
		fprintf(stderr, "%s: %s: cannot write into %s: %s\n",
			wl->name, opt, dir, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * A run whose results cannot be saved is lost: refuse it before it
 * starts.  @path ("" for none) is written as a new file renamed over it
 * (results.c): its directory must take files, and @path must be new or a
 * regular file.  Nothing is created here, so a later failure leaves nothing.
 */
static int check_output(const struct workload *wl, const char *opt,
			const char *path)
{
	char copy[PATH_MAX];
	struct stat st;

	if (!path[0])
		return 0;
	snprintf(copy, sizeof(copy), "%s", path);
	if (check_writable_dir(wl, opt, dirname(copy)))
		return -1;
	if (stat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "%s: %s: %s: %s\n", wl->name, opt, path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: %s: %s is %s\n", wl->name, opt, path,
			S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		return -1;
	}
	return 0;
}

/*
 * --evidence DIR is made when it is not there (one level, as mkdir does),
 * else filled: it must then be a directory that takes files.
 */
static int check_evidence_dir(const struct workload *wl, const char *dir)
{
	char copy[PATH_MAX];
	struct stat st;

	if (!dir[0])
		return 0;
	if (stat(dir, &st)) {
		if (errno != ENOENT) {
			fprintf(stderr, "%s: --evidence: %s: %s\n", wl->name, dir,
				strerror(errno));
			return -1;
		}
		snprintf(copy, sizeof(copy), "%s", dir);
		return check_writable_dir(wl, "--evidence", dirname(copy));
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "%s: --evidence: %s is not a directory\n", wl->name, dir);
		return -1;
	}
	return check_writable_dir(wl, "--evidence", dir);
}

/* Every file and directory the run writes, checked before it starts. */
static int check_outputs(const struct workload *wl, const struct run_config *c)
{
	char a_side[PATH_MAX + 2];

	/* outputs_save_a_side()'s name */
	snprintf(a_side, sizeof(a_side), "%s.a", c->save);
	if (check_output(wl, "--results", c->results) ||
	    check_output(wl, "--save", c->save) ||
	    (c->save[0] && c->ab[0] && check_output(wl, "--save (A side)", a_side)))
		return -1;
	return check_evidence_dir(wl, c->evidence);
}

/*
 * What changes the load (the workload's options and --nr-threads), as
 * given: two run sets compare only when it is the same.
 */
static void note_option(struct run_config *c, char **argv, int from, int to)
{
	size_t len = strlen(c->options);

	for (; from < to && len + 1 < sizeof(c->options); from++)
		len += snprintf(c->options + len, len < sizeof(c->options) ?
				sizeof(c->options) - len : 0, "%s%s",
				len ? " " : "", argv[from]);
}

/* What changes the load: the workload's options and those flagged so. */
static bool changes_load(const struct workload *wl, const struct opt_spec *o)
{
	return (o->flags & OPT_LOAD) || opt_in(wl->opts, o);
}

/* @o given @arg: a word of the re-run's command line, unless of this run only. */
static int note_rerun(const struct workload *wl, const struct opt_spec *o,
		      const char *arg)
{
	char **words;

	if (o->flags & OPT_THIS_RUN)
		return 0;
	words = realloc(cfg.rerun, (cfg.nr_rerun + 1) * sizeof(*words));
	if (words) {
		cfg.rerun = words;
		words[cfg.nr_rerun] = opt_word(o, arg);
	}
	if (!words || !words[cfg.nr_rerun]) {
		fprintf(stderr, "%s: out of memory\n", wl->name);
		return -1;
	}
	cfg.nr_rerun++;
	return 0;
}

static int parse_one(const struct workload *wl, const struct opt_spec *o,
		     const char *arg)
{
	if (o->kind == OPT_KIND_HELP) {
		print_usage(wl, stdout);
		exit(0);
	}
	if (opt_parse(wl->name, o, arg))
		return -1;
	return note_rerun(wl, o, arg);
}

const struct run_config *cli_parse(const struct workload *wl, int argc, char **argv)
{
	const struct opt_spec *tables[] = { wl->opts, common_opts, NULL };
	const struct opt_spec *o;
	char letters[128];
	struct option *opts = opt_getopt(tables, letters, sizeof(letters));
	int first, opt, ret = 0;

	cfg = (struct run_config){
		.nr_threads_pct = wl->default_nr_threads_pct,
		.budget = default_budget(wl),
		.counters = measure_default_sources(),
		.gate_time = GATE_TIME_DEFAULT,
	};
	default_paths(wl, &cfg);
	if (!opts)
		return NULL;
	opterr = 0;
	while (!ret) {
		first = optind;
		opt = getopt_long(argc, argv, letters, opts, NULL);
		if (opt == -1)
			break;
		o = opt_lookup(tables, opt);
		if (!o) {
			fprintf(stderr, "%s: unknown option or missing value: '%s' (see --help)\n",
				wl->name, argv[optind - 1]);
			ret = -1;
			break;
		}
		if (changes_load(wl, o))
			note_option(&cfg, argv, first, optind);
		ret = parse_one(wl, o, optarg);
	}
	if (!ret && optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n",
			wl->name, argv[optind]);
		ret = -1;
	}
	if (!ret && cfg.no_counters && cfg.counters_set) {
		fprintf(stderr, "%s: --no-counters and --counters: give one\n", wl->name);
		ret = -1;
	}
	if (cfg.no_counters)
		cfg.counters = 0;
	if (!ret)
		ret = check_outputs(wl, &cfg);
	free(opts);
	if (ret)
		return NULL;
	if ((cfg.baseline[0] || cfg.ab[0]) && !cfg.budget_set)
		cfg.budget *= COMPARE_BUDGET_SHARE;
	return &cfg;
}

int cli_usage_exit_code(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--bisect"))
			return 128;
	return EXIT_BAD_INPUT;
}
