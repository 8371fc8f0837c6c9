/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run set: every timed iteration's value of every metric of one run, with
 * what makes two run sets comparable (workload, variant, options, CPUs,
 * kernel config).  It is saved inside the results file (--save, --results)
 * and read back as a baseline (--baseline, sched_perf_compare).
 *
 * In the results file (results.h), besides the summary lines:
 *   meta.runset_version: 2
 *   meta.workload, meta.variant, meta.options, meta.nr_cpus,
 *   meta.kconfig, meta.kernel   (kernel is informative, not compared)
 *   <workload>.runs.<metric>: v1 v2 ... vN      one value per iteration
 *   <workload>.stat.<metric>: n=N median=M mean=A stddev=S cv=C ci95=LO,HI
 *   runset.end: <number of runs.* lines>        last line: not truncated
 */
#ifndef SCHED_PERF_RUNSET_H
#define SCHED_PERF_RUNSET_H

#include <stddef.h>
#include <stdio.h>

#include "metrics.h"
#include "results.h"

#define RUNSET_VERSION	2
#define RUNSET_MAX_RUNS	1000

struct runset_metric {
	char name[METRIC_NAME_LEN];
	unsigned int n;
	double *v;		/* n values, one per timed iteration */
	/*
	 * it[k]: the iteration v[k] was measured in, counted from 0 and
	 * rising.  An iteration where the metric was missing has no value,
	 * so that pairs are formed by iteration, never by position: block k
	 * of an A/B is A's and B's iteration k, whatever was missing before.
	 */
	unsigned int *it;
};

struct runset {
	char workload[32];
	char variant[32];
	char options[512];	/* the workload's own options, as given */
	char kconfig[80];	/* digest of the kernel config, or "unknown" */
	char kernel[128];	/* uname -r: informative, never compared */
	unsigned int nr_cpus;
	unsigned int nr_iter;	/* iterations appended (runset_append) */
	unsigned int nr_metrics;
	struct runset_metric m[METRICS_MAX];
};

/* An empty run set for @workload; the other identity fields are set by the caller. */
void runset_init(struct runset *rs, const char *workload);
/* @from's identity (workload, variant, options, kconfig, kernel, CPUs) into @to. */
void runset_copy_identity(struct runset *to, const struct runset *from);
void runset_free(struct runset *rs);

/*
 * Append one iteration, number nr_iter: every available (not missing)
 * metric of @set gets its value appended, marked with that number; a NaN
 * or infinite value counts as missing.  Returns 0, or -1 when out of
 * memory or a metric already has RUNSET_MAX_RUNS.
 */
int runset_append(struct runset *rs, const struct metric_set *set);

/*
 * One boot's figure of a metric: the mean of its runs.  A boot's figure
 * varies mostly by its iterations' own noise (over 61 boots under
 * -icount, 88 % of hackbench's variance and 76 % of tcp_rr's), which
 * their mean carries with less variance than their median: hackbench's
 * boots spread by 2.4 % instead of 2.8 % (vmab.rst).  Returns 0, or -1
 * when @m has no runs (stats_mean()).
 */
int runset_boot_figure(const struct runset_metric *m, double *out);

/*
 * The run set of @n boots of one kernel (@boots, each a run set of one
 * boot, compatible with each other): run k of a metric is boot k's
 * figure of it (runset_boot_figure()), so that a comparison takes the
 * boot, not the iteration, as its unit.  A metric missing from a boot is
 * left out.  Identity from @boots[0].  Returns 0, or -1 when out of
 * memory.
 */
int runset_of_boots(const struct runset *boots, unsigned int n, struct runset *out);

/*
 * Append @n values to @metric (created when the run set has none), as
 * the iterations that follow its last (a whole run set's runs lines).
 * Returns 0, or -1 when out of memory, the metrics are full or the metric
 * would have more than RUNSET_MAX_RUNS values.
 */
int runset_add(struct runset *rs, const char *metric, const double *v,
	       unsigned int n);

/* The values of @metric, or NULL when the run set has none. */
const struct runset_metric *runset_find(const struct runset *rs,
					const char *metric);

/*
 * Write the meta, runs.*, stat.* and end lines into @r.  A metric that
 * was missing in some iterations is written as a comment only.
 */
void runset_write(const struct runset *rs, struct results *r);

/*
 * Read a run set from a results file.  Returns 0, or -1 with one line in
 * @err ("FILE: why") for an unreadable, truncated, malformed file or
 * another version; @rs is then empty.  Free it with runset_free() either way.
 */
int runset_load(const char *path, struct runset *rs, char *err, size_t len);

/*
 * Two run sets may be compared when workload, variant, options, CPUs and
 * kernel config match.  Returns 0, or -1 with what differs in @err.
 */
int runset_compatible(const struct runset *old, const struct runset *new,
		      char *err, size_t len);

#endif
