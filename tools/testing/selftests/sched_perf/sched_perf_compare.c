// SPDX-License-Identifier: GPL-2.0
/*
 * sched_perf_compare: judge a new run set against a baseline, metric by
 * metric, with the change thresholds of the bounds file (compare.h).
 * Prints an lkp-style table, or one JSON object per line and metric.
 * Exit: 0 no metric may be worse than its threshold, 1 a metric regressed,
 * 2 bad input (one line on stderr, nothing on stdout), 4 a metric not
 * shown to stay within its threshold the bad way (undecided, worse,
 * noisy, too few runs, drifting): a CI must not take that for a pass.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmp_report.h"
#include "compare.h"
#include "compiler.h"
#include "fileio.h"
#include "opts.h"
#include "runset.h"
#include "sched_perf_compare.h"
#include "verdict.h"

#define ONLY_MAX	16	/* --metric given again */

/* What --help prints before the options and after them. */
static const char usage_head[] =
"Usage: sched_perf_compare [--bounds FILE] [--metric NAME] [--json | --tsv]\n"
"                          [--alpha A] [--max-cv C] [--summary FILE]\n"
"                          [--paired | --boots]\n"
"                          [--alarm F] [--looks N |\n"
"                           --look N/M [--prev-look P[,P...]] [--last]]\n"
"                          OLD NEW\n"
"       sched_perf_compare [--bounds FILE] --dump RUNSET\n"
"       sched_perf_compare --merge OUT [--runs LIST] RUNSET...\n"
"       sched_perf_compare --plan N/M\n"
"       sched_perf_compare --catch P[%] --look N/M [--prev-look P,...] OLD NEW\n"
"Judge the run set in results file NEW against the baseline OLD (both written\n"
"with --results by the same workload, variant, options, CPU count and kernel\n"
"config), metric by metric, against the change thresholds of the bounds file.\n"
"The change is a shift estimate relative to the old median (Hodges-Lehmann\n"
"with the Mann-Whitney test; paired: with the signed-rank test; boots: the\n"
"mean with Welch's t), with its interval at the metric's share of alpha\n"
"(weighted Bonferroni: the throughput, the primary metric, keeps 70 %).\n"
"A threshold M is the regression to catch; the alarm line A lies inside it\n"
"(its 'alarm', else --alarm's share of M, default M / 2).  regressed /\n"
"improved: a move shown (the interval on that side of 0) whose estimate lies\n"
"beyond A; same: shown within +/- M (equivalence test) with the interval\n"
"inside +/- M; worse / better: shown to move, the estimate within A; else\n"
"undecided.  A side that trends with the order measured is drifting.  Each\n"
"metric's mde is the smallest change it would catch at 90 % power with the\n"
"runs it may still take (M of --look), from the spread's 90 % upper bound\n"
"(\"cannot reach\" when no plan within them does).\n";

static const char usage_tail[] =
"Exit status: 0 the primary metric shown within its threshold and nothing\n"
"regressed (--dump, --merge, --plan: done), 1 a metric regressed, 2 bad input,\n"
"or --merge's OUT could not be written (full filesystem, I/O error): nothing\n"
"written, one line on stderr; 4 open: the primary metric not shown within its\n"
"threshold the bad way (undecided, worse, noisy, too few runs, drifting) or\n"
"missing, or no metric judged at all (a mechanism metric open or missing\n"
"alone does not count; without a primary metric every metric does).\n";

/* "sched_perf_compare: <why>", a line on stderr */
static void say_bad(const char *fmt, va_list ap)
{
	fputs("sched_perf_compare: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void bad_input(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	say_bad(fmt, ap);
	va_end(ap);
	exit(EXIT_BAD_INPUT);
}

#define MAX_PREV	CMP_MAX_LOOKS	/* --prev-look's looks */

/* One line on stderr, as bad_input()'s; -1 for an option's parse(). */
__printf(1, 2) static int refuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_bad(fmt, ap);
	va_end(ap);
	return -1;
}

/* @arg into @out: a number above @lo, and below @hi when @hi > @lo */
static int read_number(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !isfinite(v) || v <= lo || (hi > lo && v >= hi)) {
		if (hi > lo)
			return refuse("%s '%s' is not a number between %g and %g", opt, arg, lo, hi);
		return refuse("%s '%s' is not a number above %g", opt, arg, lo);
	}
	*out = v;
	return 0;
}

/* @arg as a whole number from @lo to @hi (digits only); -1 if it is not. */
static long whole(const char *arg, unsigned int lo, unsigned int hi)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || v < lo || v > hi)
		return -1;
	return v;
}

/* The command line: what the option table stores. */
static struct {
	struct cmp_params params;
	char bounds[CMP_BOUNDS_FILES][CMP_BOUNDS_PATH];
	unsigned int nr_bounds;
	const char *only[ONLY_MAX];
	unsigned int nr_only;
	char summary[4096], merge[4096], prev[256];
	const char *runs;	/* checked by --merge, which knows the count */
	struct cmp_look look, plan;
	bool json, tsv, dump;
	double catch;		/* --catch: a fraction; 0: none */
} cli = { .params = { .max_cv = CMP_MAX_CV } };	/* alpha 0: the default */

static int parse_alpha(const char *prog, const struct opt_spec *o, const char *arg)
{
	return read_number("--alpha", arg, 0, 1, &cli.params.alpha);
}

static int parse_max_cv(const char *prog, const struct opt_spec *o, const char *arg)
{
	return read_number("--max-cv", arg, 0, 0, &cli.params.max_cv);
}

static int parse_looks(const char *prog, const struct opt_spec *o, const char *arg)
{
	double v = 0;

	if (read_number("--looks", arg, 0, 1001, &v))
		return -1;
	if (v != floor(v))
		return refuse("--looks '%s' is not a whole number", arg);
	cli.params.looks = v;
	return 0;
}

/* --look N/M or --plan N/M: 1 <= N <= M <= 1000 */
static int parse_look(const char *prog, const struct opt_spec *o, const char *arg)
{
	struct cmp_look *look = o->dest;
	const char *slash = strchr(arg, '/');
	long n = -1, max = -1;
	char part[16];

	if (slash && slash > arg && (size_t)(slash - arg) < sizeof(part)) {
		snprintf(part, sizeof(part), "%.*s", (int)(slash - arg), arg);
		max = whole(slash + 1, 1, 1000);
		n = max < 0 ? -1 : whole(part, 1, max);
	}
	if (n < 0)
		return refuse("--%s '%s' is not N/M, whole numbers 1 <= N <= M <= 1000",
			      o->long_name, arg);
	look->n = n;
	look->max = max;
	return 0;
}

static int parse_bounds(const char *prog, const struct opt_spec *o, const char *arg)
{
	const char *why = cmp_add_bounds(cli.bounds, &cli.nr_bounds, arg);

	return why ? refuse("--bounds: %s", why) : 0;
}

static int parse_metric(const char *prog, const struct opt_spec *o, const char *arg)
{
	if (cli.nr_only == ONLY_MAX)
		return refuse("--metric: more than %d metrics", ONLY_MAX);
	cli.only[cli.nr_only++] = arg;
	return 0;
}

static int parse_alarm(const char *prog, const struct opt_spec *o, const char *arg)
{
	double v = 0;

	if (read_number("--alarm", arg, 0, 1.000001, &v))
		return -1;
	cli.params.alarm_share = v;
	return 0;
}

static int parse_catch(const char *prog, const struct opt_spec *o, const char *arg)
{
	return opt_percent(prog, "--catch", arg, &cli.catch);
}

static int parse_runs_list(const char *prog, const struct opt_spec *o, const char *arg)
{
	cli.runs = arg;
	return 0;
}

static const struct opt_spec compare_opts[] = {
	OPT_CALLBACK(0, "bounds", "FILE", parse_bounds,
		"change thresholds (default: 'bounds' beside this\n"
		"program); given again (up to 4 files), a later file's\n"
		"lines replace the earlier ones' of the same metric and\n"
		"direction"),
	OPT_CALLBACK(0, "metric", "NAME", parse_metric,
		"judge only this metric of the change thresholds (given\n"
		"again, up to 16: these), e.g. to bisect on the metric\n"
		"that regressed; Bonferroni is then over these alone"),
	OPT_SET(0, "json", &cli.json, true,
		"one JSON object per line and metric instead of the\n"
		"table: the figures, the verdict, which way the metric\n"
		"is worse (worse_when: falls, rises, moves), whether\n"
		"the move is shown beyond its threshold (beyond),\n"
		"whether the estimate is past it the bad way, shown or\n"
		"not (estimate_beyond), whether a worse move is still\n"
		"possible (open: what exits 4), alpha, looks, this\n"
		"look's level, and the reason (why)"),
	OPT_SET(0, "tsv", &cli.tsv, true,
		"the fields of --json, tab-separated, one line per\n"
		"metric after a line of their keys (NaN: '-'), for\n"
		"scripts that read a column by its key"),
	OPT_STRING(0, "summary", "FILE", cli.summary,
		"write the comparison's verdict in one line to FILE,\n"
		"for scripts to pass on: the metrics that regressed\n"
		"with their change ('regressed: w.m +12.0%, ...'), else\n"
		"how many got each verdict ('2 same, 4 undecided'); not\n"
		"written: exit 2"),
	OPT_CALLBACK(0, "alpha", "A", parse_alpha,
		"family-wise level of regressed / improved, 0 < A < 1\n"
		"(default " __stringify(CMP_ALPHA) "; " __stringify(CMP_ALPHA_BOOTS)
		" with --boots); same is shown at\n"
		__stringify(CMP_ALPHA_SAME) " per metric"),
	OPT_CALLBACK(0, "max-cv", "C", parse_max_cv,
		"no verdict when a side's robust CV (1.4826 MAD /\n"
		"median) is above C, C > 0 (default " __stringify(CMP_MAX_CV) ")"),
	OPT_SET(0, "paired", &cli.params.paired, true,
		"run k of OLD and of NEW form block k (--ab --save\n"
		"writes NEW as FILE and OLD as FILE.a): Wilcoxon\n"
		"signed-rank and equivalence on the per-block\n"
		"differences"),
	OPT_SET(0, "boots", &cli.params.boots, true,
		"OLD and NEW are comma-separated lists of run sets, one\n"
		"per boot of each kernel (interleaved boots): each boot\n"
		"counts as one run, its median, judged with Welch's\n"
		"t-test and Welch's equivalence test (at least 2 boots\n"
		"a side)"),
	OPT_CALLBACK(0, "looks", "N", parse_looks,
		"this is one of N looks of a sequential gate: judged at\n"
		"alpha / N, and same at " __stringify(CMP_ALPHA_SAME) " / N (default 1)"),
	OPT_CALLBACK(0, "look", "N/M", parse_look,
		"this is a look of a sequential gate at N runs a side\n"
		"(boots with --boots) of at most M, 1 <= N <= M <=\n"
		"1000: alpha and same's " __stringify(CMP_ALPHA_SAME) " are spent over the looks\n"
		"as the in-boot gate spends them (Lan-DeMets, Pocock\n"
		"type: by a look at N of M, alpha ln(1 + (e - 1) N / M)\n"
		"in all); this look gets what is spent by N less what\n"
		"the looks of --prev-look spent, each metric its share,\n"
		"a look its test could not reach spending none of it",
		.dest = &cli.look),
	OPT_STRING(0, "prev-look", "P[,P...]", cli.prev,
		"with --look: the looks before were at P runs a side,\n"
		"ascending, each below N (default none: this is the\n"
		"first look)"),
	OPT_CALLBACK(0, "catch", "P[%]", parse_catch,
		"with --look: print only the runs a side (boots) at\n"
		"which the primary metric would catch a fall of P\n"
		"percent at 90 percent power, from the spread of OLD\n"
		"and NEW (its 80 percent upper bound): as the in-boot\n"
		"gate's --catch plans; 0 when no spread was seen, 1001\n"
		"when not even 1000 would do"),
	OPT_CALLBACK(0, "alarm", "F", parse_alarm,
		"the alarm line of a threshold without its own: F of\n"
		"it, 0 < F <= 1 (default " __stringify(CMP_ALARM_SHARE) ")"),
	OPT_SET(0, "last", &cli.look.last, true,
		"with --look: this look is the last one (a time budget\n"
		"ran out): it spends what is left, as a look at N = M\n"
		"does"),
	OPT_SET(0, "dump", &cli.dump, true,
		"print RUNSET and the bounds that judge it as tab-\n"
		"separated lines, for scripts: 'meta KEY VALUE' (every\n"
		"meta.KEY line of the file), 'runs METRIC V1 V2...'\n"
		"(space-separated), 'stats METRIC N MEDIAN MEAN STDDEV\n"
		"CV' (of those runs), 'value NAME NUMBER' (every\n"
		"<workload>.NAME: NUMBER line), 'change METRIC\n"
		"FRACTION' (a change threshold: -0.05 is 'change >=\n"
		"-5%'), 'bound METRIC OP LIMIT'"),
	OPT_STRING(0, "merge", "OUT", cli.merge,
		"write one run set into OUT: the runs of every RUNSET,\n"
		"one after another (they must be comparable, as OLD and\n"
		"NEW); a metric that is not in every RUNSET is left out\n"
		"and printed as 'dropped METRIC'; the meta lines of the\n"
		"first RUNSET are kept"),
	OPT_CALLBACK(0, "runs", "LIST", parse_runs_list,
		"with --merge: only these runs, in this order: numbers\n"
		"from 1 and ranges N-M, comma-separated (3,1,7-9)"),
	OPT_CALLBACK(0, "plan", "N/M", parse_look,
		"print the run counts a sequential gate looks at, from\n"
		"N runs a side to at most M, space-separated (3/9: 3 5\n"
		"8 9)",
		.dest = &cli.plan),
	{ .long_name = "help", .short_name = 'h', .help = "this text", .kind = OPT_KIND_HELP },
	OPT_END(),
};

/*
 * The options into cli; the first operand's index.  --help prints the
 * usage and exits 0; a bad option exits 2 after one line on stderr.
 */
static void usage(FILE *f)
{
	fputs(usage_head, f);
	opt_usage(f, compare_opts, NULL);
	fputs(usage_tail, f);
}

static int parse_options(int argc, char **argv)
{
	int first = opt_parse_args("sched_perf_compare", argc, argv, compare_opts, usage);

	if (first < 0)
		exit(EXIT_BAD_INPUT);
	return first;
}

/* The look into @params: sched_perf_compare_runsets() replays the ones before. */
static void set_look(const struct cmp_look *look, struct cmp_params *params)
{
	params->max_runs = look->max;
	params->now = look->n;
	params->last = look->last;
	params->nr_before = look->nr_prev;
	params->before = look->prev;
}

/*
 * --catch: the runs a side the primary metric (else the first judged)
 * needs to catch cli.catch, one number on a line.
 */
static void print_catch(const struct cmp_result *res, unsigned int nr,
			const struct cmp_params *params)
{
	const struct cmp_result *r = cmp_primary_result(res, nr);

	printf("%u\n", r ? cmp_runs_to_catch(r, params, cli.catch / 100) : 0);
}

/*
 * --prev-look P[,P...]: the looks before @look->n, ascending; -1 after a
 * line on stderr.
 */
static int parse_prev(const char *list, struct cmp_look *look)
{
	char copy[sizeof(cli.prev)], *save = NULL, *tok;
	long p;

	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		p = whole(tok, 1, look->n - 1);
		if (p < 0 || look->nr_prev == MAX_PREV ||
		    (look->nr_prev && (unsigned int)p <= look->prev[look->nr_prev - 1]))
			return -1;
		look->prev[look->nr_prev++] = p;
	}
	return 0;
}

/*
 * A JSON number; an infinity as +/-1e999 (valid JSON: Python reads it as
 * inf, jq as the largest double; the sign kept), NaN as null.
 */
static void json_number(double v)
{
	if (isfinite(v))
		printf("%.9g", v);
	else if (isinf(v))
		printf("%s1e999", v < 0 ? "-" : "");
	else
		fputs("null", stdout);
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/*
 * --plan N/M: the run counts a sequential gate looks at, from N runs a
 * side up to M (cmp_next_look()'s schedule), for scripts that add runs
 * or boots themselves
 */
static void print_plan(const struct cmp_look *plan)
{
	unsigned int n = plan->n;

	printf("%u", n);
	while (n < plan->max) {
		n = cmp_next_look(n);
		printf(" %u", n < plan->max ? n : plan->max);
	}
	putchar('\n');
}

/* which way the metric gets worse: the sign of its threshold */
static const char *worse_when(double threshold)
{
	return threshold < 0 ? "falls" : threshold > 0 ? "rises" : "moves";
}

/*
 * Is the change's estimate past the threshold the bad way, shown or not?
 * (A move of a metric worse either way is past it beyond +/- it.)
 */
static bool estimate_beyond(const struct cmp_result *r)
{
	if (isnan(r->change))
		return false;
	if (r->threshold < 0)
		return r->change < r->threshold;
	if (r->threshold > 0)
		return r->change > r->threshold;
	return r->change != 0;
}

/* One figure of a metric's result, as --json and --tsv print it. */
struct field {
	const char *key;
	enum { FIELD_NUMBER, FIELD_COUNT, FIELD_FLAG, FIELD_WORD } kind;
	double number;
	unsigned int count;
	bool flag;
	const char *word;
};

#define NUM(k, v)	{ .key = k, .kind = FIELD_NUMBER, .number = (v) }
#define COUNT(k, v)	{ .key = k, .kind = FIELD_COUNT, .count = (v) }
#define FLAG(k, v)	{ .key = k, .kind = FIELD_FLAG, .flag = (v) }
#define WORD(k, v)	{ .key = k, .kind = FIELD_WORD, .word = (v) }
#define NR_FIELDS	33

/*
 * The fields of @r, in the order printed, into @f; @name (room for 128)
 * holds "workload.metric".  One list for both forms, so that they agree.
 */
static void result_fields(const char *workload, const struct cmp_result *r,
			  const struct cmp_params *params, char *name, struct field *f)
{
	bool o = r->old.n, n = r->new.n;
	const struct field all[NR_FIELDS] = {
		WORD("metric", name),
		NUM("old_median", o ? r->old.median : NAN),
		NUM("old_stddev", o ? r->old.stddev : NAN),
		COUNT("old_n", r->old.n),
		NUM("new_median", n ? r->new.median : NAN),
		NUM("new_stddev", n ? r->new.stddev : NAN),
		COUNT("new_n", r->new.n),
		NUM("change", r->change),
		NUM("median_change", r->median_change),
		NUM("ci_lo", r->ci_lo),
		NUM("ci_hi", r->ci_hi),
		NUM("p", r->p),
		NUM("p_adj", r->p_adj),
		NUM("p_beyond", r->p_beyond),
		NUM("p_same", r->p_same),
		NUM("p_ni", r->p_ni),
		NUM("threshold", r->threshold),
		NUM("alarm", r->alarm),
		FLAG("primary", r->primary),
		NUM("share", r->share),
		NUM("mde", r->mde),
		NUM("mde_now", r->mde_now),
		NUM("cv_block", r->cv_block),
		WORD("worse_when", worse_when(r->threshold)),
		FLAG("beyond", r->verdict == CMP_REGRESSED || r->verdict == CMP_IMPROVED),
		FLAG("estimate_beyond", estimate_beyond(r)),
		FLAG("open", cmp_bad_side_open(r)),
		NUM("alpha", params->alpha),
		COUNT("looks", r->looks),
		NUM("level", r->level),
		NUM("level_metric", r->level_metric),
		WORD("verdict", cmp_verdict_name(r->verdict)),
		WORD("why", r->why),
	};

	snprintf(name, 128, "%.31s.%.63s", workload, r->metric);
	memcpy(f, all, sizeof(all));
}

/* --json: one object per metric */
static void print_json(const char *workload, const struct cmp_result *r,
		       const struct cmp_params *params)
{
	struct field f[NR_FIELDS];
	char name[128];
	unsigned int i;

	result_fields(workload, r, params, name, f);
	for (i = 0; i < NR_FIELDS; i++) {
		printf("%s\"%s\":", i ? "," : "{", f[i].key);
		if (f[i].kind == FIELD_NUMBER)
			json_number(f[i].number);
		else if (f[i].kind == FIELD_COUNT)
			printf("%u", f[i].count);
		else if (f[i].kind == FIELD_FLAG)
			fputs(f[i].flag ? "true" : "false", stdout);
		else
			json_string(f[i].word);
	}
	puts("}");
}

/*
 * --tsv: the same fields tab-separated, the keys on a first line: for
 * shell scripts, which read a column by its key.  NaN is "-"; a word has
 * no tab or newline (they become spaces).
 */
static void print_tsv(const char *workload, const struct cmp_result *r,
		      const struct cmp_params *params, bool header)
{
	struct field f[NR_FIELDS];
	char name[128];
	const char *c;
	unsigned int i;

	result_fields(workload, r, params, name, f);
	for (i = 0; header && i < NR_FIELDS; i++)
		printf("%s%c", f[i].key, i + 1 < NR_FIELDS ? '\t' : '\n');
	for (i = 0; i < NR_FIELDS; i++) {
		if (f[i].kind == FIELD_NUMBER && isnan(f[i].number))
			putchar('-');
		else if (f[i].kind == FIELD_NUMBER)
			printf("%.9g", f[i].number);
		else if (f[i].kind == FIELD_COUNT)
			printf("%u", f[i].count);
		else if (f[i].kind == FIELD_FLAG)
			fputs(f[i].flag ? "true" : "false", stdout);
		for (c = f[i].kind == FIELD_WORD ? f[i].word : ""; *c; c++)
			putchar(*c == '\t' || *c == '\n' ? ' ' : *c);
		putchar(i + 1 < NR_FIELDS ? '\t' : '\n');
	}
}

#define MAX_BOOTS 64

/*
 * --boots: @list, FILE[,FILE...], one run set per boot of one kernel, all
 * compatible, into one run set of their figures (runset_of_boots()).
 */
static void load_boots(const char *list, struct runset *out)
{
	static struct runset boots[MAX_BOOTS];
	char *copy = strdup(list), *save = NULL, *path, err[1024];
	unsigned int n = 0, k;

	if (!copy)
		bad_input("out of memory");
	for (path = strtok_r(copy, ",", &save); path; path = strtok_r(NULL, ",", &save)) {
		if (n == MAX_BOOTS)
			bad_input("--boots: more than %d run sets in '%.100s'", MAX_BOOTS, list);
		if (runset_load(path, &boots[n], err, sizeof(err)))
			bad_input("%s", err);
		if (n && runset_compatible(&boots[0], &boots[n], err, sizeof(err)))
			bad_input("--boots: cannot compare %s with %s: %s", path, copy, err);
		n++;
	}
	if (!n)
		bad_input("--boots: no run set in '%.100s'", list);
	if (runset_of_boots(boots, n, out))
		bad_input("out of memory");
	for (k = 0; k < n; k++)
		runset_free(&boots[k]);
	free(copy);
}

/* Every metric of @a has as many runs in @b: blocks can be formed. */
static bool runsets_paired(const struct runset *a, const struct runset *b)
{
	unsigned int i;

	for (i = 0; i < a->nr_metrics; i++) {
		const struct runset_metric *m = runset_find(b, a->m[i].name);

		if (m && m->n != a->m[i].n)
			return false;
	}
	return true;
}

/*
 * --summary: one line a script passes on as it is, so that no script
 * reads the table.
 */
static void write_summary(const char *path, const char *workload,
			  const struct cmp_result *res, unsigned int nr)
{
	FILE *f = fopen(path, "w");
	int failed;

	if (!f)
		bad_input("--summary %s: %s", path, strerror(errno));
	failed = cmp_report_summary(f, workload, res, nr);
	if (fclose(f) || failed)
		bad_input("--summary %s: %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
	static struct cmp_result res[BOUNDS_MAX];
	static struct cmp_rule rules[BOUNDS_MAX];
	static struct runset old, new;
	static struct bounds bs;
	struct cmp_params params;
	struct cmp_look look;
	char err[1024];
	unsigned int nr, i, regressed;
	int kept;
	bool open;
	int first = parse_options(argc, argv);

	params = cli.params;
	look = cli.look;
	if (cli.dump && *cli.merge)
		bad_input("--dump and --merge: give one");
	if (cli.json && cli.tsv)
		bad_input("--json and --tsv: give one");
	if (cli.plan.n) {
		if (argc > first || cli.dump || *cli.merge)
			bad_input("--plan takes no run set and no other mode (see --help)");
		print_plan(&cli.plan);
		return 0;
	}
	if ((*cli.prev || look.last) && !look.n)
		bad_input("--prev-look and --last go with --look (see --help)");
	if (cli.catch && (!look.n || cli.json || cli.tsv || *cli.summary))
		bad_input("--catch goes with --look, and alone (see --help)");
	if (look.n && params.looks)
		bad_input("--looks and --look: give one");
	/* "0" was the first look's "none before" */
	if (*cli.prev && strcmp(cli.prev, "0") && parse_prev(cli.prev, &look))
		bad_input("--prev-look '%s' is not a list of whole numbers from 1, ascending, below --look's N, %u (at most %d)",
			  cli.prev, look.n, MAX_PREV);
	if (cli.runs && !*cli.merge)
		bad_input("--runs goes with --merge (see --help)");
	if (*cli.summary && (*cli.merge || cli.dump))
		bad_input("--summary goes with a comparison of OLD and NEW (see --help)");
	if (*cli.merge) {
		merge_runsets(cli.merge, cli.runs, argv + first, argc - first);
		return 0;
	}
	if (cli.dump) {
		if (argc - first != 1)
			bad_input("--dump: expected one run set, got %d operands (see --help)",
				  argc - first);
		if (runset_load(argv[first], &old, err, sizeof(err)))
			bad_input("%s", err);
		if (cmp_load_bounds(cli.bounds, cli.nr_bounds, &bs, err, sizeof(err)))
			bad_input("%s", err);
		dump_runset(argv[first], &old, &bs);
		return 0;
	}
	if (argc - first != 2)
		bad_input("expected two run sets, OLD and NEW, got %d operand%s (see --help)",
			  argc - first, argc - first == 1 ? "" : "s");
	if (params.paired && params.boots)
		bad_input("--paired and --boots: give one");
	if (!params.alpha)
		params.alpha = cmp_default_alpha(params.boots);
	if (look.n)
		set_look(&look, &params);
	if (params.boots) {
		load_boots(argv[first], &old);
		load_boots(argv[first + 1], &new);
	} else if (runset_load(argv[first], &old, err, sizeof(err)) ||
		   runset_load(argv[first + 1], &new, err, sizeof(err))) {
		bad_input("%s", err);
	}
	if (runset_compatible(&old, &new, err, sizeof(err)))
		bad_input("cannot compare %s with %s: %s", argv[first], argv[first + 1], err);
	if (params.paired && !runsets_paired(&old, &new))
		bad_input("--paired: %s and %s do not have as many runs of every metric",
			  argv[first], argv[first + 1]);
	if (cmp_load_bounds(cli.bounds, cli.nr_bounds, &bs, err, sizeof(err)))
		bad_input("%s", err);
	nr = bounds_changes(&bs, old.workload, old.variant, rules, BOUNDS_MAX);
	if (!nr)
		bad_input("%s: no change thresholds for %s (variant %s)", cli.bounds[0],
			  old.workload, old.variant);
	if (cli.nr_only) {
		kept = cmp_keep_only(rules, nr, cli.only, cli.nr_only, old.workload, err,
				     sizeof(err));
		if (kept < 0)
			bad_input("%s", err);
		nr = kept;
	}

	regressed = compare_runsets(&old, &new, rules, nr, &params, res);
	if (cli.catch) {
		print_catch(res, nr, &params);
		return 0;
	}
	cmp_fill_mde(res, nr, &params);
	if (*cli.summary)
		write_summary(cli.summary, old.workload, res, nr);
	if (cli.json || cli.tsv) {
		for (i = 0; i < nr; i++)
			if (cli.json)
				print_json(old.workload, &res[i], &params);
			else
				print_tsv(old.workload, &res[i], &params, !i);
	} else {
		cmp_report_table(stdout, argv[first], argv[first + 1], &old, res, nr, &params,
				 &look);
	}
	open = cmp_gate_open(res, nr);
	runset_free(&old);
	runset_free(&new);
	return regressed ? EXIT_REGRESSED : open ? EXIT_OPEN : 0;
}
