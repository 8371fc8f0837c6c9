// SPDX-License-Identifier: GPL-2.0
/*
 * Files written whole or not at all (outfile.h): a write that fails
 * midway is reported, leaves the file as it was and no temporary file.
 * RLIMIT_FSIZE makes the write fail as a full filesystem does (a short
 * write, then an error) without root or a mount; tests/no_space.sh does
 * it with ENOSPC on a full tmpfs.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fileio.h"
#include "outfile.h"
#include "unit.h"

/* How many entries @dir holds besides . and .. */
static int entries(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* @text into @path through an outfile; the commit's return. */
static int put(const char *path, const char *text, unsigned int copies,
	       char *err, size_t len)
{
	struct outfile o;
	unsigned int i;

	if (outfile_open(&o, path, err, len))
		return -1;
	for (i = 0; i < copies; i++)
		fputs(text, o.f);
	return outfile_commit(&o, err, len);
}

/* Is @path's whole text @text? */
static bool holds(const char *path, const char *text)
{
	char err[256], *buf;
	size_t n;
	bool same;

	buf = fileio_read_user(path, &n, err, sizeof(err));
	same = buf && n == strlen(text) && !memcmp(buf, text, n);
	free(buf);
	return same;
}

/* 64 KiB through a limit of 4 KiB: EFBIG after a short write. */
static int put_beyond_limit(const char *path, char *err, size_t len)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	struct rlimit was, small;
	int ret;

	if (getrlimit(RLIMIT_FSIZE, &was))
		return 0;
	small = was;
	small.rlim_cur = 4096;
	/* the signal a write beyond the limit sends, instead of EFBIG */
	sigaction(SIGXFSZ, &ign, &old);
	if (setrlimit(RLIMIT_FSIZE, &small))
		ret = 0;
	else
		ret = put(path, "0123456789abcdef0123456789abcdef\n", 2000, err, len);
	setrlimit(RLIMIT_FSIZE, &was);
	sigaction(SIGXFSZ, &old, NULL);
	return ret;
}

TEST(outfile)
{
	char dir[] = "/tmp/sched_perf_unit.XXXXXX", path[64], err[256] = "";
	struct outfile o;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	/* written whole */
	EXPECT_EQ(0, put(path, "old\n", 1, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_TRUE(holds(path, "old\n"));
	EXPECT_EQ(1, entries(dir));
	/* a write that fails midway is reported, the file kept, no temporary left */
	EXPECT_NE(0, put_beyond_limit(path, err, sizeof(err)));
	EXPECT_CONTAINS(err, path);
	EXPECT_CONTAINS(err, strerror(EFBIG));
	EXPECT_TRUE(holds(path, "old\n"));
	EXPECT_EQ(1, entries(dir));
	/* a text given up: its temporary beside the file, then nothing of it */
	EXPECT_EQ(0, outfile_open(&o, path, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(2, entries(dir));
	outfile_discard(&o);
	EXPECT_EQ(1, entries(dir));
	EXPECT_TRUE(holds(path, "old\n"));
	/* a file that cannot be opened is reported */
	snprintf(path, sizeof(path), "%s/no/such/dir", dir);
	EXPECT_NE(0, put(path, "x\n", 1, err, sizeof(err)));
	EXPECT_CONTAINS(err, path);
	EXPECT_CONTAINS(err, strerror(ENOENT));
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	EXPECT_EQ(0, rmdir(dir));
}
