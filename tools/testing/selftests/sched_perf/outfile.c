// SPDX-License-Identifier: GPL-2.0
/*
 * Files written whole or not at all.  See outfile.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guard.h"
#include "outfile.h"

/* Async-signal-safe undo action. */
static void unlink_tmp(const char *tmp)
{
	unlink(tmp);
}

/* "PATH: why" into @err for @e; returns -1. */
static int fail(const struct outfile *o, int e, char *err, size_t len)
{
	snprintf(err, len, "%s: %s", o->path, strerror(e));
	return -1;
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t len)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->undo = -1;
	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path))
		return fail(o, ENAMETOOLONG, err, len);
	snprintf(o->tmp, sizeof(o->tmp), "%s.tmp%d", path, getpid());
	o->f = open_memstream(&o->text, &o->len);
	if (!o->f)
		return fail(o, errno, err, len);
	/* registered first: a signal between the two leaves nothing */
	o->undo = guard_add(unlink_tmp, o->tmp);
	o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o->fd < 0) {
		int e = errno;

		outfile_discard(o);
		return fail(o, e, err, len);
	}
	return 0;
}

/* All of @len bytes of @buf, or -1 with errno (a short write goes on). */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* no error but nothing written: no room, as the kernel says */
			if (!n)
				errno = ENOSPC;
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * The rename into @path's directory made durable.  A filesystem that
 * cannot sync a directory (EINVAL) has nothing more to do.
 */
static int sync_dir(const char *path)
{
	char copy[PATH_MAX];
	int fd, ret, e;

	snprintf(copy, sizeof(copy), "%s", path);
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = fsync(fd) && errno != EINVAL ? -1 : 0;
	e = errno;
	if (close(fd) && !ret) {
		ret = -1;
		e = errno;
	}
	errno = e;
	return ret;
}

/* The text into the temporary file, synced and closed; 0 or -1 with errno. */
static int write_tmp(struct outfile *o)
{
	int fd = o->fd, e;

	o->fd = -1;
	/* the stream's own error: memory ran out while the text grew */
	e = ferror(o->f) ? ENOMEM : 0;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = NULL;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	if (write_all(fd, o->text, o->len) || fsync(fd)) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	/* NFS and quotas may report a failed write only at close */
	return close(fd);
}

int outfile_commit(struct outfile *o, char *err, size_t len)
{
	int ret = 0;

	if (write_tmp(o) || rename(o->tmp, o->path)) {
		ret = fail(o, errno, err, len);
		unlink(o->tmp);
	} else if (sync_dir(o->path)) {
		ret = fail(o, errno, err, len);
	}
	guard_forget(o->undo);
	o->undo = -1;
	free(o->text);
	o->text = NULL;
	return ret;
}

/* Safe to call again, and after a failed outfile_open() or commit. */
void outfile_discard(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	if (o->fd >= 0) {
		close(o->fd);
		unlink(o->tmp);
	}
	guard_forget(o->undo);
	free(o->text);
	o->f = NULL;
	o->fd = -1;
	o->undo = -1;
	o->text = NULL;
}
