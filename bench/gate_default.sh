#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How long a default gate of every program takes here, and what it
# decides: each program once with --ab on a knob that changes nothing
# (kernel.printk_ratelimit one above its value; GATE_KNOB), default
# iterations and budget, one after the other.  Prints per program the
# wall time, the blocks run and the verdicts of its comparisons; the goal
# is all of them within 5 minutes on 2 CPUs.
#
# Usage: bench/gate_default.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]
#   (default: the selftest Makefile's programs)
set -eu
dir=${1:?usage: bench/gate_default.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]}
shift
. "$(dirname "$0")/../scripts/programs.sh"
progs=${*:-$(sched_perf_programs "$dir")}
rl=/proc/sys/kernel/printk_ratelimit
knob=${GATE_KNOB:-$rl=$(($(cat $rl 2>/dev/null || echo 5) + 1))}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

echo "gate_default.sh: $(nproc) CPUs, kernel $(uname -r), --ab $knob, default iterations and budget"
start=$(now)
for p in $progs; do
	[ -x "$dir/$p" ] || { echo "gate_default: no $dir/$p (make build)" >&2; exit 2; }
	t0=$(now)
	rc=0
	"$dir/$p" --ab "$knob" --results none >"$out" 2>&1 || rc=$?
	blocks=$(sed -n "s/^# $p.completed: \([0-9]*\) of.*/\1/p" "$out")
	# the word of each comparison, on its line before the result:
	# "# hackbench.ab.METRIC: same: ...", "# dirdeep.ab.METRIC: undecided: ..."
	verdicts=$(sed -n "s/^# $p\.ab\.[a-z0-9_]*: \([a-z-]*\): .*/\1/p" "$out" |
		   cut -d' ' -f1-3 | sort | uniq -c |
		   awk '{ n = $1; $1 = ""; printf "%s%s%s", (NR > 1 ? ", " : ""), n, $0 }')
	printf '  %-9s %6s s, exit %s, %s blocks: %s\n' "$p" "$(since "$t0")" "$rc" \
		"${blocks:-0}" "${verdicts:-$(grep -m1 SKIP "$out" | cut -c1-100)}"
done
echo "gate_default.sh: $(since "$start") s in all (goal 300 s)"
