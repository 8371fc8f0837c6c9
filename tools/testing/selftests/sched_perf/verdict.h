/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdict layer: bounds from a human-edited file, judged against any
 * metric, reported as KTAP through the kernel's kselftest.h.
 */
#ifndef SCHED_PERF_VERDICT_H
#define SCHED_PERF_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "compiler.h"
#include "metrics.h"

enum bound_op {
	BOUND_AT_MOST,		/* <= */
	BOUND_AT_LEAST,		/* >= */
};

struct bound {
	char workload[32];
	char variant[32];	/* "" applies to every variant without its own */
	char metric[METRIC_NAME_LEN];
	enum bound_op op;
	double limit;
	unsigned int line;
};

#define BOUNDS_MAX 128
struct bounds {
	unsigned int nr;
	struct bound b[BOUNDS_MAX];
};

/*
 * Read a bounds file: "<workload>[@<variant>].<metric> <= | >= <number>",
 * '#' comments.  Returns 0, or -1 with "file:line: why" in @err.
 */
int bounds_load(const char *path, struct bounds *bs, char *err, size_t len);
/*
 * Every bound of @workload must name a metric of @known and one of the
 * NULL-terminated @variants.
 */
int bounds_check_names(const struct bounds *bs, const char *workload,
		       const char *const *variants,
		       const struct metric_set *known, const char *path,
		       char *err, size_t len);
/* How many bounds judge a run of @workload in @variant. */
unsigned int bounds_count(const struct bounds *bs, const char *workload,
			  const char *variant);

/* KTAP output */
void verdict_begin(unsigned int plan);
__printf(1, 2) void verdict_note(const char *fmt, ...);
__printf(3, 4) void verdict_check(bool pass, const char *name,
				  const char *fmt, ...);
void verdict_skip(const char *name, const char *why);
/* One KTAP line per bound that applies; SKIP when a metric is missing. */
void verdict_judge(const struct bounds *bs, const char *workload,
		   const char *variant, const struct metric_set *set,
		   const char *skip_all);
/* Totals, then exit: 0 when every check passed or skipped, 1 otherwise. */
__noreturn void verdict_finish(void);
/* The whole program cannot run here: KTAP skip, exit 4. */
__noreturn void verdict_skip_all(const char *why);

#endif
