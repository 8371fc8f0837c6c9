/* SPDX-License-Identifier: GPL-2.0 */
/*
 * In-boot A/B: one scheduler knob, flipped between the two sides of a
 * comparison on the same kernel.  A is the knob as found, B the value
 * asked for.  The knob is either a sched feature (the names of
 * /sys/kernel/debug/sched/features, e.g. NO_RUN_TO_PARITY) or any
 * PATH=VALUE under /proc/sys, /sys/kernel/debug/sched or
 * /sys/module/<module>/parameters.  The original
 * value is restored on every exit path, SIGKILL included (guard.h), and
 * debugfs is mounted for the run when it is not (mounts.h).
 */
#ifndef SCHED_PERF_AB_H
#define SCHED_PERF_AB_H

#include <stdbool.h>
#include <stddef.h>

#define AB_VALUE_LEN 128

struct ab_knob {
	char spec[256];			/* as given */
	char path[256];			/* the file written */
	char a[AB_VALUE_LEN];		/* as found */
	char b[AB_VALUE_LEN];		/* as asked */
	int undo;			/* guard action restoring A */
};

/* ab_open() results besides 0 */
#define AB_BAD_INPUT	-1	/* @why: the spec is wrong (exit 2) */
#define AB_SKIP		-2	/* @why: this kernel cannot (SKIP) */

/* Validate @spec, find the knob, remember A.  Nothing written yet. */
int ab_open(struct ab_knob *k, const char *spec, char *why, size_t len);

/* Put side A or B in place; returns 0, or -1 with errno. */
int ab_set(struct ab_knob *k, bool side_b);

/* Back to A for good (also done by the guard on any exit). */
void ab_close(struct ab_knob *k);

#endif
