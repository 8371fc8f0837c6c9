// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded reads of whole files.  See fileio.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"

/* What a file that is not regular is, for a message. */
static const char *file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "of another kind";
}

/*
 * @path opened for reading when it is a regular file, its status in @st;
 * else -1 with errno (EISDIR, EINVAL for the other kinds).  O_NONBLOCK
 * stays set: a FIFO does not block the open, and a /proc file that waits
 * for data (/proc/kmsg) fails with EAGAIN instead of waiting.
 */
static int open_regular(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), e;

	if (fd < 0)
		return -1;
	if (fstat(fd, st))
		goto fail;
	if (S_ISREG(st->st_mode))
		return fd;
	errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
fail:
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

/* One read(), again when a signal interrupted it. */
static ssize_t read_some(int fd, char *buf, size_t n)
{
	ssize_t r;

	do
		r = read(fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

/*
 * All of @fd up to @max bytes, NUL-terminated, in a buffer that starts at
 * @hint bytes and grows.  One byte beyond @max is read to tell a file of
 * @max bytes from a longer one.  NULL with errno (EFBIG: above @max).
 */
static char *read_all(int fd, size_t hint, size_t max, size_t *len)
{
	size_t n = 0, cap = hint < 4096 ? 4096 : hint + 1;
	char *buf, *p;
	ssize_t r;
	int e;

	if (cap > max + 2)
		cap = max + 2;
	buf = malloc(cap);
	if (!buf)
		return NULL;
	for (;;) {
		if (n + 1 == cap) {
			if (n > max) {
				errno = EFBIG;
				break;
			}
			cap = cap > (max + 2) / 2 ? max + 2 : 2 * cap;
			p = realloc(buf, cap);
			if (!p)
				break;
			buf = p;
		}
		r = read_some(fd, buf + n, cap - 1 - n);
		if (r < 0)
			break;
		if (!r) {
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		n += r;
	}
	e = errno;
	free(buf);
	errno = e;
	return NULL;
}

char *fileio_read_user(const char *path, size_t *len, char *err,
		       size_t errlen)
{
	struct stat st = { 0 };
	char *buf;
	int fd;

	if (!*path) {
		snprintf(err, errlen, "'': an empty file name");
		return NULL;
	}
	fd = open_regular(path, &st);
	if (fd < 0) {
		if (errno == EINVAL)
			snprintf(err, errlen, "%s: not a regular file but %s", path,
				 file_kind(st.st_mode));
		else
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((unsigned long long)st.st_size > FILEIO_USER_MAX) {
		snprintf(err, errlen, "%s: %lld bytes, above the limit of %lu MiB for an input file",
			 path, (long long)st.st_size, FILEIO_USER_MAX >> 20);
		close(fd);
		return NULL;
	}
	buf = read_all(fd, st.st_size, FILEIO_USER_MAX, len);
	if (!buf && errno == EFBIG)
		snprintf(err, errlen, "%s: grew above the limit of %lu MiB for an input file",
			 path, FILEIO_USER_MAX >> 20);
	else if (!buf)
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	close(fd);
	return buf;
}

char *fileio_read_kernel(const char *path, size_t max, size_t *len)
{
	struct stat st;
	char *buf;
	int fd = open_regular(path, &st), e;

	if (fd < 0)
		return NULL;
	buf = read_all(fd, 0, max, len);
	e = errno;
	close(fd);
	errno = e;
	return buf;
}

/*
 * Up to @size - 1 bytes of @fd into @buf, NUL-terminated, until the end
 * of the file: how many, or -1 with errno set.
 */
static ssize_t read_upto(int fd, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r = 1;

	while (r > 0 && n + 1 < size) {
		r = read_some(fd, buf + n, size - 1 - n);
		if (r > 0)
			n += r;
	}
	buf[n] = '\0';
	return r < 0 ? -1 : (ssize_t)n;
}

int fileio_read_into(const char *path, char *buf, size_t size, size_t *len)
{
	struct stat st;
	int fd = open_regular(path, &st), e;
	ssize_t n;
	char more;

	if (fd < 0)
		return -1;
	n = read_upto(fd, buf, size);
	/* full: one byte more tells a file that fits from a longer one */
	if (n == (ssize_t)size - 1 && read_some(fd, &more, 1) > 0) {
		n = -1;
		errno = EFBIG;
	}
	e = errno;
	close(fd);
	errno = e;
	if (n < 0)
		return -1;
	*len = n;
	return 0;
}

int fileio_first_line(const char *path, char *out, size_t len)
{
	struct stat st;
	int fd = open_regular(path, &st), e;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read_upto(fd, out, len);
	e = errno;
	close(fd);
	errno = e;
	if (n < 0)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

char *fileio_next_line(char **pos, char *end)
{
	char *line = *pos, *nl;

	if (line >= end)
		return NULL;
	nl = memchr(line, '\n', end - line);
	if (nl) {
		*nl = '\0';
		*pos = nl + 1;
	} else {
		*pos = end;
	}
	return line;
}

void fileio_printable(char *s)
{
	for (; *s; s++)
		if (*s < ' ' || *s > '~')
			*s = '?';
}
