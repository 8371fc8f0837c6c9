// SPDX-License-Identifier: GPL-2.0
/*
 * What a run leaves behind: its results file (--results), its baseline
 * (--save) and, with --ab, the A side beside it.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "outputs.h"
#include "results.h"
#include "sysinfo.h"
#include "verdict.h"

void outputs_identity(const struct workload *wl, const char *options, struct runset *rs)
{
	struct utsname u;

	runset_init(rs, wl->name);
	snprintf(rs->variant, sizeof(rs->variant), "%s", wl->variant());
	snprintf(rs->options, sizeof(rs->options), "%s", options);
	rs->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	sysinfo_kconfig(rs->kconfig, sizeof(rs->kconfig));
	if (!uname(&u))
		snprintf(rs->kernel, sizeof(rs->kernel), "%s", u.release);
}

void outputs_write(const char *opt, const char *path, const struct workload *wl,
		   const struct measure_meta *meta, const struct runset *rs,
		   const struct wl_result *res, unsigned int n,
		   const struct metric_set *set)
{
	struct results *r;
	char key[128], err[PATH_MAX + 128];
	unsigned int i;

	if (!path[0])
		return;
	r = results_open(path, err, sizeof(err));
	if (!r) {
		verdict_lost("%s: %s not written: %s", wl->name, opt, err);
		return;
	}
	for (i = 0; i < meta->nr; i++) {
		/* the run set says these, once */
		if (!strcmp(meta->kv[i].key, "kernel") || !strcmp(meta->kv[i].key, "nr_cpus"))
			continue;
		snprintf(key, sizeof(key), "meta.%s", meta->kv[i].key);
		results_text(r, key, meta->kv[i].value);
	}
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s.time.%u", wl->name, i + 1);
		results_number(r, key, res[i].elapsed_ns / 1e9);
	}
	results_metrics(r, wl->name, set);
	runset_write(rs, r);
	if (results_commit(r, err, sizeof(err)))
		verdict_lost("%s: %s not written: %s", wl->name, opt, err);
	else
		verdict_note("results: %s\n", path);
}

void outputs_save_a_side(const char *save, const char *ab, const struct workload *wl,
			 const struct measure_meta *meta, const struct runset *a_side)
{
	static struct metric_set none;
	char path[PATH_MAX + 2];

	if (!save[0] || !ab[0])
		return;
	snprintf(path, sizeof(path), "%s.a", save);
	outputs_write("--save (A side)", path, wl, meta, a_side, NULL, 0, &none);
}
