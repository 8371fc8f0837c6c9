#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench/kernel_power.sh's drawn comparisons, without a VM: pools of
# made-up boots (the fixture run set, throughput scaled per boot) judged
# as they are (KP_BOOTS=0), each draw replayed through scripts/vmab.sh
# with bench/pool_vmtest.sh handing out the boots.  Boots of cost 0 that
# agree within 0.1 % never regress against each other; boots 30 % slower
# always do, at the first look; the
# boots a side and the host minutes come from the boots vmab took.
set -u
. "$(dirname "$0")/lib.sh"
intree=$1 ksrc=$2
top=$(cd "$(dirname "$0")/.." && pwd)
fix=$top/tools/testing/selftests/sched_perf/fixtures/runset/old
[ -x "$intree/sched_perf_compare" ] && [ -f "$intree/bounds.icount" ] ||
	fail "no $intree/sched_perf_compare or bounds.icount (make build)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# boot N of cost C: the fixture with its throughput times F, 40 s a boot
boot() {	# cost n factor
	local d=$tmp/pools/cost-$1/boot-$2
	mkdir -p "$d/results"
	printf 'cost %s\nclock icount\nseconds 40\n' "$1" >"$d/boot"
	awk -v f="$3" '/^hackbench\.runs\.messages_per_sec:/ { for (i = 2; i <= NF; i++) $i *= f } { print }' \
		"$fix" >"$d/results/hackbench.results"
}
mkdir -p "$tmp/pools"
printf 'clock icount\nprograms hackbench\nargs KSELFTEST_HACKBENCH_ARGS=--iterations 5 --budget 3\ncpus 4\n' \
	>"$tmp/pools/setting"
n=0
for f in 1.000 1.001 0.999 1.0005 0.9995 1.0002 0.9998 1.0008; do
	n=$((n + 1))
	boot 0 "$n" "$f"
done
n=0
for f in 0.700 0.701 0.699 0.7005; do
	n=$((n + 1))
	boot 1000 "$n" "$f"
done

rc=0
env -u VM_BOUNDS -u VM_METRICS KP_BOOTS=0 KP_BASE_BOOTS=0 KP_COSTS=1000 KP_DRAWS=12 KP_SEED=7 \
	KP_OUT="$tmp/pools" VM_PROGS=hackbench SCHED_PERF_COMPARE="$intree/sched_perf_compare" \
	"$top/bench/kernel_power.sh" "$ksrc" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "exit $rc, want 0: $(tail -n 5 "$tmp/out")"
# "  cost 0 ns (A/A ...), up to 4 boots a side:" then its lines
section() { sed -n "/^  cost $1 ns /,/most /p" "$tmp/out"; }
section 0 | grep -q 'up to 4 boots a side:' &&
	section 0 | grep -q 'vmab exit 1 (regressed): A/A, false alarms 0/12 = 0.0 %.*; exit 0 12, exit 4 0' &&
	section 0 | grep -q 'boots a side at the stop: {3: 12}' &&
	section 0 | grep -q 'hackbench regressed: 0/12, passed (shown within its thresholds): 12/12' ||
	fail "A/A: want 12 draws of 4 disjoint boots a side passed at the first look: $(section 0)"
pass "A/A from 8 boots: 4 a side at most, 12 draws passed at the first look (exit 0, each counted passed), no false alarm"
section 1000 | grep -q 'vmab exit 1 (regressed): detected 12/12 = 100.0 %' &&
	section 1000 | grep -q 'hackbench regressed: 12/12' &&
	section 1000 | grep -q 'host minutes per gate (the boots. own seconds): median 4.0, 90th percentile 4.0, most 4.0' ||
	fail "-30 %: want 12 of 12 detected at 3 boots a side, 6 boots of 40 s: $(section 1000)"
pass "-30 %: detected in 12 of 12 draws at the first look, 4.0 host minutes a gate (6 boots of 40 s)"
grep -q 'calibration: ' "$tmp/out" && grep -q 'cost   1000 ns:   4 boots, .*change  -29.98 %' "$tmp/out" ||
	fail "calibration: want -29.98 % at cost 1000: $(grep -A4 calibration "$tmp/out")"
pass "calibration: cost 1000 ns -29.98 % against cost 0 (medians of the boots' medians)"
# too few boots of cost 0 for the first look of an A/A comparison
rm -rf "$tmp/pools/cost-0/boot-"[3-8]
rc=0
env -u VM_BOUNDS KP_BOOTS=0 KP_BASE_BOOTS=0 KP_COSTS=1000 KP_DRAWS=2 KP_OUT="$tmp/pools" VM_PROGS=hackbench \
	SCHED_PERF_COMPARE="$intree/sched_perf_compare" "$top/bench/kernel_power.sh" "$ksrc" >"$tmp/out" 2>&1 || rc=$?
[ "$rc" = 0 ] && grep -q 'cost 0 ns: too few boots for 3 a side (cost 0: 2' "$tmp/out" ||
	fail "2 boots of cost 0: exit $rc, want 0 and 'too few boots': $(tail -n 8 "$tmp/out")"
pass "2 boots of cost 0: 'too few boots for 3 a side' said, nothing drawn"

# bench/ab_cost_guest.sh (the same cost judged in one boot) refuses bad
# settings in one line, exit 2, before it builds or boots anything
ac() {	# want VAR=VALUE...
	local want=$1
	shift
	env "$@" AC_OUT="$tmp/ac" "$top/bench/ab_cost_guest.sh" "$ksrc" >"$tmp/ac.out" 2>"$tmp/ac.err"
	local rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/ac.err")" = 1 ] && grep -q -- "$want" "$tmp/ac.err" &&
		[ ! -e "$tmp/ac/kernel.log" ] ||
		fail "ab_cost_guest $*: exit $rc, want 2 and one line with '$want': $(cat "$tmp/ac.err")"
	pass "ab_cost_guest $*: exit 2, $(cat "$tmp/ac.err")"
}
ac "AC_COSTS: no such setting" AC_COSTS=1
ac "AC_RUNS=x: want a count" AC_RUNS=x
ac "AC_COST: no cost for hackbench" AC_PROGS="tcp_rr hackbench" AC_COST=tcp_rr=500
ac "AC_COST: tcp_rr: want whole ns above 0" AC_PROGS=tcp_rr AC_COST=tcp_rr=0
ac "AC_JOBS=0: want at least 1" AC_JOBS=0
done_ok
