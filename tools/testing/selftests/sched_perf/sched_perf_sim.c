// SPDX-License-Identifier: GPL-2.0
/*
 * sched_perf_sim: the gate's verdict words under simulation.  It drives
 * the real gate_run() with synthetic iterations: paired blocks (--ab), a
 * saved baseline and a new run, or interleaved boots of two kernels
 * (vmab's rounds, Welch's t on the boots' figures); lognormal noise of a
 * given CV, a linear drift per iteration (per boot), values missing at
 * random, and a true change of one metric on the new side.  By default a
 * gate is the programs': it plans to catch the threshold (--catch) within
 * --gate-time on a simulated clock of --iteration-seconds an iteration,
 * warm-ups included; boots take vmab's defaults (a plan to catch the
 * threshold within 1200 s at 50 s a boot and 50 boots a side; with
 * --no-catch looks at 3, 5, 8, 9 boots a side).  Each row is many gates; it prints how often
 * each word came out, with 95 % Wilson intervals, the runs and minutes
 * the gates used, and how honest the mde each printed was: the gate's
 * power, at the true spread, at the change it said it could have caught.
 *
 *   sched_perf_sim [--mode paired|unpaired|boots] [--cv C] [--drift D]
 *                  [--missing F] [--shift S] [--shift-metric K]
 *                  [--threshold T] [--alarm F] [--primary-share F]
 *                  [--catch C | --no-catch] [--gate-time SEC]
 *                  [--iteration-seconds SEC] [--gates N] [--metrics M]
 *                  [--runs N] [--max-runs N] [--boots N] [--boots-first N]
 *                  [--seed S] [--alpha A] [--expect RATE<=P | RATE>=P]...
 *   sched_perf_sim --mde-table [--threshold T] [--runs N] [--alpha A]
 *                  [--metrics M] [--gates N] [--seed S]
 *
 * Metric 0 is the primary one (a throughput) and must not fall (threshold
 * -T), metric 1 must not rise (+T), metric 2 and on alternate; S moves
 * metric K (default 0) the bad way of its threshold.  Rates: the whole
 * gate's pass (exit 0), open (exit 4: cmp_gate_open) and fail (exit 1: a
 * metric regressed); any_diff (any metric regressed or improved: a false
 * alarm in A/A), any_move (any metric regressed, improved, worse or
 * better), and metric K's regressed, flagged (regressed or worse),
 * improved, same, undecided (anything else), drifting (no verdict for a
 * trend).  --mde-table prints, for paired blocks of a fixed plan,
 * per-iteration CVs and block counts, the primary metric's mde from the
 * true spread (cmp_mde()) and the fail rate the gate's simulation gives
 * at that change: the power model against the gate itself.
 * --expect fails the run (exit 1) when a rate is shown to leave its
 * bound: the interval's lower end above P for <=, its upper end below P
 * for >=.  Bad input: exit 2 (--help: the options).  Not a kselftest
 * program: it is built beside sched_perf_unit and run by make
 * bench-verdicts and tests/verdicts.sh.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compiler.h"
#include "gate.h"
#include "opts.h"
#include "runset.h"

#define MAX_METRICS	8
#define MAX_EXPECT	16

enum mode { PAIRED, UNPAIRED, BOOTS };

struct sim {
	enum mode mode;
	double cv, drift, missing, shift, threshold, alpha;
	unsigned int gates, metrics, runs, max_runs, boots, boots_first;
	unsigned long seed;
	unsigned int shift_metric;
	double alarm_share, primary_share, catch;
	double gate_time, iteration_seconds;
	bool no_catch, mde_table;
};

struct world {
	const struct sim *s;
	uint64_t rng;
	unsigned int t;		/* iterations (boots) so far: the drift's clock */
};

static const char *const names[MAX_METRICS] = {
	"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7",
};

/* splitmix64: small, fast, and the same stream for the same seed */
static uint64_t next(struct world *w)
{
	uint64_t z = (w->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform(struct world *w)
{
	return ((next(w) >> 11) + 0.5) * 0x1.0p-53;
}

static double gauss(struct world *w)
{
	return sqrt(-2 * log(uniform(w))) * cos(2 * M_PI * uniform(w));
}

/* One value of @metric: lognormal noise of CV cv around its level. */
static double value(struct world *w, unsigned int metric, bool new_side)
{
	const struct sim *s = w->s;
	double sigma = sqrt(log1p(s->cv * s->cv));
	double level = 1000.0 * (metric + 1) * (1 + s->drift * w->t);

	if (new_side && metric == s->shift_metric)
		level *= 1 + (metric % 2 ? -s->shift : s->shift);
	return level * exp(sigma * gauss(w) - sigma * sigma / 2);
}

static int measured(void *ctx, bool new_side, struct metric_set *set)
{
	struct world *w = ctx;
	unsigned int m;

	for (m = 0; m < w->s->metrics; m++) {
		if (uniform(w) < w->s->missing)
			metric_missing(set, names[m], "simulated");
		else
			metric_add(set, names[m], "", value(w, m, new_side));
	}
	w->t++;
	return 0;
}

static int warmup(void *ctx)
{
	((struct world *)ctx)->t++;
	return 0;
}

/* The simulated clock: every iteration, warm-ups too, takes the same time. */
static double sim_clock(void *ctx)
{
	const struct world *w = ctx;

	return w->t * w->s->iteration_seconds;
}

struct tally {
	unsigned int pass, open, fail;
	unsigned int any_diff, any_move, regressed, flagged, improved, same, undecided, drifting;
	unsigned int *runs;	/* per gate */
	double *seconds;	/* per gate, on the simulated clock */
	double *power;		/* per gate: its power at the mde it printed (NaN: none) */
};

static bool word(const struct cmp_result *r, const char *w)
{
	return !strcmp(cmp_verdict_name(r->verdict), w);
}

static void count(struct tally *t, const struct cmp_result *all, unsigned int n,
		  unsigned int k)
{
	const struct cmp_result *res = &all[k];
	bool diff = false, move = false, fail = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		bool d = word(&all[i], "regressed") || word(&all[i], "improved");

		diff |= d;
		move |= d || word(&all[i], "worse") || word(&all[i], "better");
		fail |= word(&all[i], "regressed");
	}
	t->fail += fail;
	t->open += !fail && cmp_gate_open(all, n);
	t->pass += !fail && !cmp_gate_open(all, n);
	t->any_diff += diff;
	t->any_move += move;
	t->regressed += word(&res[0], "regressed");
	t->flagged += word(&res[0], "regressed") || word(&res[0], "worse");
	t->improved += word(&res[0], "improved");
	t->same += word(&res[0], "same");
	t->undecided += !word(&res[0], "regressed") && !word(&res[0], "worse") &&
			!word(&res[0], "improved") && !word(&res[0], "same");
	t->drifting += word(&res[0], "drifting");
}

static struct cmp_rule rules[MAX_METRICS];

static void make_rules(const struct sim *s)
{
	unsigned int m;

	for (m = 0; m < s->metrics; m++) {
		snprintf(rules[m].metric, sizeof(rules[m].metric), "%s", names[m]);
		rules[m].change = m % 2 ? s->threshold : -s->threshold;
		rules[m].primary = m == 0;
	}
}

/* One gate; its results into @out, the runs it used returned. */
static unsigned int one_gate(struct world *w, struct gate_outcome *out)
{
	static struct ab_knob knob = { .path = "/dev/null", .a = "0", .b = "1", .undo = -1 };
	static struct metric_set set;
	static struct runset a, b, base;
	const struct sim *s = w->s;
	struct gate_plan plan = {
		.runs = s->runs, .max_runs = s->max_runs, .time_limit = s->gate_time,
		.rules = rules, .nr_rules = s->metrics, .catch = s->no_catch ? 0 : s->catch,
		.params = { .alpha = s->alpha, .max_cv = CMP_MAX_CV,
			    .alarm_share = s->alarm_share, .primary_share = s->primary_share },
	};
	unsigned int i;

	runset_init(&a, "sim");
	runset_init(&b, "sim");
	runset_init(&base, "sim");
	if (s->mode == PAIRED) {
		plan.ab = &knob;
	} else if (s->mode == BOOTS) {
		/* vmab's boots: Welch's t at its alpha, interleaved A B, B A */
		plan.boots = true;
		plan.params.alpha = s->alpha;
	} else {
		for (i = 0; i < s->runs; i++) {
			set.nr = 0;
			measured(w, false, &set);
			runset_append(&base, &set);
		}
		plan.baseline = &base;
	}
	gate_run(&plan, &(struct gate_ops){ measured, warmup, NULL, sim_clock }, w, &a, &b, out);
	runset_free(&a);
	runset_free(&b);
	runset_free(&base);
	return out->runs;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a, y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The powers of the gates that printed an mde, sorted, NaNs dropped:
 * their mean, 10th percentile and the shares at 90 % and 80 % or more.
 */
static void report_honesty(double *power, unsigned int n)
{
	unsigned int i, k = 0, at90 = 0, at80 = 0;
	double mean = 0;

	for (i = 0; i < n; i++)
		if (!isnan(power[i]))
			power[k++] = power[i];
	if (!k) {
		printf(", mde power n/a");
		return;
	}
	qsort(power, k, sizeof(*power), cmp_double);
	for (i = 0; i < k; i++) {
		mean += power[i] / k;
		at90 += power[i] >= 0.9 - 1e-9;
		at80 += power[i] >= 0.8 - 1e-9;
	}
	printf(", mde power mean %.1f%% p10 %.1f%% >=90%% %.1f%% >=80%% %.1f%% of %u",
	       100 * mean, 100 * power[k / 10], 100.0 * at90 / k, 100.0 * at80 / k, k);
}

/* Wilson's 95 % interval of k in n */
static void wilson(unsigned int k, unsigned int n, double *lo, double *hi)
{
	double z = 1.959963984540054, p = (double)k / n, d = 1 + z * z / n;
	double c = p + z * z / (2 * n), h = z * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));

	*lo = fmax(0, (c - h) / d);
	*hi = fmin(1, (c + h) / d);
}

struct expect {
	char rate[16];
	bool at_most;
	double bound;
};

static const char *const rate_names[] = {
	"pass", "open", "fail", "any_diff", "any_move", "regressed", "flagged", "improved",
	"same", "undecided", "drifting",
};

static unsigned int rate_of(const struct tally *t, const char *name)
{
	const unsigned int v[] = {
		t->pass, t->open, t->fail, t->any_diff, t->any_move, t->regressed, t->flagged,
		t->improved, t->same, t->undecided, t->drifting,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		if (!strcmp(rate_names[i], name))
			return v[i];
	return 0;
}

__noreturn static void bad(const char *what, const char *arg)
{
	fprintf(stderr, "sched_perf_sim: %s '%s' (see the comment at the top of sched_perf_sim.c)\n",
		what, arg);
	exit(2);
}

static const char *const mode_names[] = { "paired", "unpaired", "boots" };

static void report(const struct sim *s, struct tally *t, const struct expect *ex,
		   unsigned int nr_ex, int *failed)
{
	unsigned int i, n = s->gates;
	double lo, hi;

	qsort(t->runs, n, sizeof(*t->runs), cmp_uint);
	qsort(t->seconds, n, sizeof(*t->seconds), cmp_double);
	printf("%s cv %.3g drift %.3g missing %.3g shift %+.3g of m%u threshold %.3g alpha %.3g metrics %u gates %u: median runs %u, 90th %u, median minutes %.1f, 90th %.1f",
	       mode_names[s->mode], s->cv, s->drift, s->missing, s->shift, s->shift_metric,
	       s->threshold, s->alpha, s->metrics, n, t->runs[n / 2], t->runs[n * 9 / 10],
	       t->seconds[n / 2] / 60, t->seconds[n * 9 / 10] / 60);
	report_honesty(t->power, n);
	for (i = 0; i < ARRAY_SIZE(rate_names); i++) {
		unsigned int k = rate_of(t, rate_names[i]);

		wilson(k, n, &lo, &hi);
		printf(", %s %.2f%% [%.2f, %.2f]", rate_names[i], 100.0 * k / n, 100 * lo,
		       100 * hi);
	}
	putchar('\n');
	for (i = 0; i < nr_ex; i++) {
		unsigned int k = rate_of(t, ex[i].rate);
		bool left;

		wilson(k, n, &lo, &hi);
		left = ex[i].at_most ? lo > ex[i].bound : hi < ex[i].bound;
		printf("%s %s %s %.4g: %.2f%% [%.2f, %.2f]\n", left ? "FAIL" : "ok", ex[i].rate,
		       ex[i].at_most ? "<=" : ">=", ex[i].bound, 100.0 * k / n, 100 * lo, 100 * hi);
		*failed |= left;
	}
}

static void alloc_tally(struct tally *t, unsigned int gates)
{
	t->runs = calloc(gates, sizeof(*t->runs));
	t->seconds = calloc(gates, sizeof(*t->seconds));
	t->power = calloc(gates, sizeof(*t->power));
	if (!t->runs || !t->seconds || !t->power) {
		fprintf(stderr, "sched_perf_sim: out of memory for --gates\n");
		exit(2);
	}
}

static void free_tally(struct tally *t)
{
	free(t->runs);
	free(t->seconds);
	free(t->power);
}

/* The true spread of the primary metric on its scale, as compare.c's spread() sees it. */
static double true_sd(const struct sim *s)
{
	double sigma = sqrt(log1p(s->cv * s->cv));

	return s->mode == PAIRED ? sigma * M_SQRT2 : sigma;
}

/*
 * The power, at the true spread, of the gate that ended in @out, at the
 * mde it printed for the primary metric with the runs it took (mde_now,
 * from the spread it saw: "could have caught"): NaN when it printed none.
 */
static double power_at_printed(const struct sim *s, struct gate_outcome *out)
{
	struct cmp_result *r = &out->results[0], truth;
	unsigned int n_old, n_new;

	cmp_fill_mde(out->results, out->nr_results, &out->params);
	if (!isfinite(r->mde_now) || r->verdict == CMP_MISSING || r->verdict == CMP_NOISY)
		return NAN;
	n_old = out->params.paired ? r->nb : r->old.n;
	n_new = out->params.paired ? r->nb : r->new.n;
	truth = *r;
	truth.sd = true_sd(s);
	return cmp_power(&truth, &out->params, n_old, n_new, false, r->mde_now);
}

/* s->gates gates into @t (its per-gate arrays allocated by the caller). */
static void run_gates(const struct sim *s, struct tally *t)
{
	static struct gate_outcome out;
	struct world w;
	unsigned int g;

	make_rules(s);
	w.s = s;
	w.rng = s->seed * 0x2545f4914f6cdd1dULL + 1;
	for (g = 0; g < s->gates; g++) {
		w.t = 0;
		t->runs[g] = one_gate(&w, &out);
		t->seconds[g] = out.seconds;
		count(t, out.results, out.nr_results, s->shift_metric);
		t->power[g] = power_at_printed(s, &out);
	}
}

/* A paired gate's first look (--runs), as the gate plans it. */
static void first_look(const struct sim *s, unsigned int n, struct cmp_params *p)
{
	*p = (struct cmp_params){ .alpha = s->alpha, .paired = true, .max_runs = n,
				  .now = s->runs < n ? s->runs : n,
				  .primary_share = s->primary_share };
}

/*
 * --mde-table: per-iteration CV x blocks: the mde cmp_mde() gives (what
 * the gate prints), and the share of simulated gates of that many blocks
 * that fail at that true change: about CMP_MDE_POWER when the mde is true.
 */
static void mde_table(const struct sim *base)
{
	static const double cvs[] = { 0.01, 0.02, 0.05, 0.1 };
	static const unsigned int blocks[] = { 8, 12, 24, 48, 96 };
	unsigned int i, k;
	struct cmp_params p;
	double lo, hi;

	printf("paired, threshold %.3g, alarm %.3g of it, alpha %.3g, %u metrics, first look at %u, %u gates a cell\n",
	       base->threshold, base->alarm_share ? base->alarm_share : CMP_ALARM_SHARE,
	       base->alpha, base->metrics, base->runs, base->gates);
	for (i = 0; i < ARRAY_SIZE(cvs); i++) {
		for (k = 0; k < ARRAY_SIZE(blocks); k++) {
			struct sim s = *base;
			struct tally t = { 0 };
			double sigma = sqrt(log1p(cvs[i] * cvs[i]));
			struct cmp_result r = {
				.threshold = -s.threshold, .ratio_scale = true,
				.sd = sigma * M_SQRT2,	/* of a block's log ratio */
			};
			struct cmp_rule rule = { .change = -s.threshold };
			double mde;

			first_look(&s, blocks[k], &p);
			r.share = s.metrics > 1 ? (s.primary_share ? s.primary_share :
						   CMP_PRIMARY_SHARE) : 1;
			r.alarm = cmp_alarm(&rule, s.alarm_share);
			mde = cmp_mde(&r, &p, p.now, p.now, true);
			s.mode = PAIRED;
			s.no_catch = true;	/* the looks up to the blocks given */
			s.gate_time = 0;
			s.cv = cvs[i];
			s.max_runs = blocks[k];
			s.runs = s.runs < blocks[k] ? s.runs : blocks[k];
			s.shift = mde > -0.9 ? mde : -0.9;
			s.shift_metric = 0;
			alloc_tally(&t, s.gates);
			run_gates(&s, &t);
			wilson(t.fail, s.gates, &lo, &hi);
			printf("cv %.3g blocks %u: mde %+.2f%%, fail there %.1f%% [%.1f, %.1f]\n",
			       cvs[i], blocks[k], 100 * mde, 100.0 * t.fail / s.gates,
			       100 * lo, 100 * hi);
			free_tally(&t);
		}
	}
}

/* The command line: what the option table stores. */
static struct sim cli = {
	.mode = PAIRED, .cv = 0.1, .threshold = 0.05, .gates = 1000, .metrics = 3, .runs = 8,
	.max_runs = RUNSET_MAX_RUNS, .boots_first = 3, .seed = 1,	/* alpha 0: the default */
	.gate_time = -1, .iteration_seconds = -1, /* boots 0: by the mode (main()) */
};
static struct expect expects[MAX_EXPECT];
static unsigned int nr_expects;

static int parse_mode(const char *prog, const struct opt_spec *o, const char *arg)
{
	for (cli.mode = PAIRED; cli.mode <= BOOTS; cli.mode++)
		if (!strcmp(arg, mode_names[cli.mode]))
			return 0;
	fprintf(stderr, "%s: --mode: want paired, unpaired or boots, not '%s'\n", prog, arg);
	return -1;
}

/* --expect RATE<=P or RATE>=P */
static int parse_expect(const char *prog, const struct opt_spec *o, const char *arg)
{
	const char *op = strpbrk(arg, "<>");
	struct expect *e = &expects[nr_expects];
	unsigned int i;

	if (nr_expects == MAX_EXPECT || !op || op[1] != '=' || op == arg ||
	    (size_t)(op - arg) >= sizeof(e->rate)) {
		fprintf(stderr, "%s: --expect: want RATE<=P or RATE>=P (at most %d), not '%s'\n",
			prog, MAX_EXPECT, arg);
		return -1;
	}
	snprintf(e->rate, sizeof(e->rate), "%.*s", (int)(op - arg), arg);
	e->at_most = *op == '<';
	if (opt_double(prog, "--expect", op + 2, 0, 1, &e->bound))
		return -1;
	for (i = 0; i < ARRAY_SIZE(rate_names); i++)
		if (!strcmp(rate_names[i], e->rate)) {
			nr_expects++;
			return 0;
		}
	fprintf(stderr, "%s: --expect: no such rate '%s'\n", prog, e->rate);
	return -1;
}

static const struct opt_spec sim_opts[] = {
	OPT_CALLBACK(0, "mode", "paired|unpaired|boots", parse_mode,
		"paired blocks (default), a saved baseline, or boots"),
	OPT_DOUBLE(0, "cv", "C", &cli.cv, 0, 10, "noise per iteration (boot), 0.1"),
	OPT_DOUBLE(0, "drift", "D", &cli.drift, -0.05, 0.05, "linear drift per iteration"),
	OPT_DOUBLE(0, "missing", "F", &cli.missing, 0, 0.5, "values missing at random"),
	OPT_DOUBLE(0, "shift", "S", &cli.shift, -0.9, 10,
		   "true change of --shift-metric, the bad way when < 0"),
	OPT_UINT(0, "shift-metric", "K", &cli.shift_metric, 0, MAX_METRICS - 1,
		 "the metric that moves (0, the primary)"),
	OPT_DOUBLE(0, "threshold", "T", &cli.threshold, 0, 10, "every rule's change, 0.05"),
	OPT_DOUBLE(0, "alarm", "F", &cli.alarm_share, 0.01, 1, "the alarm line's share"),
	OPT_DOUBLE(0, "primary-share", "F", &cli.primary_share, 0.01, 0.99,
		   "the primary metric's share of alpha"),
	OPT_DOUBLE(0, "catch", "C", &cli.catch, 0.001, 0.9,
		   "plan for this change (--catch; default the threshold)"),
	OPT_SET(0, "no-catch", &cli.no_catch, true,
		"no plan: --runs, then looks up to --max-runs"),
	OPT_DOUBLE(0, "gate-time", "SEC", &cli.gate_time, 0, 1e9,
		   "seconds a gate may take (--gate-time), 600; boots:\n"
		   "VM_BUDGET, 1200; 0: none"),
	OPT_DOUBLE(0, "iteration-seconds", "SEC", &cli.iteration_seconds, 0.001, 1e6,
		   "simulated seconds an iteration (warm-ups too), 1.5;\n"
		   "boots: a boot, 50 (vmab's pace here under -icount)"),
	OPT_UINT(0, "gates", "N", &cli.gates, 1, 10000000, "gates a row, 1000"),
	OPT_UINT(0, "metrics", "M", &cli.metrics, 1, MAX_METRICS, "gated metrics, 3"),
	OPT_UINT(0, "runs", "N", &cli.runs, 2, RUNSET_MAX_RUNS, "runs (blocks) a side, 8"),
	OPT_UINT(0, "max-runs", "N", &cli.max_runs, 2, RUNSET_MAX_RUNS,
		 "at most, 1000 (the programs' default)"),
	OPT_UINT(0, "boots", "N", &cli.boots, 2, 500,
		 "boots: at most N a side (VM_MAX_BOOTS), 50; with\n"
		 "--no-catch 9"),
	OPT_UINT(0, "boots-first", "N", &cli.boots_first, 2, 500,
		 "boots: the first look at N a side (VM_BOOTS), 3"),
	OPT_ULONG(0, "seed", "S", &cli.seed, 0, 1000000000000000UL, "the draws' seed, 1"),
	OPT_DOUBLE(0, "alpha", "A", &cli.alpha, 1e-6, 0.5, "family-wise alpha"),
	OPT_CALLBACK(0, "expect", "RATE<=P|RATE>=P", parse_expect,
		"exit 1 when the rate is shown to leave the bound"),
	OPT_SET(0, "mde-table", &cli.mde_table, true, "the mde table, checked"),
	OPT_HELP("this help"),
	OPT_END(),
};

static void usage(FILE *f)
{
	fputs("sched_perf_sim [options]: the verdicts by simulation (sched_perf_sim.c)\n", f);
	opt_usage(f, sim_opts, NULL);
}

/* The options into cli, or exit 2 after one line on stderr; 0 after --help. */
static void parse_options(int argc, char **argv)
{
	int first = opt_parse_args("sched_perf_sim", argc, argv, sim_opts, usage);

	if (first < 0)
		exit(2);
	if (first < argc)
		bad("unexpected operand", argv[first]);
}

int main(int argc, char **argv)
{
	struct sim s;
	struct tally t = { 0 };
	int failed = 0;

	parse_options(argc, argv);
	s = cli;
	if (!s.alpha)
		s.alpha = cmp_default_alpha(s.mode == BOOTS);
	if (s.mode == BOOTS) {
		/*
		 * vmab's defaults: a plan to catch M within VM_BUDGET at its
		 * pace; with --no-catch (VM_CATCH=0) looks at 3, 5, 8 and 9
		 */
		s.runs = s.boots_first;
		s.max_runs = s.boots ? s.boots : s.no_catch ? GATE_BOOTS_FIXED : GATE_BOOTS_MAX;
		if (s.gate_time < 0)
			s.gate_time = s.no_catch ? 0 : GATE_BOOTS_BUDGET;
		if (s.iteration_seconds < 0)
			s.iteration_seconds = 50;
	}
	if (s.gate_time < 0)
		s.gate_time = 600;		/* the programs' defaults */
	if (s.iteration_seconds < 0)
		s.iteration_seconds = 1.5;
	if (s.max_runs < s.runs)
		s.max_runs = s.runs;
	if (!s.catch)
		s.catch = s.threshold;
	if (s.shift_metric >= s.metrics)
		bad("--shift-metric: not below --metrics", "");
	if (s.mde_table) {
		mde_table(&s);
		return 0;
	}
	alloc_tally(&t, s.gates);
	run_gates(&s, &t);
	report(&s, &t, expects, nr_expects, &failed);
	free_tally(&t);
	return failed;
}
