/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every file the suite reads, read whole and bounded.  A file is opened
 * without blocking (a FIFO would wait for a writer) and must be a regular
 * file: a FIFO, a device such as /dev/zero or a directory is refused
 * before a byte is read, as is a file above the size limit, so that no
 * read can go on forever.
 */
#ifndef SCHED_PERF_FILEIO_H
#define SCHED_PERF_FILEIO_H

#include <stddef.h>

/*
 * The largest file a user may hand us (--bounds, --baseline, the run sets
 * of sched_perf_compare).  The largest the suite writes, a run set of
 * METRICS_MAX metrics over RUNSET_MAX_RUNS iterations, is under 2 MiB.
 */
#define FILEIO_USER_MAX		(16UL << 20)

/*
 * A file a user named, whole, NUL-terminated, its length in @len (it may
 * hold other NULs).  NULL with one line "PATH: why" in @err when it is no
 * regular file, is above FILEIO_USER_MAX or cannot be read.
 */
char *fileio_read_user(const char *path, size_t *len, char *err,
		       size_t errlen);

/*
 * A /proc, /sys or debugfs file, whole, NUL-terminated.  Their st_size
 * says nothing (0 or 4096): read up to @max bytes, and a longer file is
 * an error (EFBIG).  NULL with errno set: EISDIR for a directory, EINVAL
 * for any other file that is not regular.
 */
char *fileio_read_kernel(const char *path, size_t max, size_t *len);

/*
 * The same into the caller's @buf of @size bytes, with no allocation (a
 * worker reads its own files as it exits: a fresh heap in a forked child
 * costs page faults).  0, or -1 with errno set: EFBIG when the file does
 * not fit with its NUL.
 */
int fileio_read_into(const char *path, char *buf, size_t size, size_t *len);

/*
 * The first line of such a file into @out, newline stripped; at most
 * @len - 1 bytes are read.  0, or -1 with errno set as above.
 */
int fileio_first_line(const char *path, char *out, size_t len);

/*
 * The next line of a buffer these functions returned: @*pos is where it
 * starts (the buffer at first), @end the buffer's end.  The line's
 * newline becomes its NUL; NULL after the last line.
 */
char *fileio_next_line(char **pos, char *end);

/*
 * A message that quotes a file: every byte of @s that is not printable
 * ASCII (a carriage return, an escape sequence) becomes '?', so that the
 * message stays one clear line.
 */
void fileio_printable(char *s);

#endif
