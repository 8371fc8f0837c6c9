/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sched_perf_compare's files share: its refusal, and the tools on
 * run sets (sched_perf_compare_runsets.c).
 */
#ifndef SCHED_PERF_COMPARE_TOOL_H
#define SCHED_PERF_COMPARE_TOOL_H

#include "bounds.h"
#include "compiler.h"
#include "runset.h"

/* Bad input: one line on stderr, nothing more on stdout, exit 2. */
__printf(1, 2) __noreturn void bad_input(const char *fmt, ...);

/* --dump: @rs (read from @path) and the bounds of @bs that judge it. */
void dump_runset(const char *path, const struct runset *rs, const struct bounds *bs);

/*
 * --merge OUT [--runs LIST] RUNSET...: the runs of the @n files of
 * @paths (the ones of @list only, when not NULL) into one run set at @out.
 */
void merge_runsets(const char *out, const char *list, char **paths, int n);

#endif
