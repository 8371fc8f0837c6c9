/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A comparison as the host tools report it (sched_perf_compare, and
 * sched_perf_vmab's looks over boots): the table, the one-line summary a
 * script passes on, and the rules judged (the bounds files in order,
 * --metric's choice).
 */
#ifndef SCHED_PERF_CMP_REPORT_H
#define SCHED_PERF_CMP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bounds.h"
#include "compare.h"
#include "runset.h"

/* A sequential gate's look: n 0 is none (a fixed design). */
struct cmp_look {
	unsigned int n, max;
	unsigned int prev[CMP_MAX_LOOKS];	/* the looks before, ascending */
	unsigned int nr_prev;
	bool last;
};

/*
 * The table: a header naming @old_name and @new_name and how they were
 * judged, a row per metric, why for each not "same", the primary's mde.
 */
void cmp_report_table(FILE *f, const char *old_name, const char *new_name,
		      const struct runset *old, const struct cmp_result *res,
		      unsigned int nr, const struct cmp_params *params,
		      const struct cmp_look *look);

/*
 * One line: the regressed metrics, else the count of each verdict
 * ("2 same, 4 undecided").  0, or -1 with errno.
 */
int cmp_report_summary(FILE *f, const char *workload, const struct cmp_result *res,
		       unsigned int nr);

/* --bounds given again: each file over the ones before; a path's room */
#define CMP_BOUNDS_FILES	4
#define CMP_BOUNDS_PATH		4096

/*
 * --bounds @arg after the *@nr files of @paths (CMP_BOUNDS_FILES of
 * CMP_BOUNDS_PATH bytes); NULL, or why not ("empty file name": "" would quietly
 * mean the default file).
 */
const char *cmp_add_bounds(char paths[][CMP_BOUNDS_PATH], unsigned int *nr, const char *arg);

/*
 * The @nr bounds files of @paths in order, each over the ones before
 * (none: 'bounds' beside this program, put in @paths[0]).  0, or -1
 * with @err.
 */
int cmp_load_bounds(char paths[][CMP_BOUNDS_PATH], unsigned int nr, struct bounds *bs,
		    char *err, size_t len);

/*
 * Keep the rules of the metrics in @only (NAME or WORKLOAD.NAME), in the
 * bounds' order; their count, or -1 with @err when a name has no change
 * threshold (a typo would judge nothing).
 */
int cmp_keep_only(struct cmp_rule *rules, unsigned int nr, const char *const *only,
		  unsigned int nr_only, const char *workload, char *err, size_t len);

#endif
