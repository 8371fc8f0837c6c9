/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one clock the suite times its windows, budgets and deadlines with:
 * monotonic, so that a clock step of the system does not stretch a run.
 */
#ifndef SCHED_PERF_CLOCK_H
#define SCHED_PERF_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#endif
