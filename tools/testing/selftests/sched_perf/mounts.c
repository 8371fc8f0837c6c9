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
 * A new mount namespace whose mounts propagate nowhere, neither out nor
 * in.  0, or -1 with errno and in @what the step that failed.  When /
 * cannot be made private (EINVAL: / is no mount point, as in a chroot),
 * the copy is left for the namespace we came from: a copy whose mounts
 * propagate as there is neither the run's own nor the system's, and the
 * fallback is made for the system's.
 */
static int unshare_private(const char **what)
{
	int was = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC), err;

	*what = "unshare";
	if (unshare(CLONE_NEWNS))
		goto fail;
	*what = "making / private";
	if (!mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		if (was >= 0)
			close(was);
		return 0;
	}
	err = errno;
	if (was >= 0)
		setns(was, CLONE_NEWNS);
	errno = err;
fail:
	err = errno;
	if (was >= 0)
		close(was);
	errno = err;
	return -1;
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
		/* back where we were: what we mount is undone as before */
		snprintf(why, sizeof(why), "%s: %s%s", what, strerror(errno),
			 errno == EINVAL && strcmp(what, "unshare") ?
			 ", / is no mount point (a chroot?)" : "");
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
