#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The paired, sequential gate (--ab blocks A B, B A, ...; the signed-rank
# test; SAME by equivalence; looks at planned sizes with alpha spent over
# them) measured on this machine, per program:
#  1. pools of blocks from --ab runs on a knob that changes nothing
#     (GATE_KNOB, default kernel.printk_ratelimit one above its value):
#     pool0 with B = A, pool5 / pool10 with the B side made 5 % / 10 %
#     slower on purpose (SCHED_PERF_TEST_WORK_NS with
#     SCHED_PERF_TEST_WORK_SIDE=b; the amount set by its effect on a
#     trial A/B run, as bench/gate.sh sets it), in runs of GATE_RUN blocks, interleaved;
#  2. from each pool, GATE_DRAWS gates: GATE_MAX blocks drawn at random,
#     judged by sched_perf_compare --paired --looks L at the planned sizes
#     (GATE_N, then about 1.5 times as many, up to GATE_MAX) until every
#     metric is decided; the outcome (regressed, same, undecided) and the
#     blocks it took.
# The gates of a program share its pools: the rates are those of these
# pools, not of independent experiments.
#
# Usage: bench/gate_ab.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]
#   (default: the selftest Makefile's programs but sctp_rr)
# Environment (default): GATE_BLOCKS (32) blocks per pool, GATE_RUN (8)
# blocks per run, GATE_ITER_SEC (1; dirdeep 2) seconds per iteration,
# GATE_N (8) and GATE_MAX (18) blocks of a gate, GATE_DRAWS (300),
# GATE_SEED (random), GATE_KNOB, GATE_DRAW (random, or consecutive: blocks
# in a row from a random start, as a live gate takes them).
set -eu
dir=${1:?usage: bench/gate_ab.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]}
shift
. "$(dirname "$0")/../scripts/programs.sh"
progs=${*:-$(sched_perf_programs "$dir" | sed 's/\bsctp_rr\b//')}
blocks=${GATE_BLOCKS:-32}
per_run=${GATE_RUN:-8}
n=${GATE_N:-8}
max=${GATE_MAX:-18}
draws=${GATE_DRAWS:-300}
seed=${GATE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
rl=/proc/sys/kernel/printk_ratelimit
knob=${GATE_KNOB:-$rl=$(($(cat $rl 2>/dev/null || echo 5) + 1))}
[ "$blocks" -ge "$max" ] && [ "$max" -ge "$n" ] ||
	{ echo "gate_ab: want GATE_BLOCKS ($blocks) >= GATE_MAX ($max) >= GATE_N ($n)" >&2; exit 2; }
me=gate_ab
. "$(dirname "$0")/gate_lib.sh"
pool_knob=$knob

exec 3>&1
echo "gate_ab.sh: $(nproc) CPUs, kernel $(uname -r), programs from $dir, knob $knob"
echo "  pools: $blocks blocks each (runs of $per_run, interleaved); gates of $n..$max blocks" \
	"(looks at $(helper looks "$bin/sched_perf_compare" "$n" "$max")), $draws per pool, seed $seed"
start=$(now)
for p in $progs; do
	t0=$(now)
	case $p in
	dirdeep) secs=${GATE_ITER_SEC:-2} ;;
	*) secs=${GATE_ITER_SEC:-1} ;;
	esac
	echo
	echo "$p: $secs s per iteration"
	build_pools "$p" "$secs" "$blocks" "$blocks"
	if [ -z "$skipped" ]; then
		for pool in 0 5 10; do
			a_files=
			for f in ${pool_files[$pool]}; do
				a_files="$a_files $f.a"
			done
			helper merge "$bin/sched_perf_compare" "pool$pool" "$tmp/$p.pool$pool.res" ${pool_files[$pool]}
			helper merge "$bin/sched_perf_compare" "pool$pool A" "$tmp/$p.pool$pool.res.a" $a_files
		done
		helper paired_trials "$p" "$seed" "$n" "$max" "$draws" "$bin/sched_perf_compare" \
			"$tmp" "$tmp/$p.pool0.res" "5=$tmp/$p.pool5.res" "10=$tmp/$p.pool10.res"
	fi
	echo "  $p: $(since "$t0") s"
done
echo
echo "gate_ab.sh: $(since "$start") s in all, seed $seed"
if [ -n "${GATE_KEEP:-}" ]; then
	mkdir -p "$GATE_KEEP"
	cp "$tmp"/*.res "$tmp"/*.res.a "$tmp"/*.out "$tmp"/*.json "$GATE_KEEP"/ 2>/dev/null || true
	echo "pools, run outputs and tallies kept in $GATE_KEEP"
fi
