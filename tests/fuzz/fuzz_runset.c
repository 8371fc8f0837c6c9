// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: runset_load() (runset.c), the reader of a saved run (the
 * --baseline FILE of every program, both operands of sched_perf_compare),
 * and what follows a load that succeeds: runset_compatible(), a
 * comparison (compare_runsets()) and the round trip through runset_write().
 */
#include <math.h>

#include "compare.h"
#include "fuzz.h"
#include "results.h"
#include "runset.h"

static char dir[256];

static void check_loaded(const struct runset *rs)
{
	unsigned int i, j;

	FUZZ_CHECK(rs->nr_metrics >= 1 && rs->nr_metrics <= METRICS_MAX,
		   "%u metrics", rs->nr_metrics);
	FUZZ_CHECK(rs->workload[0], "loaded without a workload");
	FUZZ_CHECK(rs->nr_cpus > 0, "loaded with nr_cpus 0");
	for (i = 0; i < rs->nr_metrics; i++) {
		const struct runset_metric *m = &rs->m[i];

		FUZZ_CHECK(m->name[0] && memchr(m->name, '\0', sizeof(m->name)),
			   "metric %u has no name", i);
		FUZZ_CHECK(m->n >= 1 && m->n <= RUNSET_MAX_RUNS && m->n == rs->m[0].n,
			   "%s: %u runs, first metric %u", m->name, m->n, rs->m[0].n);
		for (j = 0; j < m->n; j++)
			FUZZ_CHECK(isfinite(m->v[j]), "%s: run %u not finite", m->name, j);
		FUZZ_CHECK(runset_find(rs, m->name) == m, "%s: found elsewhere", m->name);
	}
}

/* Identical sides: nothing moved, so no regression and no improvement. */
static void compare_with_itself(const struct runset *rs)
{
	static struct cmp_result res[METRICS_MAX];
	static struct cmp_rule rules[METRICS_MAX];
	static struct runset other;
	unsigned int i, regressed;
	char err[256];

	FUZZ_CHECK(!runset_compatible(rs, rs, err, sizeof(err)),
		   "incompatible with itself: %s", err);
	/* against another run: what differs is said in one clear line */
	runset_init(&other, "hackbench");
	snprintf(other.variant, sizeof(other.variant), "pipe-process");
	snprintf(other.options, sizeof(other.options), "-g 4 --pipe");
	other.nr_cpus = 4;
	memset(err, 'x', sizeof(err));
	if (runset_compatible(rs, &other, err, sizeof(err)))
		fuzz_error_line("runset_compatible", err, sizeof(err), NULL);
	for (i = 0; i < rs->nr_metrics; i++) {
		snprintf(rules[i].metric, sizeof(rules[i].metric), "%s", rs->m[i].name);
		rules[i].change = i % 2 ? 0.05 : -0.05;
	}
	regressed = compare_runsets(rs, rs, rules, rs->nr_metrics, NULL, res);
	FUZZ_CHECK(!regressed, "%u metrics regressed against themselves", regressed);
	for (i = 0; i < rs->nr_metrics; i++) {
		/* no move against itself; few or noisy runs may not show "same" */
		FUZZ_CHECK(res[i].verdict == CMP_SAME || res[i].verdict == CMP_NOISY ||
			   res[i].verdict == CMP_TOO_FEW || res[i].verdict == CMP_UNDECIDED ||
			   res[i].verdict == CMP_DRIFTING, "%s: %s against itself: %s",
			   res[i].metric, cmp_verdict_name(res[i].verdict), res[i].why);
		FUZZ_CHECK(memchr(res[i].why, '\0', sizeof(res[i].why)) &&
			   !strchr(res[i].why, '\n'), "%s: why is not one line", res[i].metric);
	}
}

/* What was loaded, written again, loads again, and the same. */
static void round_trip(const struct runset *rs)
{
	static struct runset again;
	struct results *r;
	char path[sizeof(dir) + 8], err[1024];
	unsigned int i;

	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");

		/* the runner points TMPDIR at its work directory */
		snprintf(dir, sizeof(dir), "%s/runset-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		FUZZ_CHECK(mkdtemp(dir), "mkdtemp %s failed", dir);
	}
	snprintf(path, sizeof(path), "%s/rs", dir);
	r = results_open(path, err, sizeof(err));
	FUZZ_CHECK(r, "results_open %s failed: %s", path, err);
	runset_write(rs, r);
	FUZZ_CHECK(!results_commit(r, err, sizeof(err)), "results_commit %s failed: %s", path, err);
	if (runset_load(path, &again, err, sizeof(err)))
		FUZZ_CHECK(0, "written run set does not load again: %s", err);
	FUZZ_CHECK(again.nr_metrics == rs->nr_metrics && again.nr_cpus == rs->nr_cpus &&
		   !strcmp(again.workload, rs->workload) &&
		   !strcmp(again.variant, rs->variant) &&
		   !strcmp(again.options, rs->options) &&
		   !strcmp(again.kconfig, rs->kconfig), "identity changed on the way");
	for (i = 0; i < rs->nr_metrics; i++)
		FUZZ_CHECK(!strcmp(again.m[i].name, rs->m[i].name) &&
			   again.m[i].n == rs->m[i].n, "%s changed on the way", rs->m[i].name);
	runset_free(&again);
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct runset rs;
	const char *path = fuzz_file(data, size);
	char err[1024], prefix[80];

	memset(err, 'x', sizeof(err));
	if (runset_load(path, &rs, err, sizeof(err))) {
		snprintf(prefix, sizeof(prefix), "%s:", path);
		fuzz_error_line("runset_load", err, sizeof(err), prefix);
		FUZZ_CHECK(!rs.nr_metrics, "failed load left %u metrics", rs.nr_metrics);
		runset_free(&rs);
		return 0;
	}
	check_loaded(&rs);
	compare_with_itself(&rs);
	round_trip(&rs);
	runset_free(&rs);
	return 0;
}
