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
 * SCHED_PERF_MOUNTNS=0), the run mounts where it is, as before.
 *
 * There, other runs may be using what it mounted, and it what they
 * mounted: a run that unmounted its debugfs at its end took it from
 * under another still running, and a tracer of the other's (trace-cmd
 * mounts a debugfs of its own when none is there) left one behind.  So
 * the runs of one mount namespace share: each holds a shared flock() on
 * MOUNTS_SHARE_DIR/mnt-INODE.users from its start to the end of its
 * undoing (the guardian holds it too, for after SIGKILL); a run mounts
 * only what is not there, under an exclusive lock on MOUNTS_SHARE_DIR,
 * and records the mount's id in mnt-INODE.debugfs or .tracefs; the one
 * that finds no other holder at its end (an exclusive lock tried on the
 * .users file) unmounts the recorded mounts still on top and removes the
 * files.  What was mounted before the first run is left alone.  Where
 * the share cannot be made (no writable /run), the guard unmounts what
 * the run mounted at exit, on a signal and after SIGKILL, as before.
 */
#ifndef SCHED_PERF_MOUNTS_H
#define SCHED_PERF_MOUNTS_H

#include <stdbool.h>

#define DEBUGFS_DIR	"/sys/kernel/debug"
#define TRACEFS_DIR	"/sys/kernel/tracing"

/* Where the runs of a namespace without one of their own meet (above). */
#define MOUNTS_SHARE_DIR	"/run/sched_perf"

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
