// SPDX-License-Identifier: GPL-2.0
/*
 * Run sets: every iteration's value of every metric, written into and read
 * back from the results file (format in runset.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "compiler.h"
#include "fileio.h"
#include "runset.h"
#include "stats.h"

void runset_init(struct runset *rs, const char *workload)
{
	memset(rs, 0, sizeof(*rs));
	snprintf(rs->workload, sizeof(rs->workload), "%s", workload);
	snprintf(rs->kconfig, sizeof(rs->kconfig), "unknown");
}

void runset_free(struct runset *rs)
{
	unsigned int i;

	for (i = 0; i < rs->nr_metrics; i++) {
		free(rs->m[i].v);
		free(rs->m[i].it);
		rs->m[i].v = NULL;
		rs->m[i].it = NULL;
		rs->m[i].n = 0;
	}
	rs->nr_metrics = 0;
	rs->nr_iter = 0;
}

const struct runset_metric *runset_find(const struct runset *rs,
					const char *metric)
{
	unsigned int i;

	for (i = 0; i < rs->nr_metrics; i++)
		if (!strcmp(rs->m[i].name, metric))
			return &rs->m[i];
	return NULL;
}

/* The entry of @name, created empty when there is none; NULL when full. */
static struct runset_metric *runset_slot(struct runset *rs, const char *name)
{
	struct runset_metric *m = (struct runset_metric *)runset_find(rs, name);

	if (m)
		return m;
	if (rs->nr_metrics >= METRICS_MAX || strlen(name) >= sizeof(m->name))
		return NULL;
	m = &rs->m[rs->nr_metrics++];
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", name);
	return m;
}

/* @v, measured in iteration @it, after the values of @m */
static int push(struct runset_metric *m, double v, unsigned int it)
{
	unsigned int *grown_it;
	double *grown;

	if (m->n >= RUNSET_MAX_RUNS)
		return -1;
	grown = realloc(m->v, (m->n + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	m->v = grown;
	grown_it = realloc(m->it, (m->n + 1) * sizeof(*grown_it));
	if (!grown_it)
		return -1;
	m->it = grown_it;
	m->it[m->n] = it;
	m->v[m->n++] = v;
	return 0;
}

int runset_append(struct runset *rs, const struct metric_set *set)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < set->nr; i++) {
		const struct metric *src = &set->m[i];
		struct runset_metric *m;

		/* an infinite or NaN figure is as good as missing */
		if (src->missing || !isfinite(src->value))
			continue;
		m = runset_slot(rs, src->name);
		if (!m || push(m, src->value, rs->nr_iter))
			ret = -1;
	}
	rs->nr_iter++;
	return ret;
}

int runset_add(struct runset *rs, const char *metric, const double *v,
	       unsigned int n)
{
	struct runset_metric *m = runset_slot(rs, metric);
	unsigned int i;

	if (!m)
		return -1;
	for (i = 0; i < n; i++)
		if (push(m, v[i], m->n ? m->it[m->n - 1] + 1 : 0))
			return -1;
	if (m->n && m->it[m->n - 1] >= rs->nr_iter)
		rs->nr_iter = m->it[m->n - 1] + 1;
	return 0;
}

static unsigned int max_runs(const struct runset *rs)
{
	unsigned int i, n = 0;

	for (i = 0; i < rs->nr_metrics; i++)
		if (rs->m[i].n > n)
			n = rs->m[i].n;
	return n;
}

/*
 * A metric missing in some iterations is left out (as a comment): its runs
 * would not line up with the others', and runset_load() rejects ragged
 * run sets.
 */
void runset_write(const struct runset *rs, struct results *r)
{
	unsigned int i, j, n = max_runs(rs), lines = 0;
	struct sample_stats s;
	char key[160], *buf;
	size_t room = (size_t)n * 24 + 160, at;

	results_number(r, "meta.runset_version", RUNSET_VERSION);
	results_text(r, "meta.workload", rs->workload);
	results_text(r, "meta.variant", rs->variant);
	results_text(r, "meta.options", rs->options);
	results_number(r, "meta.nr_cpus", rs->nr_cpus);
	results_text(r, "meta.kconfig", rs->kconfig);
	results_text(r, "meta.kernel", rs->kernel);
	buf = malloc(room);
	for (i = 0; buf && i < rs->nr_metrics; i++) {
		const struct runset_metric *m = &rs->m[i];

		if (m->n != n) {
			snprintf(buf, room, "n/a (measured in %u of %u iterations)", m->n, n);
			snprintf(key, sizeof(key), "# %s.runs.%s", rs->workload, m->name);
			results_text(r, key, buf);
			continue;
		}
		for (j = 0, at = 0; j < m->n; j++)
			at += snprintf(buf + at, room - at, "%s%.9g", j ? " " : "", m->v[j]);
		snprintf(key, sizeof(key), "%s.runs.%s", rs->workload, m->name);
		results_text(r, key, buf);
		lines++;
		if (stats_describe(m->v, m->n, 0.95, &s))
			continue;
		snprintf(buf, room, "n=%u median=%.9g mean=%.9g stddev=%.9g cv=%.9g ci95=%.9g,%.9g",
			 s.n, s.median, s.mean, s.stddev, s.cv, s.ci_lo, s.ci_hi);
		snprintf(key, sizeof(key), "%s.stat.%s", rs->workload, m->name);
		results_text(r, key, buf);
	}
	free(buf);
	results_number(r, "runset.end", lines);
}

/* What runset_load() gathers from the lines before judging the whole. */
struct load_ctx {
	struct runset *rs;
	char why[256];		/* first error of a line, "" when none */
	bool version_seen, end_seen, workload_seen, variant_seen, options_seen,
	     cpus_seen, kconfig_seen;
	char version[32], cpus[32], end[32];
	char prefix[160];	/* the first runs.* prefix other than meta.workload */
	unsigned int runs_lines;
};

__printf(3, 4) static void line_error(struct load_ctx *c, const char *key,
				      const char *fmt, ...)
{
	char what[128];
	va_list ap;

	if (c->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(c->why, sizeof(c->why), "%s: %s", key, what);
}

static void load_runs(struct load_ctx *c, const char *key, const char *runs,
		      const char *value)
{
	char prefix[160], metric[METRIC_NAME_LEN];
	struct runset_metric *m;
	const char *p = value;
	size_t plen = runs - key;
	char *end;
	double v;

	c->runs_lines++;
	/*
	 * A metric named x.runs.y would be saved with a stat line,
	 * <workload>.stat.x.runs.y, that reads back as runs of another
	 * workload: no metric has such a name.
	 */
	if (plen >= sizeof(prefix) || strlen(runs + 6) >= sizeof(metric) ||
	    !runs[6] || strstr(runs + 5, ".runs.")) {
		line_error(c, key, "not <workload>.runs.<metric>");
		return;
	}
	memcpy(prefix, key, plen);
	prefix[plen] = '\0';
	snprintf(metric, sizeof(metric), "%s", runs + 6);
	if (!c->prefix[0])
		snprintf(c->prefix, sizeof(c->prefix), "%s", prefix);
	else if (strcmp(c->prefix, prefix))
		line_error(c, key, "another workload than %s", c->prefix);
	if (runset_find(c->rs, metric)) {
		line_error(c, key, "given twice");
		return;
	}
	m = runset_slot(c->rs, metric);
	if (!m) {
		line_error(c, key, "more than %d metrics", METRICS_MAX);
		return;
	}
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		errno = 0;
		v = strtod(p, &end);
		if (end == p || (*end && *end != ' ') || !isfinite(v)) {
			char word[40];

			snprintf(word, sizeof(word), "%.*s", (int)strcspn(p, " "), p);
			line_error(c, key, "'%s' is not a finite number", word);
			return;
		}
		if (push(m, v, m->n)) {
			if (m->n >= RUNSET_MAX_RUNS)
				line_error(c, key, "more than %d values", RUNSET_MAX_RUNS);
			else
				line_error(c, key, "out of memory");
			return;
		}
		p = end;
	}
	if (!m->n)
		line_error(c, key, "no values");
}

static void copy_seen(char *dst, size_t len, bool *seen, const char *value)
{
	snprintf(dst, len, "%s", value);
	*seen = true;
}

static void load_line(const char *key, const char *value, void *ctx)
{
	struct load_ctx *c = ctx;
	struct runset *rs = c->rs;
	const char *runs = strstr(key, ".runs.");

	/* a repeated meta line (the driver's own and ours): the last one counts */
	if (!strcmp(key, "meta.runset_version"))
		copy_seen(c->version, sizeof(c->version), &c->version_seen, value);
	else if (!strcmp(key, "meta.workload"))
		copy_seen(rs->workload, sizeof(rs->workload), &c->workload_seen, value);
	else if (!strcmp(key, "meta.variant"))
		copy_seen(rs->variant, sizeof(rs->variant), &c->variant_seen, value);
	else if (!strcmp(key, "meta.options"))
		copy_seen(rs->options, sizeof(rs->options), &c->options_seen, value);
	else if (!strcmp(key, "meta.nr_cpus"))
		copy_seen(c->cpus, sizeof(c->cpus), &c->cpus_seen, value);
	else if (!strcmp(key, "meta.kconfig"))
		copy_seen(rs->kconfig, sizeof(rs->kconfig), &c->kconfig_seen, value);
	else if (!strcmp(key, "meta.kernel"))
		snprintf(rs->kernel, sizeof(rs->kernel), "%s", value);
	else if (!strcmp(key, "runset.end"))
		copy_seen(c->end, sizeof(c->end), &c->end_seen, value);
	else if (runs && runs != key)
		load_runs(c, key, runs, value);
}

/* @s as a whole unsigned number, or -1 */
static long long whole_number(const char *s)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end || errno || v > INT32_MAX)
		return -1;
	return v;
}

/* Whether the whole loaded file is a run set this program can judge. */
static void check_loaded(struct load_ctx *c, char *why, size_t len)
{
	struct runset *rs = c->rs;
	long long version = whole_number(c->version), end = whole_number(c->end);
	long long cpus = whole_number(c->cpus);
	const char *missing = NULL;
	unsigned int i;

	if (!c->version_seen) {
		/* the driver writes the run set last: a cut file lacks both */
		snprintf(why, len, "no meta.runset_version%s",
			 c->end_seen ? ": not a run set" :
			 " nor runset.end: truncated, or not a run set");
		return;
	}
	if (version != RUNSET_VERSION) {
		snprintf(why, len, "run set version %s, this program reads %d",
			 c->version, RUNSET_VERSION);
		return;
	}
	if (!c->end_seen) {
		snprintf(why, len, "truncated: no runset.end line");
		return;
	}
	if (c->why[0]) {
		snprintf(why, len, "%s", c->why);
		return;
	}
	if (end != c->runs_lines) {
		snprintf(why, len, "truncated: runset.end says %s runs lines, found %u",
			 c->end, c->runs_lines);
		return;
	}
	if (!rs->nr_metrics) {
		snprintf(why, len, "no runs at all (no <workload>.runs.<metric> line)");
		return;
	}
	if (!c->workload_seen || !rs->workload[0]) {
		snprintf(why, len, "no meta.workload");
		return;
	}
	if (strcmp(c->prefix, rs->workload)) {
		snprintf(why, len, "runs of %s, but meta.workload is %s", c->prefix,
			 rs->workload);
		return;
	}
	for (i = 1; i < rs->nr_metrics; i++) {
		if (rs->m[i].n == rs->m[0].n)
			continue;
		snprintf(why, len, "ragged runs: %s.runs.%s has %u values, %s.runs.%s has %u",
			 rs->workload, rs->m[i].name, rs->m[i].n, rs->workload,
			 rs->m[0].name, rs->m[0].n);
		return;
	}
	if (!c->variant_seen)
		missing = "meta.variant";
	else if (!c->options_seen)
		missing = "meta.options";
	else if (!c->kconfig_seen)
		missing = "meta.kconfig";
	else if (!c->cpus_seen)
		missing = "meta.nr_cpus";
	if (missing) {
		snprintf(why, len, "no %s", missing);
		return;
	}
	if (cpus <= 0) {
		snprintf(why, len, "meta.nr_cpus '%s' is not a CPU count", c->cpus);
		return;
	}
	rs->nr_cpus = cpus;
}

int runset_load(const char *path, struct runset *rs, char *err, size_t len)
{
	struct load_ctx c = { .rs = rs };
	char why[384] = "";

	runset_init(rs, "");
	rs->kconfig[0] = '\0';
	if (results_read(path, load_line, &c, err, len) < 0) {
		runset_free(rs);
		return -1;
	}
	check_loaded(&c, why, sizeof(why));
	if (why[0]) {
		fileio_printable(why);
		snprintf(err, len, "%s: %s", path, why);
		runset_free(rs);
		return -1;
	}
	return 0;
}

int runset_boot_figure(const struct runset_metric *m, double *out)
{
	return stats_mean(m->v, m->n, out);
}

/* Each boot's figure of @name, or false when a boot lacks it */
static bool boot_figures(const struct runset *boots, unsigned int n,
			 const char *name, double *out)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		const struct runset_metric *m = runset_find(&boots[k], name);

		if (!m || runset_boot_figure(m, &out[k]))
			return false;
	}
	return true;
}

void runset_copy_identity(struct runset *to, const struct runset *from)
{
	memcpy(to->workload, from->workload, sizeof(to->workload));
	memcpy(to->variant, from->variant, sizeof(to->variant));
	memcpy(to->options, from->options, sizeof(to->options));
	memcpy(to->kconfig, from->kconfig, sizeof(to->kconfig));
	memcpy(to->kernel, from->kernel, sizeof(to->kernel));
	to->nr_cpus = from->nr_cpus;
}

int runset_of_boots(const struct runset *boots, unsigned int n, struct runset *out)
{
	double *fig = malloc((n ? n : 1) * sizeof(*fig));
	unsigned int i, k;
	int ret = fig ? 0 : -1;

	runset_init(out, n ? boots[0].workload : "");
	if (n)
		runset_copy_identity(out, &boots[0]);
	for (i = 0; !ret && n && i < boots[0].nr_metrics; i++) {
		const char *name = boots[0].m[i].name;
		struct runset_metric *m;

		if (!boot_figures(boots, n, name, fig))
			continue;
		m = runset_slot(out, name);
		for (k = 0; m && k < n && !push(m, fig[k], k); k++)
			;
		if (!m || k < n)
			ret = -1;
	}
	free(fig);
	return ret;
}

int runset_compatible(const struct runset *old, const struct runset *new,
		      char *err, size_t len)
{
	if (strcmp(old->workload, new->workload))
		snprintf(err, len, "another workload: %s vs %s", old->workload, new->workload);
	else if (strcmp(old->variant, new->variant))
		snprintf(err, len, "another variant: %s vs %s", old->variant, new->variant);
	else if (strcmp(old->options, new->options))
		snprintf(err, len, "other options: '%s' vs '%s'", old->options, new->options);
	else if (old->nr_cpus != new->nr_cpus)
		snprintf(err, len, "another nr_cpus: %u vs %u", old->nr_cpus, new->nr_cpus);
	else if (strcmp(old->kconfig, new->kconfig))
		snprintf(err, len, "another kconfig: %s vs %s", old->kconfig, new->kconfig);
	else
		return 0;
	if (len)
		fileio_printable(err);
	return -1;
}
