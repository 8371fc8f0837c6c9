#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run our hackbench under `perf stat` and check that the counters we report
# for that same run agree with perf's.  perf counts the whole program, we
# count the workload's task tree only, so ours must be a little lower:
#   ours <= perf * (1 + 1%) and ours >= perf * (1 - TOL) - SLACK
# with TOL/SLACK per counter below (the difference is the controller:
# option parsing, start-up, /proc reads, the final report).
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

command -v perf >/dev/null || fail "perf not installed (Debian package linux-perf)"
perf stat -x';' -o "$tmp/perf" -e task-clock,context-switches,cpu-migrations -- \
	"$dir/hackbench" --pipe -g 1 -l 3000 --iterations 3 \
	--results "$tmp/ours" >"$tmp/stdout" 2>&1 ||
	fail "hackbench under perf stat failed: $(tail -3 "$tmp/stdout")"

perf_value() { awk -F';' -v ev="$1" '$3 == ev { print $1 }' "$tmp/perf"; }

# name in perf, name in our results, relative tolerance, absolute slack,
# scale from perf's unit to ours
check() {
	local pname=$1 oname=$2 tol=$3 slack=$4 scale=$5 p o
	p=$(perf_value "$pname")
	o=$(result "$tmp/ours" "hackbench.$oname")
	[ -n "$p" ] && [[ "$p" != "<"* ]] || fail "perf did not count $pname: '$p'"
	[ -n "$o" ] || fail "no hackbench.$oname in our results"
	p=$(awk -v p="$p" -v s="$scale" 'BEGIN { printf "%.0f", p * s }')
	awk -v o="$o" 'BEGIN { exit !(o > 0) }' || fail "$oname is zero"
	awk -v o="$o" -v p="$p" -v t="$tol" -v s="$slack" \
		'BEGIN { exit !(o <= p * 1.01 && o >= p * (1 - t) - s) }' ||
		fail "$oname: ours $o vs perf $p (tolerance -$tol x perf - $slack)"
	pass "$oname: ours $o, perf $p, ratio $(awk -v o="$o" -v p="$p" 'BEGIN { printf "%.4f", o / p }')"
}

check context-switches context_switches 0.05 200 1
check cpu-migrations cpu_migrations 0.10 30 1
check task-clock task_clock 0.05 50000000 1000000	# perf: msec, ours: ns
done_ok
