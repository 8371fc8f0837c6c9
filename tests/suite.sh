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
for prog in hackbench tcp_rr udp_rr dirdeep; do
	check_ktap "$out" $prog
	ls "$tmp"/sched_perf-$prog-*.results >/dev/null 2>&1 || fail "no $prog results file"
done
pass "results files written"
if [ -e /proc/sys/net/sctp ] || modprobe -n sctp 2>/dev/null; then
	check_ktap "$out" sctp_rr
else
	check_skipped "$out" sctp_rr
fi
done_ok
