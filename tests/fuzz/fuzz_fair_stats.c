// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: fair_stats_parse() and fair_stats_diff() (fairstats.c),
 * the reader of debugfs sched/fair_stats.  The input is one snapshot, or
 * two separated by a NUL (before and after a run).
 */
#include "fairstats.h"
#include "fuzz.h"

static void parse(const char *text, struct fair_stats *fs, bool *ok)
{
	char err[160];
	size_t i;

	memset(err, 'x', sizeof(err));
	*ok = !fair_stats_parse(text, fs, err, sizeof(err));
	if (!*ok) {
		fuzz_error_line("fair_stats_parse", err, sizeof(err), NULL);
		FUZZ_CHECK(fuzz_zeroed(fs, sizeof(*fs)), "failed (%s) but @fs not zeroed", err);
		return;
	}
	FUZZ_CHECK(fs->version >= 1, "version 0 accepted");
	FUZZ_CHECK(fs->nr_cpus >= 1 && fs->cpus, "parsed without a row");
	for (i = 0; i < fs->nr_cpus; i++) {
		FUZZ_CHECK(fs->cpus[i].cpu < FAIR_STATS_MAX_CPUS, "cpu%u", fs->cpus[i].cpu);
		FUZZ_CHECK(!i || fs->cpus[i - 1].cpu < fs->cpus[i].cpu,
			   "rows not ascending and unique at %zu", i);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fair_stats a, b;
	struct fair_stats_delta d;
	char *ta, *tb, err[160];
	bool ok_a, ok_b;
	int r;

	fuzz_split(data, size, &ta, &tb);
	parse(ta, &a, &ok_a);
	parse(tb, &b, &ok_b);
	if (ok_a) {
		/* a snapshot against itself: every CPU matched, nothing moved */
		r = fair_stats_diff(&a, &a, &d, err, sizeof(err));
		FUZZ_CHECK(!r && d.nr_cpus == a.nr_cpus, "diff with itself: %d, %zu of %zu CPUs",
			   r, d.nr_cpus, a.nr_cpus);
		for (r = 0; r < FC_COUNT; r++)
			FUZZ_CHECK(!d.v[r], "%s moved against itself", fair_counter_names[r]);
	}
	/* a failed parse leaves an empty snapshot: diff must say so, not crash */
	memset(err, 'x', sizeof(err));
	r = fair_stats_diff(&a, &b, &d, err, sizeof(err));
	if (r) {
		FUZZ_CHECK(r == -1, "fair_stats_diff returned %d", r);
		fuzz_error_line("fair_stats_diff", err, sizeof(err), NULL);
		FUZZ_CHECK(fuzz_zeroed(&d, sizeof(d)), "failed diff (%s) left figures", err);
	} else {
		FUZZ_CHECK(ok_a && ok_b && d.nr_cpus == a.nr_cpus && a.nr_cpus == b.nr_cpus,
			   "diff of %zu and %zu CPUs gave %zu", a.nr_cpus, b.nr_cpus, d.nr_cpus);
	}
	fair_stats_free(&a);
	fair_stats_free(&b);
	fair_stats_free(&a);
	free(ta);
	free(tb);
	return 0;
}
