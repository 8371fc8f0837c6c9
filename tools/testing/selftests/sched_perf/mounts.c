// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs and tracefs for the run.  See mounts.h.
 */
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "mounts.h"

/* Async-signal-safe undo action of a mount we made. */
static void unmount_dir(const char *path)
{
	umount2(path, MNT_DETACH);
}

/*
 * Mount @fstype on @dir when @probe is not there and we are root; what we
 * mounted is unmounted at exit, on a signal and after SIGKILL.
 */
static bool mount_for_run(const char *fstype, const char *dir, const char *probe)
{
	struct stat st;

	if (!stat(probe, &st))
		return true;
	if (geteuid() || mount(fstype, dir, fstype, 0, NULL))
		return false;
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
