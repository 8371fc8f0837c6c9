// SPDX-License-Identifier: GPL-2.0
/*
 * The unit tests: every unit_*.c file, in this one translation unit (see
 * unit.h for why), run by kselftest_harness.h's main: a child per TEST(),
 * KTAP out, exit 0 when every test passed.  Run it from anywhere; its
 * fixtures are found beside it (unit_fixtures()).
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "unit.h"

const char *unit_fixtures(void)
{
	static char dir[4096];
	char exe[4096];
	ssize_t n;

	if (getenv("SCHED_PERF_UNIT_FIXTURES"))
		return getenv("SCHED_PERF_UNIT_FIXTURES");
	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return "fixtures";
	exe[n] = '\0';
	snprintf(dir, sizeof(dir), "%s/fixtures", dirname(exe));
	return dir;
}

char *unit_fixture_read(const char *name, char *err, size_t len)
{
	char path[4096 + 256];
	size_t size;

	snprintf(path, sizeof(path), "%s/%s", unit_fixtures(), name);
	return fileio_read_user(path, &size, err, len);
}

int unit_capture(void (*report)(void *arg), void *arg, char *out, size_t len)
{
	char path[] = "/tmp/sched_perf_unit_out.XXXXXX";
	int fd = mkstemp(path), status;
	ssize_t got = -1;
	pid_t pid;

	out[0] = '\0';
	if (fd < 0)
		return -1;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		dup2(fd, STDOUT_FILENO);
		report(arg);
		fflush(stdout);
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid)
		got = pread(fd, out, len - 1, 0);
	close(fd);
	unlink(path);
	out[got > 0 ? got : 0] = '\0';
	if (pid < 0 || got < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

#include "unit_compare.c"
#include "unit_gate.c"
#include "unit_ktap.c"
#include "unit_opts.c"
#include "unit_outfile.c"
#include "unit_parsers.c"
#include "unit_rows.c"
#include "unit_shift.c"
#include "unit_stats.c"
#include "unit_tracesum.c"
#include "unit_verdicts.c"

TEST_HARNESS_MAIN
