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
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "compiler.h"
#include "fileio.h"
#include "runset.h"
#include "verdict.h"

#define BOUNDS_FILES	4	/* --bounds given again: each over the ones before */
#define ONLY_MAX	16	/* --metric given again */

static const char usage[] =
"Usage: sched_perf_compare [--bounds FILE] [--metric NAME] [--json] [--alpha A]\n"
"                          [--max-cv C] [--summary FILE]\n"
"                          [--paired | --boots]\n"
"                          [--looks N | --look N/M [--prev-look P] [--last]]\n"
"                          OLD NEW\n"
"       sched_perf_compare [--bounds FILE] --dump RUNSET\n"
"       sched_perf_compare --merge OUT [--runs LIST] RUNSET...\n"
"       sched_perf_compare --plan N/M\n"
"Judge the run set in results file NEW against the baseline OLD (both written\n"
"with --results by the same workload, variant, options, CPU count and kernel\n"
"config), metric by metric, against the change thresholds of the bounds file.\n"
"The change is a shift estimate relative to the old median (Hodges-Lehmann\n"
"with the Mann-Whitney test; paired: with the signed-rank test; boots: the\n"
"mean with Welch's t), with its interval at alpha / metrics (Bonferroni).\n"
"regressed / improved: shown beyond the threshold (the interval's bound is\n"
"beyond it); same: shown within +/- the threshold (equivalence test);\n"
"worse / better: shown to move, not shown beyond the threshold; else\n"
"undecided.  A side that trends with the order measured is drifting.\n"
"  --bounds FILE  change thresholds (default: 'bounds' beside this program);\n"
"                 given again (up to 4 files), a later file's lines replace\n"
"                 the earlier ones' of the same metric and direction\n"
"  --metric NAME  judge only this metric of the change thresholds (given\n"
"                 again, up to 16: these), e.g. to bisect on the metric that\n"
"                 regressed; Bonferroni is then over these alone\n"
"  --json         one JSON object per line and metric instead of the table:\n"
"                 the figures, the verdict, which way the metric is worse\n"
"                 (worse_when: falls, rises, moves), whether the move is\n"
"                 shown beyond its threshold (beyond), whether a worse move\n"
"                 is still possible (open: what exits 4), alpha, looks and\n"
"                 this look's level\n"
"  --summary FILE write the comparison's verdict in one line to FILE, for\n"
"                 scripts to pass on: the metrics that regressed with their\n"
"                 change ('regressed: w.m +12.0%%, ...'), else how many got\n"
"                 each verdict ('2 same, 4 undecided'); not written: exit 2\n"
"  --alpha A      family-wise level of regressed / improved, 0 < A < 1\n"
"                 (default 0.05; 0.01 with --boots); same is shown at 0.05\n"
"                 per metric\n"
"  --max-cv C     no verdict when a side's robust CV (1.4826 MAD / median)\n"
"                 is above C, C > 0\n"
"                 (default 0.50)\n"
"  --paired       run k of OLD and of NEW form block k (--ab --save writes\n"
"                 NEW as FILE and OLD as FILE.a): Wilcoxon signed-rank and\n"
"                 equivalence on the per-block differences\n"
"  --boots        OLD and NEW are comma-separated lists of run sets, one per\n"
"                 boot of each kernel (interleaved boots): each boot counts\n"
"                 as one run, its median, judged with Welch's t-test and\n"
"                 Welch's equivalence test (at least 2 boots a side)\n"
"  --looks N      this is one of N looks of a sequential gate: judged at\n"
"                 alpha / N, and same at 0.05 / N (default 1)\n"
"  --look N/M     this is a look of a sequential gate at N runs a side (boots\n"
"                 with --boots) of at most M, 1 <= N <= M <= 1000: alpha and\n"
"                 same's 0.05 are spent over the looks as the in-boot gate\n"
"                 spends them (Lan-DeMets, Pocock type: by a look at N of M,\n"
"                 alpha ln(1 + (e - 1) N / M) in all); this look gets what is\n"
"                 spent by N less what was spent by --prev-look's P\n"
"  --prev-look P  with --look: the look before was at P runs a side,\n"
"                 0 <= P < N (default 0: this is the first look)\n"
"  --last         with --look: this look is the last one (a time budget ran\n"
"                 out): it spends what is left, as a look at N = M does\n"
"  --dump         print RUNSET and the bounds that judge it as tab-separated\n"
"                 lines, for scripts: 'meta KEY VALUE' (every meta.KEY line of\n"
"                 the file), 'runs METRIC V1 V2...' (space-separated),\n"
"                 'value NAME NUMBER' (every <workload>.NAME: NUMBER line),\n"
"                 'change METRIC FRACTION' (a change threshold: -0.05 is\n"
"                 'change >= -5%'), 'bound METRIC OP LIMIT'\n"
"  --merge OUT    write one run set into OUT: the runs of every RUNSET, one\n"
"                 after another (they must be comparable, as OLD and NEW);\n"
"                 a metric that is not in every RUNSET is left out and\n"
"                 printed as 'dropped METRIC'; the meta lines of the first\n"
"                 RUNSET are kept\n"
"  --runs LIST    with --merge: only these runs, in this order: numbers from\n"
"                 1 and ranges N-M, comma-separated (3,1,7-9)\n"
"  --plan N/M     print the run counts a sequential gate looks at, from N\n"
"                 runs a side to at most M, space-separated (3/9: 3 5 8 9)\n"
"  --help         this text\n"
"Exit status: 0 no metric may be worse than its threshold (--dump, --merge,\n"
"--plan: done), 1 a metric regressed, 2 bad input, or --merge's OUT could not be\n"
"written (full filesystem, I/O error): nothing written, one line on stderr;\n"
"4 a metric not shown within its threshold the bad way (undecided, worse,\n"
"noisy, too few runs, drifting; a missing metric does not count).\n";

__printf(1, 2) __noreturn static void bad_input(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("sched_perf_compare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_BAD_INPUT);
}

/* --merge's OUT could not be written whole: nothing of it is left. */
__noreturn static void merge_lost(const char *err)
{
	fflush(stdout);
	fprintf(stderr, "sched_perf_compare: --merge not written: %s\n", err);
	exit(VERDICT_EXIT_LOST);	/* --merge OUT not written */
}

/* A sequential gate's look (--look, --prev-look, --last); n 0: none. */
struct look {
	unsigned int n, max, prev;
	bool last;
};

static double parse_number(const char *opt, const char *arg, double lo, double hi)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !isfinite(v) || v <= lo || (hi > lo && v >= hi)) {
		if (hi > lo)
			bad_input("%s '%s' is not a number between %g and %g", opt, arg, lo, hi);
		bad_input("%s '%s' is not a number above %g", opt, arg, lo);
	}
	return v;
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

/* --look N/M (or --plan's): 1 <= N <= M <= 1000 */
static void parse_look(const char *opt, const char *arg, struct look *look)
{
	const char *slash = strchr(arg, '/');
	long n = -1, max = -1;
	char part[16];

	if (slash && slash > arg && (size_t)(slash - arg) < sizeof(part)) {
		snprintf(part, sizeof(part), "%.*s", (int)(slash - arg), arg);
		max = whole(slash + 1, 1, 1000);
		n = max < 0 ? -1 : whole(part, 1, max);
	}
	if (n < 0)
		bad_input("%s '%s' is not N/M, whole numbers 1 <= N <= M <= 1000", opt, arg);
	look->n = n;
	look->max = max;
}

/*
 * This look's levels, DIFFERENT's and SAME's: what the spending function
 * allows by N of M, less what it allowed by the look before (P of M).
 */
static void spend_look(const struct look *look, struct cmp_params *params)
{
	struct cmp_params before = *params;
	double t_prev = (double)look->prev / look->max;

	/* the looks before: all they could spend by P of M */
	cmp_spend_look(&before, t_prev, false, 0, 0);
	cmp_spend_look(params, (double)look->n / look->max, look->last, before.level,
		       before.level_same);
}

/* The header's words on alpha: "alpha 0.05 over 1 look", or the look's. */
static void print_alpha(const struct cmp_params *params, const struct look *look)
{
	if (!look->n) {
		printf("alpha %g over %u look%s", params->alpha,
		       params->looks ? params->looks : 1, params->looks > 1 ? "s" : "");
		return;
	}
	printf("alpha %g spent over looks: look at %u of %u runs a side", params->alpha,
	       look->n, look->max);
	if (look->prev)
		printf(" after %u", look->prev);
	printf("%s, level %.3g, same %.3g", look->last && look->n < look->max ? " (the last)" : "",
	       params->level, params->level_same);
}

/* 'bounds' in the directory of this program */
static void default_bounds(char *path, size_t len)
{
	char exe[4000];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0) {
		snprintf(path, len, "bounds");
		return;
	}
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		slash[1] = '\0';
	snprintf(path, len, "%sbounds", slash ? exe : "");
}

/*
 * A JSON number; an infinity as +/-1e999 (valid JSON: Python reads it as
 * inf, jq as the largest double; the sign kept), NaN as null.
 */
static void json_number(const char *key, double v)
{
	if (isfinite(v))
		printf(",\"%s\":%.9g", key, v);
	else if (isinf(v))
		printf(",\"%s\":%s1e999", key, v < 0 ? "-" : "");
	else
		printf(",\"%s\":null", key);
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
static void print_plan(const struct look *plan)
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

static void print_json(const char *workload, const struct cmp_result *r,
		       const struct cmp_params *params)
{
	unsigned int looks = params->looks > 1 ? params->looks : 1;
	bool beyond = r->verdict == CMP_REGRESSED || r->verdict == CMP_IMPROVED;
	char name[128];
	bool o = r->old.n, n = r->new.n;

	snprintf(name, sizeof(name), "%.31s.%.63s", workload, r->metric);
	printf("{\"metric\":");
	json_string(name);
	json_number("old_median", o ? r->old.median : NAN);
	json_number("old_stddev", o ? r->old.stddev : NAN);
	printf(",\"old_n\":%u", r->old.n);
	json_number("new_median", n ? r->new.median : NAN);
	json_number("new_stddev", n ? r->new.stddev : NAN);
	printf(",\"new_n\":%u", r->new.n);
	json_number("change", r->change);
	json_number("ci_lo", r->ci_lo);
	json_number("ci_hi", r->ci_hi);
	json_number("p", r->p);
	json_number("p_adj", r->p_adj);
	json_number("p_beyond", r->p_beyond);
	json_number("p_same", r->p_same);
	json_number("p_ni", r->p_ni);
	json_number("threshold", r->threshold);
	json_number("cv_block", r->cv_block);
	printf(",\"worse_when\":\"%s\"", worse_when(r->threshold));
	printf(",\"beyond\":%s", beyond ? "true" : "false");
	printf(",\"open\":%s", cmp_bad_side_open(r) ? "true" : "false");
	json_number("alpha", params->alpha);
	printf(",\"looks\":%u", looks);
	json_number("level", r->level);
	printf(",\"verdict\":\"%s\"}\n", cmp_verdict_name(r->verdict));
}

/*
 * The meta lines and the summary figures of a results file, for --dump
 * and --merge: the last value of each key, in the order first seen.
 */
struct file_line {
	char *key;		/* without "meta." or "<workload>." */
	char *value;
	bool meta;
};

#define FILE_LINES_MAX 8192
struct file_lines {
	const char *workload;
	unsigned int nr;
	struct file_line l[FILE_LINES_MAX];
	const char *why;	/* the first reason the lines are not all here */
};

/* A whole, finite number, as a summary figure is written. */
static bool is_number(const char *s)
{
	char *end;
	double v;

	if (!*s || *s == ' ')
		return false;
	v = strtod(s, &end);
	return !*end && isfinite(v);
}

static void collect_line(const char *key, const char *value, void *ctx)
{
	struct file_lines *fl = ctx;
	size_t wl = strlen(fl->workload);
	bool meta = !strncmp(key, "meta.", 5);
	struct file_line *l;
	unsigned int i;
	char *v;

	if (!meta && (strncmp(key, fl->workload, wl) || key[wl] != '.' ||
		      strstr(key, ".runs.") || !is_number(value)))
		return;
	key += meta ? 5 : wl + 1;
	if (!*key || fl->why)
		return;
	for (i = 0; i < fl->nr; i++)
		if (fl->l[i].meta == meta && !strcmp(fl->l[i].key, key))
			break;
	if (i == FILE_LINES_MAX) {
		fl->why = "more than 8192 meta lines and summary figures";
		return;
	}
	l = &fl->l[i];
	v = strdup(value);
	if (v && i == fl->nr) {
		l->key = strdup(key);
		if (!l->key) {
			free(v);
			v = NULL;
		}
	}
	if (!v) {
		fl->why = "out of memory";
		return;
	}
	if (i == fl->nr) {
		l->meta = meta;
		fl->nr++;
	} else {
		free(l->value);
	}
	l->value = v;
}

/* @path's lines, that runset_load() found to be a run set of @workload */
static void read_lines(const char *path, const char *workload, struct file_lines *fl)
{
	char err[1024];

	fl->workload = workload;
	fl->nr = 0;
	fl->why = NULL;
	if (results_read(path, collect_line, fl, err, sizeof(err)) < 0)
		bad_input("%s", err);
	if (fl->why)
		bad_input("%s: %s", path, fl->why);
}

static void free_lines(struct file_lines *fl)
{
	unsigned int i;

	for (i = 0; i < fl->nr; i++) {
		free(fl->l[i].key);
		free(fl->l[i].value);
	}
	fl->nr = 0;
}

/* A field of --dump: a control character (a tab would end it) as '?'. */
static void put_field(const char *s)
{
	for (; *s; s++)
		putchar((unsigned char)*s < ' ' || *s == 0x7f ? '?' : *s);
}

static void dump_line(const char *kind, const char *key, const char *value)
{
	printf("%s\t", kind);
	put_field(key);
	putchar('\t');
	put_field(value);
	putchar('\n');
}

/*
 * --dump: the run set and the bounds that judge it, so that scripts read
 * run sets and bounds through this program and never parse them.
 */
static void dump_runset(const char *path, const struct runset *rs,
			const struct bounds *bs)
{
	static struct cmp_rule rules[BOUNDS_MAX];
	static struct file_lines fl;
	unsigned int i, k, nr;

	read_lines(path, rs->workload, &fl);
	for (i = 0; i < fl.nr; i++)
		if (fl.l[i].meta)
			dump_line("meta", fl.l[i].key, fl.l[i].value);
	for (i = 0; i < rs->nr_metrics; i++) {
		printf("runs\t%s\t", rs->m[i].name);
		for (k = 0; k < rs->m[i].n; k++)
			printf("%s%.9g", k ? " " : "", rs->m[i].v[k]);
		putchar('\n');
	}
	for (i = 0; i < fl.nr; i++)
		if (!fl.l[i].meta)
			dump_line("value", fl.l[i].key, fl.l[i].value);
	nr = bounds_changes(bs, rs->workload, rs->variant, rules, BOUNDS_MAX);
	for (i = 0; i < nr; i++)
		printf("change\t%s\t%.9g\n", rules[i].metric, rules[i].change);
	for (i = 0; i < bs->nr; i++) {
		const struct bound *b = &bs->b[i];

		if (b->kind == BOUND_ABSOLUTE && bound_applies(bs, b, rs->workload, rs->variant))
			printf("bound\t%s\t%s\t%.9g\n", b->metric, bound_op_text[b->op], b->limit);
	}
	free_lines(&fl);
}

/*
 * --runs LIST: "3,1,7-9", numbers from 1 to @total, each at most once,
 * into @idx (from 0) in the order given.  Returns how many.
 */
static unsigned int parse_runs(const char *list, unsigned int total, unsigned int *idx)
{
	static bool seen[RUNSET_MAX_RUNS];
	const char *p = list;
	unsigned int nr = 0;

	if (!*list)
		bad_input("--runs: an empty list");
	for (;;) {
		unsigned long lo, hi, r;
		const char *item = p;
		char *end;

		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				goto bad;
			hi = strtoul(p, &end, 10);
		}
		if (errno || (*end && *end != ',') || !lo || hi < lo)
			goto bad;
		for (r = lo; r <= hi; r++) {
			if (r > total)
				bad_input("--runs: run %lu, but the run set has %u run%s", r,
					  total, total == 1 ? "" : "s");
			if (seen[r - 1])
				bad_input("--runs: run %lu given twice", r);
			seen[r - 1] = true;
			idx[nr++] = r - 1;
		}
		if (!*end)
			return nr;
		p = end + 1;
		continue;
bad:
		bad_input("--runs: '%.*s' is not a run number N nor a range N-M (from 1)",
			  (int)strcspn(item, ","), item);
	}
}

/* OUT a file we may write: not a directory, in a directory we can write */
static void check_output(const char *out)
{
	char dir[4096], *slash;
	struct stat st;

	if (!*out)
		bad_input("--merge: empty file name");
	if (strlen(out) >= sizeof(dir) - 32)
		bad_input("--merge: file name too long");
	if (!stat(out, &st) && S_ISDIR(st.st_mode))
		bad_input("--merge %s: is a directory", out);
	snprintf(dir, sizeof(dir), "%s", out);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	if (access(dir, W_OK | X_OK))
		bad_input("--merge %s: cannot write into %s: %s", out, dir, strerror(errno));
}

/* @name's index in @names (an array of @n), or @n */
static unsigned int name_index(char (*names)[METRIC_NAME_LEN], unsigned int n,
			       const char *name)
{
	unsigned int i;

	for (i = 0; i < n && strcmp(names[i], name); i++)
		;
	return i;
}

#define MAX_MERGE 64

/* @dst: an empty run set with the identity of @src */
static void identity(struct runset *dst, const struct runset *src)
{
	runset_init(dst, src->workload);
	memcpy(dst->variant, src->variant, sizeof(dst->variant));
	memcpy(dst->options, src->options, sizeof(dst->options));
	memcpy(dst->kconfig, src->kconfig, sizeof(dst->kconfig));
	memcpy(dst->kernel, src->kernel, sizeof(dst->kernel));
	dst->nr_cpus = src->nr_cpus;
}

/*
 * --merge OUT [--runs LIST] RUNSET...: one run set of the runs of every
 * RUNSET (or the chosen ones), written as a program's --save writes it;
 * the metrics left out named on stdout.
 */
static void merge_runsets(const char *out, const char *list, char **paths, int n)
{
	static char dropped[METRICS_MAX * 4][METRIC_NAME_LEN];
	static struct runset sets[MAX_MERGE], all, picked;
	static unsigned int idx[RUNSET_MAX_RUNS];
	static double v[RUNSET_MAX_RUNS];
	static struct file_lines fl;
	unsigned int i, j, k, total, nr, nr_dropped = 0;
	const struct runset *rs = &all;
	char err[4096 + 256], key[160];
	struct results *r;

	check_output(out);
	if (n < 1)
		bad_input("--merge: no run set to read (see --help)");
	if (n > MAX_MERGE)
		bad_input("--merge: more than %d run sets", MAX_MERGE);
	for (k = 0; k < (unsigned int)n; k++) {
		if (runset_load(paths[k], &sets[k], err, sizeof(err)))
			bad_input("%s", err);
		if (k && runset_compatible(&sets[0], &sets[k], err, sizeof(err)))
			bad_input("--merge: cannot merge %s with %s: %s", paths[k], paths[0], err);
	}
	identity(&all, &sets[0]);
	for (k = 0; k < (unsigned int)n; k++) {
		for (i = 0; i < sets[k].nr_metrics; i++) {
			const char *name = sets[k].m[i].name;

			for (j = 0; j < (unsigned int)n && runset_find(&sets[j], name); j++)
				;
			if (j < (unsigned int)n) {
				if (name_index(dropped, nr_dropped, name) == nr_dropped &&
				    nr_dropped < ARRAY_SIZE(dropped))
					snprintf(dropped[nr_dropped++], METRIC_NAME_LEN, "%s", name);
				continue;
			}
			if (runset_add(&all, name, sets[k].m[i].v, sets[k].m[i].n))
				bad_input("--merge: more than %d runs of %s", RUNSET_MAX_RUNS, name);
		}
	}
	if (!all.nr_metrics)
		bad_input("--merge: no metric is in every run set");
	total = all.m[0].n;
	if (list) {
		nr = parse_runs(list, total, idx);
		identity(&picked, &all);
		for (i = 0; i < all.nr_metrics; i++) {
			for (j = 0; j < nr; j++)
				v[j] = all.m[i].v[idx[j]];
			if (runset_add(&picked, all.m[i].name, v, nr))
				bad_input("out of memory");
		}
		rs = &picked;
	}
	read_lines(paths[0], sets[0].workload, &fl);
	r = results_open(out, err, sizeof(err));
	if (!r)
		merge_lost(err);
	for (i = 0; i < fl.nr; i++) {
		if (!fl.l[i].meta)
			continue;
		snprintf(key, sizeof(key), "meta.%s", fl.l[i].key);
		results_text(r, key, fl.l[i].value);
	}
	runset_write(rs, r);
	if (results_commit(r, err, sizeof(err)))
		merge_lost(err);
	for (i = 0; i < nr_dropped; i++)
		printf("dropped\t%s\n", dropped[i]);
	free_lines(&fl);
	for (k = 0; k < (unsigned int)n; k++)
		runset_free(&sets[k]);
	runset_free(&all);
	runset_free(&picked);
}

#define MAX_BOOTS 64

/*
 * --boots: @list, FILE[,FILE...], one run set per boot of one kernel, all
 * compatible, into one run set of their medians (runset_of_boot_medians).
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
	if (runset_of_boot_medians(boots, n, out))
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

static const char *mark(enum cmp_verdict v)
{
	switch (v) {
	case CMP_REGRESSED:
		return "REGRESSION";
	case CMP_IMPROVED:
		return "improved";
	case CMP_NOISY:
		return "noisy";
	case CMP_TOO_FEW:
		return "too-few-runs";
	case CMP_MISSING:
		return "missing";
	case CMP_SAME:
		return "same";
	case CMP_UNDECIDED:
		return "undecided";
	case CMP_DRIFTING:
		return "drifting";
	case CMP_WORSE:
		return "worse";
	case CMP_BETTER:
		return "better";
	default:
		return "";
	}
}

/* "1.2e+06 ±  3%": the median and the stddev in percent of the mean */
static void side(const struct sample_stats *s)
{
	if (!s->n)
		printf("%12s      ", "-");
	else
		printf("%12.4g ±%3.0f%%", s->median, s->cv * 100);
}

static void print_row(const char *workload, const struct cmp_result *r)
{
	const char *m = mark(r->verdict);

	side(&r->old);
	if (isnan(r->change))
		printf("  %9s ", "-");
	else
		printf("  %+8.1f%% ", r->change * 100);
	side(&r->new);
	printf("  %s.%s%s%s\n", workload, r->metric, *m ? "  " : "", m);
}

/*
 * "# workload.metric: word: why", the word once: an undecided metric's
 * reason starts with it already.
 */
static void print_why(const char *workload, const struct cmp_result *r)
{
	const char *word = cmp_verdict_name(r->verdict);
	size_t len = strlen(word);

	if (!strncmp(r->why, word, len) && r->why[len] == ':')
		printf("# %s.%s: %s\n", workload, r->metric, r->why);
	else
		printf("# %s.%s: %s: %s\n", workload, r->metric, word, r->why);
}

/*
 * --summary: one line a script passes on as it is, so that no script
 * reads the table: the regressed metrics, else the count of each verdict.
 */
static void write_summary(const char *path, const char *workload,
			  const struct cmp_result *res, unsigned int nr)
{
	unsigned int count[CMP_BETTER + 1] = { 0 };
	unsigned int i, v, listed = 0;
	FILE *f = fopen(path, "w");

	if (!f)
		bad_input("--summary %s: %s", path, strerror(errno));
	for (i = 0; i < nr; i++) {
		count[res[i].verdict]++;
		if (res[i].verdict == CMP_REGRESSED)
			fprintf(f, "%s%s.%s %+.1f%%", listed++ ? ", " : "regressed: ",
				workload, res[i].metric, res[i].change * 100);
	}
	for (v = 0; !count[CMP_REGRESSED] && v <= CMP_BETTER; v++)
		if (count[v])
			fprintf(f, "%s%u %s", listed++ ? ", " : "", count[v],
				cmp_verdict_name(v));
	fputc('\n', f);
	if (fclose(f))
		bad_input("--summary %s: %s", path, strerror(errno));
}

/* @name without the workload's prefix, which --metric may give */
static const char *bare_name(const char *name, const char *workload)
{
	size_t wl = strlen(workload);

	return !strncmp(name, workload, wl) && name[wl] == '.' ? name + wl + 1 : name;
}

static bool named(const char *metric, const char *const *only, unsigned int nr_only,
		  const char *workload)
{
	unsigned int j;

	for (j = 0; j < nr_only; j++)
		if (!strcmp(metric, bare_name(only[j], workload)))
			return true;
	return false;
}

/*
 * --metric: keep the rules of the metrics named, in the bounds' order; a
 * name that has no change threshold is bad input, as a typo would judge
 * nothing.
 */
static unsigned int keep_only(struct cmp_rule *rules, unsigned int nr,
			      const char *const *only, unsigned int nr_only,
			      const char *workload)
{
	unsigned int i, j, kept = 0;

	for (j = 0; j < nr_only; j++) {
		for (i = 0; i < nr && !named(rules[i].metric, &only[j], 1, workload); i++)
			;
		if (i == nr)
			bad_input("--metric %s: %s has no change threshold for it", only[j],
				  workload);
	}
	for (i = 0; i < nr; i++)
		if (named(rules[i].metric, only, nr_only, workload))
			rules[kept++] = rules[i];
	return kept;
}

/*
 * The bounds files of --bounds, in order (none given: 'bounds' beside
 * this program): the first read, each later one over it.
 */
static void load_bounds(char (*paths)[4096], unsigned int nr, struct bounds *bs)
{
	char err[1024];
	unsigned int i;

	if (!nr)
		default_bounds(paths[nr++], sizeof(paths[0]));
	for (i = 0; i < nr; i++)
		if (i ? bounds_override(paths[i], bs, err, sizeof(err)) :
			bounds_load(paths[i], bs, err, sizeof(err)))
			bad_input("%s", err);
}

int main(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "bounds", required_argument, NULL, 'b' },
		{ "metric", required_argument, NULL, 'M' },
		{ "json", no_argument, NULL, 'j' },
		{ "summary", required_argument, NULL, 's' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "max-cv", required_argument, NULL, 'c' },
		{ "paired", no_argument, NULL, 'p' },
		{ "boots", no_argument, NULL, 'B' },
		{ "looks", required_argument, NULL, 'l' },
		{ "look", required_argument, NULL, 'L' },
		{ "prev-look", required_argument, NULL, 'P' },
		{ "last", no_argument, NULL, 'e' },
		{ "dump", no_argument, NULL, 'd' },
		{ "merge", required_argument, NULL, 'm' },
		{ "runs", required_argument, NULL, 'r' },
		{ "plan", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmp_params params = { .max_cv = CMP_MAX_CV };	/* alpha 0: the default */
	static struct cmp_result res[BOUNDS_MAX];
	static struct cmp_rule rules[BOUNDS_MAX];
	static struct runset old, new;
	static struct bounds bs;
	static char bounds[BOUNDS_FILES][4096];
	unsigned int nr_bounds = 0, nr_only = 0;
	const char *only[ONLY_MAX];
	char err[1024];
	unsigned int nr, i, regressed, open = 0;
	const char *merge = NULL, *runs = NULL, *prev = NULL, *summary = NULL;
	struct look look = { 0 }, plan = { 0 };
	bool json = false, dump = false;
	int opt;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'b':
			/* "" would quietly mean the default file */
			if (!*optarg || strlen(optarg) >= sizeof(bounds[0]))
				bad_input("--bounds: %s", *optarg ? "file name too long" :
					  "empty file name");
			if (nr_bounds == BOUNDS_FILES)
				bad_input("--bounds: more than %d files", BOUNDS_FILES);
			snprintf(bounds[nr_bounds++], sizeof(bounds[0]), "%s", optarg);
			break;
		case 'M':
			if (nr_only == ONLY_MAX)
				bad_input("--metric: more than %d metrics", ONLY_MAX);
			only[nr_only++] = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 's':
			summary = optarg;
			break;
		case 'a':
			params.alpha = parse_number("--alpha", optarg, 0, 1);
			break;
		case 'c':
			params.max_cv = parse_number("--max-cv", optarg, 0, 0);
			break;
		case 'p':
			params.paired = true;
			break;
		case 'B':
			params.boots = true;
			break;
		case 'l':
			params.looks = parse_number("--looks", optarg, 0, 1001);
			if (params.looks != strtod(optarg, NULL))
				bad_input("--looks '%s' is not a whole number", optarg);
			break;
		case 'L':
			parse_look("--look", optarg, &look);
			break;
		case 'P':
			prev = optarg;
			break;
		case 'e':
			look.last = true;
			break;
		case 'd':
			dump = true;
			break;
		case 'm':
			merge = optarg;
			break;
		case 'r':
			runs = optarg;
			break;
		case 'n':
			parse_look("--plan", optarg, &plan);
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		case ':':
			bad_input("option '%s' needs a value (see --help)", argv[optind - 1]);
		default:
			if (optopt && argv[optind - 1][1] != '-')
				bad_input("unknown option '-%c' (see --help)", optopt);
			bad_input("unknown option '%s' (see --help)", argv[optind - 1]);
		}
	}
	if (dump && merge)
		bad_input("--dump and --merge: give one");
	if (plan.n) {
		if (argc > optind || dump || merge)
			bad_input("--plan takes no run set and no other mode (see --help)");
		print_plan(&plan);
		return 0;
	}
	if ((prev || look.last) && !look.n)
		bad_input("--prev-look and --last go with --look (see --help)");
	if (look.n && params.looks)
		bad_input("--looks and --look: give one");
	if (prev) {
		long p = whole(prev, 0, look.n - 1);

		if (p < 0)
			bad_input("--prev-look '%s' is not a whole number below --look's N, %u",
				  prev, look.n);
		look.prev = p;
	}
	if (runs && !merge)
		bad_input("--runs goes with --merge (see --help)");
	if (summary && (merge || dump))
		bad_input("--summary goes with a comparison of OLD and NEW (see --help)");
	if (merge) {
		merge_runsets(merge, runs, argv + optind, argc - optind);
		return 0;
	}
	if (dump) {
		if (argc - optind != 1)
			bad_input("--dump: expected one run set, got %d operands (see --help)",
				  argc - optind);
		if (runset_load(argv[optind], &old, err, sizeof(err)))
			bad_input("%s", err);
		load_bounds(bounds, nr_bounds, &bs);
		dump_runset(argv[optind], &old, &bs);
		return 0;
	}
	if (argc - optind != 2)
		bad_input("expected two run sets, OLD and NEW, got %d operand%s (see --help)",
			  argc - optind, argc - optind == 1 ? "" : "s");
	if (params.paired && params.boots)
		bad_input("--paired and --boots: give one");
	if (!params.alpha)
		params.alpha = cmp_default_alpha(params.boots);
	if (look.n)
		spend_look(&look, &params);
	if (params.boots) {
		load_boots(argv[optind], &old);
		load_boots(argv[optind + 1], &new);
	} else if (runset_load(argv[optind], &old, err, sizeof(err)) ||
		   runset_load(argv[optind + 1], &new, err, sizeof(err))) {
		bad_input("%s", err);
	}
	if (runset_compatible(&old, &new, err, sizeof(err)))
		bad_input("cannot compare %s with %s: %s", argv[optind], argv[optind + 1], err);
	if (params.paired && !runsets_paired(&old, &new))
		bad_input("--paired: %s and %s do not have as many runs of every metric",
			  argv[optind], argv[optind + 1]);
	load_bounds(bounds, nr_bounds, &bs);
	nr = bounds_changes(&bs, old.workload, old.variant, rules, BOUNDS_MAX);
	if (!nr)
		bad_input("%s: no change thresholds for %s (variant %s)", bounds[0],
			  old.workload, old.variant);
	if (nr_only)
		nr = keep_only(rules, nr, only, nr_only, old.workload);

	regressed = compare_runsets(&old, &new, rules, nr, &params, res);
	if (summary)
		write_summary(summary, old.workload, res, nr);
	if (json) {
		for (i = 0; i < nr; i++)
			print_json(old.workload, &res[i], &params);
	} else {
		printf("# %s vs %s: %s %s '%s', %u CPUs; %u change thresholds; %s, Bonferroni over the metrics, ",
		       argv[optind], argv[optind + 1], old.workload, old.variant,
		       old.options, old.nr_cpus, nr,
		       params.paired ? "paired: Wilcoxon signed-rank" :
		       params.boots ? "boots: Welch's t on the boots' medians" : "Mann-Whitney U");
		print_alpha(&params, &look);
		printf(", max cv %.2f\n", params.max_cv);
		printf("%12s ±%%stddev    %%change  %12s ±%%stddev  metric\n", "old", "new");
		for (i = 0; i < nr; i++)
			print_row(old.workload, &res[i]);
		for (i = 0; i < nr; i++)
			if (res[i].verdict != CMP_SAME)
				print_why(old.workload, &res[i]);
	}
	for (i = 0; i < nr; i++)
		open += cmp_bad_side_open(&res[i]);
	runset_free(&old);
	runset_free(&new);
	return regressed ? EXIT_REGRESSED : open ? EXIT_OPEN : 0;
}
