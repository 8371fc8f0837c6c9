/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts about the system a run ran on, gathered in one place: for the
 * report header and for the run set's meta lines.
 */
#ifndef SCHED_PERF_SYSINFO_H
#define SCHED_PERF_SYSINFO_H

#include <stdio.h>

#include "measure.h"

/* kernel, nr_cpus, preempt and sched_features lines of the header. */
void sysinfo_describe(struct measure_meta *meta);

/* Why a debugfs file @path cannot be read, in a few words. */
const char *debugfs_unreadable(const char *path);

/* Digest of the running kernel's config (/proc/config.gz, /boot), or "unknown". */
void sysinfo_kconfig(char *out, size_t len);
/*
 * The digest of the config text in @f (as sysinfo_kconfig): returns how many
 * of the scheduler options it found; 0 leaves @out untouched.
 */
int sysinfo_kconfig_digest(FILE *f, char *out, size_t len);

#endif
