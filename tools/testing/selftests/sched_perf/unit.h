/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit test files of sched_perf_unit share: one KTAP result per
 * expectation, through the verdict layer.
 */
#ifndef SCHED_PERF_UNIT_H
#define SCHED_PERF_UNIT_H

#include <stdbool.h>

#include "compare.h"
#include "runset.h"
#include "verdict.h"

/* @cond is evaluated once: it may have side effects */
#define EXPECT(cond, name)						\
	do {								\
		bool ok_ = (cond);					\
									\
		verdict_check(ok_, (name), "%s", ok_ ? "" : "(" #cond ") is false"); \
	} while (0)

/*
 * The unit test files, each run by sched_perf_unit; the plan is counted
 * by running them, never kept by hand.  Fixtures are in @unit_fixtures:
 * runset/ for compare.c and runset.c, fair_stats-* for fairstats.c.
 */
extern const char *unit_fixtures;
void unit_stats(void);
void unit_compare(void);
void unit_fairstats(void);
void unit_tracesum(void);
void unit_rows(void);
void unit_opts(void);
void unit_outfile(void);
void unit_verdicts(void);
void unit_shift(void);
void unit_verdicts_bisect(void);

/* One rule (@metric, @change) of @old against @new under @params; the verdict. */
enum cmp_verdict unit_judge(const struct runset *old, const struct runset *new,
			    const char *metric, double change,
			    const struct cmp_params *params, struct cmp_result *r);

/* Fixture @name of the fixture directory, whole; exits when unreadable. */
char *unit_fixture(const char *name);

#endif
