/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Results file: one "key: value" per line, LKP style, '#' comments.
 *   meta.<fact>: <text>            machine and kernel facts
 *   <workload>.<metric>: <number>  every available metric
 *   # <workload>.<metric>: n/a (<why>)   missing ones, as comments
 *   <workload>.time.<i>: <seconds>       each iteration
 *   verdict.<workload>.<check>: pass | fail | skip
 */
#ifndef SCHED_PERF_RESULTS_H
#define SCHED_PERF_RESULTS_H

#include <stdio.h>

#include "metrics.h"

struct results;

/*
 * Collects lines for @path, written whole by results_commit() or not at
 * all (outfile.h); NULL with "PATH: why" in @err.
 */
struct results *results_open(const char *path, char *err, size_t len);
void results_text(struct results *r, const char *key, const char *value);
void results_number(struct results *r, const char *key, double value);
void results_metrics(struct results *r, const char *prefix,
		     const struct metric_set *set);
/*
 * Put the file in place, synced: 0, or -1 with "PATH: why" in @err
 * (ENOSPC, EIO...) and no partial file.  @r is freed either way.
 */
int results_commit(struct results *r, char *err, size_t len);
void results_discard(struct results *r);

/*
 * Read a results file back: @fn gets every key and value (comments and
 * blank lines skipped).  Returns the number of entries, or -1 with a
 * reason in @err for an unreadable or malformed file.
 */
int results_read(const char *path,
		 void (*fn)(const char *key, const char *value, void *ctx),
		 void *ctx, char *err, size_t len);

#endif
