// SPDX-License-Identifier: GPL-2.0
/*
 * Deep-directory filesystem workload with stress-ng dirdeep semantics.
 * Each instance builds a tree depth-first until PATH_MAX (a symlink and a
 * hard link per level, the linkat() variants, fsync of every directory and
 * a sync on the way back up, none of it after the deadline), then walks it
 * until the deadline (scandir of every level, open + futimens of every
 * other entry), then removes it by whole paths, as stress-ng does.
 * Bogo-ops are counted as stress-ng counts them: one per successful mkdir,
 * one per non-directory entry visited (even when open() fails); ops/s is
 * bogo-ops over the mean instance wall time, removal included.
 *
 * This file makes load and times it.  It knows nothing of counters.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "guard.h"
#include "opts.h"
#include "tasks.h"
#include "workload.h"

#define PATH_BUF	(PATH_MAX + 16)	/* stress-ng's buffer: depth ends here */
#define MAX_INSTANCES	4096

enum sync_mode { SYNC_GLOBAL, SYNC_FS, SYNC_NONE };
static const char *const sync_names[] = { "global", "syncfs", "none" };

static struct {
	unsigned int dirs, files, instances;
	unsigned long long inodes;	/* budget; 0: every free inode */
	enum sync_mode sync;
	double duration;
	bool duration_set, instances_set;
	char parent[PATH_MAX];		/* where our run directory goes */
	char rundir[PATH_MAX];		/* ours alone, removed at the end */
} dd = {
	.dirs = 1,
};

/* What one instance did in the last iteration; shared with the workers. */
struct inst_result {
	uint64_t bogo_ops, build_ns, exercise_ns, cleanup_ns, total_ns;
	uint64_t mkdirs;
};

struct instance {
	char root[PATH_BUF];
	struct inst_result *res;
	struct start_barrier *barrier;
	uint64_t deadline_ns;
	unsigned long long inodes_start;
	uint32_t rnd;
};

static struct inst_result *results;	/* MAP_SHARED, one per instance */
static struct instance *instances;	/* roots are known to the cleanup */
static struct {
	uint64_t build_ns, exercise_ns, cleanup_ns, mkdirs;
	uint64_t instance_runs;		/* instances x iterations */
} phases;

static int parse_workdir(const char *prog, const struct opt_spec *o,
			 const char *arg)
{
	struct stat st;

	if (stat(arg, &st) || !S_ISDIR(st.st_mode) || access(arg, W_OK | X_OK)) {
		fprintf(stderr, "dirdeep: --workdir: '%s' is not a writable directory\n", arg);
		return WL_ERROR;
	}
	if (!realpath(arg, dd.parent)) {
		fprintf(stderr, "dirdeep: --workdir: %s: %s\n", arg, strerror(errno));
		return WL_ERROR;
	}
	return 0;
}

static int parse_sync(const char *prog, const struct opt_spec *o,
		      const char *arg)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (!strcmp(arg, sync_names[i])) {
			dd.sync = i;
			return 0;
		}
	}
	fprintf(stderr, "dirdeep: --sync: '%s' is not global, syncfs or none\n", arg);
	return WL_ERROR;
}

static int parse_inodes(const char *prog, const struct opt_spec *o,
			const char *arg)
{
	unsigned long v;

	if (opt_ulong(prog, "--inodes", arg, 1, ULONG_MAX, &v))
		return WL_ERROR;
	dd.inodes = v;
	return 0;
}

/* long options only */
static const struct opt_spec dirdeep_opts[] = {
	OPT_UINT(0, "instances", "N", &dd.instances, 1, MAX_INSTANCES,
		 "instances (default: --nr-threads)",
		 .given = &dd.instances_set),
	OPT_DOUBLE(0, "duration", "SEC", &dd.duration, 0.1, 86400,
		   "build + exercise seconds per iteration\n"
		   "(default: budget / iterations); removal comes after",
		   .given = &dd.duration_set),
	/* stress-ng: 1..36 sub-trees per level */
	OPT_UINT(0, "dirs", "N", &dd.dirs, 1, 36,
		 "sub-directories per level, 1..36 (1)"),
	OPT_UINT(0, "files", "N", &dd.files, 0, 65535,
		 "files per directory, 0..65535 (0)"),
	OPT_CALLBACK(0, "inodes", "N", parse_inodes,
		     "inode budget of the whole run (all free inodes)"),
	OPT_CALLBACK(0, "sync", "global|syncfs|none", parse_sync,
		     "after each directory's fsync (global)"),
	OPT_CALLBACK(0, "workdir", "DIR", parse_workdir,
		     "filesystem to use (default $TMPDIR, else /tmp);\n"
		     "a fresh directory is made and removed in it"),
	OPT_END(),
};

static void dirdeep_set_instances(unsigned int n, bool explicit)
{
	if (!dd.instances_set)
		dd.instances = n;
}

static unsigned long long free_inodes(const char *path)
{
	struct statvfs sv;

	return statvfs(path, &sv) ? 0 : sv.f_favail;
}

/*
 * Remove the tree at @path (restored on return) with nothing but
 * async-signal-safe system calls and no memory beyond the stack, so that
 * the fatal-signal handler can use it too.  Iterative: depth is ~2000.
 */
static int remove_tree(char *path)
{
	size_t root_len = strlen(path), len;
	char buf[4096];
	int retries = 0;

	for (;;) {
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		bool descended = false;
		long n = 0;

		len = strlen(path);
		if (fd < 0 && (errno != ENOENT || len == root_len))
			return errno == ENOENT ? 0 : -1;
		while (fd >= 0 && !descended &&
		       (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
			long off;

			for (off = 0; off < n; ) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);
				struct stat st;
				bool dir = d->d_type == DT_DIR;

				off += d->d_reclen;
				if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
					continue;
				if (d->d_type == DT_UNKNOWN)
					dir = !fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
					      S_ISDIR(st.st_mode);
				if (!dir) {
					unlinkat(fd, d->d_name, 0);
					continue;
				}
				len = strlen(path);
				if (len + 2 + strlen(d->d_name) > PATH_BUF - 1)
					continue;
				path[len] = '/';
				memcpy(path + len + 1, d->d_name, strlen(d->d_name) + 1);
				descended = true;
				break;
			}
		}
		if (fd >= 0)
			close(fd);
		if (descended)
			continue;
		if (fd >= 0 && rmdir(path) && errno != ENOENT) {
			if (errno == ENOTEMPTY && ++retries < 1000)
				continue;	/* something appeared meanwhile */
			return -1;	/* EROFS, EPERM...: no way forward */
		}
		len = strlen(path);
		if (len == root_len)
			return access(path, F_OK) ? 0 : -1;
		while (len > root_len && path[len] != '/')
			len--;
		path[len] = '\0';
	}
}

/*
 * Async-signal-safe: our run directory and every tree in it.  An undo
 * action of the guard: it may run in the guardian after a SIGKILL, where
 * only @rundir is known.
 */
static void remove_rundir(const char *rundir)
{
	char path[PATH_BUF];

	if (strlen(rundir) >= sizeof(path))
		return;
	memcpy(path, rundir, strlen(rundir) + 1);
	remove_tree(path);
}

static int dirdeep_prepare(char *why, size_t len)
{
	const char *tmp = getenv("TMPDIR");
	unsigned long long avail;

	if (!dd.parent[0])
		snprintf(dd.parent, sizeof(dd.parent), "%s", tmp && *tmp ? tmp : "/tmp");
	/* a long work path only makes the tree shallower; 3000 leaves room */
	snprintf(dd.rundir, sizeof(dd.rundir), "%.3000s/sched_perf-dirdeep.XXXXXX",
		 dd.parent);
	/* never leave a tree behind: not at exit, not on any signal */
	if (!guard_mkdtemp(dd.rundir, remove_rundir)) {
		snprintf(why, len, "cannot create a work directory in %s: %s", dd.parent,
			 strerror(errno));
		dd.rundir[0] = '\0';
		return WL_SKIP;
	}
	avail = free_inodes(dd.rundir);
	if (!dd.inodes || dd.inodes > avail)
		dd.inodes = avail;	/* stress-ng: clamp to the free inodes */
	results = mmap(NULL, dd.instances * sizeof(*results), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	instances = calloc(dd.instances, sizeof(*instances));
	if (results == MAP_FAILED || !instances) {
		fprintf(stderr, "dirdeep: out of memory\n");
		rmdir(dd.rundir);
		return WL_ERROR;
	}
	return 0;
}

static int dirdeep_fit_budget(double seconds)
{
	if (!dd.duration_set)
		dd.duration = seconds;
	return 0;
}

static bool past_deadline(const struct instance *in)
{
	return now_ns() >= in->deadline_ns;
}

/* stress-ng's stop conditions: inode budget, path length, deadline */
static bool build_must_stop(struct instance *in, size_t len)
{
	unsigned long long free;

	if (len + 2 >= PATH_BUF || past_deadline(in))
		return true;
	free = free_inodes(dd.rundir);
	return free < in->inodes_start && in->inodes_start - free > dd.inodes;
}

/*
 * On the way back up: the linkat() variants, then fsync and sync.  As in
 * stress-ng, the O_PATH open of h takes the whole path (its cost is a
 * lookup of every level) and the directory is closed before the sync.
 */
static void link_variants(char *path, size_t len)
{
	int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;

	if (dirfd < 0)
		return;
	linkat(dirfd, "h", dirfd, "a", 0);
	if (!linkat(dirfd, "h", dirfd, "i", ~0))	/* expected: EINVAL */
		unlinkat(dirfd, "i", 0);
	linkat(dirfd, "h", dirfd, "b", AT_SYMLINK_FOLLOW);
	snprintf(path + len, PATH_BUF - len, "/h");
	fd = open(path, O_PATH | O_CLOEXEC);
	path[len] = '\0';
	if (fd >= 0) {			/* needs CAP_DAC_READ_SEARCH */
		linkat(fd, "", dirfd, "c", AT_EMPTY_PATH);
		close(fd);
	}
	if (!linkat(dirfd, "h", dirfd, "u", 0))
		unlinkat(dirfd, "u", 0);
	fsync(dirfd);
	if (dd.sync == SYNC_FS)
		syncfs(dirfd);
	close(dirfd);
	if (dd.sync == SYNC_GLOBAL)
		sync();
}

/* --files empty files beside the sub-tree just built (stress-ng: after each) */
static void make_files(struct instance *in, char *path, size_t len)
{
	unsigned int i;

	for (i = 0; i < dd.files && !past_deadline(in); i++) {
		int fd;

		snprintf(path + len, PATH_BUF - len, "/%-4.4x", i);
		fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600);
		if (fd < 0)
			break;
		close(fd);
	}
	path[len] = '\0';
}

/*
 * 1: stopped (inode budget, path length, deadline or a full filesystem),
 * 0: built, -1: error (printed).  As in stress-ng, a sub-tree that stopped
 * ends its level's siblings (not its parent's), and a build that reaches
 * the deadline unwinds at once: no linkat() variants, fsync or sync on the
 * way back up after it.
 */
static int build(struct instance *in, char *path, size_t len, const char *target)
{
	static const char names[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
	unsigned int i;

	if (build_must_stop(in, len))
		return 1;
	if (mkdir(path, 0700)) {
		switch (errno) {
		case ENOSPC: case ENOMEM: case ENAMETOOLONG:
		case EDQUOT: case EMLINK: case EPERM:
			return 1;	/* the filesystem is full or deep enough */
		}
		fprintf(stderr, "dirdeep: mkdir %.64s...: %s\n", path, strerror(errno));
		return -1;
	}
	in->res->bogo_ops++;
	in->res->mkdirs++;
	wl_test_work();
	if (len == strlen(in->root)) {	/* the link target, <root>/f */
		int fd = creat(target, 0600);

		if (fd >= 0)
			close(fd);
	}
	snprintf(path + len, PATH_BUF - len, "/s");
	symlink(target, path);
	snprintf(path + len, PATH_BUF - len, "/h");
	link(target, path);
	for (i = 0; i < dd.dirs && !past_deadline(in); i++) {
		int ret;

		path[len] = '/';
		path[len + 1] = names[i];
		path[len + 2] = '\0';
		ret = build(in, path, len + 2, target);
		if (ret < 0)
			return -1;
		if (dd.files && len + 6 < PATH_BUF)
			make_files(in, path, len);
		if (ret)
			break;
	}
	path[len] = '\0';
	if (past_deadline(in))
		return 1;
	link_variants(path, len);
	return 0;
}

static uint32_t next_random(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static void touch(struct instance *in, const char *path, const struct timespec *now)
{
	uint16_t r = next_random(&in->rnd);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	in->res->bogo_ops++;	/* counted even when open() fails */
	wl_test_work();
	if (fd < 0)
		return;
	futimens(fd, now);
	if (r >= 0xfff0)
		syncfs(fd);
	else if (r > 0xff40)
		fsync(fd);
	close(fd);
}

/*
 * One level of a pass; stress-ng treats every name starting with a digit
 * or capital as a directory and follows only its first character, and
 * takes the time for futimens() once per level.  Returns false when @path
 * cannot be scanned.
 */
static bool exercise(struct instance *in, char *path, size_t len)
{
	struct timespec now[2];
	struct dirent **list;
	int n, i;

	clock_gettime(CLOCK_REALTIME, &now[0]);
	now[1] = now[0];
	n = scandir(path, &list, NULL, alphasort);
	if (n < 0)
		return false;
	for (i = 0; i < n; i++) {
		const char *name = list[i]->d_name;

		if (!strcmp(name, ".") || !strcmp(name, "..") || past_deadline(in))
			goto next;
		if (isdigit((unsigned char)name[0]) || isupper((unsigned char)name[0])) {
			path[len] = '/';
			path[len + 1] = name[0];
			path[len + 2] = '\0';
			exercise(in, path, len + 2);
		} else if (len + 1 + strlen(name) < PATH_BUF) {
			snprintf(path + len, PATH_BUF - len, "/%s", name);
			touch(in, path, now);
		}
		path[len] = '\0';
next:
		free(list[i]);
	}
	free(list);
	return true;
}

/*
 * stress-ng's removal, inside the timed window, and at its cost: per level
 * a scandir of the whole path, the entries in reverse order (this level's
 * files, then the sub-tree), each file unlinked by its whole path, then
 * rmdir of the whole path.  Errors are remove_tree()'s to find.
 */
static void tidy(char *path, size_t len)
{
	struct dirent **list;
	int n;

	if (len + 2 >= PATH_BUF)
		return;
	n = scandir(path, &list, NULL, alphasort);
	if (n < 0)
		return;
	while (n--) {
		const char *name = list[n]->d_name;
		int ch = (unsigned char)name[0];

		if (ch != '.') {
			snprintf(path + len, PATH_BUF - len, "/%s", name);
			if (!name[1] && (isdigit(ch) || isupper(ch)))
				tidy(path, len + 2);
			else
				unlink(path);
		}
		free(list[n]);
	}
	path[len] = '\0';
	free(list);
	rmdir(path);
}

static int dirdeep_worker(void *arg)
{
	struct instance *in = arg;
	struct inst_result *res = in->res;
	char path[PATH_BUF], link[PATH_BUF];
	uint64_t t0, t1, t2;
	int ret;

	if (barrier_pass(in->barrier))
		return 1;
	t0 = now_ns();
	in->deadline_ns = t0 + wl_test_window_ns(dd.duration * 1e9);
	in->inodes_start = free_inodes(dd.rundir);
	snprintf(path, sizeof(path), "%s", in->root);
	snprintf(link, sizeof(link), "%.3200s/f", in->root);
	ret = build(in, path, strlen(path), link);
	t1 = now_ns();
	while (ret >= 0 && !past_deadline(in)) {
		if (!exercise(in, path, strlen(path)))
			break;
	}
	t2 = now_ns();
	tidy(path, strlen(path));
	/* whatever the tidy left, and the errors it does not look at */
	if (remove_tree(path) && ret >= 0) {
		fprintf(stderr, "dirdeep: cannot remove %.64s...: %s\n", path, strerror(errno));
		ret = -1;
	}
	wl_test_work_done();	/* test only: the clean-up is in the window */
	res->build_ns = t1 - t0;
	res->exercise_ns = t2 - t1;
	res->cleanup_ns = now_ns() - t2;
	res->total_ns = now_ns() - t0;
	return ret < 0;
}

static int dirdeep_run_once(struct wl_result *wr)
{
	struct task_set *ts = task_set_new(TASK_PROCESS, dd.instances);
	struct start_barrier barrier;
	uint64_t total = 0;
	unsigned int i;
	int ret = WL_ERROR;

	if (!ts || barrier_init(&barrier)) {
		fprintf(stderr, "dirdeep: out of memory or fds\n");
		task_set_free(ts);
		return WL_ERROR;
	}
	memset(results, 0, dd.instances * sizeof(*results));
	for (i = 0; i < dd.instances; i++) {
		struct instance *in = &instances[i];

		snprintf(in->root, sizeof(in->root), "%.3100s/tmp-dirdeep-%d-%u",
			 dd.rundir, getpid(), i);
		in->res = &results[i];
		in->barrier = &barrier;
		in->rnd = 0x9e3779b9u ^ i;	/* fixed seeds: --no-rand-seed */
		if (task_set_spawn(ts, dirdeep_worker, in)) {
			fprintf(stderr, "dirdeep: fork failed\n");
			goto out_abort;
		}
	}
	switch (barrier_window(&barrier, dd.instances, ts, NULL)) {
	case WINDOW_NOT_READY:
		fprintf(stderr, "dirdeep: an instance failed before the start\n");
		goto out_abort;
	case WINDOW_FAILED:
		fprintf(stderr, "dirdeep: an instance failed\n");
		goto out_clean;
	}
	wr->ops = 0;
	for (i = 0; i < dd.instances; i++) {
		wr->ops += results[i].bogo_ops;
		total += results[i].total_ns;
		phases.build_ns += results[i].build_ns;
		phases.exercise_ns += results[i].exercise_ns;
		phases.cleanup_ns += results[i].cleanup_ns;
		phases.mkdirs += results[i].mkdirs;
	}
	phases.instance_runs += dd.instances;
	/* stress-ng: bogo-ops over the mean instance wall time */
	wr->elapsed_ns = total / dd.instances;
	ret = 0;
	goto out_clean;
out_abort:
	task_set_abort(ts);
out_clean:
	/* whatever a dead or killed instance left behind */
	for (i = 0; i < dd.instances; i++)
		remove_tree(instances[i].root);
	barrier_destroy(&barrier);
	task_set_free(ts);
	return ret;
}

static const char *fs_name(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return "unknown";
	switch ((unsigned long)sf.f_type) {
	case 0xEF53: return "ext4";
	case 0x58465342: return "xfs";
	case 0x01021994: return "tmpfs";
	case 0x9123683E: return "btrfs";
	default: return "other";
	}
}

static void dirdeep_banner(void)
{
	printf("dirdeep: %u instances, %.1f s, dirs %u, files %u, inode budget %llu, sync %s, in %s (%s)\n",
	       dd.instances, dd.duration, dd.dirs, dd.files, dd.inodes,
	       sync_names[dd.sync], dd.rundir, fs_name(dd.rundir));
}

static void dirdeep_report_iteration(const struct wl_result *wr)
{
	double build = 0, exercise = 0, cleanup = 0, secs = wr->elapsed_ns / 1e9;
	unsigned int i;

	for (i = 0; i < dd.instances; i++) {
		build += results[i].build_ns / 1e9 / dd.instances;
		exercise += results[i].exercise_ns / 1e9 / dd.instances;
		cleanup += results[i].cleanup_ns / 1e9 / dd.instances;
	}
	printf("dirdeep: %llu bogo ops in %.2f s (build %.2f s, exercise %.2f s, cleanup %.2f s), %.2f bogo ops/s\n",
	       (unsigned long long)wr->ops, secs, build, exercise, cleanup,
	       secs > 0 ? wr->ops / secs : 0);
}

static void dirdeep_publish(const struct wl_summary *s,
			    void (*add)(const char *name, const char *unit, double v))
{
	double n = phases.instance_runs ? phases.instance_runs : 1;

	/* stress-ng.dirdeep.ops_per_sec is the median bogo-ops/s here */
	add("build_s", "s", phases.build_ns / 1e9 / n);
	add("exercise_s", "s", phases.exercise_ns / 1e9 / n);
	add("cleanup_s", "s", phases.cleanup_ns / 1e9 / n);
	add("mkdirs_per_instance", "", phases.mkdirs / n);
	add("instances", "", dd.instances);
}

static const char *const dirdeep_variants[] = {
	"sync-global", "sync-syncfs", "sync-none", NULL,
};

static const char *dirdeep_variant(void)
{
	return dirdeep_variants[dd.sync];
}

const struct workload dirdeep_workload = {
	.name = "dirdeep",
	.op_name = "bogo-op (mkdir, or entry opened)",
	.ops_name = "bogo_ops",
	.opts = dirdeep_opts,
	.default_nr_threads_pct = 10,
	/* the build alone takes seconds: fewer, longer iterations */
	.default_iterations = 3,
	.default_budget = 30,
	.variants = dirdeep_variants,
	.set_instances = dirdeep_set_instances,
	.prepare = dirdeep_prepare,
	.fit_budget = dirdeep_fit_budget,
	.banner = dirdeep_banner,
	.run_once = dirdeep_run_once,
	.report_iteration = dirdeep_report_iteration,
	.publish = dirdeep_publish,
	.variant = dirdeep_variant,
};
