// SPDX-License-Identifier: GPL-2.0
/*
 * sched_perf_vmab: the sequential engine of scripts/vmab.sh.  Kernel B is
 * judged against kernel A over interleaved boots by the in-boot gate's
 * own loop (gate_run() with gate_plan.boots): each boot is one run of
 * each program, its iterations' mean; Welch's t on the boots; alpha
 * spent over looks at the gate's planned sizes; after each look a plan
 * of boots from the spread seen, to catch each program's own change M
 * (or --catch) at 90 % power, as the in-boot gate plans by default; the
 * look at hand the last once the boots took --budget host seconds.  One
 * rule, one loop, for blocks in one boot and for boots across kernels.
 *
 * It boots nothing itself.  --step CMD runs "CMD SIDE N" (through
 * /bin/sh) to boot kernel SIDE (A or B) as boot N, which leaves the
 * programs' run sets in DIR/boot-N-SIDE/results/PROG.results and the
 * boot's host seconds in DIR/boot-N-SIDE.secs; the gate's clock is the
 * sum of those seconds.
 *
 * Each program has a gate of its own over the same boots, and the gates
 * go in step: after each pair of boots every open program's gate runs
 * again from its first boot (a replay: the same boots give the same
 * looks, each printed once) until it needs a boot not made yet.  A pair
 * is added while a program needs one; once a program regressed none is,
 * and the rest take a last look at the boots made.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "cmp_report.h"
#include "compare.h"
#include "gate.h"
#include "opts.h"
#include "runset.h"
#include "verdict.h"

#define ME		"sched_perf_vmab"
#define MAX_BOOTS	GATE_BOOTS_MAX	/* a side */
#define MAX_PROGS	16
#define ONLY_MAX	16

enum { SIDE_A, SIDE_B };
static const char side_name[] = "AB";

static struct {
	char step[4096];
	char bounds[CMP_BOUNDS_FILES][CMP_BOUNDS_PATH];
	unsigned int nr_bounds;
	const char *only[ONLY_MAX];
	unsigned int nr_only;
	unsigned int first, max_boots, budget;
	double catch;				/* percent; 0: each program's M */
	bool no_catch;				/* fixed looks up to --max-boots */
} cli = { .first = 3 };

/* One line on stderr, exit 2: bad input, or what the tool cannot do. */
__printf(1, 2) __noreturn static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(ME ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_BAD_INPUT);
}

/* The boots made so far, which every program's gate takes in order. */
struct boots {
	const char *dir;
	unsigned int nr;			/* in all */
	unsigned int of[2][MAX_BOOTS];		/* a side's k-th boot: its number */
	unsigned int made[2];
	double secs[2 * MAX_BOOTS + 1];		/* by number */
	bool frozen;				/* no more: a program regressed */
	int step_failed;			/* the step's exit status, passed on */
};

/* What a program's gate has seen and decided. */
enum state { PASSED, REGRESSED, OPEN, CANNOT };

struct prog_gate {
	struct boots *boots;
	const char *prog;
	unsigned int taken[2];			/* boots of each side used */
	double clock;				/* their seconds */
	struct runset id;			/* the first boot's: identity */
	bool have_id;
	bool plan_said;				/* the plan line printed */
	unsigned int looks;			/* taken in this replay */
	unsigned int printed;			/* looks printed (earlier replays) */
	bool wants_boot;			/* stopped at a boot not made yet */
	bool done;
	struct gate_outcome out;
	enum state state;
	char tally[512];
	char why[1200];				/* CANNOT: why */
};

/* Boot side @s as the next boot; 0, or -1 with the step's status kept. */
static int make_boot(struct boots *b, int s)
{
	char cmd[4200], path[4200];
	unsigned int n = b->nr + 1;
	FILE *f;
	int st;

	if (b->frozen || b->made[s] == MAX_BOOTS)
		return -1;
	snprintf(cmd, sizeof(cmd), "%s %c %u", cli.step, side_name[s], n);
	fflush(stdout);
	st = system(cmd);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		/* 128: a bisect step aborted, said by the step; else 2, never 1 or 4 */
		b->step_failed = st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 128 ? 128 :
				 EXIT_BAD_INPUT;
		fprintf(stderr, ME ": boot %u (%c): the step failed (%s %d)\n", n, side_name[s],
			st == -1 ? "not run, errno" : WIFEXITED(st) ? "exit" : "signal",
			st == -1 ? errno : WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/boot-%u-%c.secs", b->dir, n, side_name[s]);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lf", &b->secs[n]) != 1 || !(b->secs[n] >= 0)) {
		fprintf(stderr, ME ": boot %u (%c): the step left no seconds in %s\n", n,
			side_name[s], path);
		b->step_failed = EXIT_BAD_INPUT;
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	b->nr = n;
	b->of[s][b->made[s]++] = n;
	return 0;
}

/* Boot @n's run set of @g's program, or -1 with @g->why. */
static int load_boot(struct prog_gate *g, unsigned int n, int s, struct runset *rs)
{
	char path[4200], err[1024];

	snprintf(path, sizeof(path), "%s/boot-%u-%c/results/%s.results", g->boots->dir, n,
		 side_name[s], g->prog);
	if (runset_load(path, rs, err, sizeof(err))) {
		snprintf(g->why, sizeof(g->why), "boot %u (%c): %s", n, side_name[s], err);
		return -1;
	}
	if (!g->have_id) {
		runset_init(&g->id, rs->workload);
		runset_copy_identity(&g->id, rs);
		g->have_id = true;
		return 0;
	}
	if (runset_compatible(&g->id, rs, err, sizeof(err))) {
		snprintf(g->why, sizeof(g->why), "boot %u (%c) against the first: %s", n,
			 side_name[s], err);
		runset_free(rs);
		return -1;
	}
	return 0;
}

/* One boot's figure of each metric (runset_boot_figure()). */
static void boot_figures(const struct runset *rs, struct metric_set *set)
{
	unsigned int i;
	double fig;

	for (i = 0; i < rs->nr_metrics; i++)
		if (!runset_boot_figure(&rs->m[i], &fig))
			metric_add(set, rs->m[i].name, "", fig);
}

/* gate_ops.measured: the side's next boot; -1 when it is not made yet */
static int measured(void *ctx, bool new_side, struct metric_set *set)
{
	struct prog_gate *g = ctx;
	struct boots *b = g->boots;
	int s = new_side ? SIDE_B : SIDE_A;
	struct runset rs;
	unsigned int n;

	if (g->taken[s] == b->made[s]) {
		g->wants_boot = true;
		return -1;
	}
	n = b->of[s][g->taken[s]++];
	g->clock += b->secs[n];
	if (load_boot(g, n, s, &rs))
		return -1;
	boot_figures(&rs, set);
	runset_free(&rs);
	return 0;
}

static int no_warmup(void *ctx)
{
	return 0;
}

static double boots_clock(void *ctx)
{
	return ((struct prog_gate *)ctx)->clock;
}

static enum state state_of(const struct cmp_result *res, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (res[i].verdict == CMP_REGRESSED)
			return REGRESSED;
	return cmp_gate_open(res, nr) ? OPEN : PASSED;
}

static const char *const state_words[] = { "passed", "regressed", "open", "cannot compare" };

static void write_table(const char *path, const struct prog_gate *g,
			const struct gate_outcome *out, const struct cmp_result *res,
			const struct cmp_look *look)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	cmp_report_table(f, "A", "B", &g->id, res, out->nr_results, &out->params, look);
	if (fclose(f))
		die("cannot write %s: %s", path, strerror(errno));
}

/*
 * The look's table into DIR/look-K/PROG.compare and DIR/PROG.compare (the
 * last look's at the end), its one-line tally into @g.
 */
static void write_look(struct prog_gate *g, const struct gate_outcome *out,
		       const struct cmp_result *res, const struct cmp_look *look)
{
	char path[4200];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/look-%u", g->boots->dir, g->looks);
	if (mkdir(path, 0755) && errno != EEXIST)
		die("cannot make %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/look-%u/%s.compare", g->boots->dir, g->looks, g->prog);
	write_table(path, g, out, res, look);
	snprintf(path, sizeof(path), "%s/%s.compare", g->boots->dir, g->prog);
	write_table(path, g, out, res, look);
	f = fmemopen(g->tally, sizeof(g->tally), "w");
	bad = !f || cmp_report_summary(f, g->id.workload, res, out->nr_results);
	if (f)
		fclose(f);
	if (bad)
		snprintf(g->tally, sizeof(g->tally), "?");
	g->tally[strcspn(g->tally, "\n")] = '\0';
}

/* "; could catch -4.2% (hackbench.messages_per_sec) with 9 boots a side" */
static void print_mde(const struct prog_gate *g, const struct cmp_result *res,
		      unsigned int nr, unsigned int plan)
{
	const struct cmp_result *r = cmp_primary_result(res, nr);

	if (r && r->primary && isfinite(r->mde))
		printf("; could catch %+.1f%% (%s.%s) with %u boots a side", 100 * r->mde,
		       g->id.workload, r->metric, plan);
}

/* gate_ops.looked: the look's table, its line, and the plan made after it */
static void looked(void *ctx, const struct gate_plan *plan, const struct gate_outcome *out)
{
	struct prog_gate *g = ctx;
	struct boots *b = g->boots;
	struct cmp_result res[METRICS_MAX];
	struct cmp_look look = {
		.n = out->runs, .max = out->look_max[out->looks - 1],
		.nr_prev = out->looks - 1, .last = out->params.last,
	};
	char more[48] = "";
	unsigned int i;

	g->state = state_of(out->results, out->nr_results);
	/* a replay's looks before the new boots: the same, said already */
	if (++g->looks <= g->printed)
		return;
	g->printed = g->looks;
	for (i = 0; i + 1 < out->looks; i++)
		look.prev[i] = out->look_at[i];
	memcpy(res, out->results, out->nr_results * sizeof(res[0]));
	cmp_fill_mde(res, out->nr_results, &out->params);
	write_look(g, out, res, &look);
	printf("vmab: look %u at %u boots a side: %s: %s (%s)", g->looks, out->runs, g->prog,
	       state_words[g->state], g->tally);
	print_mde(g, res, out->nr_results, out->max_runs);
	putchar('\n');
	if (out->needed > cli.max_boots)
		snprintf(more, sizeof(more), ", more than VM_MAX_BOOTS %u", cli.max_boots);
	if (plan->catch && out->needed && g->state == OPEN && !out->params.last && b->nr)
		printf("vmab: catch %g%%: %u boots a side needed%s; planned %u, about %.0f min more here at %.0f s a boot\n",
		       100 * plan->catch, out->needed, more, out->max_runs,
		       fmax(0, 2.0 * out->max_runs - b->nr) * g->clock / (2.0 * out->runs) / 60,
		       g->clock / (2.0 * out->runs));
	fflush(stdout);
}

/* The rules @g's program is judged by: its bounds, --metric's choice */
static unsigned int rules_of(struct prog_gate *g, const struct bounds *bs,
			     struct cmp_rule *rules)
{
	const char *only[ONLY_MAX];
	unsigned int i, nr_only = 0, nr;
	size_t len = strlen(g->prog);
	char err[1024];
	int kept;

	nr = bounds_changes(bs, g->id.workload, g->id.variant, rules, BOUNDS_MAX);
	if (!nr) {
		snprintf(g->why, sizeof(g->why), "no change thresholds for %s (variant %s)",
			 g->id.workload, g->id.variant);
		return 0;
	}
	for (i = 0; i < cli.nr_only; i++)
		if (!strncmp(cli.only[i], g->prog, len) && cli.only[i][len] == '.')
			only[nr_only++] = cli.only[i] + len + 1;
	if (!nr_only)
		return nr;
	kept = cmp_keep_only(rules, nr, only, nr_only, g->id.workload, err, sizeof(err));
	if (kept < 0)
		die("%s", err);
	return kept;
}

/* What @g's program plans to catch: --catch, else its own change M. */
static double catch_of(const struct cmp_rule *rules, unsigned int nr)
{
	if (cli.no_catch)
		return 0;
	return cli.catch ? cli.catch / 100 : cmp_rules_catch(rules, nr);
}

/* The plan, said once before the program's first look. */
static void say_plan(struct prog_gate *g, const struct gate_plan *plan)
{
	const struct cmp_rule *r = cmp_primary_rule(plan->rules, plan->nr_rules);

	if (g->plan_said || !r)
		return;
	g->plan_said = true;
	if (!plan->catch) {
		printf("vmab: plan: %s: looks up to %u boots a side; first look at %u\n",
		       g->prog, plan->max_runs, plan->runs);
		return;
	}
	printf("vmab: plan: %s: catch -%.3g%% of %s.%s at 90%% power within %u boots a side",
	       g->prog, 100 * plan->catch, g->id.workload, r->metric, plan->max_runs);
	if (plan->time_limit > 0)
		printf(" and %.0f s of boots", plan->time_limit);
	printf("; first look at %u\n", plan->runs);
}

/*
 * One program's gate over the boots made, from its first: done, or it
 * wants a boot not made yet (its state then is its last look's).
 */
static void replay(struct prog_gate *g, const struct bounds *bs)
{
	static struct cmp_rule rules[BOUNDS_MAX];
	static struct runset a, b;
	struct runset first;
	struct boots *bt = g->boots;
	struct gate_plan plan = {
		.runs = cli.first, .max_runs = cli.max_boots, .boots = true,
		.time_limit = cli.budget,
		.params = { .alpha = cmp_default_alpha(true), .max_cv = CMP_MAX_CV },
	};
	const struct gate_ops ops = { measured, no_warmup, looked, boots_clock };

	g->state = CANNOT;
	g->done = true;
	g->taken[SIDE_A] = g->taken[SIDE_B] = 0;
	g->clock = 0;
	g->looks = 0;
	g->wants_boot = false;
	/* the rules need the program's identity: its first boot's run set */
	if (!g->have_id) {
		if (load_boot(g, bt->of[SIDE_A][0], SIDE_A, &first))
			goto cannot;
		runset_free(&first);
	}
	plan.rules = rules;
	plan.nr_rules = rules_of(g, bs, rules);
	plan.catch = catch_of(rules, plan.nr_rules);
	say_plan(g, &plan);
	runset_init(&a, g->id.workload);
	runset_init(&b, g->id.workload);
	runset_copy_identity(&a, &g->id);
	runset_copy_identity(&b, &g->id);
	gate_run(&plan, &ops, g, &a, &b, &g->out);
	runset_free(&a);
	runset_free(&b);
	if (g->out.failed && g->wants_boot) {
		g->done = false;
		return;
	}
	if (g->out.compared && !g->out.failed)
		return;
	if (!*g->why)
		snprintf(g->why, sizeof(g->why), "no comparison made");
cannot:
	g->state = CANNOT;
	/* the look that found it: more boots would not help */
	printf("vmab: look %u at %u boots a side: %s: cannot compare: %s\n", g->looks + 1,
	       g->out.runs, g->prog, g->why);
	g->looks++;
}

/* The next pair of boots, A B or B A by turns; 0, or -1 (the step failed). */
static int next_pair(struct boots *b)
{
	unsigned int r = b->made[SIDE_A] > b->made[SIDE_B] ? b->made[SIDE_B] : b->made[SIDE_A];
	int order[2] = { r % 2 ? SIDE_B : SIDE_A, r % 2 ? SIDE_A : SIDE_B }, i;

	for (i = 0; i < 2; i++)
		if (b->made[order[i]] == r && make_boot(b, order[i]))
			return -1;
	return 0;
}

/*
 * The programs' gates in step: each replayed after every pair of boots
 * until it is done.  Once one regressed no boot is added: the others
 * stand as their last look left them (with the same plan, the looks of
 * all are at the same sizes), or were not judged when they took none.
 */
static void judge_all(struct prog_gate *g, unsigned int nr, const struct bounds *bs)
{
	struct boots *b = g[0].boots;
	bool open, regressed = false;
	unsigned int i;

	for (;;) {
		open = false;
		for (i = 0; i < nr; i++) {
			if (!g[i].done)
				replay(&g[i], bs);
			open |= !g[i].done;
			regressed |= g[i].done && g[i].state == REGRESSED;
		}
		if (!open)
			return;
		if (regressed)
			break;
		/* no pair past MAX_BOOTS a side: the gates' caps stop them before */
		if (next_pair(b)) {
			if (b->step_failed)
				exit(b->step_failed);
			break;
		}
	}
	b->frozen = true;
	for (i = 0; i < nr; i++) {
		if (g[i].done)
			continue;
		g[i].done = true;
		if (g[i].printed)
			continue;
		g[i].state = CANNOT;
		snprintf(g[i].why, sizeof(g[i].why), "no look within the boots made");
	}
}

/* The KTAP lines of program @i (from 1) into @f, its figures before it. */
static void ktap_lines(FILE *f, const struct prog_gate *g, unsigned int i, unsigned int runs)
{
	switch (g->state) {
	case PASSED:
		fprintf(f, "# %s: no metric worse than its threshold over %u boots each (%s)\n",
			g->prog, runs, g->tally);
		fprintf(f, "ok %u %s\n", i, g->prog);
		break;
	case OPEN:
		fprintf(f, "# %s: not shown within its thresholds over %u boots each (%s)\n",
			g->prog, runs, g->tally);
		fprintf(f, "ok %u %s # SKIP not shown within its thresholds\n", i, g->prog);
		break;
	case REGRESSED:
		fprintf(f, "# %s: %s\n", g->prog, g->tally);
		fprintf(f, "not ok %u %s\n", i, g->prog);
		break;
	default:
		fprintf(f, "# %s: cannot compare: %s\n", g->prog, g->why);
		fprintf(f, "ok %u %s # SKIP cannot compare\n", i, g->prog);
		break;
	}
}

/* The programs of the first boot (of A), when none were named. */
static unsigned int first_boot_programs(struct boots *b, char (*names)[64])
{
	char path[4200];
	unsigned int n = 0, i;
	FILE *p;

	if (!b->made[SIDE_A] && make_boot(b, SIDE_A))
		exit(b->step_failed);
	snprintf(path, sizeof(path), "ls '%s/boot-%u-A/results' 2>/dev/null", b->dir,
		 b->of[SIDE_A][0]);
	p = popen(path, "r");
	while (p && n < MAX_PROGS && fgets(names[n], sizeof(names[0]), p)) {
		i = strcspn(names[n], "\n");
		names[n][i] = '\0';
		if (i > 8 && !strcmp(names[n] + i - 8, ".results")) {
			names[n][i - 8] = '\0';
			n++;
		}
	}
	if (p)
		pclose(p);
	if (!n)
		die("no results from the first boot in %s/boot-%u-A/results", b->dir,
		    b->of[SIDE_A][0]);
	return n;
}

static int parse_bounds(const char *prog, const struct opt_spec *o, const char *arg)
{
	const char *why = cmp_add_bounds(cli.bounds, &cli.nr_bounds, arg);

	if (why)
		fprintf(stderr, ME ": --bounds: %s\n", why);
	return why ? -1 : 0;
}

static int parse_metric(const char *prog, const struct opt_spec *o, const char *arg)
{
	if (cli.nr_only == ONLY_MAX || !strchr(arg, '.')) {
		fprintf(stderr, ME ": --metric %s: %s\n", arg, cli.nr_only == ONLY_MAX ?
			"more than 16 metrics" : "want PROG.METRIC");
		return -1;
	}
	cli.only[cli.nr_only++] = arg;
	return 0;
}

static const struct opt_spec vmab_opts[] = {
	OPT_STRING(0, "step", "CMD", cli.step,
		   "boot a kernel: run as 'CMD SIDE N' (through /bin/sh),\n"
		   "SIDE A or B, N the boot's number from 1; leaves\n"
		   "DIR/boot-N-SIDE/results/PROG.results and the boot's\n"
		   "host seconds in DIR/boot-N-SIDE.secs (required)"),
	OPT_UINT(0, "first", "N", &cli.first, 2, MAX_BOOTS,
		 "boots a side at the first look (default 3)"),
	OPT_UINT(0, "max-boots", "N", &cli.max_boots, 2, MAX_BOOTS,
		 "boots a side at most (default 50; with --no-catch 9,\n"
		 "or --first when more)"),
	OPT_PERCENT(0, "catch", "P[%]", &cli.catch,
		    "the regression to catch: after each open look, plan\n"
		    "the boots a side at which the throughput would catch\n"
		    "a fall of P percent at 90 percent power, from the\n"
		    "boots' spread, within --max-boots and --budget\n"
		    "(default: each program's throughput change line, M)"),
	OPT_SET(0, "no-catch", &cli.no_catch, true,
		"no plan: look at the in-boot gate's sizes up to\n"
		"--max-boots"),
	OPT_UINT(0, "budget", "S", &cli.budget, 1, 1000000000,
		 "add no boots once the boots took S host seconds: the\n"
		 "look then is the last (default 1200; none with\n"
		 "--no-catch)"),
	OPT_CALLBACK(0, "bounds", "FILE", parse_bounds,
		     "change thresholds (default: 'bounds' beside this\n"
		     "program); again (up to 4), each over the ones before"),
	OPT_CALLBACK(0, "metric", "PROG.METRIC", parse_metric,
		     "judge only the metrics named of that program (again:\n"
		     "more); a program with none named is judged on all"),
	OPT_HELP("this help"),
	OPT_END(),
};

static void usage(FILE *f)
{
	fputs("Usage: " ME " --step CMD [options] DIR [PROG...]\n"
	      "Judge kernel B against kernel A over interleaved boots (A B, B A, ...)\n"
	      "with the in-boot gate's sequential loop; each boot one run of each\n"
	      "program (PROG..., default: the first boot's), judged one after the\n"
	      "other over the same boots.  Per look: DIR/look-K/PROG.compare and a\n"
	      "line; at the end DIR/PROG.compare (the last look's), DIR/verdict (KTAP\n"
	      "lines, one test per program) and DIR/stop (looks, boots, why).\n", f);
	opt_usage(f, vmab_opts, NULL);
	fputs("Exit: 0 no program regressed and each shown within its thresholds,\n"
	      "1 a program regressed, 2 bad input or a step that failed (128 when the\n"
	      "step exited 128: git bisect run's abort), 4 a program open or not\n"
	      "comparable.\n", f);
}

/* Why the boots stopped, for DIR/stop and vmab's last line. */
static const char *why_stopped(const struct prog_gate *g, unsigned int n,
			       char *buf, size_t len)
{
	unsigned int i, judged = 0;
	bool open = false;

	for (i = 0; i < n; i++) {
		if (g[i].state == REGRESSED)
			return "a program regressed";
		open |= g[i].state == OPEN;
		judged += g[i].state != CANNOT;
	}
	if (!judged)
		return "nothing judged";
	if (!open)
		return "nothing open";
	for (i = 0; i < n; i++)
		if (g[i].state == OPEN && cli.budget && g[i].out.seconds >= cli.budget) {
			snprintf(buf, len, "VM_BUDGET (%u s) spent", cli.budget);
			return buf;
		}
	for (i = 0; i < n; i++)
		if (g[i].state == OPEN && g[i].out.runs < cli.max_boots) {
			snprintf(buf, len, "the plan (%u boots a side) reached", g[i].out.runs);
			return buf;
		}
	snprintf(buf, len, "VM_MAX_BOOTS (%u boots a side) reached", cli.max_boots);
	return buf;
}

static FILE *open_out(const char *dir, const char *name)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s: %s", path, strerror(errno));
	return f;
}

static void close_out(FILE *f, const char *dir, const char *name)
{
	if (fclose(f))
		die("cannot write %s/%s: %s", dir, name, strerror(errno));
}

int main(int argc, char **argv)
{
	static struct prog_gate g[MAX_PROGS];
	static char names[MAX_PROGS][64];
	static struct bounds bs;
	static struct boots b;
	unsigned int nr, i, looks = 0;
	char err[1024], why[128];
	int first = opt_parse_args(ME, argc, argv, vmab_opts, usage), rc = 0;
	FILE *f;

	if (first < 0)
		exit(EXIT_BAD_INPUT);
	if (!*cli.step)
		die("--step CMD is required (see --help)");
	if (first >= argc)
		die("no DIR (see --help)");
	if (argc - first - 1 > MAX_PROGS)
		die("more than %d programs", MAX_PROGS);
	if (cli.no_catch && cli.catch)
		die("--catch and --no-catch: choose one");
	if (!cli.max_boots)
		cli.max_boots = !cli.no_catch ? MAX_BOOTS :
				cli.first > GATE_BOOTS_FIXED ? cli.first : GATE_BOOTS_FIXED;
	if (!cli.budget && !cli.no_catch)
		cli.budget = GATE_BOOTS_BUDGET;
	if (cli.max_boots < cli.first)
		die("--max-boots %u: want at least --first (%u)", cli.max_boots, cli.first);
	b.dir = argv[first];
	if (cmp_load_bounds(cli.bounds, cli.nr_bounds, &bs, err, sizeof(err)))
		die("%s", err);
	if (first + 1 < argc) {
		for (nr = 0; first + 1 + (int)nr < argc; nr++)
			snprintf(names[nr], sizeof(names[0]), "%s", argv[first + 1 + nr]);
	} else {
		nr = first_boot_programs(&b, names);
	}
	if (!b.made[SIDE_A] && make_boot(&b, SIDE_A))
		exit(b.step_failed);
	for (i = 0; i < nr; i++) {
		g[i].boots = &b;
		g[i].prog = names[i];
	}
	judge_all(g, nr, &bs);
	f = open_out(b.dir, "verdict");
	for (i = 0; i < nr; i++) {
		if (g[i].looks > looks)
			looks = g[i].looks;
		ktap_lines(f, &g[i], i + 1, g[i].out.runs);
		if (g[i].state == REGRESSED)
			rc = 1;
		else if (g[i].state != PASSED && rc != 1)
			rc = 4;
	}
	close_out(f, b.dir, "verdict");
	f = open_out(b.dir, "stop");
	fprintf(f, "looks %u\nboots %u %u\nwhy %s\n", looks, b.made[SIDE_A], b.made[SIDE_B],
		why_stopped(g, nr, why, sizeof(why)));
	close_out(f, b.dir, "stop");
	return rc;
}
