#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sched_perf_unit's runner: the plan is what registered, each test runs in
# a child of its own, and a test fails when a check fails, when it ends
# early (a failed ASSERT, an exit, a signal) or when it checks nothing.
# Built here with a case file of such tests beside the real runner; then
# the real sched_perf_unit plans exactly the UNIT_TESTs of its sources.
# Usage: unit_runner.sh INTREE
set -u
. "$(dirname "$0")/lib.sh"
intree=${1:?usage: unit_runner.sh INTREE}
lib=$intree/core/libsched_perf.a
[ -f "$lib" ] || fail "no $lib: build the suite first"
command -v cc >/dev/null || skip "no C compiler"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/cases.c" <<'C'
#include <signal.h>
#include <stdlib.h>
#include "unit.h"

UNIT_TEST(case_passes) { EXPECT(1, "one"); EXPECT(2 > 1, "two"); }
UNIT_TEST(case_expect_fails)
{
	EXPECT(1, "first");
	EXPECT(1 == 2, "second");
	EXPECT(1, "third runs all the same");
}
UNIT_TEST(case_assert_stops)
{
	int *p = NULL;

	ASSERT(p, "pointer");
	EXPECT(*p == 0, "never reached");
}
UNIT_TEST(case_crashes) { EXPECT(1, "before"); raise(SIGSEGV); }
UNIT_TEST(case_checks_nothing) { }
UNIT_TEST(case_exits) { EXPECT(1, "before"); exit(3); }
UNIT_TEST(case_after) { EXPECT(1, "still run"); }
C
build() {	# OUT CASES...: the runner with these case files
	local out=$1
	shift
	cc -std=gnu11 -I"$intree" -o "$out" "$intree/sched_perf_unit.c" "$@" "$lib" -lm -lpthread \
		2>"$tmp/cc.err" || fail "cannot build the runner: $(head -n3 "$tmp/cc.err")"
}
build "$tmp/unit" "$tmp/cases.c"
rc=0
"$tmp/unit" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 1 ] || fail "exit $rc with failing tests, want 1: $(tail -n3 "$tmp/out")"
grep -qx '1\.\.7' "$tmp/out" || fail "plan is not the 7 registered: $(grep '^1\.\.' "$tmp/out")"
# EXPECT RESULT NOTE: the result line RESULT, whole, its figures on "#
# NAME: NOTE" just before it
expect() {
	ktap_is "$tmp/out" "$1" "$2" ||
		fail "no line '$1' after '# ...: $2' in: $(tr '\n' '|' <"$tmp/out")"
}
expect 'ok 1 case_passes' '2 checks'
expect 'not ok 2 case_expect_fails' '1 of 3 checks failed'
grep -qxF '# case_expect_fails: second: (1 == 2) is false' "$tmp/out" ||
	fail "no failed EXPECT's note: $(grep case_expect_fails "$tmp/out")"
expect 'not ok 3 case_assert_stops' 'ended with exit 1 after 1 checks, 1 failed'
grep -q 'never reached' "$tmp/out" && fail "the check after a failed ASSERT ran"
expect 'not ok 4 case_crashes' 'killed by signal 11 (Segmentation fault) after 1 checks'
expect 'not ok 5 case_checks_nothing' 'made no check'
expect 'not ok 6 case_exits' 'ended with exit 3 after 1 checks, 0 failed'
expect 'ok 7 case_after' '1 checks'
grep -qxF '# Totals: pass:2 fail:5 xfail:0 xpass:0 skip:0 error:0' "$tmp/out" || fail "no totals: $(tail -n1 "$tmp/out")"
pass "7 registered, 7 planned: a failed EXPECT, ASSERT, crash, exit and an empty test fail alone"

# in one file the compiler refuses it; across files the runner must
printf '#include "unit.h"\nUNIT_TEST(case_passes) { EXPECT(1, "again"); }\n' >"$tmp/twice.c"
build "$tmp/twice" "$tmp/cases.c" "$tmp/twice.c"
rc=0
"$tmp/twice" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] && grep -qx 'sched_perf_unit: two tests are named case_passes' "$tmp/out" ||
	fail "a name registered twice: exit $rc, $(head -n2 "$tmp/out")"
pass "a name registered twice is refused (exit 2) before any test runs"

# The real runner: one result per UNIT_TEST in the sources, none failed.
want=$(cat "$intree"/unit_*.c | grep -c '^UNIT_TEST(')
rc=0
"$intree/sched_perf_unit" "$intree/fixtures" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 0 ] || fail "sched_perf_unit exit $rc: $(grep '^not ok' "$tmp/out" | head -n3)"
grep -qx "1\.\.$want" "$tmp/out" || fail "plan $(grep '^1\.\.' "$tmp/out"), $want UNIT_TESTs"
[ "$(grep -cE '^ok [0-9]+ [a-z0-9_]+$' "$tmp/out")" = "$want" ] &&
	[ "$(grep -cE '^# [a-z0-9_]+: [0-9]+ checks$' "$tmp/out")" = "$want" ] ||
	fail "not every one of $want tests passed with its checks"
pass "sched_perf_unit: $want tests registered, planned and passed ($(grep -oE ': [0-9]+ checks$' "$tmp/out" | awk '{ s += $2 } END { print s }') checks)"
done_ok
