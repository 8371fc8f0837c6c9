// SPDX-License-Identifier: GPL-2.0
/*
 * sched_perf_compare's tools on run sets, apart from judging them: --dump
 * (a run set and the bounds that judge it, as tab-separated lines for
 * scripts) and --merge (the runs of several run sets as one).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounds.h"
#include "compare.h"
#include "results.h"
#include "runset.h"
#include "sched_perf_compare.h"
#include "verdict.h"

/* --merge's OUT could not be written whole: nothing of it is left. */
__noreturn static void merge_lost(const char *err)
{
	fflush(stdout);
	fprintf(stderr, "sched_perf_compare: --merge not written: %s\n", err);
	exit(VERDICT_EXIT_LOST);	/* --merge OUT not written */
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
void dump_runset(const char *path, const struct runset *rs,
			const struct bounds *bs)
{
	static struct cmp_rule rules[BOUNDS_MAX];
	static struct file_lines fl;
	struct sample_stats st;
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
	for (i = 0; i < rs->nr_metrics; i++)
		if (!stats_describe(rs->m[i].v, rs->m[i].n, 0.95, &st))
			printf("stats\t%s\t%u\t%.9g\t%.9g\t%.9g\t%.9g\n", rs->m[i].name, st.n,
			       st.median, st.mean, st.stddev, st.cv);
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
void merge_runsets(const char *out, const char *list, char **paths, int n)
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
