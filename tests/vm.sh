#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite in a 6.12 guest (scripts/vmtest.sh), then what this host's
# kernel cannot show: schedstat (v16) checks run instead of SKIP, SCTP_RR
# runs, per-task nr_wakeups_* counters are non-zero, every workload
# passes its bounds.
set -u
. "$(dirname "$0")/lib.sh"
ksrc=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

start=$(date +%s)
VM_OUT=$out "$(dirname "$0")/../scripts/vmtest.sh" "$ksrc" || fail "vmtest failed (see above)"
pass "vmtest passed in $(($(date +%s) - start)) s"
checks=$(grep -c '^SCHED_PERF_CHECK ok: ' "$out/console.log")
! grep -q '^SCHED_PERF_CHECK FAIL' "$out/console.log" ||
	fail "guest check: $(grep -m1 '^SCHED_PERF_CHECK FAIL' "$out/console.log")"
[ "$checks" = 6 ] || fail "guest ran $checks of 6 checks"
grep '^SCHED_PERF_AB ' "$out/console.log" | sed 's/^SCHED_PERF_AB /guest A-B: /'
# kill_anywhere in the guest: at least 10 kills of sctp_rr, nothing left
kills=$(sed -n 's/^SCHED_PERF_KILL kill_anywhere: sctp_rr: \([0-9]*\) kills.*left processes 0, sockets 0, work dirs 0, temp results 0, state not restored 0, hangs 0$/\1/p' "$out/console.log")
[ "${kills:-0}" -ge 10 ] || fail "guest kill_anywhere: sctp_rr not killed 10 times with nothing left: $(grep -m3 '^SCHED_PERF_KILL' "$out/console.log")"
pass "guest: $(grep '^SCHED_PERF_KILL kill_anywhere: sctp_rr:' "$out/console.log" | sed 's/^SCHED_PERF_KILL //')"
grep '^SCHED_PERF_CHECK ok: ' "$out/console.log" | while read -r line; do pass "guest: ${line#SCHED_PERF_CHECK ok: }"; done
ktap=$out/ktap
grep -q "^# # schedstat: version 16" "$ktap" || fail "guest has no /proc/schedstat version 16"
pass "guest: /proc/schedstat version 16, $(sed -n 's/^# # nr_cpus: //p' "$ktap" | head -n1) CPUs"
for prog in hackbench tcp_rr udp_rr sctp_rr dirdeep; do
	check_ktap "$ktap" "$prog"
	# per-task schedstat figures are there and moved
	v=$(sed -n "s/^# # $prog\.wakeups_per_op: \([0-9.e+-]*\).*/\1/p" "$ktap")
	awk -v v="${v:-0}" 'BEGIN { exit !(v > 0) }' || fail "$prog: nr_wakeups per op is '$v'"
	pass "$prog: nr_wakeups_* non-zero ($v wakeups per op)"
done
# /proc/schedstat deltas feed checks that ran, not SKIP
n=$(grep -cE '^# ok [0-9]+ [a-z_]+\.ss_[a-z0-9_]+ ' "$ktap")
[ "$n" -ge 4 ] || fail "only $n /proc/schedstat checks ran (hackbench and the three RR programs have one each)"
! grep -qE '^# ok [0-9]+ # SKIP [a-z_]+\.ss_' "$ktap" || fail "a /proc/schedstat check was skipped"
pass "$n /proc/schedstat checks ran, none skipped"
tps=$(sed -n 's/^# # sctp_rr\.transactions_per_sec: \([0-9.e+]*\).*/\1/p' "$ktap")
pass "SCTP_RR ran: $tps transactions/s"
done_ok
