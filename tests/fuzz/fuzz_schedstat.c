// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: schedstat_parse() and schedstat_diff() (schedstat.c).
 * The input is one /proc/schedstat text, or two separated by a NUL (the
 * snapshots before and after a run).
 */
#include "fuzz.h"
#include "schedstat.h"

static void parse(const char *text, struct schedstat *ss, bool *ok)
{
	char err[128];

	memset(err, 'x', sizeof(err));
	*ok = !schedstat_parse(text, ss, err, sizeof(err));
	if (!*ok) {
		fuzz_error_line("schedstat_parse", err, sizeof(err), NULL);
		FUZZ_CHECK(!ss->cpus && !ss->domains && !ss->nr_cpus && !ss->nr_domains,
			   "schedstat_parse failed (%s) but left rows", err);
		return;
	}
	FUZZ_CHECK(ss->version >= 15 && ss->version <= 17, "version %u accepted",
		   ss->version);
	FUZZ_CHECK(ss->nr_cpus && ss->cpus, "parsed without a cpu line");
	FUZZ_CHECK(!ss->nr_domains || ss->domains, "domains counted, none stored");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct schedstat a, b;
	struct schedstat_delta d;
	char *ta, *tb;
	bool ok_a, ok_b;

	fuzz_split(data, size, &ta, &tb);
	parse(ta, &a, &ok_a);
	parse(tb, &b, &ok_b);
	if (ok_a) {
		/* a snapshot against itself: same topology, nothing moved */
		FUZZ_CHECK(!schedstat_diff(&a, &a, &d), "a snapshot differs from itself");
		FUZZ_CHECK(fuzz_zeroed(&d, sizeof(d)), "a snapshot moved against itself");
	}
	if (ok_a && ok_b) {
		int r = schedstat_diff(&a, &b, &d);

		FUZZ_CHECK(r == 0 || r == -1, "schedstat_diff returned %d", r);
	}
	schedstat_free(&a);
	schedstat_free(&b);
	/* free twice: what a caller that frees on every path does */
	schedstat_free(&a);
	free(ta);
	free(tb);
	return 0;
}
