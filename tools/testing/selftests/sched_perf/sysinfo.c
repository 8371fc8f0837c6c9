// SPDX-License-Identifier: GPL-2.0
/*
 * Facts about the system a run ran on: the kernel, its CPUs, preemption
 * model, sched features and the digest of its scheduler config.  See
 * sysinfo.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "compiler.h"
#include "fileio.h"
#include "mounts.h"
#include "sysinfo.h"

const char *debugfs_unreadable(const char *path)
{
	static char why[160];
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return "read failed";
	}
	if (errno == ENOENT && access(DEBUGFS_DIR "/sched", F_OK))
		return geteuid() ? "debugfs not mounted (mounted for the run only as root)" :
				   "debugfs cannot be mounted, or CONFIG_SCHED_DEBUG=n";
	snprintf(why, sizeof(why), "%s: %s", path, strerror(errno));
	return why;
}

/* The current mode is the one in parentheses: "none (voluntary) full". */
static void describe_preemption(struct measure_meta *meta)
{
	struct utsname u;
	char line[128], *open_paren, *close_paren;

	if (!fileio_first_line(DEBUGFS_DIR "/sched/preempt", line, sizeof(line))) {
		open_paren = strchr(line, '(');
		close_paren = open_paren ? strchr(open_paren, ')') : NULL;
		if (close_paren) {
			*close_paren = '\0';
			meta_add(meta, "preempt", "%s (dynamic)", open_paren + 1);
			return;
		}
	}
	uname(&u);
	if (strstr(u.version, "PREEMPT_RT"))
		meta_add(meta, "preempt", "%s", "rt");
	else if (strstr(u.version, "PREEMPT_DYNAMIC"))
		meta_add(meta, "preempt", "dynamic (mode unknown: %s)",
			 debugfs_unreadable(DEBUGFS_DIR "/sched/preempt"));
	else if (strstr(u.version, "PREEMPT"))
		meta_add(meta, "preempt", "%s", "full");
	else
		meta_add(meta, "preempt", "%s", "none or voluntary");
}

void sysinfo_describe(struct measure_meta *meta)
{
	char buf[512], nr[16];
	struct utsname u;

	uname(&u);
	meta_add(meta, "kernel", "%s", u.release);
	snprintf(nr, sizeof(nr), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	meta_add(meta, "nr_cpus", "%s", nr);
	describe_preemption(meta);
	if (!fileio_first_line(DEBUGFS_DIR "/sched/features", buf, sizeof(buf)))
		meta_add(meta, "sched_features", "%s", buf);
	else
		meta_add(meta, "sched_features", "unreadable: %s",
			 debugfs_unreadable(DEBUGFS_DIR "/sched/features"));
}

/*
 * The kernel config options that change how tasks are scheduled: the
 * preemption model, the tick, SMP topology levels, group scheduling and
 * NUMA balancing, and the statistics the suite's figures come from.
 * Everything else (drivers, filesystems, debugging aids) differs between
 * two builds of one scheduler for reasons that do not move these figures,
 * and would make every rebuilt kernel look like another machine.
 */
static const char *const sched_options[] = {
	"CONFIG_SCHEDSTATS", "CONFIG_SCHED_DEBUG", "CONFIG_PREEMPT",
	"CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT_NONE",
	"CONFIG_PREEMPT_DYNAMIC", "CONFIG_HZ", "CONFIG_NO_HZ_FULL",
	"CONFIG_NO_HZ_IDLE", "CONFIG_SMP", "CONFIG_NR_CPUS",
	"CONFIG_SCHED_SMT", "CONFIG_SCHED_MC", "CONFIG_SCHED_AUTOGROUP",
	"CONFIG_CGROUP_SCHED", "CONFIG_FAIR_GROUP_SCHED", "CONFIG_NUMA",
	"CONFIG_PREEMPT_RT",
};

#define KCONFIG_LINES 64

static bool sched_option(const char *line)
{
	unsigned int i;
	size_t n;

	for (i = 0; i < ARRAY_SIZE(sched_options); i++) {
		n = strlen(sched_options[i]);
		if (!strncmp(line, sched_options[i], n) && line[n] == '=')
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sysinfo_kconfig_digest(FILE *f, char *out, size_t len)
{
	char line[256], *lines[KCONFIG_LINES];
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a 64-bit offset basis */
	unsigned int n = 0, i;
	const char *p;

	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (n < KCONFIG_LINES && sched_option(line))
			lines[n++] = strdup(line);
	}
	for (i = 0; i < n; i++)
		if (!lines[i]) {
			n = 0;		/* out of memory: say nothing */
			break;
		}
	qsort(lines, n, sizeof(lines[0]), cmp_str);
	for (i = 0; i < n; i++) {
		for (p = lines[i]; *p; p++) {
			h ^= (unsigned char)*p;
			h *= 0x100000001b3ULL;
		}
		h ^= '\n';
		h *= 0x100000001b3ULL;
	}
	for (i = 0; i < n; i++)
		free(lines[i]);
	if (n)
		snprintf(out, len, "%016llx", (unsigned long long)h);
	return n;
}

void sysinfo_kconfig(char *out, size_t len)
{
	struct utsname u;
	char path[320];
	FILE *f;
	int n;

	snprintf(out, len, "unknown");
	if (!access("/proc/config.gz", R_OK)) {
		f = popen("zcat /proc/config.gz 2>/dev/null", "r");
		if (f) {
			char digest[32];

			n = sysinfo_kconfig_digest(f, digest, sizeof(digest));
			/* a zcat that failed half way gave a partial config */
			if (!pclose(f) && n > 0) {
				snprintf(out, len, "%s", digest);
				return;
			}
		}
	}
	if (uname(&u))
		return;
	snprintf(path, sizeof(path), "/boot/config-%s", u.release);
	f = fopen(path, "r");
	if (!f)
		return;
	sysinfo_kconfig_digest(f, out, len);
	fclose(f);
}
