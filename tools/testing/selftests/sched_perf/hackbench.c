// SPDX-License-Identifier: GPL-2.0
/*
 * hackbench (pipe and socketpair messaging) under the sched_perf core.
 * The workload itself is wl_hackbench.c.
 */
#include "driver.h"

int main(int argc, char **argv)
{
	return sched_perf_main(&hackbench_workload, argc, argv);
}
