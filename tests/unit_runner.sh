#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The unit tests on kselftest_harness.h: every unit_*.c is in the one
# translation unit of sched_perf_unit (unit.h says why), so every TEST()
# of the sources runs and passes; and a failing check prints the values
# it compared: the harness's EXPECT_EQ() the two integers, unit.h's
# EXPECT_NEAR() both doubles and the tolerance, EXPECT_DBL() both
# doubles, EXPECT_CONTAINS() the piece and the whole text, on one line:
# a logged text is KTAP itself, and no line of it may stand bare.  The
# failing cases are built here, beside the real sources, with the suite's
# flags.
# Usage: unit_runner.sh INTREE
set -u
. "$(dirname "$0")/lib.sh"
intree=$(realpath "${1:?usage: unit_runner.sh INTREE}")
lib=$intree/core/libsched_perf.a
[ -f "$lib" ] || fail "no $lib: build the suite first"
command -v cc >/dev/null || skip "no C compiler"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every unit file is included, so none of its tests is left out silently
for f in "$intree"/unit_*.c; do
	grep -qx "#include \"$(basename "$f")\"" "$intree/sched_perf_unit.c" ||
		fail "$(basename "$f") is not included in sched_perf_unit.c: its tests never run"
done
want=$(cat "$intree"/unit_*.c | grep -c '^TEST(')
rc=0
"$intree/sched_perf_unit" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 0 ] || fail "sched_perf_unit exit $rc: $(grep -E '^not ok|Expected' "$tmp/out" | head -n3)"
grep -qx "1\.\.$want" "$tmp/out" || fail "plan $(grep '^1\.\.' "$tmp/out"), $want TEST()s in unit_*.c"
grep -qx "# Totals: pass:$want fail:0 xfail:0 xpass:0 skip:0 error:0" "$tmp/out" ||
	fail "not every one of $want tests passed: $(grep '^# Totals' "$tmp/out")"
checks=$(cat "$intree"/unit_*.c | grep -cE '\b(EXPECT|ASSERT)_[A-Z_]+\(')
pass "sched_perf_unit: the $(ls "$intree"/unit_*.c | wc -l) unit files included, $want tests planned and passed ($checks checks in the sources)"
# from another directory: the fixtures are found beside the program
(cd "$tmp" && "$intree/sched_perf_unit" >/dev/null 2>&1) ||
	fail "sched_perf_unit run from another directory failed: its fixtures not found"
pass "sched_perf_unit finds its fixtures from any directory"

cat >"$tmp/cases.c" <<'C'
#include "unit.h"

TEST(case_eq) { int seen = 41; EXPECT_EQ(42, seen); }
TEST(case_near) { double ratio = 0.9131; EXPECT_NEAR(0.95, ratio, 0.01); }
TEST(case_nan) { EXPECT_NEAR(1.0, nan(""), 1e9); }
TEST(case_contains) { EXPECT_CONTAINS("ok 1 hackbench\n", "not ok 1"); }
TEST(case_lacks) { EXPECT_LACKS("a # SKIP 0.82 b", "0.82"); }
TEST(case_dbl) { double p = 0.051; EXPECT_DBL(p, <, 0.05); }
TEST(case_loop)
{
	for (int i = 0; i < 3; i++) {
		int seen = i;

		EXPECT_NE(1, seen) TH_LOG("at %d", i);
	}
}
TEST(case_passes)
{
	EXPECT_NEAR(0.95, 0.951, 0.01);
	EXPECT_NEAR(HUGE_VAL, HUGE_VAL, 0);	/* equal infinities */
	EXPECT_CONTAINS("abc", "b");
}

TEST_HARNESS_MAIN
C
cc -std=gnu11 -I"$intree" -o "$tmp/cases" "$tmp/cases.c" "$lib" -lm -lpthread \
	2>"$tmp/cc.err" || fail "cannot build the cases: $(head -n3 "$tmp/cc.err")"
rc=0
"$tmp/cases" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 1 ] || fail "exit $rc with failing tests, want 1: $(tail -n3 "$tmp/out")"
has() {	# what line: a line of the failing output
	grep -qF -- "$2" "$tmp/out" || fail "$1: no line '$2' in: $(tr '\n' '|' <"$tmp/out")"
}
has "EXPECT_EQ" 'case_eq:Expected 42 (42) == seen (41)'
has "EXPECT_NEAR" 'case_near:0.95 = 0.94999999999999996, ratio = 0.91310000000000002, tolerance 0.01'
has "EXPECT_NEAR, a NaN" 'case_nan:1.0 = 1, nan("") = nan, tolerance 1e+09'
has "EXPECT_CONTAINS" 'case_contains:"ok 1 hackbench\n" lacks "not ok 1"; it is: ok 1 hackbench\n'
has "EXPECT_LACKS" 'case_lacks:"a # SKIP 0.82 b" holds "0.82"; it is: a # SKIP 0.82 b'
# the texts logged are KTAP themselves: every line of the document is
# still its own (a "#" line, a result, the header, the plan)
bare=$(grep -vE '^(#|ok |not ok |TAP version |1\.\.)' "$tmp/out" | head -n3)
[ -z "$bare" ] || fail "lines of a logged text outside a comment, read as KTAP: $bare"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tmp/out")
[ "$(grep -cE '^(ok|not ok) ' "$tmp/out")" = "$plan" ] ||
	fail "result lines beyond the plan of $plan: $(grep -E '^(ok|not ok) ' "$tmp/out" | paste -sd'|')"
has "EXPECT_DBL" 'case_dbl:p = 0.050999999999999997, 0.05 = 0.050000000000000003'
# in a loop, the log of the iteration that failed (unit.h: a braced body)
has "a check in a loop" 'case_loop:at 1'
grep -q 'case_loop:at [023]' "$tmp/out" && fail "a check in a loop logged another iteration: $(grep case_loop:at "$tmp/out")"
grep -qx '# Totals: pass:1 fail:7 xfail:0 xpass:0 skip:0 error:0' "$tmp/out" ||
	fail "the seven failing cases did not fail alone: $(grep '^# Totals' "$tmp/out")"
pass "a failing check prints what it compared: $(grep -F 'case_near:0.95 =' "$tmp/out" | sed 's/^# //')"
done_ok
