#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KTAP test names are the same on every run: CI parsers track a test by
# its name, and 0-day's (lkp-tests, programs/kselftests/parse) names a
# nested result by all the text after "ok N ", splitting off only "#
# SKIP" and keeping the SKIP reason as one more part of the name.  So a
# result line is "ok|not ok N <workload>.<check>" or "ok N
# <workload>.<check> # SKIP[ <fixed reason>]", the figures on a "#
# <workload>.<check>: ..." line before it.
#
# That rule applied to two runs of every program, one on a quiet machine
# and one beside two busy loops (started here, always killed), which turn
# the bounds on rates and placement into SKIPs: at the program's level,
# and through the kselftest runner (make run_tests), with --baseline
# (hackbench) and --ab (pipe) in both.  For each pair of runs:
#   - the same names in the same order;
#   - no name and no SKIP reason carries a figure (a digit that does not
#     continue a word: "0.82" and "2 of 5" do, tcp_rr and per_1k_ops do
#     not) or this test's temporary directory;
#   - a name is <prog>.<check> (the runner's own: "selftests: sched_perf:
#     <prog>"), and a SKIP has its reason after "# SKIP" or on the line
#     before (a bound skipped on a busy machine: its reason there only);
#   - the names with their SKIP reasons, as 0-day joins them, the same in
#     both runs too, but for comparisons (a verdict word such as
#     "undecided" or "noisy" may move with the load) and the evidence;
#   - no other line reads as a result to the common parsers: none ends in
#     ok, PASS, FAIL, SKIP or [OK], none begins "Running", "[RUN]", "RUN",
#     "TEST:", "PASS:" (or OK:, FAIL:, SKIP:) after its "# " prefixes;
#   - the kernel's kunit.py parse reads a program's run to exactly these
#     names, without an error;
#   - LAVA's cases (lava/ktap2lava.sh) keep their measurements: each
#     bound check judged on a metric carries the metric's printed value.
# The verdicts may differ between the runs (a check may fail on this
# noisy machine, a bound is skipped beside the loops): the names may not.
# A peer's command line (rt-tests' hackbench -g, perf bench's pipe -l)
# prints the peer's own lines for the peer's parsers; kselftest never runs
# one, and its names are held to the same form.
# Usage: ktap_names.sh INTREE MAKE SELFTESTS
set -u
. "$(dirname "$0")/lib.sh"
dir=$1 make=$2 selftests=$3
kunit=$dir/../../kunit/kunit.py
ktap2lava=$dir/lava/ktap2lava.sh
tmp=$(mktemp -d)
trap 'busy_stop; rm -rf "$tmp"' EXIT

[ -f "$kunit" ] || skip "no $kunit (the suite is not in a kernel tree)"
command -v python3 >/dev/null || skip "no python3 for kunit.py"
progs=$(sched_perf_programs "$dir")
[ -n "$progs" ] || fail "no programs listed in $dir"
# --ab on a knob that only SCHED_RR tasks see, restored by the run
knob=/proc/sys/kernel/sched_rr_timeslice_ms
[ -w "$knob" ] || skip "no writable $knob for --ab (not root?)"
was=$(cat "$knob")
ab="$knob=$([ "$was" = 50 ] && echo 100 || echo 50)"
short=(--budget 1 --iterations 2)

# Run PROG at the program's level as LABEL: its output in
# $tmp/LABEL.PROG.out.  0 or 1 (a check failed: allowed, the names are
# what is judged) or 4 (cannot run here, or a comparison left open).
run() {	# label prog args...
	local label=$1 prog=$2 rc=0
	shift 2
	SCHED_PERF_EVIDENCE=0 "$dir/$prog" --results none "$@" \
		>"$tmp/$label.$prog.out" 2>"$tmp/$label.$prog.err" || rc=$?
	case $rc in
	0 | 1 | 4) ;;
	*) fail "$label: $prog: exit $rc: $(tail -n3 "$tmp/$label.$prog.err")" ;;
	esac
}

# The options of PROG in every run of a pair (a comparison held to its
# 2 runs: the names are what is judged)
args_of() {	# prog
	case $1 in
	hackbench) echo "${short[*]} --max-runs 2 --baseline $tmp/base.res" ;;
	pipe) echo "${short[*]} --max-runs 2 --ab $ab" ;;
	*) echo "${short[*]}" ;;
	esac
}

# Every program through the kselftest runner as LABEL, into $tmp/LABEL.runner
runner() {	# label
	local env=() p
	for p in $progs; do
		env+=("KSELFTEST_$(tr '[:lower:]' '[:upper:]' <<<"$p")_ARGS=$(args_of "$p")")
	done
	env SCHED_PERF_EVIDENCE=0 SCHED_PERF_RESULTS_DIR="$tmp/results" "${env[@]}" \
		$make -s -C "$selftests" TARGETS=sched_perf run_tests >"$tmp/$1.runner" 2>&1
	grep -q "^# selftests: sched_perf: " "$tmp/$1.runner" ||
		fail "$1: the runner ran nothing: $(tail -n3 "$tmp/$1.runner")"
}

# Both runs: the quiet one, then beside two busy loops; hackbench with
# --evidence too at the program's level
runs() {	# label
	local prog evidence
	for prog in $progs; do
		evidence=()
		[ "$prog" = hackbench ] && evidence=(--evidence "$tmp/$1.evidence")
		# shellcheck disable=SC2046
		run "$1" "$prog" $(args_of "$prog") "${evidence[@]}"
	done
	runner "$1"
}
mkdir -p "$tmp/results"
run base hackbench "${short[@]}" --save "$tmp/base.res"
runs quiet
busy_start 2
runs busy
busy_stop
[ "$(cat "$knob")" = "$was" ] || fail "--ab: $knob is $(cat "$knob"), not $was as found"
run peer hackbench -g 1 -l 100
run peer pipe -l 1000

# --- the rule ---------------------------------------------------------------
# The results of a KTAP file as 0-day's parser names them: "DEPTH<tab>
# NAME<tab>REASON<tab>NOTED" a result, DEPTH its "# " prefixes, NAME the
# text after "ok N " up to "# SKIP" (the runner's own results: up to " #
# ", as the parser reads them), REASON what follows "# SKIP" ("-" without
# a SKIP, "" for a SKIP without a reason), NOTED 1 when the line before is
# "# NAME: ..." one "# " deeper.  Read once a file, into FILE.tsv: the
# runs are over before any is judged.
results() {	# file
	[ -f "$1.tsv" ] || results_of "$1" >"$1.tsv"
	cat "$1.tsv"
}
results_of() {	# file
	awk '{
		line = $0
		sub(/\r$/, "", line)
		depth = 0
		while (substr(line, 1, 2) == "# ") {
			depth++
			line = substr(line, 3)
		}
		before = prev
		prev = depth "\t" line
		if (line !~ /^(not )?ok [0-9]+ /)
			next
		name = line
		sub(/^(not )?ok [0-9]+ /, "", name)
		reason = "-"
		if ((p = index(name, "# SKIP")) > 0) {
			reason = substr(name, p + 6)
			name = substr(name, 1, p - 1)
			sub(/^ +/, "", reason)
		}
		if (depth == 0 && name ~ /^selftests: /)
			sub(/ #.*$/, "", name)
		sub(/ +$/, "", name)
		noted = index(before, depth + 1 "\t" name ": ") == 1
		printf "%d\t%s\t%s\t%d\n", depth, name, reason, noted
	}' "$1"
}

# Every result of FILE well named, every SKIP with a fixed reason; a
# program's own results are <PROG>.<check> (PROG "" : any program's).
check_results() {	# file what prog
	local f=$1 what=$2 prog=${3:-[a-z_]+} bad
	results "$f" >"$tmp/results.tsv"
	[ -s "$tmp/results.tsv" ] || fail "$what: no result at all: $(head -n5 "$f")"
	bad=$(awk -F'\t' -v prog="$prog" '
		$2 ~ /^selftests: sched_perf: [a-z_]+$/ { next }
		$2 !~ "^" prog "(\\.[A-Za-z_][A-Za-z0-9_]*)+$" || ($3 == "" && !$4) { print }' "$tmp/results.tsv")
	[ -z "$bad" ] || fail "$what: a name not <prog>.<check>, or a SKIP without a reason there or on the line before: $(head -n3 <<<"$bad")"
	bad=$(cut -f2,3 "$tmp/results.tsv" | tr '\t' '\n' | grep -v '^-$' | has_figure_lines)
	[ -z "$bad" ] || fail "$what: a name or SKIP reason with a figure: $(head -n3 <<<"$bad")"
	bad=$(grep -F "$tmp" "$tmp/results.tsv")
	[ -z "$bad" ] || fail "$what: a name or SKIP reason with this run's path: $(head -n3 <<<"$bad")"
}
# The results of FILE but comparisons and evidence, each name with its
# SKIP reason joined as 0-day joins them (NAME.REASON)
lkp_names() {	# file
	results "$1" | awk -F'\t' '$2 !~ /\.(baseline|ab)\.|\.evidence$/ {
		print $1 "\t" $2 ($3 == "-" || $3 == "" ? "" : "." $3) }'
}

# The lines of stdin with a figure: a digit that does not continue a word
has_figure_lines() { grep -E '(^|[^A-Za-z0-9_])[0-9]'; }

# No line of FILE but a result reads as a result to the common parsers.
check_diagnostics() {	# file what
	local bad
	bad=$(sed -E 's/\r$//; s/^(# )+//' "$1" |
		grep -vE '^(not )?ok [0-9]+ |^TAP version |^1\.\.[0-9]+' |
		grep -E '(^|[^A-Za-z])(ok|OK|PASS|FAIL|SKIP)$|\[ ?(OK|PASS|FAIL|SKIP) ?\]$|^([Rr]unning |\[?RUN\]? |TEST: |(OK|PASS|FAIL|SKIP): )')
	[ -z "$bad" ] || fail "$2: a line that parsers read as a result: $(head -n3 <<<"$bad")"
}

# kunit.py parse reads FILE to the same names, without an error.
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
	results "$1" | cut -f2 | diff - "$tmp/kunit.names" >"$tmp/kunit.diff" ||
		fail "$2: kunit.py parse names differ (< ours, > kunit's): $(head -n4 "$tmp/kunit.diff")"
}

# The quiet and the busy run of WHAT, files Q and B: the same names.
judge_pair() {	# what q b prog
	local what=$1 q=$2 b=$3 prog=${4:-} n
	for f in "$q" "$b"; do
		check_results "$f" "$what ($(basename "$f"))" "$prog"
		check_diagnostics "$f" "$what ($(basename "$f"))"
	done
	results "$q" | cut -f1,2 >"$tmp/q.names"
	results "$b" | cut -f1,2 | diff "$tmp/q.names" - >"$tmp/names.diff" ||
		fail "$what: names differ quiet/busy (< quiet, > busy): $(head -n4 "$tmp/names.diff")"
	# as 0-day files them, a SKIP's reason a part of the name: the same
	# too but for comparisons, whose verdict word may move with the load,
	# and the evidence (a tracer may fail on one run)
	lkp_names "$q" >"$tmp/q.lkp"
	lkp_names "$b" | diff "$tmp/q.lkp" - >"$tmp/names.diff" ||
		fail "$what: 0-day's names (with the SKIP reasons) differ quiet/busy (< quiet, > busy): $(head -n4 "$tmp/names.diff")"
	n=$(wc -l <"$tmp/q.names")
	echo "$n $(results "$q" | awk -F'\t' '$3 != "-"' | wc -l) $(results "$b" | awk -F'\t' '$3 != "-"' | wc -l)"
}

# --- program level -------------------------------------------------------------
for prog in $progs; do
	q=$tmp/quiet.$prog.out b=$tmp/busy.$prog.out
	# a skip of the whole program is "1..0 # SKIP reason": no result
	if grep -q '^1\.\.0 # SKIP .' "$q" || grep -q '^1\.\.0 # SKIP .' "$b"; then
		grep -q '^1\.\.0 # SKIP .' "$q" && grep -q '^1\.\.0 # SKIP .' "$b" ||
			fail "$prog: skipped as a whole in one run but not in both"
		pass "$prog: skipped as a whole in both runs: $(grep -m1 '^1\.\.0' "$q")"
		continue
	fi
	judge_pair "$prog" "$q" "$b" "$prog" >"$tmp/counts"
	read -r n sq sb <"$tmp/counts"
	kunit_names "$q" "$prog (quiet)"
	kunit_names "$b" "$prog (busy)"
	pass "$prog $(args_of "$prog" | sed "s|$tmp/||"): the same $n names quiet and busy ($sq vs $sb skipped), no figure in a name or reason, kunit.py reads them alike"
done
grep -qE '^(not )?ok [0-9]+ hackbench\.baseline\.[a-z0-9_]+( # SKIP [a-z -]+)?$' "$tmp/quiet.hackbench.out" ||
	fail "--baseline: no hackbench.baseline.<metric> result: $(grep baseline "$tmp/quiet.hackbench.out" | head -n3)"
grep -qE '^(not )?ok [0-9]+ pipe\.ab\.[a-z0-9_]+( # SKIP [a-z -]+)?$' "$tmp/quiet.pipe.out" ||
	fail "--ab: no pipe.ab.<metric> result: $(grep '\.ab\.' "$tmp/quiet.pipe.out" | head -n3)"
pass "--baseline and --ab: comparisons named <prog>.baseline|ab.<metric>, the verdict numbers on the lines before"
grep -qx 'ok [0-9]* hackbench\.evidence' "$tmp/quiet.hackbench.out" &&
	grep -q "^# hackbench\.evidence: trace and summary.txt in $tmp/quiet.evidence$" "$tmp/quiet.hackbench.out" ||
	fail "--evidence: $(grep evidence "$tmp/quiet.hackbench.out")"
pass "hackbench --evidence: its path on the line before 'ok N hackbench.evidence'"

# --- through the kselftest runner -------------------------------------------------
judge_pair "run_tests" "$tmp/quiet.runner" "$tmp/busy.runner" >"$tmp/counts"
read -r n sq sb <"$tmp/counts"
[ "$(results "$tmp/quiet.runner" | awk '$1 == 0' | wc -l)" = "$(wc -w <<<"$progs")" ] ||
	fail "run_tests: not one runner result per program: $(grep '^\(not \)\?ok' "$tmp/quiet.runner")"
pass "run_tests: the same $n names quiet and busy ($sq vs $sb skipped), hackbench with --baseline, pipe with --ab"

# LAVA: every bound check judged on a metric carries its value
"$ktap2lava" -n "$tmp/quiet.runner" >"$tmp/lava" 2>"$tmp/lava.err"
rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "ktap2lava.sh: exit $rc: $(cat "$tmp/lava.err")"
bad=$(awk 'NF == 2 && $1 ~ /^[a-z_]+\.[a-z0-9_]+$/ && $1 !~ /\.(completed|evidence)$/ &&
	$2 != "skip"' "$tmp/lava")
[ -z "$bad" ] || fail "ktap2lava.sh: a judged check without its measurement: $(head -n3 <<<"$bad")"
v=$(sed -n 's/^# # hackbench\.messages_per_sec: \([0-9.e+]*\) .*/\1/p' "$tmp/quiet.runner" | head -n1)
grep -qx "hackbench.messages_per_sec [a-z]* $v messages/s" "$tmp/lava" ||
	fail "ktap2lava.sh: hackbench.messages_per_sec not measured as $v: $(grep messages_per_sec "$tmp/lava")"
pass "LAVA: $(awk 'NF == 4' "$tmp/lava" | wc -l) cases with a measurement, every judged bound check ($(sed -n 's/.*: \([0-9]* cases\).*/\1/p' "$tmp/lava.err") in all)"

# --- a peer's command line: its lines, and names as well formed ---------
f=$tmp/peer.hackbench.out
grep -q '^Running in process mode with 1 groups using 40 file descriptors each (== 40 tasks)$' "$f" &&
	grep -q '^Time: [0-9]*\.[0-9]*$' "$f" ||
	fail "hackbench -g 1 -l 100: no rt-tests lines: $(head -n5 "$f")"
check_results "$f" "hackbench -g 1 -l 100" hackbench
kunit_names "$f" "hackbench -g 1 -l 100"
f=$tmp/peer.pipe.out
grep -q "^# Running 'sched/pipe' benchmark:$" "$f" && grep -q '^# Executed 1000 pipe operations' "$f" ||
	fail "pipe -l 1000: no perf lines: $(head -n5 "$f")"
check_results "$f" "pipe -l 1000" pipe
kunit_names "$f" "pipe -l 1000"
# the peer's lines are in no other run
for f in "$tmp"/quiet.*.out "$tmp"/busy.*.out "$tmp"/*.runner; do
	bad=$(sed -E 's/^(# )+//' "$f" | grep -E '^(Running |Each sender |Time: |Executed |Subtest:)') &&
		fail "$(basename "$f"): a peer's line outside a peer command line: $(head -n2 <<<"$bad")"
done
pass "peer command lines (hackbench -g 1 -l 100, pipe -l 1000): the peer's lines there only, names as well formed"
done_ok
