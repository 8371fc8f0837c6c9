// SPDX-License-Identifier: GPL-2.0
/*
 * In-boot A/B knob: sched features and PATH=VALUE knobs.  See ab.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"
#include "fileio.h"
#include "guard.h"
#include "mounts.h"

#define DEBUGFS		DEBUGFS_DIR
#define FEATURES	DEBUGFS "/sched/features"

/* Is @name (without NO_) a feature, and is it on?  -1 when unknown. */
static int feature_state(const char *features, const char *name)
{
	char copy[4096], *tok, *save;

	snprintf(copy, sizeof(copy), "%s", features);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, name))
			return 1;
		if (!strncmp(tok, "NO_", 3) && !strcmp(tok + 3, name))
			return 0;
	}
	return -1;
}

static bool valid_feature_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static int open_feature(struct ab_knob *k, const char *spec, char *why, size_t len)
{
	const char *name = strncmp(spec, "NO_", 3) ? spec : spec + 3;
	bool want_on = name == spec;
	char features[4096];
	int on;

	if (!valid_feature_name(spec)) {
		snprintf(why, len, "--ab: '%s' is neither a sched feature name (e.g. NO_RUN_TO_PARITY) nor PATH=VALUE",
			 spec);
		return AB_BAD_INPUT;
	}
	mounts_debugfs();
	if (fileio_first_line(FEATURES, features, sizeof(features))) {
		snprintf(why, len, "cannot read %s: %s (CONFIG_SCHED_DEBUG=n, debugfs not mounted, or not root)",
			 FEATURES, strerror(errno));
		return AB_SKIP;
	}
	on = feature_state(features, name);
	if (on < 0) {
		snprintf(why, len, "--ab: no sched feature '%s' in this kernel's %s", name,
			 FEATURES);
		return AB_BAD_INPUT;
	}
	if (on == want_on) {
		snprintf(why, len, "--ab: %s is already in effect: A and B would be the same",
			 spec);
		return AB_BAD_INPUT;
	}
	snprintf(k->path, sizeof(k->path), "%s", FEATURES);
	snprintf(k->a, sizeof(k->a), "%s%s", on ? "" : "NO_", name);
	snprintf(k->b, sizeof(k->b), "%s", spec);
	/* writing A back changes nothing and tells whether we may write */
	if (guard_write_file(FEATURES, k->a)) {
		snprintf(why, len, "sched features are not writable here (%s: %s)", FEATURES,
			 strerror(errno));
		return AB_SKIP;
	}
	return 0;
}

/*
 * Where a knob may live: sysctls, the scheduler's debugfs, and module (or
 * core kernel) parameters, e.g. kernel/test's
 * /sys/module/kernel/parameters/sched_test_cost_ns.
 */
static bool knob_place(const char *spec)
{
	const char *param;

	if (!strncmp(spec, "/proc/sys/", 10) || !strncmp(spec, DEBUGFS "/sched/", 23))
		return true;
	if (strncmp(spec, "/sys/module/", 12))
		return false;
	param = strchr(spec + 12, '/');
	return param && param > spec + 12 && !strncmp(param, "/parameters/", 12) &&
	       param[12] && param[12] != '=';
}

static int open_path(struct ab_knob *k, const char *spec, char *why, size_t len)
{
	const char *eq = strchr(spec, '=');
	size_t plen = eq - spec;

	if (plen >= sizeof(k->path) || strlen(eq + 1) >= sizeof(k->b) || !eq[1] ||
	    !knob_place(spec) || strstr(spec, "/../")) {
		snprintf(why, len, "--ab: '%s': PATH=VALUE needs a non-empty VALUE and a PATH under /proc/sys/, %s/sched/ or /sys/module/*/parameters/",
			 spec, DEBUGFS);
		return AB_BAD_INPUT;
	}
	memcpy(k->path, spec, plen);
	k->path[plen] = '\0';
	snprintf(k->b, sizeof(k->b), "%s", eq + 1);
	if (!strncmp(k->path, DEBUGFS, strlen(DEBUGFS)))
		mounts_debugfs();
	if (fileio_first_line(k->path, k->a, sizeof(k->a))) {
		int e = errno;

		snprintf(why, len, "cannot read %s: %s", k->path, strerror(e));
		/* no such knob, or a directory: a mistake, not this kernel */
		return e == ENOENT || e == EISDIR || e == EINVAL ? AB_BAD_INPUT : AB_SKIP;
	}
	if (!strcmp(k->a, k->b)) {
		snprintf(why, len, "--ab: %s is already %s: A and B would be the same",
			 k->path, k->b);
		return AB_BAD_INPUT;
	}
	if (guard_write_file(k->path, k->a)) {
		snprintf(why, len, "%s is not writable here: %s", k->path, strerror(errno));
		return AB_SKIP;
	}
	return 0;
}

int ab_open(struct ab_knob *k, const char *spec, char *why, size_t len)
{
	int ret;

	memset(k, 0, sizeof(*k));
	k->undo = -1;
	snprintf(k->spec, sizeof(k->spec), "%s", spec);
	ret = strchr(spec, '=') ? open_path(k, spec, why, len) :
	      open_feature(k, spec, why, len);
	if (ret)
		return ret;
	/* from now on A comes back whatever happens */
	k->undo = guard_write_back(k->path, k->a);
	return 0;
}

int ab_set(struct ab_knob *k, bool side_b)
{
	return guard_write_file(k->path, side_b ? k->b : k->a);
}

void ab_close(struct ab_knob *k)
{
	guard_done(k->undo);
	k->undo = -1;
}
