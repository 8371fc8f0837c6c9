#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Without root: a missing privilege or limit is a SKIP with its reason,
# never a FAIL.  Runs the program as 'nobody' (not run, exit 4, when it
# cannot become 'nobody': tests/run.sh reports a SKIP).
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
if [ "$(id -u)" != 0 ] || ! id nobody >/dev/null 2>&1; then
	echo "unprivileged: needs root and a 'nobody' user to become; not run"
	exit 4
fi
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
cp "$dir/hackbench" "$dir/bounds" "$tmp/"
mkdir "$tmp/results" && chmod 777 "$tmp/results"

as_nobody() { su nobody -s /bin/bash -c "cd $tmp && $*"; }

# 1. fds: a thread-mode run needs more than a hard limit of 200
as_nobody "ulimit -n 200; ./hackbench -p -T -g 10 --results none" >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 4 ] || fail "low RLIMIT_NOFILE: exit $rc, want 4 (skip): $(cat "$tmp/out")"
grep -q "^1\.\.0 # SKIP RLIMIT_NOFILE cannot be raised" "$tmp/out" ||
	fail "no skip reason: $(cat "$tmp/out")"
pass "low RLIMIT_NOFILE -> exit 4, '$(grep SKIP "$tmp/out")'"

# 2. by default no perf event is opened: an unprivileged run measures
# switches and migrations from the workers' own files all the same
as_nobody "SCHED_PERF_RESULTS_DIR=$tmp/results ./hackbench --budget 2" >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] || fail "unprivileged run: exit $rc, want 0: $(grep -E 'not ok|Bail' "$tmp/out")"
# (switches per op: migrations are load-sensitive, a SKIP on a busy machine)
grep -q "^ok [0-9]* hackbench.ctx_switches_per_op$" "$tmp/out" ||
	fail "default counters as nobody: switches not measured: $(grep ctx_switches_per_op "$tmp/out")"
pass "default counters as nobody: switches per op measured without perf, exit 0"

# 3. perf counters on request as an unprivileged user (perf_event_paranoid decides)
as_nobody "SCHED_PERF_RESULTS_DIR=$tmp/results ./hackbench --budget 2 --counters perf" >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] || fail "unprivileged run with perf: exit $rc, want 0: $(grep -E 'not ok|Bail' "$tmp/out")"
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
	grep -q "^ok [0-9]* hackbench.migrations_per_1k_ops # SKIP not permitted$" "$tmp/out" ||
		fail "perf-based check did not SKIP with its reason: $(grep migrations_per_1k "$tmp/out")"
	pass "--counters perf, perf_event_paranoid >= 2: perf-based checks SKIP, exit 0"
else
	grep -q "^ok [0-9]* hackbench.migrations_per_1k_ops$" "$tmp/out" ||
		fail "perf-based check missing"
	pass "--counters perf, perf_event_paranoid < 2: perf-based checks run, exit 0"
fi
done_ok
