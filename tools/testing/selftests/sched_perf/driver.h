/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHED_PERF_DRIVER_H
#define SCHED_PERF_DRIVER_H

#include "workload.h"

/*
 * The one core every test program runs: options, sizing, iterations,
 * measurement, metrics, verdicts and the results file.
 */
int sched_perf_main(const struct workload *wl, int argc, char **argv);

#endif
