/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs and tracefs for the run: mounted when they are not and we are
 * root, unmounted again however the run ends (through guard.c).
 */
#ifndef SCHED_PERF_MOUNTS_H
#define SCHED_PERF_MOUNTS_H

#include <stdbool.h>

#define DEBUGFS_DIR	"/sys/kernel/debug"
#define TRACEFS_DIR	"/sys/kernel/tracing"

/* Is debugfs's sched/ directory there (after mounting it if we may)? */
bool mounts_debugfs(void);
/* Are tracefs's events there (after mounting it if we may)? */
bool mounts_tracefs(void);

#endif
