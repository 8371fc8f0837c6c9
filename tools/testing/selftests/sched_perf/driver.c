// SPDX-License-Identifier: GPL-2.0
/*
 * Driver: runs any struct workload under the measurement core and hands
 * the figures to the verdict layer.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ab.h"
#include "compare.h"
#include "compiler.h"
#include "driver.h"
#include "evidence.h"
#include "gate.h"
#include "guard.h"
#include "measure.h"
#include "mounts.h"
#include "opts.h"
#include "results.h"
#include "runset.h"
#include "sysinfo.h"
#include "stats.h"
#include "verdict.h"

#define MAX_ITERATIONS 1000

/* Iterations per side when comparing and --iterations was not given. */
#define GATE_DEFAULT_RUNS 8
/*
 * The share of the default --budget a comparison takes when --budget was
 * not given (see sched_perf_main): iterations of 1.5 s (dirdeep 2.25 s),
 * still longer than those bench/gate_ab.sh measured the gate with.
 */
#define COMPARE_BUDGET_SHARE 0.6

static struct config {
	double nr_threads_pct;
	bool nr_threads_set;
	unsigned long iterations;	/* 0: default */
	double budget;			/* seconds for all timed iterations */
	bool budget_set;
	char bounds[PATH_MAX];
	char results[PATH_MAX];		/* "" when none */
	bool counters;
	char save[PATH_MAX];		/* --save: the run set, "" when none */
	char baseline[PATH_MAX];	/* --baseline: compare with it */
	char ab[256];			/* --ab: the knob of an A/B */
	bool bisect;			/* git bisect run exit codes */
	unsigned long max_runs;		/* per side; 0: no more than planned */
	char evidence[PATH_MAX];	/* --evidence: trace a re-run into it */
	char options[512];		/* what changes the load, for run sets */
	/* every option given but OPT_THIS_RUN ones, as words: the re-run's */
	char **rerun;
	int nr_rerun;
} cfg;

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

static int parse_results(const char *prog, const struct opt_spec *o,
			 const char *arg)
{
	if (!strcmp(arg, "none")) {
		cfg.results[0] = '\0';
		return 0;
	}
	return opt_store(prog, o, arg);
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
	OPT_SET(0, "no-counters", &cfg.counters, false,
		"measure nothing (overhead baseline)"),
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
		   "PATH=VALUE under /proc/sys or /sys/kernel/debug/sched;\n"
		   "A = as found, B = KNOB, in blocks A B, B A, ...;\n"
		   "each block's B judged against its A (paired)",
		   .flags = OPT_THIS_RUN),
	OPT_ULONG(0, "max-runs", "N", &cfg.max_runs, 1, MAX_ITERATIONS,
		  "while a comparison is undecided (neither proven the\n"
		  "same nor shown to differ), up to N iterations\n"
		  "(blocks) per side (default: 3 x --iterations), for\n"
		  "at most another --budget seconds",
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

static void default_paths(const struct workload *wl, struct config *c)
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
static int check_outputs(const struct workload *wl, const struct config *c)
{
	char a_side[PATH_MAX + 2];

	/* save_a_side()'s name */
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
static void note_option(struct config *c, char **argv, int from, int to)
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

/* Returns 0, or EXIT_BAD_INPUT after one line on stderr; exits for --help. */
static int parse_args(const struct workload *wl, int argc, char **argv)
{
	const struct opt_spec *tables[] = { wl->opts, common_opts, NULL };
	const struct opt_spec *o;
	char letters[128];
	struct option *opts = opt_getopt(tables, letters, sizeof(letters));
	int first, opt, ret = 0;

	cfg = (struct config){
		.nr_threads_pct = wl->default_nr_threads_pct,
		.budget = default_budget(wl),
		.counters = true,
	};
	default_paths(wl, &cfg);
	if (!opts)
		return EXIT_BAD_INPUT;
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
	if (!ret)
		ret = check_outputs(wl, &cfg);
	free(opts);
	return ret ? EXIT_BAD_INPUT : 0;
}

static unsigned int instances(double pct)
{
	unsigned int n = pct * sysconf(_SC_NPROCESSORS_ONLN) / 100;

	return n ? n : 1;
}

static struct metric_set *collecting;

static void publish_metric(const char *name, const char *unit, double v)
{
	metric_add(collecting, name, unit, v);
}

/* Operations per second of one timed iteration. */
static double iteration_rate(const struct wl_result *r)
{
	double secs = r->elapsed_ns / 1e9;

	return secs > 0 ? r->ops / secs : 0;
}

/* The rates of every iteration: median, best and coefficient of variation. */
static void iteration_metrics(const struct workload *wl,
			      const struct wl_result *res, unsigned int n,
			      struct metric_set *set)
{
	struct wl_summary s = { 0 };
	struct sample_stats st = { 0 };
	double rate[MAX_ITERATIONS], ops = 0;
	char name[METRIC_NAME_LEN];
	unsigned int i;

	for (i = 0; i < n; i++) {
		rate[i] = iteration_rate(&res[i]);
		ops += res[i].ops;
		s.mean_ns += res[i].elapsed_ns / (double)n;
		if (!i || res[i].elapsed_ns < s.best_ns)
			s.best_ns = res[i].elapsed_ns;
		if (res[i].elapsed_ns > s.worst_ns)
			s.worst_ns = res[i].elapsed_ns;
	}
	if (n)
		stats_describe(rate, n, 0.95, &st);

	metric_add(set, "iterations", "", n);
	snprintf(name, sizeof(name), "%s_total", wl->ops_name);
	metric_add(set, name, "", ops);
	s.ops_per_sec_median = st.median;
	snprintf(name, sizeof(name), "%s_per_sec", wl->ops_name);
	metric_add(set, name, "/s", st.median);
	snprintf(name, sizeof(name), "%s_per_sec_best", wl->ops_name);
	metric_add(set, name, "/s", st.max);
	snprintf(name, sizeof(name), "%s_per_sec_cv", wl->ops_name);
	metric_add(set, name, "", st.cv);
	collecting = set;
	wl->publish(&s, publish_metric);
}

/* Every metric name this program can produce, for checking bounds. */
static void known_metrics(const struct workload *wl, struct metric_set *set)
{
	struct wl_result r = { 0 };

	set->nr = 0;
	iteration_metrics(wl, &r, 1, set);
	measure_known(set);
}

static void print_metrics(const char *prefix, const struct metric_set *set)
{
	unsigned int i;

	for (i = 0; i < set->nr; i++) {
		const struct metric *m = &set->m[i];

		if (m->missing)
			verdict_note("%s.%s: n/a (%s)\n", prefix, m->name, m->missing);
		else
			verdict_note("%s.%s: %.6g%s%s\n", prefix, m->name, m->value,
				     m->unit && *m->unit ? " " : "", m->unit ? m->unit : "");
	}
}

/* The identity of this run, as run sets carry it. */
static void runset_identity(const struct workload *wl, const struct config *c,
			    struct runset *rs)
{
	struct utsname u;

	runset_init(rs, wl->name);
	snprintf(rs->variant, sizeof(rs->variant), "%s", wl->variant());
	snprintf(rs->options, sizeof(rs->options), "%s", c->options);
	rs->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	sysinfo_kconfig(rs->kconfig, sizeof(rs->kconfig));
	if (!uname(&u))
		snprintf(rs->kernel, sizeof(rs->kernel), "%s", u.release);
}

/*
 * The run set into @path ("" for none), asked for by option @opt.  A file
 * that cannot be written whole is lost: verdict_lost() makes the run's
 * exit say so, after its KTAP.
 */
static void write_results(const char *opt, const char *path, const struct workload *wl,
			  const struct measure_meta *meta, const struct runset *rs,
			  const struct wl_result *res, unsigned int n,
			  const struct metric_set *set)
{
	struct results *r;
	char key[128], err[PATH_MAX + 128];
	unsigned int i;

	if (!path[0])
		return;
	r = results_open(path, err, sizeof(err));
	if (!r) {
		verdict_lost("%s: %s not written: %s", wl->name, opt, err);
		return;
	}
	for (i = 0; i < meta->nr; i++) {
		/* the run set says these, once */
		if (!strcmp(meta->kv[i].key, "kernel") || !strcmp(meta->kv[i].key, "nr_cpus"))
			continue;
		snprintf(key, sizeof(key), "meta.%s", meta->kv[i].key);
		results_text(r, key, meta->kv[i].value);
	}
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s.time.%u", wl->name, i + 1);
		results_number(r, key, res[i].elapsed_ns / 1e9);
	}
	results_metrics(r, wl->name, set);
	runset_write(rs, r);
	if (results_commit(r, err, sizeof(err)))
		verdict_lost("%s: %s not written: %s", wl->name, opt, err);
	else
		verdict_note("results: %s\n", path);
}

/* --save with --ab: the A side beside the B side, FILE.a, for sched_perf_compare --paired. */
static void save_a_side(const struct config *c, const struct workload *wl,
			const struct measure_meta *meta, const struct runset *a_side)
{
	static struct metric_set none;
	char path[PATH_MAX + 2];

	if (!c->save[0] || !c->ab[0])
		return;
	snprintf(path, sizeof(path), "%s.a", c->save);
	write_results("--save (A side)", path, wl, meta, a_side, NULL, 0, &none);
}

static void load_bounds(const struct workload *wl, const struct config *c,
			struct bounds *bs, int usage_exit)
{
	struct metric_set *known = calloc(1, sizeof(*known));
	char err[512];

	if (!known || bounds_load(c->bounds, bs, err, sizeof(err)) ||
	    (known_metrics(wl, known),
	     bounds_check_names(bs, wl->name, wl->variants, known, c->bounds,
				err, sizeof(err)))) {
		fprintf(stderr, "%s: bounds: %s\n", wl->name, known ? err : "out of memory");
		free(known);
		exit(usage_exit);
	}
	free(known);
}

/*
 * Test only: calibrated loops or the stretch, and whether only an A/B
 * run's B side gets them.
 */
static unsigned long test_work_loops;
static double test_work_stretch;
static bool test_work_b_only;

/*
 * A peer's own lines (rt-tests hackbench's "Running in ... mode", perf
 * bench's "# Running 'sched/pipe' benchmark:") are for that peer's
 * parsers: printed on the peer's command line only.  In the KTAP of other
 * runs (nested under "# " by the kselftest runner) a parser could take
 * "# Running ..." for the start of a subtest.  A workload without a peer
 * command line prints its lines always: none looks like KTAP.
 */
static bool peer_lines(const struct workload *wl)
{
	return !wl->peer_cmdline || wl->peer_cmdline();
}

/* What one run of a program keeps while the gate drives it. */
struct run_ctx {
	const struct workload *wl;
	struct measure *m;
	struct wl_result res[MAX_ITERATIONS];	/* the new side's iterations */
	unsigned int nr_res;
	struct metric_set last;			/* the new side's latest figures */
};

static int measured_iteration(void *p, bool new_side, struct metric_set *set)
{
	struct run_ctx *c = p;
	struct wl_result r = { 0 };
	char name[METRIC_NAME_LEN];
	int ret;

	/* workers are made per iteration: they take the loops from here */
	wl_test_work_loops = test_work_b_only && !new_side ? 0 : test_work_loops;
	wl_test_stretch = test_work_b_only && !new_side ? 0 : test_work_stretch;
	measure_begin(c->m);
	ret = c->wl->run_once(&r);
	measure_end(c->m);
	if (ret)
		return -1;
	if (peer_lines(c->wl))
		c->wl->report_iteration(&r);
	snprintf(name, sizeof(name), "%s_per_sec", c->wl->ops_name);
	metric_add(set, name, "/s", iteration_rate(&r));
	measure_metrics(c->m, r.ops, set);
	if (new_side && c->nr_res < MAX_ITERATIONS) {
		c->res[c->nr_res++] = r;
		c->last = *set;
	}
	return 0;
}

static int warmup_iteration(void *p)
{
	struct run_ctx *c = p;
	struct wl_result r = { 0 };

	return c->wl->run_once(&r) ? -1 : 0;
}

static double sum_of(const double *v, unsigned int n)
{
	double sum = 0;

	while (n--)
		sum += v[n];
	return sum;
}

/*
 * The figures judged by the absolute bounds: the workload's own over all
 * iterations (rates: the median), the median over iterations of every
 * measured rate and per-op figure, and the sum of the raw counts (as
 * perf stat of the whole run would count them).
 */
static void summarize(struct run_ctx *c, const struct runset *rs,
		      struct metric_set *set)
{
	unsigned int i;

	iteration_metrics(c->wl, c->res, c->nr_res, set);
	for (i = 0; i < c->last.nr; i++) {
		const struct metric *m = &c->last.m[i];
		const struct runset_metric *rm = runset_find(rs, m->name);
		double median;

		if (metric_find(set, m->name))
			continue;	/* the rate: already there */
		if (m->missing)
			metric_missing(set, m->name, m->missing);
		else if (rm && measure_is_total(m->name))
			metric_add(set, m->name, m->unit, sum_of(rm->v, rm->n));
		else if (rm && !stats_median(rm->v, rm->n, &median))
			metric_add(set, m->name, m->unit, median);
	}
}

/* One KTAP result per change bound, whatever happened to the run. */
static void report_comparison(const struct workload *wl, const struct gate_plan *plan,
			      const struct gate_outcome *out)
{
	const char *label = plan->ab ? "ab" : "baseline";
	char name[160];
	unsigned int i;

	if (out->compared) {
		verdict_note("%s.%s: %u look%s, the last at %u %s per side (alpha %g over %u planned looks: %u to %u)\n",
			     wl->name, label, out->looks, out->looks == 1 ? "" : "s", out->runs,
			     plan->ab ? "blocks" : "iterations", plan->params.alpha,
			     cmp_looks(plan->runs, plan->max_runs), plan->runs, plan->max_runs);
		verdict_compare(wl->name, label, out->results, out->nr_results);
		return;
	}
	for (i = 0; i < plan->nr_rules; i++) {
		snprintf(name, sizeof(name), "%s.%s.%s", wl->name, label,
			 plan->rules[i].metric);
		verdict_skip(name, "the run failed: nothing to compare");
	}
}

unsigned long wl_test_work_loops;
double wl_test_stretch;

/*
 * Where this thread's last operation ended; 0 before its first (workers
 * are made per iteration, so the wait for the start is never stretched).
 */
static __thread uint64_t stretch_mark_ns;

void wl_test_stretch_op(void)
{
	uint64_t now = now_ns(), until;

	if (stretch_mark_ns) {
		until = now + (uint64_t)(wl_test_stretch * (now - stretch_mark_ns));
		while (now < until)
			now = now_ns();
	}
	stretch_mark_ns = now;
}

/*
 * SCHED_PERF_TEST_WORK_NS (test only): how many empty loops take that
 * long here, timed once before any worker exists (the fastest of three).
 * SCHED_PERF_TEST_STRETCH_PCT=P (test only): P % slower, i.e. each
 * operation's wall time times 100 / (100 - P).
 * SCHED_PERF_TEST_WORK_SIDE=b: in an A/B run, the B side's iterations
 * only (a knob that slows the kernel by a known amount, for bench/gate.sh).
 */
static void wl_test_work_setup(void)
{
	const char *env = getenv("SCHED_PERF_TEST_WORK_NS");
	const char *pct = getenv("SCHED_PERF_TEST_STRETCH_PCT");
	double ns = env ? atof(env) : 0, best = 0, p = pct ? atof(pct) : 0;
	int i;

	env = getenv("SCHED_PERF_TEST_WORK_SIDE");
	test_work_b_only = env && !strcmp(env, "b");
	/* set after the loops are timed: this thread never marks an op */
	if (p > 0 && p < 100)
		test_work_stretch = p / (100 - p);
	if (!(ns > 0 && ns <= 1e9))
		return;
	for (i = 0; i < 3; i++) {
		uint64_t t0 = now_ns();
		double per_loop;

		wl_test_work_loops = 1 << 22;
		wl_test_work();
		per_loop = (now_ns() - t0) / (double)(1 << 22);
		if (!i || per_loop < best)
			best = per_loop;
	}
	wl_test_work_loops = best > 0 ? ns / best : 0;
	test_work_loops = wl_test_work_loops;
}

/*
 * Test only: SCHED_PERF_TEST_STOP=1 stops the controller once it is set
 * up (its mounts made, the KTAP header out) and before its first
 * iteration, until SIGCONT, so that a test can hold runs side by side for
 * sure (tests/side_by_side.sh) instead of hoping that they overlap.  Taken
 * out of the environment first: the evidence recorder's re-run of the
 * program must not stop too.
 */
static void test_stop(void)
{
	const char *env = getenv("SCHED_PERF_TEST_STOP");
	bool stop = env && !strcmp(env, "1");

	unsetenv("SCHED_PERF_TEST_STOP");
	if (!stop)
		return;
	verdict_note("TEST ONLY: SCHED_PERF_TEST_STOP=1: stopped before the first iteration until SIGCONT\n");
	raise(SIGSTOP);
}

/* --bisect changes what bad input exits with: 128 aborts git bisect run. */
static int usage_exit_code(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--bisect"))
			return 128;
	return EXIT_BAD_INPUT;
}

/* A baseline that cannot be compared with this run ends it before it starts. */
static void load_baseline(const struct workload *wl, const struct config *c,
			  const struct runset *me, struct runset *base, int usage_exit)
{
	char err[512];

	if (runset_load(c->baseline, base, err, sizeof(err)) ||
	    runset_compatible(base, me, err, sizeof(err))) {
		fprintf(stderr, "%s: --baseline: %s\n", wl->name, err);
		exit(usage_exit);
	}
}

static void open_knob(const struct workload *wl, const struct config *c,
		      struct ab_knob *k, int usage_exit)
{
	char why[512];
	int ret = ab_open(k, c->ab, why, sizeof(why));

	if (ret == AB_BAD_INPUT) {
		fprintf(stderr, "%s: %s\n", wl->name, why);
		exit(usage_exit);
	}
	if (ret == AB_SKIP)
		verdict_skip_all(why);
}

/*
 * When asked (--evidence: one KTAP result), or when a check failed and a
 * tracer is there (a note): why did it fail?  See evidence.h.  Evidence
 * asked for that cannot be written is lost (verdict_lost()); evidence
 * nobody asked for is a note either way: the run has already failed.
 */
static void collect_evidence(const struct workload *wl, const struct config *c,
			     unsigned int runs, bool workload_failed)
{
	char where[PATH_MAX], why[PATH_MAX + 512], name[64];
	bool asked = c->evidence[0];
	int ret;

	/* a workload that broke is an error to fix, not a slow scheduler */
	if (!asked && (workload_failed || !verdict_failed() || !evidence_automatic()))
		return;
	snprintf(name, sizeof(name), "%s.evidence", wl->name);
	/* one iteration as long as one of the run's, the options of the load */
	ret = evidence_collect(asked ? c->evidence : NULL, wl->name, c->budget / runs,
			       c->nr_rerun, c->rerun, where, sizeof(where), why, sizeof(why));
	if (ret == EVIDENCE_LOST && asked)
		verdict_lost("%s: --evidence not written: %s", wl->name, why);
	if (ret && asked) {
		verdict_skip(name, ret == EVIDENCE_LOST ? "not written (see the error after the totals)" :
			     why);
	} else if (ret) {
		verdict_note("evidence: none: %s%s\n",
			     ret == EVIDENCE_LOST ? "not written: " : "", why);
	} else if (asked) {
		verdict_check(true, name, "trace and summary.txt in %s", where);
	} else {
		verdict_note("evidence: a check failed: trace and summary.txt in %s\n", where);
	}
}

int sched_perf_main(const struct workload *wl, int argc, char **argv)
{
	static struct bounds bs;
	static struct runset base, a_side, new_side;
	static struct run_ctx ctx;
	static struct gate_outcome out;
	static struct cmp_rule rules[METRICS_MAX];
	struct metric_set *set = calloc(1, sizeof(*set));
	struct gate_plan plan = { .params = { CMP_ALPHA, CMP_MAX_CV } };
	struct gate_ops ops = { measured_iteration, warmup_iteration };
	int usage_exit = usage_exit_code(argc, argv);
	struct measure_meta meta;
	struct ab_knob knob;
	struct measure m;
	unsigned int i, nr_rules = 0;
	char why[512] = "", name[64];
	const char *mounts_note;
	bool comparing;
	int ret;

	if (wl->init)
		wl->init();
	if (!set || parse_args(wl, argc, argv))
		return usage_exit;
	if (cfg.bisect)
		verdict_bisect_codes();
	/*
	 * The run's own mount namespace: before any thread (unshare()
	 * refuses it then), any mount, and the guardian, which must undo
	 * in the run's namespace (mounts.h); this program's path first, as
	 * seen from where it started (evidence.h).
	 */
	evidence_find_self();
	mounts_note = mounts_private_ns();
	/* from here on, whatever the run changes is undone however it ends */
	guard_start();
	wl_test_work_setup();
	load_bounds(wl, &cfg, &bs, usage_exit);
	wl->set_instances(instances(cfg.nr_threads_pct), cfg.nr_threads_set);
	comparing = cfg.baseline[0] || cfg.ab[0];
	/*
	 * A comparison runs its blocks, a warm-up after each switch and up
	 * to another budget: at the full default, a gate of every program
	 * took 414 s on 2 CPUs; the default share keeps it within 5 minutes.
	 */
	if (comparing && !cfg.budget_set)
		cfg.budget *= COMPARE_BUDGET_SHARE;
	/* a saved run is a baseline: enough runs for the test to judge */
	plan.runs = cfg.iterations ? cfg.iterations : comparing || cfg.save[0] ? GATE_DEFAULT_RUNS :
		    wl->peer_cmdline && wl->peer_cmdline() ? 1 :
		    wl->default_iterations ? wl->default_iterations : 5;
	/* a comparison may run up to 3 times as many while undecided */
	plan.max_runs = cfg.max_runs ? (cfg.max_runs > plan.runs ? cfg.max_runs : plan.runs) :
			comparing ? 3 * plan.runs : plan.runs;
	plan.extra_seconds = cfg.budget;
	runset_identity(wl, &cfg, &new_side);
	a_side = new_side;	/* no runs yet: the identity only */
	if (cfg.baseline[0]) {
		load_baseline(wl, &cfg, &new_side, &base, usage_exit);
		plan.baseline = &base;
	}
	if (comparing)
		nr_rules = bounds_changes(&bs, wl->name, wl->variant(), rules, METRICS_MAX);
	plan.rules = rules;
	plan.nr_rules = nr_rules;

	ret = wl->prepare(why, sizeof(why));
	if (ret == WL_SKIP)
		verdict_skip_all(why);
	if (ret)
		return 1;
	if (cfg.ab[0]) {
		open_knob(wl, &cfg, &knob, usage_exit);
		plan.ab = &knob;
	}
	measure_setup(&m, cfg.counters);
	if (wl->fit_budget(cfg.budget / plan.runs)) {
		measure_teardown(&m);
		return 1;
	}

	verdict_begin(1 + bounds_count(&bs, wl->name, wl->variant()) + nr_rules +
		      !!cfg.evidence[0]);
	measure_describe(&m, &meta);
	for (i = 0; i < meta.nr; i++)
		verdict_note("%s: %s\n", meta.kv[i].key, meta.kv[i].value);
	if (mounts_note)
		verdict_note("mounts: %s\n", mounts_note);
	verdict_note("variant: %s; one op = one %s\n", wl->variant(), wl->op_name);
	if (cfg.ab[0])
		verdict_note("A/B: %s: A = %s (as found), B = %s; blocks A B, B A, ..., a warm-up iteration after each switch, B judged against A block by block\n",
			     knob.path, knob.a, knob.b);
	if (cfg.baseline[0])
		verdict_note("baseline: %s (kernel %s)\n", cfg.baseline, base.kernel);
	if (comparing && !nr_rules)
		verdict_note("no change bounds for %s in %s: nothing to compare\n",
			     wl->name, cfg.bounds);
	if (test_work_loops)
		verdict_note("TEST ONLY: SCHED_PERF_TEST_WORK_NS=%s of busy work per %s%s\n",
			     getenv("SCHED_PERF_TEST_WORK_NS"), wl->op_name,
			     test_work_b_only && cfg.ab[0] ? ", on the B side only" : "");
	if (test_work_stretch > 0)
		verdict_note("TEST ONLY: SCHED_PERF_TEST_STRETCH_PCT=%s: every %s's wall time stretched by %.2f %%%s\n",
			     getenv("SCHED_PERF_TEST_STRETCH_PCT"), wl->op_name,
			     100 * test_work_stretch,
			     test_work_b_only && cfg.ab[0] ? ", on the B side only" : "");
	if (peer_lines(wl))
		wl->banner();
	test_stop();

	ctx.wl = wl;
	ctx.m = &m;
	gate_run(&plan, &ops, &ctx, &a_side, &new_side, &out);
	summarize(&ctx, &new_side, set);
	print_metrics(wl->name, set);

	snprintf(why, sizeof(why), "%u of %u iterations completed%s%s%s", out.runs,
		 out.runs > plan.runs ? out.runs : plan.runs,
		 out.runs > plan.runs ? " (more asked for by the comparison)" : "",
		 out.failed ? ": " : "", out.failed ? out.why : "");
	snprintf(name, sizeof(name), "%s.completed", wl->name);
	verdict_check(!out.failed, name, "%s", why);
	verdict_judge(&bs, wl->name, wl->variant(), set,
		      out.failed ? "workload failed" : NULL);
	if (nr_rules)
		report_comparison(wl, &plan, &out);
	write_results("--results", cfg.results, wl, &meta, &new_side, ctx.res, ctx.nr_res, set);
	write_results("--save", cfg.save, wl, &meta, &new_side, ctx.res, ctx.nr_res, set);
	save_a_side(&cfg, wl, &meta, &a_side);
	measure_teardown(&m);
	collect_evidence(wl, &cfg, plan.runs, out.failed);
	free(set);
	verdict_finish();
}
