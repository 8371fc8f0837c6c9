/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the unit test files share: the kernel's kselftest_harness.h, which
 * registers each TEST() and runs it in a child of its own, and the few
 * checks and helpers it lacks.
 *
 * One program, one translation unit: the 6.12 harness keeps its test list
 * in static variables (_fixture_global, __fixture_list), one list per
 * translation unit, so tests compiled apart and linked together would
 * not reach TEST_HARNESS_MAIN's list.  sched_perf_unit.c includes every
 * unit_*.c file instead; a file's static names are therefore the
 * program's, and two files must not define the same one.
 */
#ifndef SCHED_PERF_UNIT_H
#define SCHED_PERF_UNIT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * The harness's EXPECT_EQ(expected, seen) compares the two as their own
 * types: an enum's constant (int) against a variable of the enum
 * (unsigned here), or 1 against an unsigned count, warns under the
 * suite's -Wextra though the comparison is right; -Wsign-compare is off
 * for the unit tests' one translation unit.
 */
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "../kselftest_harness.h"

#include "compare.h"
#include "runset.h"
#include "verdict.h"

/*
 * The harness's EXPECT_*() and ASSERT_*() are two statements (the check,
 * then a for loop that runs a following TH_LOG() and stops an ASSERT):
 * under an unbraced for or if only the first is guarded, so the log runs
 * once after the loop and an ASSERT stops late.  A loop that logs or
 * asserts has a body of its own statements (the value first, then the
 * check); a bare EXPECT_*() may stay unbraced.  The macros below are one
 * statement each.
 *
 * The harness's EXPECT_EQ() and kin print integers: a double there prints
 * truncated.  EXPECT_NEAR() checks that @a and @b are equal (equal
 * infinities too) or |a - b| <= tol, and logs both doubles in full and
 * the tolerance; a NaN on either side fails.
 */
#define EXPECT_NEAR(a, b, tol) do {					\
	double __near_a = (a), __near_b = (b), __near_tol = (tol);	\
	bool within_tolerance = __near_a == __near_b ||			\
				fabs(__near_a - __near_b) <= __near_tol; \
	EXPECT_TRUE(within_tolerance)					\
		TH_LOG("%s = %.17g, %s = %.17g, tolerance %g",		\
		       #a, __near_a, #b, __near_b, __near_tol);		\
} while (0)

/*
 * Two doubles in order: EXPECT_DBL(p, <, 0.05) fails like EXPECT_LT() and
 * logs both in full, where the harness's would print them as integers.
 */
#define EXPECT_DBL(a, op, b) do {					\
	double __dbl_a = (a), __dbl_b = (b);				\
	bool in_order = __dbl_a op __dbl_b;				\
	EXPECT_TRUE(in_order)						\
		TH_LOG("%s = %.17g, %s = %.17g", #a, __dbl_a, #b, __dbl_b); \
} while (0)

/*
 * @s in @buf (room @len) on one line: a newline as \n, a tab as \t.  The
 * texts the checks below log are KTAP themselves; a line of theirs
 * logged as it is ("not ok 1 ...") would read as a result of the unit
 * tests' own document.
 */
static inline const char *unit_one_line(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 3 < len; s++) {
		if (*s == '\n' || *s == '\t') {
			buf[n++] = '\\';
			buf[n++] = *s == '\n' ? 'n' : 't';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return buf;
}

/*
 * A text holds (or lacks) a piece: the piece and the whole text logged,
 * one line each, when not, so a KTAP line that moved shows where it went.
 */
#define __UNIT_TEXT_CHECK(text, piece, want, verb) do {			\
	const char *__c_text = (text), *__c_piece = (piece);		\
	char __c_p[512], __c_t[8192];					\
	bool text_holds_piece = strstr(__c_text, __c_piece) != NULL;	\
	EXPECT_EQ(want, text_holds_piece)				\
		TH_LOG("%s %s \"%s\"; it is: %s", #text, verb,		\
		       unit_one_line(__c_piece, __c_p, sizeof(__c_p)),	\
		       unit_one_line(__c_text, __c_t, sizeof(__c_t)));	\
} while (0)
#define EXPECT_CONTAINS(text, piece) __UNIT_TEXT_CHECK(text, piece, true, "lacks")
#define EXPECT_LACKS(text, piece) __UNIT_TEXT_CHECK(text, piece, false, "holds")

/*
 * The fixture directory (runset/, bounds/, schedstat-*, fuzz/...): the
 * environment's SCHED_PERF_UNIT_FIXTURES, else "fixtures" beside the
 * program, as make build and make install leave it.
 */
const char *unit_fixtures(void);

/* Fixture @name of the fixture directory, whole, or NULL (why in @err). */
char *unit_fixture_read(const char *name, char *err, size_t len);

/* Fixture @name, whole; the test ends as failed when it is unreadable. */
#define unit_fixture(name) ({						\
	char __f_err[640], *__f_text;					\
	__f_text = unit_fixture_read((name), __f_err, sizeof(__f_err));	\
	ASSERT_NE(NULL, __f_text) TH_LOG("fixture %s", __f_err);	\
	__f_text;							\
})

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

#endif
