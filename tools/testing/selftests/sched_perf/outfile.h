/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every file the suite writes for a user (results, baselines, evidence
 * summaries, sched_perf_compare --merge) is written whole or not at all.
 * The text is gathered in memory; outfile_commit() writes it to
 * PATH.tmpPID, fsync()s and closes it, renames it over PATH and fsync()s
 * the directory, checking every step.  A full filesystem (ENOSPC), a
 * quota (EDQUOT) or an I/O error (EIO) at any step is one message naming
 * PATH, and no partial file: the temporary file is removed on every error
 * path, and by the guard (guard.h) after a signal or a SIGKILL.
 */
#ifndef SCHED_PERF_OUTFILE_H
#define SCHED_PERF_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;			/* the text, in memory */
	char *text;
	size_t len;
	int fd;				/* the temporary file */
	int undo;			/* guard action removing it */
	char path[PATH_MAX];
	char tmp[PATH_MAX + 24];
};

/*
 * Create @path's temporary file and a stream for its text in @o->f.  0,
 * or -1 with "PATH: why" in @err (nothing left behind).
 */
int outfile_open(struct outfile *o, const char *path, char *err, size_t len);

/*
 * Put the text in place as @path.  0, or -1 with "PATH: why" in @err and
 * no temporary file left; @path is then as it was (the rename is the last
 * step but the directory's fsync: a failure there is reported, with the
 * whole file in place).  @o is closed either way.
 */
int outfile_commit(struct outfile *o, char *err, size_t len);

/* Drop the text and the temporary file. */
void outfile_discard(struct outfile *o);

#endif
