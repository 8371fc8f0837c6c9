/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit test files of sched_perf_unit share: how a test registers
 * itself and how it checks.
 */
#ifndef SCHED_PERF_UNIT_H
#define SCHED_PERF_UNIT_H

#include <stdbool.h>
#include <stddef.h>

#include "compare.h"
#include "runset.h"
#include "verdict.h"

/*
 * A unit test registers itself, as kselftest_harness.h's TEST() does:
 *
 *	UNIT_TEST(schedstat_wrap)
 *	{
 *		ASSERT(!parse(...), "schedstat_wrap_fixture_parses");
 *		EXPECT(d.sched_count == 1010, "schedstat_diff_wraps_32bit");
 *	}
 *
 * sched_perf_unit plans one KTAP result per registered test and runs each
 * in a child of its own, so a crash or an exit fails that test only.  A
 * test passes when it made at least one check and none failed; a failed
 * EXPECT is named on a "# " line, a failed ASSERT also ends the test (what
 * follows would read what the failed step did not make).
 */
struct unit_test {
	const char *name;
	void (*run)(void);
	struct unit_test *next;
};

void unit_register(struct unit_test *test);

#define UNIT_TEST(test_name)						\
	static void test_name##_run(void);				\
	static struct unit_test test_name##_test = {			\
		.name = #test_name,					\
		.run = test_name##_run,					\
	};								\
	static void __attribute__((constructor)) test_name##_register(void) \
	{								\
		unit_register(&test_name##_test);			\
	}								\
	static void test_name##_run(void)

/* One check named @check; false when it failed.  @cond is evaluated once. */
bool unit_expect(bool ok, const char *check, const char *cond);
/* Ends the running test as failed. */
__noreturn void unit_stop(void);

#define EXPECT(cond, check)	unit_expect((cond), (check), #cond)
#define ASSERT(cond, check)						\
	do {								\
		if (!unit_expect((cond), (check), #cond))		\
			unit_stop();					\
	} while (0)

/* The fixture directory: runset/, bounds/, schedstat-*, fuzz/... */
extern const char *unit_fixtures;

/* One rule (@metric, @change) of @old against @new under @params; the verdict. */
enum cmp_verdict unit_judge(const struct runset *old, const struct runset *new,
			    const char *metric, double change,
			    const struct cmp_params *params, struct cmp_result *r);

/*
 * @report(@arg) in a child whose stdout goes to @out (room @len): the KTAP
 * lines the verdict layer printed.  The child's exit code, -1 when it
 * died; @report ends with verdict_finish() or returns (exit 0).
 */
int unit_capture(void (*report)(void *arg), void *arg, char *out, size_t len);

/* Fixture @name of the fixture directory, whole; exits when unreadable. */
char *unit_fixture(const char *name);

#endif
