// SPDX-License-Identifier: GPL-2.0
/*
 * Evidence room: the workload once more, under a tracer.  See evidence.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "evidence.h"
#include "fileio.h"
#include "guard.h"
#include "mounts.h"
#include "outfile.h"
#include "tracesum.h"

#define MAX_ARGS	64

static const char *const sched_events[] = {
	"sched_switch", "sched_wakeup", "sched_wakeup_new", "sched_migrate_task",
};

static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX], *dir, *save, *copy;
	bool found = false;

	copy = strdup(path && *path ? path : "/usr/bin:/bin:/usr/sbin:/sbin");
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/%s", dir, prog);
		found = !access(buf, X_OK);
	}
	free(copy);
	return found;
}

bool evidence_automatic(void)
{
	const char *env = getenv("SCHED_PERF_EVIDENCE");

	if (getenv(EVIDENCE_CHILD_ENV) || (env && !strcmp(env, "0")))
		return false;
	return on_path("trace-cmd") || on_path("perf");
}

/* ---- the re-run's command line ---------------------------------------- */

/*
 * @tool's words, then this program with @opts, once, writing nothing:
 * into @out (room for MAX_ARGS).  Returns the count, or -1 when too long.
 */
static int rerun_argv(char *const *tool, const char *self, int nr,
		      char *const *opts, const char *budget, char **out)
{
	int n = 0, i;

	while (*tool && n < MAX_ARGS - 8)
		out[n++] = *tool++;
	out[n++] = (char *)self;
	for (i = 0; i < nr; i++) {
		if (n >= MAX_ARGS - 7)
			return -1;
		out[n++] = opts[i];
	}
	out[n++] = "--budget";
	out[n++] = (char *)budget;
	out[n++] = "--iterations";
	out[n++] = "1";
	out[n++] = "--results";
	out[n++] = "none";
	out[n] = NULL;
	return n;
}

/* ---- running the tools ------------------------------------------------- */

/* Wait for @pid until @deadline (CLOCK_MONOTONIC seconds); 0 when it ended. */
static int wait_until(pid_t pid, int *status, double deadline)
{
	struct timespec now, tick = { 0, 50 * 1000 * 1000 };
	pid_t r;

	for (;;) {
		r = waitpid(pid, status, WNOHANG);
		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec + now.tv_nsec / 1e9 >= deadline)
			return 1;
		nanosleep(&tick, NULL);
	}
}

/*
 * Start @argv with stdout to @out_fd and stderr to @err_fd, in a process
 * group of its own.  The child dies with us: a killed controller leaves
 * no tracer behind.  The pid, or -1.
 */
static pid_t spawn(char **argv, int out_fd, int err_fd)
{
	pid_t pid = fork();

	if (!pid) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(out_fd, STDOUT_FILENO);
		dup2(err_fd, STDERR_FILENO);
		setenv(EVIDENCE_CHILD_ENV, "1", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid);
	return pid;
}

/*
 * Run @argv with stdout and stderr to @out_fd for at most @limit seconds:
 * then SIGTERM to its group (the tracer and our re-run end cleanly),
 * SIGKILL 5 s later.
 */
static int run(char **argv, int out_fd, double limit, int *status)
{
	struct timespec now;
	pid_t pid = spawn(argv, out_fd, out_fd);
	double t;
	int ret;

	if (pid < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	t = now.tv_sec + now.tv_nsec / 1e9;
	ret = wait_until(pid, status, t + limit);
	if (ret == 1) {
		kill(-pid, SIGTERM);
		ret = wait_until(pid, status, t + limit + 5);
		if (ret == 1) {
			kill(-pid, SIGKILL);
			ret = wait_until(pid, status, t + limit + 10);
		}
	}
	return ret ? -1 : 0;
}

/* @argv's output, line by line, into the summary; the exit status. */
static int summarize_output(char **argv, struct tracesum *ts, int *status)
{
	char *line = NULL;
	size_t cap = 0;
	int fds[2], devnull, ret;
	pid_t pid;
	FILE *f;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	f = fdopen(fds[0], "r");
	if (!f || devnull < 0) {
		close(fds[1]);
		if (f)
			fclose(f);
		else
			close(fds[0]);
		if (devnull >= 0)
			close(devnull);
		return -1;
	}
	pid = spawn(argv, fds[1], devnull);
	close(fds[1]);
	close(devnull);
	ret = pid < 0 ? -1 : 0;
	while (!ret && getline(&line, &cap, f) > 0)
		if (tracesum_line(ts, line) < 0)
			ret = -1;
	free(line);
	fclose(f);	/* a reader that gave up ends the tool with SIGPIPE */
	while (pid > 0 && waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return ret;
}

/* ---- recording --------------------------------------------------------- */

struct tracer {
	const char *name;
	const char *file;		/* in the evidence directory */
	const char *record[16];		/* words before the command */
	const char *report[8];		/* words before the file */
};

static const struct tracer tracers[] = {
	{
		"trace-cmd record", "trace.dat",
		{ "trace-cmd", "record", "-q", "-e", "sched:sched_switch",
		  "-e", "sched:sched_wakeup", "-e", "sched:sched_wakeup_new",
		  "-e", "sched:sched_migrate_task", "-o", NULL },
		/* -N: no plugins, the kernel's own "key=value" format */
		{ "trace-cmd", "report", "-N", "-i", NULL },
	},
	{
		/*
		 * The events trace-cmd records, system-wide.  "perf sched
		 * record" adds the sched_stat_* events: 830 MB for one 20 s
		 * hackbench iteration on 2 CPUs.
		 */
		"perf record", "perf.data",
		/*
		 * -B: no build-ids, which tracepoints do not need; collecting
		 * them made perf 6.1 abort at the end of a record inside a
		 * chroot ("assertion failed at util/namespaces.c:301"),
		 * leaving a file perf script read no event from.
		 */
		{ "perf", "record", "-q", "-B", "-a", "-e", "sched:sched_switch",
		  "-e", "sched:sched_wakeup", "-e", "sched:sched_wakeup_new",
		  "-e", "sched:sched_migrate_task", "-o", NULL },
		{ "perf", "script", "-i", NULL },
	},
};

/*
 * trace-cmd turns events on in tracefs; a controller killed while it
 * records would leave them on.  Put back what is off now, however we end.
 */
static void guard_sched_events(void)
{
	char path[256], value[4];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sched_events); i++) {
		snprintf(path, sizeof(path), TRACEFS_DIR "/events/sched/%s/enable",
			 sched_events[i]);
		if (!fileio_first_line(path, value, sizeof(value)) && value[0] == '0')
			guard_write_back(path, "0");
	}
}

/* @src's words, then @last, then @more (or NULL), into @dst; NULL-ended. */
static void words(const char *const *src, char **dst, const char *last,
		  const char *more)
{
	int n = 0;

	while (src[n]) {
		dst[n] = (char *)src[n];
		n++;
	}
	dst[n++] = (char *)last;
	dst[n++] = (char *)more;
	dst[n] = NULL;
}

/* The last line of @path, for a reason; "" when none. */
static void last_line(const char *path, char *out, size_t len)
{
	char line[256];
	FILE *f = fopen(path, "re");

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (line[strspn(line, " \t\n")])
			snprintf(out, len, "%.*s", (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
}

/* "# " and the words of @cmd, as the first line of run.log; 0 or -1. */
static int log_command(int fd, char *const *cmd)
{
	if (dprintf(fd, "#") < 0)
		return -1;
	while (*cmd)
		if (dprintf(fd, " %s", *cmd++) < 0)
			return -1;
	return dprintf(fd, "\n") < 0 ? -1 : 0;
}

/*
 * A tracer that failed for want of room lost the evidence to the
 * filesystem: an error, not a reason to skip.  The error's text (of
 * ENOSPC, EDQUOT) when @dir has no block or no inode left, or when the
 * tracer's last words (in @why) say so; else NULL.
 */
static const char *no_room(const char *dir, const char *why)
{
	struct statvfs st;

	if (strstr(why, strerror(EDQUOT)))
		return strerror(EDQUOT);
	if (strstr(why, strerror(ENOSPC)) ||
	    (!statvfs(dir, &st) && (!st.f_bavail || (st.f_files && !st.f_favail))))
		return strerror(ENOSPC);
	return NULL;
}

/*
 * Record with @t into @dir, then read its trace into @ts.  -1 with @why
 * when the tool failed, EVIDENCE_LOST when run.log cannot be written.
 */
static int record_with(const struct tracer *t, const char *dir, const char *self,
		       int nr, char *const *opts, double seconds,
		       struct tracesum *ts, char *why, size_t len)
{
	char file[PATH_MAX], log[PATH_MAX], tail[160], budget[32];
	char *cmd[MAX_ARGS + 16], *rep[16], *tool[20];
	struct tracesum_counts counts;
	int fd, status = 0;

	snprintf(file, sizeof(file), "%s/%s", dir, t->file);
	snprintf(log, sizeof(log), "%s/run.log", dir);
	snprintf(budget, sizeof(budget), "%g", seconds);
	words(t->record, tool, file, "--");
	if (rerun_argv(tool, self, nr, opts, budget, cmd) < 0) {
		snprintf(why, len, "command line too long to re-run");
		return -1;
	}
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0 && log_command(fd, cmd)) {
		snprintf(why, len, "%s: %s", log, strerror(errno));
		close(fd);
		return EVIDENCE_LOST;
	}
	/* the workload's own options (-l) may outlast the budget: a limit */
	if (fd < 0 || run(cmd, fd, 3 * seconds + 15, &status)) {
		snprintf(why, len, "cannot run %s: %s", t->name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	if (access(file, R_OK) || (WIFEXITED(status) && WEXITSTATUS(status) == 127)) {
		last_line(log, tail, sizeof(tail));
		snprintf(why, len, "%s failed (exit %d)%s%s", t->name,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1, tail[0] ? ": " : "",
			 tail);
		return -1;
	}
	words(t->report, rep, file, NULL);
	if (summarize_output(rep, ts, &status)) {
		snprintf(why, len, "cannot read the trace with %s", rep[0]);
		return -1;
	}
	/* a reader that failed, or a trace without one switch, is no evidence */
	tracesum_counts(ts, &counts);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || !counts.switches) {
		snprintf(why, len, "%s %s read no sched_switch event from %s (exit %d)",
			 rep[0], rep[1], t->file, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return 0;
}

/* ---- the directory ----------------------------------------------------- */

/*
 * @dir, or a new directory, into @where; @made when made here.  A
 * directory that cannot be made (ENOSPC: no inode left) is evidence lost.
 */
static int make_dir(const char *dir, const char *workload, char *where,
		    size_t wlen, bool *made, char *why, size_t len)
{
	const char *base = getenv("SCHED_PERF_RESULTS_DIR");

	*made = true;
	if (dir) {
		if (mkdir(dir, 0755)) {
			*made = false;
			if (errno != EEXIST) {
				snprintf(why, len, "%s: %s", dir, strerror(errno));
				return EVIDENCE_LOST;
			}
		}
		snprintf(where, wlen, "%s", dir);
		return 0;
	}
	if (!base || !*base)
		base = getenv("TMPDIR");
	snprintf(where, wlen, "%s/sched_perf-%s-evidence-XXXXXX",
		 base && *base ? base : "/tmp", workload);
	if (!mkdtemp(where)) {
		snprintf(why, len, "%s: %s", where, strerror(errno));
		return EVIDENCE_LOST;
	}
	chmod(where, 0755);
	return 0;
}

/* summary.txt in @dir, whole or not at all; -1 with "PATH: why" in @err. */
static int write_summary(const struct tracesum *ts, const char *dir,
			 const char *title, char *err, size_t len)
{
	char path[PATH_MAX];
	struct outfile o;

	snprintf(path, sizeof(path), "%s/summary.txt", dir);
	if (outfile_open(&o, path, err, len))
		return -1;
	tracesum_summary(ts, title, 10, o.f);
	return outfile_commit(&o, err, len);
}

/* Evidence lost: what was written goes, and the directory when made here. */
static void remove_evidence(const char *where, bool made)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracers); i++) {
		snprintf(path, sizeof(path), "%s/%s", where, tracers[i].file);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/run.log", where);
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary.txt", where);
	unlink(path);
	if (made)
		rmdir(where);
}

/* The summary and the tables of @ts in @where; 0 or EVIDENCE_LOST. */
static int write_evidence(struct tracesum *ts, const char *where, const char *title,
			  char *why, size_t len)
{
	int ret = 0;

	if (write_summary(ts, where, title, why, len) ||
	    tracesum_write_tables(ts, where, why, len))
		ret = EVIDENCE_LOST;
	tracesum_free(ts);
	return ret;
}

/* This program's path as seen from its root, or "" (evidence_find_self()). */
static char self[PATH_MAX];

void evidence_find_self(void)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = '\0';
}

int evidence_collect(const char *dir, const char *workload, double seconds,
		     int nr, char *const *opts, char *where, size_t wlen,
		     char *why, size_t len)
{
	char title[512], failed[512] = "", tool[256];
	struct tracesum *ts;
	const char *room;
	bool made;
	size_t i;
	int ret;

	if (!mounts_tracefs()) {
		snprintf(why, len, "no tracefs at %s (not root, or CONFIG_TRACING=n)",
			 TRACEFS_DIR);
		return -1;
	}
	/*
	 * trace-cmd mounts a debugfs of its own where none is (and leaves
	 * it): the run's, with its undo, must be there first.
	 */
	mounts_debugfs();
	if (!self[0]) {
		snprintf(why, len, "cannot find this program (/proc/self/exe)");
		return -1;
	}
	ret = make_dir(dir, workload, where, wlen, &made, why, len);
	if (ret)
		return ret;
	guard_sched_events();
	for (i = 0; i < ARRAY_SIZE(tracers); i++) {
		if (!on_path(tracers[i].record[0])) {
			snprintf(failed + strlen(failed), sizeof(failed) - strlen(failed),
				 "%s%s not installed", failed[0] ? "; " : "", tracers[i].record[0]);
			continue;
		}
		ts = tracesum_new();
		if (!ts) {
			snprintf(why, len, "out of memory");
			return -1;
		}
		ret = record_with(&tracers[i], where, self, nr, opts, seconds, ts, why, len);
		if (!ret) {
			snprintf(title, sizeof(title),
				 "sched_perf evidence: %s, one more iteration under %s%s%s%s",
				 workload, tracers[i].name, failed[0] ? " (" : "",
				 failed, failed[0] ? ")" : "");
			ret = write_evidence(ts, where, title, why, len);
			if (ret)
				remove_evidence(where, made);
			return ret;
		}
		tracesum_free(ts);
		room = ret == -1 ? no_room(where, why) : NULL;
		if (room) {
			snprintf(tool, sizeof(tool), "%s", why);
			snprintf(why, len, "%s: %s (%s)", where, room, tool);
			ret = EVIDENCE_LOST;
		}
		if (ret == EVIDENCE_LOST) {
			remove_evidence(where, made);
			return ret;
		}
		snprintf(failed + strlen(failed), sizeof(failed) - strlen(failed), "%s%s",
			 failed[0] ? "; " : "", why);
	}
	snprintf(why, len, "no tracer could record: %s", failed);
	return -1;
}
