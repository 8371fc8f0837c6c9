#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Side by side, interleaved, in one run (absolute times on a shared VM mean
# little; ratios of interleaved runs do):
#  1. our hackbench vs rt-tests' hackbench with the same arguments:
#     throughput ratio = median time(rt-tests) / median time(ours)
#  2. our counters on vs off: overhead = median time(on) / median time(off)
# Usage: bench/hackbench.sh DIR_WITH_OUR_HACKBENCH [ROUNDS] [-- ARGS]
set -eu
dir=$1
rounds=${2:-7}
shift $(($# >= 2 ? 2 : 1))
[ "${1:-}" = -- ] && shift
args=${*:--p -g 2 -l 4000}
peer=$(command -v hackbench) || { echo "rt-tests hackbench not installed (scripts/deps.sh install bench)" >&2; exit 2; }
ours=$dir/hackbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run_time() {	# command... -> seconds from its "Time:" line
	"$@" 2>/dev/null | sed -n 's/^Time: //p' | tail -n1
}

for i in $(seq "$rounds"); do
	# rotate the order so that no variant always runs first
	for v in $(printf 'peer\nours\nbare\n' | tail -n +$((i % 3 + 1)); printf 'peer\nours\nbare\n' | head -n $((i % 3))); do
		case $v in
		peer) t=$(run_time "$peer" $args) ;;
		ours) t=$(run_time "$ours" $args --results none) ;;
		bare) t=$(run_time "$ours" $args --results none --no-counters) ;;
		esac
		[ -n "$t" ] || { echo "bench: $v run failed" >&2; exit 1; }
		echo "$t" >> "$tmp/$v"
	done
done

. "$(dirname "$0")/../scripts/programs.sh"
list() { tr '\n' ' ' < "$1"; }
mp=$(median <"$tmp/peer") mo=$(median <"$tmp/ours") mb=$(median <"$tmp/bare")

echo "hackbench $args, $rounds interleaved rounds, $(nproc) CPUs, kernel $(uname -r)"
printf '  %-34s median %7.3f s  [%s]\n' "rt-tests hackbench ($(hackbench --help 2>&1 | head -n1))" "$mp" "$(list "$tmp/peer")"
printf '  %-34s median %7.3f s  [%s]\n' "sched_perf hackbench, counters on" "$mo" "$(list "$tmp/ours")"
printf '  %-34s median %7.3f s  [%s]\n' "sched_perf hackbench, counters off" "$mb" "$(list "$tmp/bare")"
awk -v p="$mp" -v o="$mo" -v b="$mb" 'BEGIN {
	printf "throughput ratio ours/rt-tests (counters off): %.3f\n", p / b
	printf "throughput ratio ours/rt-tests (counters on):  %.3f\n", p / o
	printf "counter overhead (time on / time off):         %.3f\n", o / b
}'
