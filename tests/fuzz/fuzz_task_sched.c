// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: task_sched_parse() and task_schedstat_parse()
 * (schedstat.c), the readers of /proc/<pid>/sched and
 * /proc/<pid>/schedstat.  The input is the sched text, then after a NUL
 * the schedstat text (else the same text for both).
 */
#include "fuzz.h"
#include "schedstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct task_sched ts, before, sum = { 0 };
	char *sched, *schedstat;
	int r;

	fuzz_split(data, size, &sched, &schedstat);
	r = task_sched_parse(sched, &ts);
	FUZZ_CHECK(r == 0 || r == -1, "task_sched_parse returned %d", r);
	/* the file always has se.nr_migrations; without it, it is not one */
	FUZZ_CHECK(r || strstr(sched, "nr_migrations"), "parsed a text without nr_migrations");
	FUZZ_CHECK(!ts.has_run_delay, "task_sched_parse set has_run_delay");

	before = ts;
	r = task_schedstat_parse(schedstat, &ts);
	FUZZ_CHECK(r == 0 || r == -1, "task_schedstat_parse returned %d", r);
	if (r)
		FUZZ_CHECK(!memcmp(&before, &ts, sizeof(ts)),
			   "task_schedstat_parse failed but changed the figures");
	else
		FUZZ_CHECK(ts.has_run_delay, "task_schedstat_parse: no has_run_delay");

	/* sums and differences of tasks: adding then taking away is a no-op */
	task_sched_add(&sum, &ts);
	task_sched_add(&sum, &ts);
	task_sched_sub(&sum, &ts);
	FUZZ_CHECK(sum.nr_migrations == ts.nr_migrations && sum.pcount == ts.pcount &&
		   sum.wait_sum_ns == ts.wait_sum_ns, "add then sub is not a no-op");
	free(sched);
	free(schedstat);
	return 0;
}
