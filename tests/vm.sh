#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite in a 6.12 guest (scripts/vmtest.sh), then what this host's
# kernel cannot show: schedstat (v16) checks run instead of SKIP, SCTP_RR
# runs, per-task nr_wakeups_* counters are non-zero, every workload
# passes its bounds; then two kernels compared over interleaved boots.
set -u
. "$(dirname "$0")/lib.sh"
ksrc=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

start=$(date +%s)
# Every program of the suite with --budget 6: what is shown here is the
# counters and bounds of a kernel with schedstats, not the default length
# (tests/suite.sh runs that on the host).
VM_OUT=$out VM_RUN_ARGS="--budget 6" "$(dirname "$0")/../scripts/vmtest.sh" "$ksrc" ||
	fail "vmtest failed (see above)"
pass "vmtest passed in $(($(date +%s) - start)) s"
checks=$(grep -c '^SCHED_PERF_CHECK ok: ' "$out/console.log")
! grep -q '^SCHED_PERF_CHECK FAIL' "$out/console.log" ||
	fail "guest check: $(grep -m1 '^SCHED_PERF_CHECK FAIL' "$out/console.log")"
# 8 checks, and with the kernel/sched patches' tracepoints counted by the
# bpf source: NO_RUN_TO_PARITY seen in preemptions per wakeup check,
# NO_SIS_UTIL in CPUs scanned per wakeup, each program's BPF figures
# against its workers' schedstats, and the wakeup checks of all programs
# together not 0
want=$((9 + $(sched_perf_programs "$top/tools/testing/selftests/sched_perf" | wc -w)))
[ "$checks" = "$want" ] || fail "guest ran $checks of $want checks"
grep '^SCHED_PERF_AB ' "$out/console.log" | sed 's/^SCHED_PERF_AB /guest A-B: /'
# kill_anywhere in the guest: the 8 kills of sctp_rr (each moment, caught
# signal or SIGKILL), nothing left
kills=$(sed -n 's/^SCHED_PERF_KILL kill_anywhere: sctp_rr: \([0-9]*\) kills.*left processes 0, sockets 0, work dirs 0, temp results 0, state not restored 0 (not judged [0-9]*: another run beside), hangs 0$/\1/p' "$out/console.log")
[ "${kills:-0}" -ge 8 ] || fail "guest kill_anywhere: sctp_rr not killed 8 times with nothing left: $(grep -m3 '^SCHED_PERF_KILL' "$out/console.log")"
pass "guest: $(grep '^SCHED_PERF_KILL kill_anywhere: sctp_rr:' "$out/console.log" | sed 's/^SCHED_PERF_KILL //')"
grep '^SCHED_PERF_CHECK ok: ' "$out/console.log" | while read -r line; do pass "guest: ${line#SCHED_PERF_CHECK ok: }"; done
ktap=$out/ktap
grep -q "^# # schedstat: version 16" "$ktap" || fail "guest has no /proc/schedstat version 16"
grep -q "^# # sched_features: .*RUN_TO_PARITY" "$ktap" ||
	fail "guest: sched features not read: $(grep -m1 '^# # sched_features:' "$ktap")"
pass "guest: sched features read from debugfs ($(grep -m1 -o 'NO_[A-Z_]*' <<<"$(grep -m1 '^# # sched_features:' "$ktap")" | head -n1) ...)"
pass "guest: /proc/schedstat version 16, $(sed -n 's/^# # nr_cpus: //p' "$ktap" | head -n1) CPUs"
for prog in $(sched_perf_programs "$top/tools/testing/selftests/sched_perf"); do
	check_ktap "$ktap" "$prog"
	# per-task schedstat figures are there and moved
	v=$(sed -n "s/^# # $prog\.wakeups_per_op: \([0-9.e+-]*\).*/\1/p" "$ktap" | head -n1)
	awk -v v="${v:-0}" 'BEGIN { exit !(v > 0) }' || fail "$prog: nr_wakeups per op is '$v'"
	pass "$prog: nr_wakeups_* non-zero ($v wakeups per op)"
done
# /proc/schedstat deltas feed checks that ran, not SKIP
n=$(grep -E '^# ok [0-9]+ [a-z_]+\.ss_[a-z0-9_]+( |$)' "$ktap" | grep -cv ' # SKIP')
[ "$n" -ge 4 ] || fail "only $n /proc/schedstat checks ran (hackbench and the three RR programs have one each)"
! grep -qE '^# ok [0-9]+ [a-z_]+\.ss_[a-z0-9_]+ # SKIP' "$ktap" || fail "a /proc/schedstat check was skipped"
pass "$n /proc/schedstat checks ran, none skipped"
# The kernel/sched patches: the guest kernel has their tracepoints, the
# bpf source counted them in every program, and the checks on them ran.
grep -q "^# # bpf: .*sched_select_idle_sibling_tp, sched_wakeup_preempt_tp" "$ktap" ||
	fail "guest: the series' tracepoints not counted: $(grep -m2 -E '^# # bpf(_series)?:' "$ktap" | tr '\n' ' ')"
# Every program's wakees search for an idle CPU; not every program's
# wake onto a busy CPU (dirdeep's single task on tmpfs never does), so
# preemption decisions are asked of the programs together.
checked=
for prog in $(sched_perf_programs "$top/tools/testing/selftests/sched_perf"); do
	v=$(sed -n "s/^# # $prog\.tp_sis_calls_per_op: \([0-9.e+-]*\).*/\1/p" "$ktap" | head -n1)
	awk -v v="${v:-0}" 'BEGIN { exit !(v > 0) }' || fail "$prog: tp_sis_calls_per_op is '$v'"
	v=$(sed -n "s/^# # $prog\.tp_wakeup_checks_per_op: \([0-9.e+-]*\).*/\1/p" "$ktap" | head -n1)
	awk -v v="${v:-0}" 'BEGIN { exit !(v > 0) }' && checked="$checked $prog"
	n=$(grep -E "^# ok [0-9]+ $prog\.tp_(sis|check)_[a-z_]+( |$)" "$ktap" | grep -cv ' # SKIP')
	[ "$n" -ge 1 ] || fail "$prog: no check on the series' tracepoints ran"
	# (a share of nothing is no check: a program whose wakees find an
	# idle CPU makes no preemption check, and has no denominator)
	! grep -E "^# ok [0-9]+ $prog\.tp_(sis|check)_[a-z_]+ # SKIP" "$ktap" | grep -qv ' # SKIP denominator is zero$' ||
		fail "$prog: a check on the series' tracepoints was skipped: $(grep -E "^# ok [0-9]+ $prog\.tp_(sis|check)_[a-z_]+ # SKIP" "$ktap" | head -n1)"
	# every reason the kernel gave is one the suite knows (bounds: <= 0)
	for metric in tp_sis_unknown_share tp_check_unknown_share; do
		grep -qE "^# ok [0-9]+ $prog\.$metric( # SKIP denominator is zero)?$" "$ktap" ||
			fail "$prog: $metric not checked or failed: $(grep -m1 "$prog\.$metric" "$ktap")"
	done
	pass "$prog: the series' tracepoints counted ($(sed -n "s/^# # $prog\.\(tp_sis_calls_per_op\|tp_wakeup_checks_per_op\|tp_sis_scanned_per_wakeup\|tp_check_preempt_share\): \([0-9.e+-]*\)\( [^ ]*\)\{0,1\}$/\1 \2/p" "$ktap" | paste -sd, -)), $n checks on them ran"
done
[ -n "$checked" ] || fail "no program's wakeups were checked for preemption: a dead tracepoint"
pass "preemption decisions counted in:$checked"
tps=$(sed -n 's/^# # sctp_rr\.transactions_per_sec: \([0-9.e+]*\).*/\1/p' "$ktap" | head -n1)
awk -v t="${tps:-0}" 'BEGIN { exit !(t > 0) }' ||
	fail "SCTP_RR did not run in the guest: no transactions/s ('$tps')"
pass "SCTP_RR ran: $tps transactions/s"

# Two kernels, the fast form of make bench-seed-classes: the kernel just
# built against itself plus the seed series up to its idle-search class
# commit (kernel/seed/0001-0004: three neutral ones, then a floor under
# the SIS_UTIL scan budget), 3 interleaved boots a side at the first look
# (vmab's default: more are added while it is open), hackbench only, the
# programs only (vmab's default, VM_CHECKS=0).  With 2 a side Welch's t has about one degree of
# freedom, and A's scan figure (boot medians 0.036 and 0.082 in one run)
# once left +6600 % undecided after Holm over 6 metrics.
# B rebuilds what the series changed in the kept build tree; every boot
# takes the static suite from the cache.  CPUs scanned per wakeup must
# be flagged, with vmab's exit 1 and KTAP.
series=$(ls "$top"/kernel/seed/000[1-4]-*.patch | tr '\n' ' ')
start=$(date +%s)
rc=0
# the host's clock: a mechanism counter is flagged on it, in half the
# host time of a boot under -icount (vmab's default)
VM_ICOUNT=0 VM_B_PATCHES=$series VM_BOOTS=3 VM_PROGS=hackbench VM_OUT=$out/ab \
	VM_ARGS="KSELFTEST_HACKBENCH_ARGS=--iterations 3 --budget 6" \
	"$top/scripts/vmab.sh" "$ksrc" "$ksrc" >"$out/ab.log" 2>&1 || rc=$?
flagged=$(grep -B1 -x 'not ok 1 hackbench' "$out/ab/verdict.tap" 2>/dev/null | sed -n 's/^# hackbench: regressed: //p')
[ "$rc" = 1 ] && grep -q 'hackbench\.tp_sis_scanned_per_wakeup +' <<<"$flagged" ||
	fail "two kernels: vmab exit $rc, want 1 with hackbench.tp_sis_scanned_per_wakeup flagged: $(tail -n3 "$out/ab.log")"
# vmtest's VM_STATUS files, which vmab keeps beside each build and boot
grep -qxE 'kernel_build: (incremental|cached)' "$out/ab/build-B.status" ||
	fail "two kernels: B was not built from the kept build tree: $(cat "$out/ab/build-B.status")"
boots=$(ls "$out"/ab/boot-*-[AB].log | wc -l)
cached=$(cat "$out"/ab/boot-*-[AB].status | grep -cx 'suite_build: cached')
[ "$cached" = "$boots" ] || fail "two kernels: $cached of $boots boots took the static suite from the cache"
pass "two kernels: the seed series up to 0004 flagged over $((boots / 2)) boots a side ($flagged), in $(($(date +%s) - start)) s; $(grep '^vmab: stopped at ' "$out/ab.log")"
done_ok
