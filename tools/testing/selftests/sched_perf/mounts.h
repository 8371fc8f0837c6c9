/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs and tracefs for the run: mounted when they are not and we are
 * root, in a mount namespace of the run's own.
 *
 * Mounted in the system's namespace, they came and went under every other
 * program: two runs side by side saw each other's mounts vanish, and a
 * tool beside a run found debugfs where there was none.  So, as root, the
 * run first unshares its mount namespace and makes every mount in it
 * private: what it mounts then exists for the run and its children only
 * (workers, the evidence tracer) and goes away with the namespace when
 * the run's last process has ended, SIGKILL included, with nothing to
 * undo.  Where that is refused (not root, a container without
 * CAP_SYS_ADMIN, a chroot whose / is no mount point, or
 * SCHED_PERF_MOUNTNS=0), the run mounts where it is, as before, and the
 * guard (guard.h) unmounts what it mounted at exit, on a signal and
 * after SIGKILL.
 */
#ifndef SCHED_PERF_MOUNTS_H
#define SCHED_PERF_MOUNTS_H

#include <stdbool.h>

#define DEBUGFS_DIR	"/sys/kernel/debug"
#define TRACEFS_DIR	"/sys/kernel/tracing"

/* Set to 0 in the environment: no namespace of our own (see above). */
#define MOUNTNS_ENV	"SCHED_PERF_MOUNTNS"

/*
 * Enter a private mount namespace of the run's own.  Call once, from a
 * single-threaded process (unshare() refuses CLONE_NEWNS once threads
 * share its fs_struct), before anything is mounted and before
 * guard_start(), so that the guardian undoes in the run's namespace.
 * Returns NULL, or why not and what follows, for one diagnostic line of
 * the KTAP header.
 */
const char *mounts_private_ns(void);

/* Is debugfs's sched/ directory there (after mounting it if we may)? */
bool mounts_debugfs(void);
/* Are tracefs's events there (after mounting it if we may)? */
bool mounts_tracefs(void);

#endif
