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
progs=$(sched_perf_programs "$selftests/sched_perf")
[ -n "$progs" ] || fail "no programs in $selftests/sched_perf/Makefile"
for f in run_kselftest.sh kselftest-list.txt sched_perf/bounds sched_perf/config sched_perf/settings; do
	[ -e "$dest/$f" ] || fail "install lacks $f"
done
for p in $progs; do
	[ -x "$dest/sched_perf/$p" ] || fail "install lacks sched_perf/$p"
	grep -q "^sched_perf:$p\$" "$dest/kselftest-list.txt" ||
		fail "kselftest-list.txt does not list sched_perf:$p"
done
pass "installed: run_kselftest.sh, bounds, config, settings and the $(echo $progs | wc -w) programs, each in kselftest-list.txt"
# every program with a short budget (hackbench's long enough for its
# checks, dirdeep's two iterations)
budgets=()
for p in $progs; do
	args="--budget 3"
	case $p in
	hackbench) args="--budget 5" ;;
	dirdeep) args="--budget 6 --iterations 2" ;;
	esac
	budgets+=("KSELFTEST_$(tr '[:lower:]' '[:upper:]' <<<"$p")_ARGS=$args")
done
env SCHED_PERF_RESULTS_DIR="$dest" "${budgets[@]}" \
	"$dest/run_kselftest.sh" -c sched_perf >>"$dest/out" 2>&1 # append: the runner reopens /dev/stdout
cat "$dest/out"
# SCTP is the one protocol a kernel may lack (this host's has none): then
# sctp_rr must be skipped with its reason, else run like the others
sctp_here() { python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_SCTP)' 2>/dev/null; }
for p in $progs; do
	if [ "$p" = sctp_rr ] && ! sctp_here; then
		check_skipped "$dest/out" "$p"
	else
		check_ktap "$dest/out" "$p"
	fi
done
ls "$dest"/sched_perf-hackbench-*.results >/dev/null 2>&1 || fail "no results file"
pass "results file written: $(basename "$dest"/sched_perf-hackbench-*.results)"
done_ok
