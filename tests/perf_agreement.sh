#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run our hackbench under `perf stat` and check that the counters we report
# for that same run agree with perf's, both ways we count: by default from
# the workers' own /proc/<tid>/sched, schedstat and stat (perf off), and
# with --counters all from perf events inherited by the workers.  perf
# counts the whole program, we count the workload's task tree only, so
# ours must be a little lower:
#   ours <= perf * (1 + OVER) and ours >= perf * (1 - TOL) - SLACK
# with TOL/SLACK per counter below (the difference is the controller:
# option parsing, start-up, /proc reads, the final report), OVER 1 %.
# One exception: the workers' se.nr_migrations came out 0.1-2.9 % above
# perf stat's cpu-migrations of the whole program in 9 runs here.  The
# kernel adds to nr_migrations at every set_task_cpu() to another CPU,
# while perf only flags the task there and counts one migration at its
# next sched_in, so a task moved twice before it runs again (a wakeup
# migration, then a load balance) is one migration to perf and two to
# the task.  With perf off, migrations may be 10 % over.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v perf >/dev/null || fail "perf not installed (Debian package linux-perf)"
perf_value() { awk -F';' -v ev="$1" '$3 == ev { print $1 }' "$tmp/perf.$mode"; }

# name in perf, name in our results, relative tolerance, absolute slack,
# scale from perf's unit to ours, how far above perf ours may be
check() {
	local pname=$1 oname=$2 tol=$3 slack=$4 scale=$5 over=${6:-0.01} p o
	p=$(perf_value "$pname")
	o=$(result "$tmp/ours.$mode" "hackbench.$oname")
	[ -n "$p" ] && [[ "$p" != "<"* ]] || fail "perf did not count $pname: '$p'"
	[ -n "$o" ] || fail "no hackbench.$oname in our results"
	p=$(awk -v p="$p" -v s="$scale" 'BEGIN { printf "%.0f", p * s }')
	awk -v o="$o" 'BEGIN { exit !(o > 0) }' || fail "$oname is zero"
	awk -v o="$o" -v p="$p" -v t="$tol" -v s="$slack" -v v="$over" \
		'BEGIN { exit !(o <= p * (1 + v) && o >= p * (1 - t) - s) }' ||
		fail "--counters $mode: $oname: ours $o vs perf $p (tolerance -$tol x perf - $slack, +$over x perf)"
	pass "--counters $mode: $oname: ours $o, perf $p, ratio $(awk -v o="$o" -v p="$p" 'BEGIN { printf "%.4f", o / p }')"
}

for mode in default all; do
	perf stat -x';' -o "$tmp/perf.$mode" -e task-clock,context-switches,cpu-migrations -- \
		"$dir/hackbench" --pipe -g 1 -l 3000 --iterations 3 --counters "$mode" \
		--results "$tmp/ours.$mode" >"$tmp/stdout" 2>&1 ||
		fail "hackbench --counters $mode under perf stat failed: $(tail -3 "$tmp/stdout")"
	want=tasks
	[ "$mode" = all ] && want=perf
	grep -q "^# counter_sources: .*$want" "$tmp/stdout" ||
		fail "--counters $mode: the header does not name $want: $(grep counter_sources "$tmp/stdout")"
	check context-switches context_switches 0.05 200 1
	over=0.01
	[ "$mode" = default ] && over=0.10
	check cpu-migrations cpu_migrations 0.10 30 1 "$over"
	check task-clock task_clock 0.05 50000000 1000000	# perf: msec, ours: ns
done
done_ok
