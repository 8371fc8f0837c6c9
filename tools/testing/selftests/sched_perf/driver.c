// SPDX-License-Identifier: GPL-2.0
/*
 * Driver: runs any struct workload under the measurement core and hands
 * the figures to the verdict layer.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "driver.h"
#include "guard.h"
#include "measure.h"
#include "opts.h"
#include "results.h"
#include "verdict.h"

#define MAX_ITERATIONS 1000

enum {
	OPT_NR_THREADS = 1000,
	OPT_ITERATIONS,
	OPT_BUDGET,
	OPT_BOUNDS,
	OPT_RESULTS,
	OPT_NO_COUNTERS,
	OPT_HELP,
};

static const struct option common_opts[] = {
	{ "nr-threads", required_argument, NULL, OPT_NR_THREADS },
	{ "iterations", required_argument, NULL, OPT_ITERATIONS },
	{ "budget", required_argument, NULL, OPT_BUDGET },
	{ "bounds", required_argument, NULL, OPT_BOUNDS },
	{ "results", required_argument, NULL, OPT_RESULTS },
	{ "no-counters", no_argument, NULL, OPT_NO_COUNTERS },
	{ "help", no_argument, NULL, OPT_HELP },
};

struct config {
	double nr_threads_pct;
	bool nr_threads_set;
	unsigned long iterations;	/* 0: default */
	double budget;			/* seconds for all timed iterations */
	char bounds[PATH_MAX];
	char results[PATH_MAX];		/* "" when none */
	bool counters;
};

static void print_usage(const struct workload *wl, FILE *f)
{
	fprintf(f, "usage: %s [options]\n", wl->name);
	fputs(wl->usage, f);
	fprintf(f, "  --nr-threads P[%%]   instances as LKP sizes them: floor(P x CPUs / 100),\n");
	fprintf(f, "                      at least 1 (default %u%%)\n", wl->default_nr_threads_pct);
	fprintf(f, "  --iterations N      timed iterations (default %u; 1 with a peer command line)\n",
		wl->default_iterations ? wl->default_iterations : 5);
	fprintf(f, "  --budget SEC        seconds for all iterations together (default %g)\n",
		wl->default_budget ? wl->default_budget : 20);
	fputs("  --bounds FILE       bounds file (default: 'bounds' beside this program)\n"
	      "  --results FILE      results file, or 'none' (default: a new file in\n"
	      "                      $SCHED_PERF_RESULTS_DIR, else $TMPDIR, else /tmp)\n"
	      "  --no-counters       measure nothing (overhead baseline)\n"
	      "exit: 0 pass, 1 a check failed, 2 bad input, 4 skipped\n", f);
}

/* getopt tables: the workload's options followed by the common ones. */
static struct option *merge_options(const struct workload *wl)
{
	size_t nw = 0, nc = ARRAY_SIZE(common_opts);
	struct option *all;

	while (wl->long_opts[nw].name)
		nw++;
	all = calloc(nw + nc + 1, sizeof(*all));
	if (!all)
		return NULL;
	memcpy(all, wl->long_opts, nw * sizeof(*all));
	memcpy(all + nw, common_opts, nc * sizeof(*all));
	return all;
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
	if (!dir)
		dir = getenv("TMPDIR");
	if (!dir)
		dir = "/tmp";
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", localtime(&now));
	snprintf(c->results, sizeof(c->results), "%s/sched_perf-%s-%s-%d.results",
		 dir, wl->name, stamp, getpid());
}

static int parse_common(const struct workload *wl, struct config *c, int opt,
			const char *arg)
{
	switch (opt) {
	case OPT_NR_THREADS:
		c->nr_threads_set = true;
		return opt_percent(wl->name, "--nr-threads", arg, &c->nr_threads_pct);
	case OPT_ITERATIONS:
		return opt_ulong(wl->name, "--iterations", arg, 1, MAX_ITERATIONS,
				 &c->iterations);
	case OPT_BUDGET:
		return opt_double(wl->name, "--budget", arg, 0.1, 86400, &c->budget);
	case OPT_BOUNDS:
		snprintf(c->bounds, sizeof(c->bounds), "%s", arg);
		return 0;
	case OPT_RESULTS:
		snprintf(c->results, sizeof(c->results), "%s",
			 strcmp(arg, "none") ? arg : "");
		return 0;
	case OPT_NO_COUNTERS:
		c->counters = false;
		return 0;
	}
	return -1;
}

/* A run whose results cannot be saved is lost: refuse it before it starts. */
static int check_results_dir(const struct workload *wl, const char *path)
{
	char copy[PATH_MAX];
	const char *dir;

	if (!path[0])
		return 0;
	snprintf(copy, sizeof(copy), "%s", path);
	dir = dirname(copy);
	if (access(dir, W_OK)) {
		fprintf(stderr, "%s: --results: cannot write into %s: %s\n",
			wl->name, dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Returns 0, or EXIT_USAGE after one line on stderr; exits for --help. */
static int parse_args(const struct workload *wl, struct config *c,
		      int argc, char **argv)
{
	struct option *opts = merge_options(wl);
	int opt, ret = 0;

	*c = (struct config){
		.nr_threads_pct = wl->default_nr_threads_pct,
		.budget = wl->default_budget ? wl->default_budget : 20,
		.counters = true,
	};
	default_paths(wl, c);
	if (!opts)
		return EXIT_USAGE;
	opterr = 0;
	while (!ret && (opt = getopt_long(argc, argv, wl->short_opts, opts, NULL)) != -1) {
		if (opt == OPT_HELP) {
			print_usage(wl, stdout);
			exit(0);
		}
		if (opt == '?' || opt == ':') {
			fprintf(stderr, "%s: unknown option or missing value: '%s' (see --help)\n",
				wl->name, argv[optind - 1]);
			ret = -1;
		} else if (opt >= OPT_NR_THREADS) {
			ret = parse_common(wl, c, opt, optarg);
		} else {
			ret = wl->parse_opt(opt, optarg);
		}
	}
	if (!ret && optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n",
			wl->name, argv[optind]);
		ret = -1;
	}
	if (!ret)
		ret = check_results_dir(wl, c->results);
	free(opts);
	return ret ? EXIT_USAGE : 0;
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Rates of every iteration: median, best and coefficient of variation.
 * Returns the operations of all iterations together.
 */
static double iteration_metrics(const struct workload *wl,
				const struct wl_result *res, unsigned int n,
				struct metric_set *set)
{
	struct wl_summary s = { 0 };
	double rate[MAX_ITERATIONS], sum = 0, sq = 0, ops = 0, mean;
	char name[METRIC_NAME_LEN];
	unsigned int i;

	for (i = 0; i < n; i++) {
		double secs = res[i].elapsed_ns / 1e9;

		rate[i] = secs > 0 ? res[i].ops / secs : 0;
		sum += rate[i];
		ops += res[i].ops;
		s.mean_ns += res[i].elapsed_ns / (double)n;
		if (!i || res[i].elapsed_ns < s.best_ns)
			s.best_ns = res[i].elapsed_ns;
		if (res[i].elapsed_ns > s.worst_ns)
			s.worst_ns = res[i].elapsed_ns;
	}
	mean = n ? sum / n : 0;
	for (i = 0; i < n; i++)
		sq += (rate[i] - mean) * (rate[i] - mean);
	qsort(rate, n, sizeof(rate[0]), cmp_double);

	metric_add(set, "iterations", "", n);
	snprintf(name, sizeof(name), "%s_total", wl->ops_name);
	metric_add(set, name, "", ops);
	s.ops_per_sec_median = !n ? 0 : n % 2 ? rate[n / 2] :
			       (rate[n / 2 - 1] + rate[n / 2]) / 2;
	snprintf(name, sizeof(name), "%s_per_sec", wl->ops_name);
	metric_add(set, name, "/s", s.ops_per_sec_median);
	snprintf(name, sizeof(name), "%s_per_sec_best", wl->ops_name);
	metric_add(set, name, "/s", n ? rate[n - 1] : 0);
	snprintf(name, sizeof(name), "%s_per_sec_cv", wl->ops_name);
	metric_add(set, name, "", mean > 0 && n > 1 ? sqrt(sq / (n - 1)) / mean : 0);
	collecting = set;
	wl->publish(&s, publish_metric);
	return ops;
}

/* Every metric name this program can produce, for checking bounds. */
static void known_metrics(const struct workload *wl, struct metric_set *set)
{
	struct measure none;
	struct wl_result r = { 0 };

	measure_setup(&none, false);
	set->nr = 0;
	iteration_metrics(wl, &r, 1, set);
	measure_metrics(&none, 0, set);
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

static void write_results(const struct config *c, const struct workload *wl,
			  const struct measure_meta *meta, const struct wl_result *res,
			  unsigned int n, const struct metric_set *set)
{
	struct results *r;
	char key[128];
	unsigned int i;

	if (!c->results[0])
		return;
	r = results_open(c->results);
	if (!r)
		return;
	for (i = 0; i < meta->nr; i++) {
		snprintf(key, sizeof(key), "meta.%s", meta->kv[i].key);
		results_text(r, key, meta->kv[i].value);
	}
	results_text(r, "meta.workload", wl->name);
	results_text(r, "meta.variant", wl->variant());
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s.time.%u", wl->name, i + 1);
		results_number(r, key, res[i].elapsed_ns / 1e9);
	}
	results_metrics(r, wl->name, set);
	if (!results_commit(r))
		verdict_note("results: %s\n", c->results);
}

static void load_bounds(const struct workload *wl, const struct config *c,
			struct bounds *bs)
{
	struct metric_set *known = calloc(1, sizeof(*known));
	char err[512];

	if (!known || bounds_load(c->bounds, bs, err, sizeof(err)) ||
	    (known_metrics(wl, known),
	     bounds_check_names(bs, wl->name, wl->variants, known, c->bounds,
				err, sizeof(err)))) {
		fprintf(stderr, "%s: bounds: %s\n", wl->name, known ? err : "out of memory");
		exit(EXIT_USAGE);
	}
	free(known);
}

static void run_iterations(const struct workload *wl, unsigned int n,
			   struct wl_result *res, unsigned int *done)
{
	for (*done = 0; *done < n; (*done)++) {
		if (wl->run_once(&res[*done]))
			return;
		wl->report_iteration(&res[*done]);
	}
}

int sched_perf_main(const struct workload *wl, int argc, char **argv)
{
	static struct bounds bs;
	static struct wl_result res[MAX_ITERATIONS];
	struct metric_set *set = calloc(1, sizeof(*set));
	struct measure_meta meta;
	struct measure m;
	struct config c;
	unsigned int n, done, i;
	char why[256] = "", name[64];
	int ret;

	if (wl->init)
		wl->init();
	if (!set || parse_args(wl, &c, argc, argv))
		return EXIT_USAGE;
	/* from here on, whatever the run changes is undone however it ends */
	guard_start();
	load_bounds(wl, &c, &bs);
	wl->set_instances(instances(c.nr_threads_pct), c.nr_threads_set);
	n = c.iterations ? c.iterations : wl->peer_cmdline && wl->peer_cmdline() ? 1 :
	    wl->default_iterations ? wl->default_iterations : 5;

	ret = wl->prepare(why, sizeof(why));
	if (ret == WL_SKIP)
		verdict_skip_all(why);
	if (ret)
		return 1;
	measure_setup(&m, c.counters);
	if (wl->fit_budget(c.budget / n)) {
		measure_teardown(&m);
		return 1;
	}

	verdict_begin(1 + bounds_count(&bs, wl->name, wl->variant()));
	measure_describe(&m, &meta);
	for (i = 0; i < meta.nr; i++)
		verdict_note("%s: %s\n", meta.kv[i].key, meta.kv[i].value);
	verdict_note("variant: %s; one op = one %s\n", wl->variant(), wl->op_name);
	wl->banner();

	measure_begin(&m);
	run_iterations(wl, n, res, &done);
	measure_end(&m);

	measure_metrics(&m, iteration_metrics(wl, res, done, set), set);
	print_metrics(wl->name, set);

	snprintf(why, sizeof(why), "%u of %u iterations completed", done, n);
	snprintf(name, sizeof(name), "%s.completed", wl->name);
	verdict_check(done == n, name, "%s", why);
	verdict_judge(&bs, wl->name, wl->variant(), set,
		      done == n ? NULL : "workload failed");
	write_results(&c, wl, &meta, res, done, set);
	measure_teardown(&m);
	free(set);
	verdict_finish();
}
