// SPDX-License-Identifier: GPL-2.0
/*
 * Deep-directory filesystem test (stress-ng dirdeep semantics) under the
 * sched_perf core.  The workload itself is wl_dirdeep.c.
 */
#include "driver.h"

int main(int argc, char **argv)
{
	return sched_perf_main(&dirdeep_workload, argc, argv);
}
