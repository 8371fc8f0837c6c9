#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite through the kernel's own runner: make -C tools/testing/selftests
# TARGETS=sched_perf run_tests.  Checks that every program passed, that the
# KTAP of each is complete, and that what this kernel lacks is a SKIP with
# its reason, never a FAIL.
set -u
. "$(dirname "$0")/lib.sh"
make=$1 selftests=$2
tmp=$(mktemp -d)
out=$tmp/out
trap 'rm -rf "$tmp"' EXIT

SCHED_PERF_RESULTS_DIR=$tmp \
	$make -s -C "$selftests" TARGETS=sched_perf run_tests >>"$out" 2>&1
cat "$out"
# every program but sctp_rr, which SKIPs where the kernel has no SCTP
progs=$(sched_perf_programs "$selftests/sched_perf" | sed 's/\bsctp_rr\b//')
[ -n "$progs" ] || fail "no program list in $selftests/sched_perf/Makefile"
for prog in $progs; do
	check_ktap "$out" $prog
	ls "$tmp"/sched_perf-$prog-*.results >/dev/null 2>&1 || fail "no $prog results file"
done
pass "results files written"
# every field of every window was written by its source or marked missing
# with the source's reason: none is left to measure_end()'s catch-all
! grep -l "no counter source filled it" "$tmp"/sched_perf-*.results >/dev/null 2>&1 ||
	fail "a field no source filled: $(grep -h "no counter source filled it" "$tmp"/sched_perf-*.results | head -n3)"
pass "every counter field filled or missing with its source's reason, in every program's results"
# The kernel/sched patches' tracepoints: judged where the kernel has them
# (the bpf source says so in its header), else every check on them is a
# SKIP that says why.
for prog in $progs; do
	if grep -q "^# # bpf: .*sched_select_idle_sibling_tp" "$out"; then
		grep -E "^# ok [0-9]+ $prog\.tp_sis_unknown_share( |$)" "$out" | grep -qv ' # SKIP' ||
			fail "$prog: the series' tracepoints are counted but their check did not pass"
	else
		grep -qE "^# ok [0-9]+ $prog\.tp_sis_unknown_share # SKIP (no tracepoint|not permitted|no bpf|no raw tracepoint)" "$out" ||
			fail "$prog: no series tracepoints counted, but the check is not a SKIP with the reason: $(grep -m1 "$prog\.tp_sis_unknown_share" "$out")"
	fi
done
pass "the series' tracepoint checks: $(grep -q "^# # bpf: .*sched_select_idle_sibling_tp" "$out" && echo judged || echo "SKIP: $(sed -n 's/^# ok [0-9]* hackbench\.tp_sis_unknown_share # SKIP //p' "$out" | head -n1)")"
if [ -e /proc/sys/net/sctp ] || modprobe -n sctp 2>/dev/null; then
	check_ktap "$out" sctp_rr
else
	check_skipped "$out" sctp_rr
fi
done_ok
