#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KTAP test names are the same on every run, since CI parsers track a
# test by its name.  Every program of the suite runs twice with the
# default bounds: on a quiet machine, then beside a CPU hog (two busy
# loops, started here and always killed), which turns the bounds on rates
# and placement into SKIPs.  Both runs must give the same names in the
# same order; no name may carry a figure or a bound ("4.786e+05", ">=",
# "0.25", "%": names such as migrations_per_1k_ops and tcp_rr hold
# digits, but no part of a name starts with one); every result, a SKIP
# too, has its name before " # "; no peer's line (rt-tests' "Running in
# ...", perf's "# Running 'sched/pipe' ...") is printed outside a peer
# command line, where it must be; and the kernel's kunit.py parse must
# read every run to exactly our names, with no error.  hackbench runs
# with --evidence, and with --baseline quiet and beside the hog, so that
# the evidence and the comparisons are named alike.  The verdicts may
# differ between the runs (a check may fail on this noisy machine): the
# names may not.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
kunit=$dir/../../kunit/kunit.py
tmp=$(mktemp -d)
hogs=
stop_hogs() {
	# shellcheck disable=SC2086
	[ -n "$hogs" ] && kill $hogs 2>/dev/null && wait $hogs 2>/dev/null
	hogs=
}
trap 'stop_hogs; rm -rf "$tmp"' EXIT

[ -f "$kunit" ] || { echo "ktap_names: no $kunit (the suite is not in a kernel tree); not run"; exit 4; }
command -v python3 >/dev/null || { echo "ktap_names: no python3 for kunit.py; not run"; exit 4; }
progs=$(sched_perf_programs "$dir")
[ -n "$progs" ] || fail "no programs listed in $dir"

# Run PROG as LABEL: its output in $tmp/LABEL.PROG.out.  0 or 1 (a check
# failed: allowed, the names are what is judged) or 4 (cannot run here,
# or a comparison left open).
run() {	# label prog args...
	local label=$1 prog=$2 rc=0
	shift 2
	SCHED_PERF_EVIDENCE=0 "$dir/$prog" --budget 2 --iterations 2 --results none "$@" \
		>"$tmp/$label.$prog.out" 2>"$tmp/$label.$prog.err" || rc=$?
	case $rc in
	0 | 1 | 4) ;;
	*) fail "$label: $prog: exit $rc: $(tail -n3 "$tmp/$label.$prog.err")" ;;
	esac
	echo "$rc" >"$tmp/$label.$prog.rc"
}

# The names of a KTAP file's results, one a line: the description before
# " # " (a result without one prints nothing, and is caught below).
names() { sed -nE 's/^(not )?ok [0-9]+ ([^#]*[^# ])( # .*)?$/\2/p' "$1"; }

# A run's results: as many as planned, every one named <prog>.<check>
# with no figure in the name, every SKIP named.  Prints how many.
check_names() {	# file prog what
	local f=$1 prog=$2 what=$3 plan results bad
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$f" | head -n1)
	results=$(grep -cE '^(not )?ok [0-9]+ ' "$f")
	[ -n "$plan" ] && [ "$plan" = "$results" ] || fail "$what: plan '$plan', $results results"
	bad=$(grep -E '^(not )?ok [0-9]+ *#' "$f") && fail "$what: a result without a name: $bad"
	[ "$(names "$f" | wc -l)" = "$results" ] ||
		fail "$what: $results results, $(names "$f" | wc -l) names: $(grep -E '^(not )?ok ' "$f" | head -n3)"
	bad=$(names "$f" | grep -vE "^$prog(\\.[A-Za-z_][A-Za-z0-9_]*)+\$") &&
		fail "$what: a name not $prog.<check> or with a figure in it: $(head -n3 <<<"$bad")"
	bad=$(grep -E '# SKIP' "$f" | grep -vE "^ok [0-9]+ $prog\\.[A-Za-z0-9_.]+ # SKIP( |$)") &&
		fail "$what: a SKIP without its name before '# SKIP': $(head -n3 <<<"$bad")"
	echo "$results"
}

# The output of a run without a peer command line holds no peer's line.
no_peer_lines() {	# file what
	local bad
	bad=$(grep -E '^(# )*(Running |Each sender |Time: |Executed |Subtest:)' "$1") &&
		fail "$2: a peer's line outside a peer command line: $(head -n2 <<<"$bad")"
	return 0
}

# kunit.py parse reads FILE to the same names as ours, without an error.
kunit_names() {	# file what
	local rc=0 bad
	python3 "$kunit" parse "$1" >"$tmp/kunit.out" 2>&1 || rc=$?
	sed -i 's/\x1b\[[0-9;]*m//g' "$tmp/kunit.out"
	bad=$(grep -E '\[(ERROR|CRASHED)\]' "$tmp/kunit.out") &&
		fail "$2: kunit.py parse: $(head -n3 <<<"$bad")"
	# exit 1 is a failed test, which our KTAP must then hold
	[ "$rc" = 0 ] || { [ "$rc" = 1 ] && grep -q '^not ok ' "$1"; } ||
		fail "$2: kunit.py parse exit $rc: $(tail -n2 "$tmp/kunit.out")"
	sed -nE 's/^\[[0-9:]+\] \[(PASSED|SKIPPED|FAILED)\] //p' "$tmp/kunit.out" >"$tmp/kunit.names"
	names "$1" | diff - "$tmp/kunit.names" >"$tmp/kunit.diff" ||
		fail "$2: kunit.py parse names differ (< ours, > kunit's): $(head -n4 "$tmp/kunit.diff")"
}

# --- the runs ------------------------------------------------------------
for prog in $progs; do
	args=()
	[ "$prog" = hackbench ] && args=(--evidence "$tmp/quiet.evidence" --save "$tmp/base.res")
	run quiet "$prog" "${args[@]}"
done
run quiet-baseline hackbench --baseline "$tmp/base.res"
for _ in 1 2; do
	( while :; do :; done ) &
	hogs="$hogs $!"
done
for prog in $progs; do
	args=()
	[ "$prog" = hackbench ] && args=(--evidence "$tmp/hog.evidence")
	run hog "$prog" "${args[@]}"
done
run hog-baseline hackbench --baseline "$tmp/base.res"
stop_hogs
run peer hackbench -g 1 -l 100
run peer pipe -l 1000

# --- the names -------------------------------------------------------------
judge_pair() {	# prog quiet-label hog-label
	local prog=$1 q=$tmp/$2.$1.out h=$tmp/$3.$1.out n
	# exit 4 is also an open comparison (results named as ever); a skip
	# of the whole program is "1..0 # SKIP reason": no result to name
	# (kunit.py reads such a plan as "0 tests run")
	if grep -q '^1\.\.0 # SKIP .' "$q" || grep -q '^1\.\.0 # SKIP .' "$h"; then
		grep -q '^1\.\.0 # SKIP .' "$q" && grep -q '^1\.\.0 # SKIP .' "$h" &&
			[ "$(cat "$tmp/$2.$prog.rc")" = 4 ] && [ "$(cat "$tmp/$3.$prog.rc")" = 4 ] ||
			fail "$prog: skipped as a whole in one run but not in both"
		pass "$prog: skipped as a whole in both runs: $(grep -m1 '^1\.\.0' "$q")"
		return
	fi
	n=$(check_names "$q" "$prog" "$prog ($2)") || exit 1
	check_names "$h" "$prog" "$prog ($3)" >/dev/null || exit 1
	names "$q" >"$tmp/q.names"
	names "$h" | diff "$tmp/q.names" - >"$tmp/names.diff" ||
		fail "$prog: names differ quiet/hog (< quiet, > hog): $(head -n4 "$tmp/names.diff")"
	no_peer_lines "$q" "$prog ($2)"
	no_peer_lines "$h" "$prog ($3)"
	kunit_names "$q" "$prog ($2)"
	kunit_names "$h" "$prog ($3)"
	pass "$prog: the same $n names quiet and beside the hog ($(grep -c ' # SKIP' "$q") vs $(grep -c ' # SKIP' "$h") skipped, $(grep -c '^not ok' "$q") vs $(grep -c '^not ok' "$h") failed), kunit.py reads them alike"
}
for prog in $progs; do
	judge_pair "$prog" quiet hog
done
grep -q '^ok [0-9]* hackbench\.evidence\( \|$\)' "$tmp/quiet.hackbench.out" ||
	fail "no hackbench.evidence result: $(grep evidence "$tmp/quiet.hackbench.out")"
pass "hackbench --evidence: $(grep -m1 'hackbench\.evidence' "$tmp/quiet.hackbench.out" | cut -c1-100)"
judge_pair hackbench quiet-baseline hog-baseline
n=$(grep -cE '^(not )?ok [0-9]+ hackbench\.baseline\.' "$tmp/quiet-baseline.hackbench.out")
[ "$n" -gt 0 ] || fail "--baseline: no hackbench.baseline.<metric> result"
pass "--baseline: $n comparisons named hackbench.baseline.<metric>, the verdicts after ' # '"

# --- a peer's command line: its lines, and names as well formed ---------
f=$tmp/peer.hackbench.out
grep -q '^Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)$' "$f" &&
	grep -q '^Time: [0-9]*\.[0-9]*$' "$f" ||
	fail "hackbench -g 1 -l 100: no rt-tests lines: $(head -n5 "$f")"
check_names "$f" hackbench "hackbench -g 1 -l 100" >/dev/null || exit 1
kunit_names "$f" "hackbench -g 1 -l 100"
f=$tmp/peer.pipe.out
grep -q "^# Running 'sched/pipe' benchmark:$" "$f" && grep -q '^# Executed 1000 pipe operations' "$f" ||
	fail "pipe -l 1000: no perf lines: $(head -n5 "$f")"
check_names "$f" pipe "pipe -l 1000" >/dev/null || exit 1
kunit_names "$f" "pipe -l 1000"
pass "peer command lines (hackbench -g 1 -l 100, pipe -l 1000): the peer's lines there, names as well formed"
done_ok
