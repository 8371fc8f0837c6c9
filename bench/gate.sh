#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Does the gate keep its promises on this machine?  Per program, pools of
# timed iterations are saved (--save): pool0 (the kernel as it is) and
# pool5 / pool10 (a kernel made 5 % / 10 % slower on purpose with the
# test-only SCHED_PERF_TEST_WORK_NS), each of several runs, interleaved
# (pool0, pool5, pool10, pool0, ...) so that slow drift of the host hits
# all pools alike.  From the pools, comparisons of GATE_N iterations per
# side are drawn by random disjoint splits and judged by sched_perf_compare
# as the gate judges a run against its baseline:
#  1. A/A: two disjoint draws from pool0; exit 1 is a false positive
#  2. detection: a draw from pool0 against one from pool5 / pool10; exit 1
#     is a detection
#  3. one default gate run per program (--baseline a pool0 run), timed
# The draws of a program share its pools: they measure the gate on these
# pools, they are not independent repetitions of the experiment.
#
# The busy work per operation is set by its effect: a trial amount
# (GATE_CAL_PCT, 20 % of pool0's first run's median CPU time per op, or of
# its wall time per op for dirdeep) runs GATE_CAL_RUNS (8) iterations, and
# what it did to throughput (1 / ratio - 1 grows linearly with the work)
# gives the amount for each slowdown.  Each pool's measured move is
# printed with its tally.
#
# Usage: bench/gate.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]
#   (default: the selftest Makefile's programs; a SKIP is reported)
# Environment (default):
#   GATE_K0 (24)        iterations in pool0
#   GATE_K1 (16)        iterations in pool5 and in pool10
#   GATE_ITER_SEC       seconds per iteration (the default gate's: 20 s / 8 =
#                       2.5, dirdeep 30 s / 8 = 3.75)
#   GATE_RUN (8)        iterations per run that goes into a pool
#   GATE_N (8)          iterations per side of a comparison
#   GATE_DRAWS (200)    comparisons per program, per kind (A/A, 5 %, 10 %)
#   GATE_SEED (random)  seed of the draws (printed)
#   GATE_KEEP           a directory to copy the pools and draws' tallies to
set -eu
dir=${1:?usage: bench/gate.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]}
shift
. "$(dirname "$0")/../scripts/programs.sh"
progs=${*:-$(sched_perf_programs "$dir")}
k0=${GATE_K0:-24}
k1=${GATE_K1:-16}
per_run=${GATE_RUN:-8}
n=${GATE_N:-8}
draws=${GATE_DRAWS:-200}
seed=${GATE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
[ "$k0" -ge $((2 * n)) ] || { echo "gate: GATE_K0=$k0 is too small for two disjoint draws of GATE_N=$n" >&2; exit 2; }
[ "$k1" -ge "$n" ] || { echo "gate: GATE_K1=$k1 is smaller than GATE_N=$n" >&2; exit 2; }
me=gate
. "$(dirname "$0")/gate_lib.sh"

exec 3>&1
echo "gate.sh: $(nproc) CPUs, kernel $(uname -r), programs from $dir"
echo "  pools per program: pool0 $k0 iterations, pool5 and pool10 $k1 each, runs of $per_run iterations, interleaved"
echo "  comparisons: $draws per kind, drawn from the pools by random disjoint splits of $n iterations per side, seed $seed"
echo "  (GATE_K0=$k0 GATE_K1=$k1 GATE_RUN=$per_run GATE_N=$n GATE_DRAWS=$draws GATE_SEED=$seed${GATE_ITER_SEC:+ GATE_ITER_SEC=$GATE_ITER_SEC})"
start=$(now)
for p in $progs; do
	t0=$(now)
	case $p in
	dirdeep) secs=${GATE_ITER_SEC:-3.75} ;;
	*) secs=${GATE_ITER_SEC:-2.5} ;;
	esac
	echo
	echo "$p: $secs s per iteration"
	build_pools "$p" "$secs" "$k0" "$k1"
	if [ -n "$skipped" ]; then
		spent=$(since "$t0")
	else
		specs=
		for pool in 0 $slowdowns; do
			helper merge "$bin/sched_perf_compare" "pool$pool" "$tmp/$p.pool$pool.res" ${pool_files[$pool]}
			[ "$pool" = 0 ] || specs="$specs $pool=$tmp/$p.pool$pool.res"
		done
		helper trials "$p" "$seed" "$n" "$draws" "$bin/sched_perf_compare" "$tmp" \
			"$tmp/$p.pool0.res" $specs
		spent=$(since "$t0")
	fi

	# the default gate: 8 iterations against a baseline, default budget
	t1=$(now)
	rc=0
	SCHED_PERF_RESULTS_DIR=$tmp/results "$bin/$p" ${first:+--baseline "$first"} \
		>"$tmp/$p.gate.out" 2>&1 || rc=$?
	gate=$(since "$t1")
	echo "  default gate run: $p --baseline <pool0's first run>: $gate s, exit $rc$(
		[ $rc = 4 ] && echo ' (SKIP)'; [ $rc = 1 ] && echo ' (a check failed or a metric regressed:' \
		"$(grep -c '^not ok' "$tmp/$p.gate.out") not ok)")"
	echo "$spent $gate $rc" >"$tmp/$p.times"
done

echo
echo "summary: $(nproc) CPUs, kernel $(uname -r), seed $seed, $(since "$start") s in all"
echo "  comparisons are drawn from one pool of repeated runs per program by random disjoint"
echo "  splits ($n iterations per side): they share their iterations, so the rates below are"
echo "  those of these pools, not of independent experiments (even 0 false positives in"
awk -v d="$draws" 'BEGIN { printf "  %d independent comparisons would bound the rate at %.1f %% only, 95 %% confidence)\n", d, 100 * (1 - 0.05 ^ (1 / d)) }'
echo "  noisy = a metric noisy or too-few-runs (no verdict) in an A/A comparison;"
echo "  tput/cpu = change of the pool medians of throughput and of task_clock_us_per_op"
echo "  time s = pools and comparisons; gate s = one default gate run (--baseline, 8 iterations)"
echo
helper table "$tmp" $progs
if [ -n "${GATE_KEEP:-}" ]; then
	mkdir -p "$GATE_KEEP"
	cp "$tmp"/*.res "$tmp"/*.out "$tmp"/*.json "$GATE_KEEP"/ 2>/dev/null || true
	echo "pools, run outputs and tallies kept in $GATE_KEEP"
fi
