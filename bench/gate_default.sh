#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# How long a default gate of every program takes here, and what it
# decides: each program with --ab on a knob that changes nothing
# (kernel.printk_ratelimit one above its value; GATE_KNOB), default
# iterations, budget and plan (catch the throughput's change line within
# --gate-time), one after the other.  Prints per program the wall time,
# the blocks run, the verdicts of its comparisons, the plan after the
# last look and what the gate could catch.
#
# Usage: bench/gate_default.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]
#   (default: the selftest Makefile's programs)
#   GATE_REPEAT=N   each program N times (default 1)
#   GATE_WORK_NS=N  the B side N ns of busy work per op slower
#                   (SCHED_PERF_TEST_WORK_NS, _SIDE=b): a known regression
#   GATE_ARGS="..." more options for every gate (e.g. --gate-time 300)
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

echo "gate_default.sh: $(nproc) CPUs, kernel $(uname -r), --ab $knob, default iterations, budget and plan${GATE_ARGS:+, $GATE_ARGS}${GATE_WORK_NS:+, B side +$GATE_WORK_NS ns an op}"
start=$(now)
for p in $progs; do
	[ -x "$dir/$p" ] || { echo "gate_default: no $dir/$p (make build)" >&2; exit 2; }
	for i in $(seq "${GATE_REPEAT:-1}"); do
		t0=$(now)
		rc=0
		# shellcheck disable=SC2086
		SCHED_PERF_TEST_WORK_NS=${GATE_WORK_NS:-} SCHED_PERF_TEST_WORK_SIDE=${GATE_WORK_NS:+b} \
			"$dir/$p" --ab "$knob" --results none ${GATE_ARGS:-} >"$out" 2>&1 || rc=$?
		blocks=$(sed -n "s/^# $p.completed: \([0-9]*\) of.*/\1/p" "$out")
		# the word of each comparison, on its line before the result:
		# "# hackbench.ab.METRIC: same: ...", "# dirdeep.ab.METRIC: undecided: ..."
		verdicts=$(sed -n "s/^# $p\.ab\.[a-z0-9_]*: \([a-z-]*\): .*/\1/p" "$out" |
			   cut -d' ' -f1-3 | sort | uniq -c |
			   awk '{ n = $1; $1 = ""; printf "%s%s%s", (NR > 1 ? ", " : ""), n, $0 }')
		printf '  %-9s %6s s, exit %s, %s blocks: %s\n' "$p" "$(since "$t0")" "$rc" \
			"${blocks:-0}" "${verdicts:-$(grep -m1 SKIP "$out" | cut -c1-100)}"
		# the plan's last word, the primary's shift and what it could catch
		grep "^# $p\.ab: look " "$out" | tail -n1 | sed 's/^# /      /'
		grep -E "^# $p\.ab\.[a-z_]*per_sec: (old|mde) " "$out" |
			sed -E 's/^# ([^:]*): old .*shift ([^,]*),.*/      \1: shift \2/; s/^# /      /'
	done
done
echo "gate_default.sh: $(since "$start") s in all"
