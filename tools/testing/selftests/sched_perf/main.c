// SPDX-License-Identifier: GPL-2.0
/*
 * The main() of every test program.  The Makefile compiles it once per
 * program with WORKLOAD naming that program's struct workload (see
 * workload.h), so that a new workload is its wl_ file and a name in the
 * Makefile's TEST_GEN_PROGS list, nothing more.
 */
#include "driver.h"

#ifndef WORKLOAD
#error "WORKLOAD must name the program's struct workload (see the Makefile)"
#endif

extern const struct workload WORKLOAD;

int main(int argc, char **argv)
{
	return sched_perf_main(&WORKLOAD, argc, argv);
}
