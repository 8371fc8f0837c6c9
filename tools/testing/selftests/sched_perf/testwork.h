/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHED_PERF_TESTWORK_H
#define SCHED_PERF_TESTWORK_H

#include <stdbool.h>

#include "workload.h"

/*
 * Read SCHED_PERF_TEST_WORK_NS, SCHED_PERF_TEST_STRETCH_PCT and
 * SCHED_PERF_TEST_WORK_SIDE (testwork.c says what each does) and time the
 * busy loops, before any worker exists.
 */
void testwork_setup(void);

/* The slowdown for the next iteration: on @new_side, or on both sides. */
void testwork_for_side(bool new_side);

/* A note of each slowdown in effect (@ab: this run is an A/B). */
void testwork_notes(const struct workload *wl, bool ab);

/* SCHED_PERF_TEST_STOP=1: stop until SIGCONT (testwork.c). */
void testwork_stop(void);

#endif
