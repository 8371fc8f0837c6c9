/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bounds file: what a workload's metrics must stay within, and how
 * far a comparison lets them move.  Parsing only: the verdict layer
 * judges and reports.
 */
#ifndef SCHED_PERF_BOUNDS_H
#define SCHED_PERF_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "metrics.h"

enum bound_op {
	BOUND_AT_MOST,		/* <= */
	BOUND_AT_LEAST,		/* >= */
};

enum bound_kind {
	BOUND_ABSOLUTE,		/* the metric itself: "<= 50" */
	BOUND_CHANGE,		/* against a baseline: "change >= -5%" */
};

struct bound {
	enum bound_kind kind;
	char workload[32];
	char variant[32];	/* "" applies to every variant without its own */
	char metric[METRIC_NAME_LEN];
	enum bound_op op;
	double limit;		/* a fraction for BOUND_CHANGE: -0.05 */
	double alarm;		/* BOUND_CHANGE: its alarm line, or 0 (compare.h) */
	unsigned int line;
};

#define BOUNDS_MAX 128
struct bounds {
	unsigned int nr;
	struct bound b[BOUNDS_MAX];
};

/*
 * Read a bounds file, '#' comments, lines of two kinds:
 *   <workload>[@<variant>].<metric> <= | >= <number>
 *   <workload>[@<variant>].<metric> change >= -<N>% | change <= +<N>% [alarm <A>%]
 * The second is a rule of the gate: the regression to catch, N (falling
 * for ">=", rising for "<="), and where the gate fails: a change shown
 * beyond the alarm line A, by default N / 2 (compare.h).  The workload's
 * throughput (<ops>_per_sec) is the primary metric of its rules.  Returns 0, or -1 with
 * "file:line: why" in @err.
 */
int bounds_load(const char *path, struct bounds *bs, char *err, size_t len);

/*
 * Read a second bounds file over @bs: each of its lines replaces the line
 * of @bs with the same workload, variant, metric, kind and direction, or
 * is added.  For thresholds of another setting (bounds.icount: kernels
 * compared under deterministic guest time) that keep the rest of the
 * first file.  Returns 0, or -1 with "file:line: why" in @err and @bs
 * unchanged.
 */
int bounds_override(const char *path, struct bounds *bs, char *err, size_t len);
/*
 * Every bound of @workload must name a metric of @known and one of the
 * NULL-terminated @variants.
 */
int bounds_check_names(const struct bounds *bs, const char *workload,
		       const char *const *variants,
		       const struct metric_set *known, const char *path,
		       char *err, size_t len);
/* How many absolute bounds judge a run of @workload in @variant. */
unsigned int bounds_count(const struct bounds *bs, const char *workload,
			  const char *variant);

/*
 * The change thresholds for @workload in @variant, as comparison rules
 * (a variant's own threshold replaces the generic one).  Returns how many.
 */
unsigned int bounds_changes(const struct bounds *bs, const char *workload,
			    const char *variant, struct cmp_rule *rules,
			    unsigned int max);

/*
 * Does @b judge @workload in @variant?  A variant's own bound replaces the
 * generic one for the same metric and direction; the generic one judges
 * every other variant.
 */
bool bound_applies(const struct bounds *bs, const struct bound *b,
		   const char *workload, const char *variant);

/* "<=" or ">=" */
extern const char *const bound_op_text[];

#endif
