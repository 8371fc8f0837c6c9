// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs and tracefs for the run.  See mounts.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "guard.h"
#include "mounts.h"

/* Are we in a mount namespace of our own whose mounts propagate nowhere? */
static bool private_ns;

/*
 * The fallback's share of this namespace's mounts (mounts.h): the open
 * PREFIX.users, locked shared for the run's life, and PREFIX, that is
 * MOUNTS_SHARE_DIR "/mnt-INODE" for the namespace's inode.  -1: no share.
 */
static int users_fd = -1;
static char share_prefix[64];

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

/* @a @b @c into @buf; async-signal-safe.  False when too long. */
static bool join_path(char *buf, size_t len, const char *a, const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);

	if (na + nb + nc >= len)
		return false;
	memcpy(buf, a, na);
	memcpy(buf + na, b, nb);
	memcpy(buf + na + nb, c, nc + 1);
	return true;
}

/* Is @fd the file at @path now (not one unlinked since)?  Async-signal-safe. */
static bool same_file(int fd, const char *path)
{
	struct stat a, b;

	return !fstat(fd, &a) && !stat(path, &b) && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * The last run out: unmount @dir when the mount on top there is the one
 * recorded in PREFIX.FSTYPE (a run of this namespace made it; one mounted
 * over it since is not ours), and forget the record.  Async-signal-safe.
 */
static void unmount_ours(const char *prefix, const char *fstype, const char *dir)
{
	char state[96], buf[24];
	unsigned long long id = 0;
	struct statx stx;
	ssize_t n;
	int fd, i;

	if (!join_path(state, sizeof(state), prefix, ".", fstype))
		return;
	fd = open(state, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	for (i = 0; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
		id = id * 10 + buf[i] - '0';
	/* MNT_DETACH takes debugfs's automounted tracing/ along */
	if (id && !statx(AT_FDCWD, dir, AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) &&
	    (stx.stx_mask & STATX_MNT_ID) && stx.stx_mnt_id == id)
		umount2(dir, MNT_DETACH);
	unlink(state);
}

/*
 * Guard action, the run's last (added before any other): leave the share;
 * when no other run of the namespace holds one, unmount what runs of it
 * mounted.  The exclusive lock is tried, never waited for: a run joining
 * meanwhile waits for it instead, then finds the files gone and makes new
 * ones.  Async-signal-safe; in the guardian too, which keeps users_fd (a
 * fork has it), so that a SIGKILLed run's share ends with its undoing.
 */
static void share_leave(const char *prefix)
{
	char users[96];
	int fd;

	flock(users_fd, LOCK_UN);
	if (!join_path(users, sizeof(users), prefix, ".users", ""))
		return;
	fd = open(users, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;		/* the last run out has been */
	if (!flock(fd, LOCK_EX | LOCK_NB) && same_file(fd, users)) {
		unmount_ours(prefix, "tracefs", TRACEFS_DIR);
		unmount_ours(prefix, "debugfs", DEBUGFS_DIR);
		unlink(users);
	}
	close(fd);
}

/*
 * Join this namespace's share: PREFIX.users locked shared, kept in the
 * guardian, and share_leave() as the first guard action, so the last.  A
 * file unlinked by the last run out between our open() and our lock is
 * left for a new one.  0, or -1 with why in @why.
 */
static int share_join(char *why, size_t len)
{
	char users[96];
	struct stat ns;
	int fd, tries, err = EAGAIN;

	if (stat("/proc/self/ns/mnt", &ns)) {
		snprintf(why, len, "/proc/self/ns/mnt: %s", strerror(errno));
		return -1;
	}
	if (mkdir(MOUNTS_SHARE_DIR, 0755) && errno != EEXIST) {
		snprintf(why, len, "cannot create %s: %s", MOUNTS_SHARE_DIR, strerror(errno));
		return -1;
	}
	snprintf(share_prefix, sizeof(share_prefix), MOUNTS_SHARE_DIR "/mnt-%llu",
		 (unsigned long long)ns.st_ino);
	join_path(users, sizeof(users), share_prefix, ".users", "");
	for (tries = 0; tries < 100; tries++) {
		fd = open(users, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0) {
			err = errno;
			break;
		}
		/* waits only while a last run out unmounts */
		if (flock(fd, LOCK_SH)) {
			err = errno;
			close(fd);
			if (err == EINTR)
				continue;
			break;
		}
		if (same_file(fd, users)) {
			users_fd = fd;
			guard_keep_fd(fd);
			guard_add(share_leave, share_prefix);
			return 0;
		}
		close(fd);
	}
	snprintf(why, len, "cannot lock %s: %s", users, strerror(err));
	return -1;
}

const char *mounts_private_ns(void)
{
	static char note[512];
	const char *env = getenv(MOUNTNS_ENV), *what;
	char why[128], share[192];

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
	if (share_join(share, sizeof(share)))
		snprintf(note, sizeof(note), "no namespace of the run's own (%s): debugfs and tracefs mounted for the run may be seen outside it, and are unmounted at its end (no share with other runs: %s)",
			 why, share);
	else
		snprintf(note, sizeof(note), "no namespace of the run's own (%s): debugfs and tracefs mounted for the run may be seen outside it; the last run out of this namespace unmounts them",
			 why);
	return note;
}

/* Async-signal-safe undo action of a mount we made. */
static void unmount_dir(const char *path)
{
	umount2(path, MNT_DETACH);
}

/* Is a filesystem of type @magic (statfs) mounted on @dir? */
static bool mounted(const char *dir, long magic)
{
	struct statfs sf;

	return !statfs(dir, &sf) && sf.f_type == magic;
}

/* "ID\n" into @path, whole or not at all (0), or -1. */
static int write_id(const char *path, unsigned long long id)
{
	char buf[24];
	int fd, len = snprintf(buf, sizeof(buf), "%llu\n", id);
	bool ok;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	ok = write(fd, buf, len) == len;
	if (close(fd) || !ok) {
		unlink(path);
		return -1;
	}
	return 0;
}

/*
 * Mount @fstype on @dir with its id recorded in PREFIX.FSTYPE first: a
 * detached mount (fsmount()) has its id before move_mount() puts it on
 * @dir, so that a SIGKILL at any moment leaves no mount the last run out
 * cannot tell for ours.  Without the new mount API (before Linux 5.2):
 * mount(), then the record.  A mount without a record is undone at once:
 * before Linux 5.8 (no STATX_MNT_ID) this fallback mounts nothing.
 */
static void mount_recorded(const char *fstype, const char *dir)
{
	char state[96];
	struct statx stx;
	int fs, mnt = -1;

	join_path(state, sizeof(state), share_prefix, ".", fstype);
	fs = fsopen(fstype, FSOPEN_CLOEXEC);
	if (fs >= 0) {
		fsconfig(fs, FSCONFIG_SET_STRING, "source", fstype, 0);
		if (!fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
			mnt = fsmount(fs, FSMOUNT_CLOEXEC, 0);
		close(fs);
	}
	if (mnt < 0) {
		if (mount(fstype, dir, fstype, 0, NULL))
			return;
		if (statx(AT_FDCWD, dir, AT_NO_AUTOMOUNT, STATX_MNT_ID, &stx) ||
		    !(stx.stx_mask & STATX_MNT_ID) || write_id(state, stx.stx_mnt_id))
			umount2(dir, MNT_DETACH);
		return;
	}
	if (!statx(mnt, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) &&
	    (stx.stx_mask & STATX_MNT_ID) && !write_id(state, stx.stx_mnt_id) &&
	    move_mount(mnt, "", AT_FDCWD, dir, MOVE_MOUNT_F_EMPTY_PATH))
		unlink(state);
	close(mnt);	/* a mount never attached ends here */
}

/*
 * The fallback's runs of this namespace share what they mount: one check
 * and mount at a time (MOUNTS_SHARE_DIR locked), or two would stack two
 * mounts of which only the top one is recorded.  Fatal signals wait: the
 * handler's share_leave() must not read a record half made.
 */
static void mount_shared(const char *fstype, const char *dir, long magic)
{
	sigset_t fatal, old;
	int lock;

	fatal_sigset(&fatal);
	sigprocmask(SIG_BLOCK, &fatal, &old);
	lock = open(MOUNTS_SHARE_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lock >= 0) {
		if (!flock(lock, LOCK_EX) && !mounted(dir, magic))
			mount_recorded(fstype, dir);
		close(lock);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * Mount @fstype on @dir when @probe is not there, no @fstype is mounted
 * there (a debugfs without sched/ is CONFIG_SCHED_DEBUG=n, not unmounted)
 * and we are root.
 */
static bool mount_for_run(const char *fstype, const char *dir, const char *probe,
			  long magic)
{
	struct stat st;

	if (!stat(probe, &st))
		return true;
	if (geteuid() || mounted(dir, magic))
		return false;
	/*
	 * In our private namespace the mount is the run's alone and ends
	 * with the namespace, when the last of the run's processes (the
	 * guardian included) has ended, however: nothing to undo.  Anywhere
	 * else it is shared with the other runs there, and the last one out
	 * unmounts it, or, with no share, the guard unmounts it at exit, on
	 * a signal and after SIGKILL.
	 */
	if (private_ns)
		mount(fstype, dir, fstype, 0, NULL);
	else if (users_fd >= 0)
		mount_shared(fstype, dir, magic);
	else if (!mount(fstype, dir, fstype, 0, NULL))
		guard_add(unmount_dir, dir);
	return !stat(probe, &st);
}

bool mounts_debugfs(void)
{
	return mount_for_run("debugfs", DEBUGFS_DIR, DEBUGFS_DIR "/sched", DEBUGFS_MAGIC);
}

bool mounts_tracefs(void)
{
	return mount_for_run("tracefs", TRACEFS_DIR, TRACEFS_DIR "/events", TRACEFS_MAGIC);
}
