#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Evidence on failure: a check set impossible on purpose leaves the trace
# (trace-cmd, else perf) and a summary naming the top migrating tasks; a
# passing run leaves nothing extra; --evidence DIR records when asked; no
# tracer is a reason, not a failure; tracefs and debugfs are left as they
# were found.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hb() { SCHED_PERF_RESULTS_DIR=$tmp/results "$dir/hackbench" --iterations 2 --budget 2 "$@"; }
mkdir -p "$tmp/results"
command -v trace-cmd >/dev/null || command -v perf >/dev/null ||
	fail "neither trace-cmd nor perf is installed (.ci/run installs both)"
printf 'hackbench.task_clock_us_per_op <= 1e-9   # impossible on purpose\n' >"$tmp/impossible"
events=/sys/kernel/tracing/events/sched/sched_switch/enable
mounted_before=$(grep -c ' /sys/kernel/tracing ' /proc/mounts)
state_before=$(cat $events 2>/dev/null)

# 1. a passing run: no evidence, nothing more in the results directory
hb >"$tmp/pass.out" 2>&1 || fail "passing run exited $?: $(tail -3 "$tmp/pass.out")"
! grep -q "evidence" "$tmp/pass.out" || fail "a passing run spoke of evidence: $(grep evidence "$tmp/pass.out")"
n=$(find "$tmp/results" -mindepth 1 | wc -l)
[ "$n" = 1 ] || fail "a passing run left $n entries in the results directory: $(ls "$tmp/results")"
pass "passing run: no evidence, only its results file"
rm -rf "${tmp:?}/results"/*

# 2. a failed check: the trace and a summary naming the top migrating tasks
hb --bounds "$tmp/impossible" --nr-th 50% --sav "$tmp/saved.res" >"$tmp/fail.out" 2>&1
rc=$?
[ $rc = 1 ] || fail "impossible bound: exit $rc, want 1"
ev=$(sed -n 's/^# evidence: a check failed: trace and summary.txt in //p' "$tmp/fail.out")
[ -n "$ev" ] && [ -d "$ev" ] || fail "no evidence directory: $(grep evidence "$tmp/fail.out")"
case $ev in "$tmp/results/"*) ;; *) fail "evidence in $ev, not beside the results" ;; esac
trace=$(ls "$ev"/trace.dat "$ev"/perf.data 2>/dev/null | head -n1)
[ -s "$trace" ] || fail "no trace in $ev: $(ls "$ev")"
grep -q "^top migrating tasks" "$ev/summary.txt" || fail "summary has no top migrating tasks"
top=$(sed -n '/^top migrating tasks/,/^migrations per CPU pair/p' "$ev/summary.txt" |
	grep -m1 -E '^  [0-9]+ hackbench: [1-9][0-9]*, ')
[ -n "$top" ] || fail "no hackbench worker among the top migrating tasks: $(cat "$ev/summary.txt")"
for f in migrations.tsv tasks.tsv wakeup_latency.tsv preemptions.tsv run.log; do
	[ -s "$ev/$f" ] || fail "evidence lacks $f"
done
grep -q "^wakeup-to-run latency (us): n=[1-9]" "$ev/summary.txt" || fail "no wakeup latencies"
grep -q "preempted" "$ev/summary.txt" || fail "no preemptions in the summary"
# the re-run's command line, made from the parsed options: those of the
# load written out in full, none of this run's (--iterations, --budget,
# the abbreviated --sav), then one iteration, no results file
rerun=$(head -n1 "$ev/run.log")
case $rerun in
"# "*" -- "*"/hackbench --bounds=$tmp/impossible --nr-threads=50% --budget "*" --iterations 1 --results none") ;;
*) fail "re-run's command line: $rerun" ;;
esac
pass "re-run: ${rerun#* -- }"
pass "failed check: $(basename "$trace") ($(du -k "$trace" | cut -f1) KiB), $(sed -n 2p "$ev/summary.txt"); top migrating worker: ${top# }"
pass "tracer: $(head -n1 "$ev/summary.txt" | sed 's/^sched_perf evidence: hackbench, one more iteration under //')"

# 3. asked for on a passing run: one KTAP result, the directory given
hb --evidence "$tmp/asked" >"$tmp/asked.out" 2>&1 || fail "--evidence run exited $?"
ktap_is "$tmp/asked.out" "ok $(sed -n 's/^ok \([0-9]*\) hackbench\.evidence$/\1/p' "$tmp/asked.out") hackbench.evidence" \
	"trace and summary.txt in $tmp/asked" ||
	fail "no 'ok hackbench.evidence' line: $(grep -i evidence "$tmp/asked.out")"
[ -s "$tmp/asked/summary.txt" ] || fail "--evidence DIR: no summary.txt"
pass "--evidence DIR on a passing run: ok hackbench.evidence, summary in DIR"

# 4. no tracer: a SKIP with the reason when asked, a note on failure
PATH=/nonexistent "$dir/hackbench" --iterations 2 --budget 2 --results none \
	--evidence "$tmp/none" >"$tmp/none.out" 2>&1 || fail "no tracer: exit $?"
grep -qE "^ok [0-9]+ hackbench.evidence # SKIP no tracer could record$" "$tmp/none.out" &&
	grep -qx "# hackbench.evidence: no tracer could record: trace-cmd not installed; perf not installed" \
	"$tmp/none.out" || fail "no tracer: $(grep -i evidence "$tmp/none.out")"
SCHED_PERF_EVIDENCE=0 hb --bounds "$tmp/impossible" --results none >"$tmp/off.out" 2>&1
! grep -q "evidence" "$tmp/off.out" || fail "SCHED_PERF_EVIDENCE=0 still collected evidence"
pass "no tracer: SKIP with the reason; SCHED_PERF_EVIDENCE=0: none on failure"

# 5. debugfs: mounted for the run (preempt, features) only
debugfs_before=$(grep -c ' /sys/kernel/debug ' /proc/mounts)
"$dir/hackbench" --iterations 1 --budget 1 --results none >"$tmp/dbg.out" 2>&1 ||
	fail "hackbench exited $?"
[ "$(grep -c ' /sys/kernel/debug ' /proc/mounts)" = "$debugfs_before" ] ||
	fail "debugfs mounts: $debugfs_before before the run, $(grep -c ' /sys/kernel/debug ' /proc/mounts) after"
features=$(sed -n 's/^# sched_features: //p' "$tmp/dbg.out")
case $features in
"unreadable: "*"debugfs not mounted"*) fail "sched_features: $features, although we are root" ;;
"unreadable: "*) ;;
*RUN_TO_PARITY*) ;;
*) fail "sched_features: '$features'" ;;
esac
pass "debugfs mounted as before ($debugfs_before); sched_features: $(cut -c1-60 <<<"$features"); preempt: $(sed -n 's/^# preempt: //p' "$tmp/dbg.out" | cut -c1-60)"

# 6. tracefs as found
[ "$(grep -c ' /sys/kernel/tracing ' /proc/mounts)" = "$mounted_before" ] ||
	fail "tracefs mounts: $mounted_before before, $(grep -c ' /sys/kernel/tracing ' /proc/mounts) after"
[ "$(cat $events 2>/dev/null)" = "$state_before" ] || fail "sched_switch event left enabled"
pass "tracefs mounted as before ($mounted_before), sched_switch event as before (${state_before:-n/a})"
done_ok
