// SPDX-License-Identifier: GPL-2.0
/*
 * A comparison as the host tools report it.  See cmp_report.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmp_report.h"
#include "compiler.h"
#include "verdict.h"

/* The header's words on alpha: "alpha 0.05 over 1 look", or the look's. */
static void print_alpha(FILE *f, const struct cmp_params *params, const struct cmp_look *look,
			const struct cmp_result *res)
{
	unsigned int i;

	if (!look->n) {
		fprintf(f, "alpha %g over %u look%s", params->alpha,
			params->looks ? params->looks : 1, params->looks > 1 ? "s" : "");
		return;
	}
	fprintf(f, "alpha %g spent over looks: look %u at %u of %u runs a side", params->alpha,
		look->nr_prev + 1, look->n, look->max);
	for (i = 0; i < look->nr_prev; i++)
		fprintf(f, "%s%u", i ? "," : " after ", look->prev[i]);
	fprintf(f, "%s, level %.3g, same %.3g",
		look->last && look->n < look->max ? " (the last)" : "",
		res->level, res->level_same);
}

/* "1.2e+06 ±  3%": the median and the stddev in percent of the mean */
static void side(FILE *f, const struct sample_stats *s)
{
	if (!s->n)
		fprintf(f, "%12s      ", "-");
	else
		fprintf(f, "%12.4g ±%3.0f%%", s->median, s->cv * 100);
}

static void print_row(FILE *f, const char *workload, const struct cmp_result *r)
{
	const char *m = cmp_verdict_name(r->verdict);
	char pct[16];

	side(f, &r->old);
	cmp_percent(r->change, pct, sizeof(pct));
	fprintf(f, "  %9s ", isnan(r->change) ? "-" : pct);
	side(f, &r->new);
	fprintf(f, "  %s.%s%s%s\n", workload, r->metric, *m ? "  " : "", m);
}

/*
 * "# workload.metric: word: why", the word once: an undecided metric's
 * reason starts with it already.
 */
static void print_why(FILE *f, const char *workload, const struct cmp_result *r)
{
	fprintf(f, "# %s.%s: %s: %s\n", workload, r->metric, cmp_verdict_name(r->verdict),
		cmp_reason(r));
}

/*
 * What the primary metric could catch at 90 % power: "# w.m: could catch
 * -4.1% with 9 runs a side, -6.0% with these 3 (mde)".
 */
static void print_mde(FILE *f, const char *workload, const struct cmp_result *r,
		      const struct cmp_look *look)
{
	char max[16], now[16];

	if (isnan(r->mde))
		return;
	cmp_mde_text(r->mde, max, sizeof(max));
	cmp_mde_text(r->mde_now, now, sizeof(now));
	if (look->n && look->n < look->max && !look->last)
		fprintf(f, "# %s.%s: could catch %s with %u runs a side, %s with these %u (mde, 90%% power)\n",
			workload, r->metric, max, look->max, now, look->n);
	else
		fprintf(f, "# %s.%s: could catch %s with these runs (mde, 90%% power)\n",
			workload, r->metric, now);
}

void cmp_report_table(FILE *f, const char *old_name, const char *new_name,
		      const struct runset *old, const struct cmp_result *res,
		      unsigned int nr, const struct cmp_params *params,
		      const struct cmp_look *look)
{
	unsigned int i;

	fprintf(f, "# %s vs %s: %s %s '%s', %u CPUs; %u change thresholds; %s, Bonferroni over the metrics, ",
		old_name, new_name, old->workload, old->variant, old->options, old->nr_cpus, nr,
		params->paired ? "paired: Wilcoxon signed-rank" :
		params->boots ? "boots: Welch's t on the boots' means" : "Mann-Whitney U");
	print_alpha(f, params, look, &res[0]);
	fprintf(f, ", max cv %.2f\n", params->max_cv);
	fprintf(f, "%12s ±%%stddev     %%shift  %12s ±%%stddev  metric\n", "old", "new");
	for (i = 0; i < nr; i++)
		print_row(f, old->workload, &res[i]);
	for (i = 0; i < nr; i++)
		if (res[i].verdict != CMP_SAME)
			print_why(f, old->workload, &res[i]);
	for (i = 0; i < nr; i++)
		if (res[i].primary)
			print_mde(f, old->workload, &res[i], look);
}

int cmp_report_summary(FILE *f, const char *workload, const struct cmp_result *res,
		       unsigned int nr)
{
	unsigned int count[CMP_BETTER + 1] = { 0 };
	unsigned int i, v, listed = 0;

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
	return ferror(f) ? -1 : 0;
}

const char *cmp_add_bounds(char paths[][CMP_BOUNDS_PATH], unsigned int *nr, const char *arg)
{
	if (!*arg)
		return "empty file name";
	if (strlen(arg) >= CMP_BOUNDS_PATH)
		return "file name too long";
	if (*nr == CMP_BOUNDS_FILES)
		return "more than " __stringify(CMP_BOUNDS_FILES) " files";
	snprintf(paths[(*nr)++], CMP_BOUNDS_PATH, "%s", arg);
	return NULL;
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

int cmp_load_bounds(char paths[][CMP_BOUNDS_PATH], unsigned int nr, struct bounds *bs,
		    char *err, size_t len)
{
	unsigned int i;

	if (!nr)
		default_bounds(paths[nr++], sizeof(paths[0]));
	for (i = 0; i < nr; i++)
		if (i ? bounds_override(paths[i], bs, err, len) :
			bounds_load(paths[i], bs, err, len))
			return -1;
	return 0;
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

int cmp_keep_only(struct cmp_rule *rules, unsigned int nr, const char *const *only,
		  unsigned int nr_only, const char *workload, char *err, size_t len)
{
	unsigned int i, j, kept = 0;

	for (j = 0; j < nr_only; j++) {
		for (i = 0; i < nr && !named(rules[i].metric, &only[j], 1, workload); i++)
			;
		if (i == nr) {
			snprintf(err, len, "--metric %s: %s has no change threshold for it",
				 only[j], workload);
			return -1;
		}
	}
	for (i = 0; i < nr; i++)
		if (named(rules[i].metric, only, nr_only, workload))
			rules[kept++] = rules[i];
	return kept;
}
