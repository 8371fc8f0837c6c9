#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# As distro CI does: kselftest install, then run_kselftest.sh from the
# install directory.  The config, settings and bounds files must travel.
set -u
. "$(dirname "$0")/lib.sh"
make=$1 selftests=$2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

$make -s -C "$selftests" TARGETS=sched_perf install INSTALL_PATH="$dest" >/dev/null ||
	fail "kselftest install failed"
for f in run_kselftest.sh kselftest-list.txt sched_perf/hackbench sched_perf/tcp_rr \
	 sched_perf/bounds sched_perf/config sched_perf/settings; do
	[ -e "$dest/$f" ] || fail "install lacks $f"
done
pass "installed: run_kselftest.sh, hackbench, bounds, config, settings"
grep -q '^sched_perf:hackbench$' "$dest/kselftest-list.txt" ||
	fail "kselftest-list.txt does not list sched_perf:hackbench"
pass "kselftest-list.txt lists sched_perf:hackbench"
SCHED_PERF_RESULTS_DIR=$dest KSELFTEST_HACKBENCH_ARGS="--budget 5" \
	KSELFTEST_TCP_RR_ARGS="--budget 3" KSELFTEST_UDP_RR_ARGS="--budget 3" \
	KSELFTEST_DIRDEEP_ARGS="--budget 6 --iterations 2" \
	KSELFTEST_PIPE_ARGS="--budget 3" \
	"$dest/run_kselftest.sh" -c sched_perf >>"$dest/out" 2>&1 # append: the runner reopens /dev/stdout
cat "$dest/out"
check_ktap "$dest/out" hackbench
check_ktap "$dest/out" tcp_rr
check_ktap "$dest/out" udp_rr
check_ktap "$dest/out" dirdeep
check_ktap "$dest/out" pipe
ls "$dest"/sched_perf-hackbench-*.results >/dev/null 2>&1 || fail "no results file"
pass "results file written: $(basename "$dest"/sched_perf-hackbench-*.results)"
done_ok
