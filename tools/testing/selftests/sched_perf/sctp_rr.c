// SPDX-License-Identifier: GPL-2.0
/*
 * SCTP_RR (netperf semantics) over loopback under the sched_perf core.
 * The workload itself is wl_rr.c.
 */
#include "driver.h"

int main(int argc, char **argv)
{
	return sched_perf_main(&sctp_rr_workload, argc, argv);
}
