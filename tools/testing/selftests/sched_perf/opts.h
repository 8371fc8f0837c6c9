/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict option value parsing: every bad value is one line on stderr,
 * "<prog>: <option>: <why>", and a -1 the caller turns into exit 2.
 */
#ifndef SCHED_PERF_OPTS_H
#define SCHED_PERF_OPTS_H

int opt_ulong(const char *prog, const char *opt, const char *arg,
	      unsigned long min, unsigned long max, unsigned long *out);
int opt_double(const char *prog, const char *opt, const char *arg,
	       double min, double max, double *out);
/* "50%" or "50": a percentage of the online CPUs */
int opt_percent(const char *prog, const char *opt, const char *arg,
		double *out);

#endif
