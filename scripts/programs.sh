# SPDX-License-Identifier: GPL-2.0
# What the tests and benchmarks share: the suite's programs (the one list
# is TEST_GEN_PROGS in the selftest Makefile,
# tools/testing/selftests/sched_perf/Makefile), the default kernel tree
# and the median they print.  Sourced; POSIX sh.

# The default kernel tree (KSRC) the suite is synced into and built in:
# the Debian package's source (scripts/deps.list), extracted by make ksrc
# into the build directory.  The Makefile reads the package from here.
SCHED_PERF_KSRC_PKG=linux-source-6.12
# sched_perf_ksrc BUILD: the default KSRC under BUILD (the Makefile's
# BUILD, the repository's build/ unless it is set)
sched_perf_ksrc() {
	echo "$1/$SCHED_PERF_KSRC_PKG"
}
# sched_perf_compare_bin TOP: SCHED_PERF_COMPARE, else the
# sched_perf_compare that make build builds in TOP's default tree
sched_perf_compare_bin() {
	echo "${SCHED_PERF_COMPARE:-$(sched_perf_ksrc "$1/build")/tools/testing/selftests/sched_perf/sched_perf_compare}"
}

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
