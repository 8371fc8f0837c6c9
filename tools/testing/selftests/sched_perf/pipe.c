// SPDX-License-Identifier: GPL-2.0
/*
 * Pipe ping-pong (perf bench sched pipe semantics) under the sched_perf
 * core.  The workload itself is wl_pipe.c.
 */
#include "driver.h"

int main(int argc, char **argv)
{
	return sched_perf_main(&pipe_workload, argc, argv);
}
