// SPDX-License-Identifier: GPL-2.0
/*
 * The unit tests' runner.  Each unit_*.c file registers its tests
 * (UNIT_TEST in unit.h); the plan is the number registered, and each test
 * runs in a child of its own, so that one test's crash, exit or leftover
 * state reaches no other.  Usage: sched_perf_unit [FIXTURE_DIR]
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "verdict.h"
#include "unit.h"

const char *unit_fixtures = "fixtures";

static struct unit_test *first, **last = &first;
static unsigned int nr_tests;
static const char *twice;	/* a name registered twice */

/* What the child running a test tells its parent: shared memory. */
struct tally {
	unsigned int checks;
	unsigned int failed;
};

static struct tally *tally;
static const char *running;

void unit_register(struct unit_test *test)
{
	struct unit_test *t;

	for (t = first; t; t = t->next)
		if (!strcmp(t->name, test->name))
			twice = test->name;
	test->next = NULL;
	*last = test;
	last = &test->next;
	nr_tests++;
}

bool unit_expect(bool ok, const char *check, const char *cond)
{
	tally->checks++;
	if (!ok) {
		tally->failed++;
		verdict_note("%s: %s: (%s) is false\n", running, check, cond);
	}
	return ok;
}

void unit_stop(void)
{
	fflush(stdout);
	_exit(1);
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

char *unit_fixture(const char *name)
{
	char path[512], err[640];
	size_t len;
	char *text;

	snprintf(path, sizeof(path), "%s/%s", unit_fixtures, name);
	text = fileio_read_user(path, &len, err, sizeof(err));
	if (!text) {
		verdict_note("%s: fixture %s\n", running, err);
		unit_stop();
	}
	return text;
}

/* @test in a child; its KTAP result from how the child ended. */
static void run_one(const struct unit_test *test)
{
	int status = 0;
	pid_t pid;

	memset(tally, 0, sizeof(*tally));
	running = test->name;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (!pid) {
		test->run();
		fflush(stdout);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		verdict_check(false, test->name, "not run: %s", strerror(errno));
	else if (WIFSIGNALED(status))
		verdict_check(false, test->name, "killed by signal %d (%s) after %u checks",
			      WTERMSIG(status), strsignal(WTERMSIG(status)), tally->checks);
	else if (WEXITSTATUS(status))
		verdict_check(false, test->name, "ended with exit %d after %u checks, %u failed",
			      WEXITSTATUS(status), tally->checks, tally->failed);
	else if (!tally->checks)
		verdict_check(false, test->name, "made no check");
	else if (tally->failed)
		verdict_check(false, test->name, "%u of %u checks failed", tally->failed,
			      tally->checks);
	else
		verdict_check(true, test->name, "%u checks", tally->checks);
}

int main(int argc, char **argv)
{
	struct unit_test *t;

	if (argc > 1)
		unit_fixtures = argv[1];
	if (twice) {
		fprintf(stderr, "sched_perf_unit: two tests are named %s\n", twice);
		return 2;
	}
	tally = mmap(NULL, sizeof(*tally), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tally == MAP_FAILED) {
		fprintf(stderr, "sched_perf_unit: mmap: %s\n", strerror(errno));
		return 2;
	}
	verdict_begin(nr_tests);
	for (t = first; t; t = t->next)
		run_one(t);
	verdict_finish();
}
