#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The paired, sequential gate in the 6.12 guest with deterministic time
# (qemu -icount: guest time counts instructions executed, so the host's
# load cannot move the guest's figures).  Per program, three boots:
#  1. pool0: --ab GUEST_KNOB (a sched feature that changes nothing
#     measurable) for GUEST_BLOCKS blocks, A B / B A, both sides saved;
#  2. a trial: the B side made slower by busy work per op
#     (SCHED_PERF_TEST_WORK_NS, GUEST_CAL_PCT of the CPU time per op of
#     pool0's A side) for GUEST_CAL_BLOCKS blocks; what it did to
#     throughput sets the amount for GUEST_X % (bench/gate.py
#     calibrate_effect, as bench/gate.sh does on the host);
#  3. poolX: the B side GUEST_X % slower, GUEST_BLOCKS blocks.
# Then GATE_DRAWS gates per pool, GATE_N..GATE_MAX blocks drawn at random
# from it, judged by sched_perf_compare --paired --looks at the planned
# sizes (bench/gate.py paired_trials): regressed, same or undecided, the
# blocks used, and the CV per iteration and per block; once with the
# suite's bounds, once with GATE_BOUNDS (default: the suite's bounds with
# its bounds.icount over them, as scripts/vmab.sh judges kernels under
# -icount: 2 % to catch, failing beyond the alarm line at 1 %; files
# separated by ':'; empty: not that second time).  The gates of one pool
# share its blocks: the rates are those of that pool.
#
# Usage: bench/gate_guest.sh KSRC DIR_WITH_OUR_PROGRAMS
# Environment (default): GUEST_PROGS (hackbench tcp_rr), GUEST_BLOCKS
# (32), GUEST_X (2), GUEST_CAL_PCT (10), GUEST_CAL_BLOCKS (8),
# GUEST_ITER_SEC (1), GUEST_KNOB (LATENCY_WARN), GUEST_QEMU
# ("-icount shift=0,sleep=off"; "" for the host's clock), GATE_N (8),
# GATE_MAX (18), GATE_DRAWS (300), GATE_SEED (random), GATE_KEEP (a
# directory to keep the pools in).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=${1:?usage: bench/gate_guest.sh KSRC DIR_WITH_OUR_PROGRAMS}
dir=${2:?usage: bench/gate_guest.sh KSRC DIR_WITH_OUR_PROGRAMS}
want=${GUEST_PROGS:-hackbench tcp_rr}
blocks=${GUEST_BLOCKS:-32}
x=${GUEST_X:-2}
secs=${GUEST_ITER_SEC:-1}
knob=${GUEST_KNOB:-LATENCY_WARN}
qemu=${GUEST_QEMU--icount shift=0,sleep=off}
n=${GATE_N:-8}
max=${GATE_MAX:-18}
draws=${GATE_DRAWS:-300}
seed=${GATE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
[ -d "$ksrc" ] || { echo "gate_guest: $ksrc: no kernel tree (make ksrc)" >&2; exit 2; }
[ "$blocks" -ge "$max" ] && [ "$max" -ge "$n" ] ||
	{ echo "gate_guest: want GUEST_BLOCKS ($blocks) >= GATE_MAX ($max) >= GATE_N ($n)" >&2; exit 2; }
me=gate_guest
progs=	# gate_lib.sh copies sched_perf_compare alone: the programs run in the guest
. "$(dirname "$0")/gate_lib.sh"
cal_pct=${GUEST_CAL_PCT:-10}	# after gate_lib.sh, which has its own default
cal_blocks=${GUEST_CAL_BLOCKS:-8}
cp "$dir/bounds.icount" "$bin/" || { echo "$me: no $dir/bounds.icount" >&2; exit 2; }
bounds=${GATE_BOUNDS-$bin/bounds:$bin/bounds.icount}

# One boot: prog label blocks work_ns (empty: none); prints the B side's
# results file (the A side is FILE.a); the boot's log beside it.
guest_pool() {
	local p=$1 out=$tmp/$1.$2 var t0 rc=0 args
	var=KSELFTEST_$(echo "$p" | tr a-z- A-Z_)_ARGS
	args="--ab $knob --iterations $3 --max-runs $3 --budget $(($3 * secs))"
	args="$args --save /results/$p.ab.results"
	t0=$(now)
	VM_CHECKS=0 VM_PROGS=$p VM_OUT=$out VM_TIMEOUT=${VM_TIMEOUT:-3600} VM_QEMU_ARGS=$qemu \
		VM_ARGS="$var=$args${4:+
SCHED_PERF_TEST_WORK_NS=$4
SCHED_PERF_TEST_WORK_SIDE=b}" "$top/scripts/vmtest.sh" "$ksrc" >"$out.log" 2>&1 || rc=$?
	if [ ! -f "$out/results/$p.results" ] || [ ! -f "$out/results/$p.results.a" ]; then
		echo "$me: $p ($2) saved no A/B run sets, vmtest exit $rc:" >&2
		tail -n 8 "$out.log" >&2
		return 1
	fi
	printf '  %s boot: %s blocks%s: %s s, vmtest exit %s\n' "$2" "$3" \
		"${4:+, B side +$4 ns per op}" "$(since "$t0")" "$rc" >&3
	echo "$out/results/$p.results"
}

exec 3>&1
echo "gate_guest.sh: guest of $ksrc, qemu ${qemu:-(host clock)}, knob --ab $knob"
echo "  pools: $blocks blocks each, one boot each; gates of $n..$max blocks" \
	"(looks at $(helper looks "$bin/sched_perf_compare" "$n" "$max")), $draws per pool, seed $seed"
"$top/scripts/vmtest.sh" "$ksrc" kernel >"$tmp/kernel.log" 2>&1 ||
	{ echo "$me: the kernel did not build:" >&2; tail -n 8 "$tmp/kernel.log" >&2; exit 1; }
start=$(now)
for p in $want; do
	t0=$(now)
	echo
	echo "$p: $secs s per iteration (guest time)"
	pool0=$(guest_pool "$p" pool0 "$blocks" "")
	IFS='|' read -r guess basis <<<"$(helper calibrate "$bin/sched_perf_compare" "$p" "$pool0.a" "$cal_pct")"
	echo "  trial for the knob: $guess ns per op ($cal_pct % of the $basis)"
	trial=$(guest_pool "$p" cal "$cal_blocks" "$guess")
	IFS='|' read -r ns basis <<<"$(helper calibrate_effect "$bin/sched_perf_compare" "$p" "$guess" "$pool0" "$trial" "$x")"
	echo "  SCHED_PERF_TEST_WORK_NS for $x % slower (B side): $ns ns (from the $basis)"
	poolx=$(guest_pool "$p" "pool$x" "$blocks" "$ns")
	echo "  judged with the suite's bounds (thresholds 3 % and 5 %: can SAME be proven?):"
	GATE_BOUNDS= helper paired_trials "$p" "$seed" "$n" "$max" "$draws" \
		"$bin/sched_perf_compare" "$tmp" "$pool0" "$x=$poolx"
	if [ -n "$bounds" ]; then
		echo "  judged with $bounds (bounds.icount: 2 %, alarm lines at 1 %: is $x % caught?):"
		GATE_BOUNDS=$bounds helper paired_trials "$p" "$seed" "$n" "$max" "$draws" \
			"$bin/sched_perf_compare" "$tmp" "$pool0" "$x=$poolx"
	fi
	if [ -n "${GATE_KEEP:-}" ]; then
		mkdir -p "$GATE_KEEP"
		for f in "$pool0" "$poolx" "$trial"; do
			# $tmp/<prog>.<pool>/results/<prog>.results -> <prog>.<pool>.res
			keep=$GATE_KEEP/$(basename "$(dirname "$(dirname "$f")")").res
			cp "$f" "$keep" && cp "$f.a" "$keep.a"
		done
		cp "$tmp"/*.log "$tmp/$p.paired.json" "$GATE_KEEP"/
	fi
	echo "  $p: $(since "$t0") s"
done
echo
echo "gate_guest.sh: $(since "$start") s in all, seed $seed${GATE_KEEP:+; pools kept in $GATE_KEEP}"
