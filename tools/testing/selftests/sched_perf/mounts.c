// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs and tracefs for the run.  See mounts.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "mounts.h"

/* Are we in a mount namespace of our own whose mounts propagate nowhere? */
static bool private_ns;

/*
 * Is / the root of a mount?  Not in a chroot into a plain directory,
 * where / cannot be made private (EINVAL) and an unshared copy of the
 * namespace would still propagate as the original does.  True when the
 * kernel cannot tell (statx without STATX_ATTR_MOUNT_ROOT).
 */
static bool root_is_mount(void)
{
	struct statx stx;

	if (statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, &stx) ||
	    !(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return true;
	return stx.stx_attributes & STATX_ATTR_MOUNT_ROOT;
}

/*
 * A new mount namespace whose mounts propagate nowhere, neither out nor
 * in.  0, or -1 with errno and in @what the step that failed.  Where /
 * is no mount point nothing is unshared: the run stays in the system's
 * namespace, as before namespaces.
 */
static int unshare_private(const char **what)
{
	*what = "/ is no mount point (a chroot?), nothing unshared";
	if (!root_is_mount()) {
		errno = 0;
		return -1;
	}
	*what = "unshare";
	if (unshare(CLONE_NEWNS))
		return -1;
	*what = "making / private";
	return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
}

const char *mounts_private_ns(void)
{
	static char note[320];
	const char *env = getenv(MOUNTNS_ENV), *what;
	char why[128];

	if (geteuid())
		return "not root: nothing is mounted for the run";
	if (env && !strcmp(env, "0")) {
		snprintf(why, sizeof(why), "%s=0", MOUNTNS_ENV);
	} else if (unshare_private(&what)) {
		/*
		 * After a refused unshare() we are where we were.  After a
		 * refused MS_PRIVATE we are in a copy of that namespace whose
		 * mounts still propagate as there: what we mount may be seen
		 * outside, so it is undone as before.
		 */
		if (errno)
			snprintf(why, sizeof(why), "%s: %s", what, strerror(errno));
		else
			snprintf(why, sizeof(why), "%s", what);
	} else {
		private_ns = true;
		return NULL;
	}
	snprintf(note, sizeof(note), "no namespace of the run's own (%s): debugfs and tracefs mounted for the run may be seen outside it, and are unmounted at its end",
		 why);
	return note;
}

/* Async-signal-safe undo action of a mount we made. */
static void unmount_dir(const char *path)
{
	umount2(path, MNT_DETACH);
}

/* Mount @fstype on @dir when @probe is not there and we are root. */
static bool mount_for_run(const char *fstype, const char *dir, const char *probe)
{
	struct stat st;

	if (!stat(probe, &st))
		return true;
	if (geteuid() || mount(fstype, dir, fstype, 0, NULL))
		return false;
	/*
	 * In our private namespace the mount is the run's alone and ends
	 * with the namespace, when the last of the run's processes (the
	 * guardian included) has ended, however: nothing to undo.  Anywhere
	 * else the guard unmounts it at exit, on a signal and after SIGKILL.
	 */
	if (!private_ns)
		guard_add(unmount_dir, dir);
	return !stat(probe, &st);
}

bool mounts_debugfs(void)
{
	return mount_for_run("debugfs", DEBUGFS_DIR, DEBUGFS_DIR "/sched");
}

bool mounts_tracefs(void)
{
	return mount_for_run("tracefs", TRACEFS_DIR, TRACEFS_DIR "/events");
}
