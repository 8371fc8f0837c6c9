# SPDX-License-Identifier: GPL-2.0
# What the tests and benchmarks share: the suite's programs (the one list
# is TEST_GEN_PROGS in the selftest Makefile,
# tools/testing/selftests/sched_perf/Makefile) and the median they print.
# Sourced; POSIX sh.

# sched_perf_programs SUITE_DIR [VAR]: the programs (VAR TEST_GEN_PROGS,
# or TEST_GEN_PROGS_EXTENDED for the tools), space-separated, read from
# SUITE_DIR's Makefile, or from ../kselftest-list.txt where the suite is
# installed without its Makefile.  Nothing when neither is there.
sched_perf_programs() {
	if [ -f "$1/Makefile" ]; then
		sed -n "s/^${2:-TEST_GEN_PROGS} := //p" "$1/Makefile"
	elif [ "${2:-TEST_GEN_PROGS}" = TEST_GEN_PROGS ] && [ -f "$1/../kselftest-list.txt" ]; then
		sed -n 's/^sched_perf://p' "$1/../kselftest-list.txt" | tr '\n' ' '
	fi
}

# vm_status FILE KEY: the last KEY line's value in a VM_STATUS file of
# scripts/vmtest.sh (nothing when there is none)
vm_status() {
	[ ! -f "$1" ] || sed -n "s/^$2: //p" "$1" | tail -n1
}

# median: the median of the numbers on stdin, one a line (nothing for none)
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# busy_start N: N busy loops in the background, the machine's "other
# work" (their PIDs in busy_pids); busy_stop kills them, always 0.  A
# caller's EXIT trap calls busy_stop too.
busy_pids=
busy_start() {
	_n=$1
	while [ "$_n" -gt 0 ]; do
		( while :; do :; done ) &
		busy_pids="$busy_pids $!"
		_n=$((_n - 1))
	done
}
busy_stop() {
	# shellcheck disable=SC2086
	[ -z "$busy_pids" ] || { kill $busy_pids 2>/dev/null; wait $busy_pids 2>/dev/null; }
	busy_pids=
	return 0
}
