#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our pipe side by side with perf bench sched pipe, the same number of
# round trips (-l), processes and then threads (-T), interleaved in one
# run (absolute times on a shared VM mean little; ratios of interleaved
# runs do):
#  1. rate ratio ours/perf = median usecs/op(perf) / median usecs/op(ours);
#     on a busy machine also the ratio of the best runs and the median of
#     the ratios within a round (runs side by side share the load)
#  2. our counters on vs off: overhead = median usecs/op(on) / (off)
# Usage: bench/pipe.sh DIR_WITH_OUR_PIPE [ROUNDS] [LOOPS]
set -eu
dir=$1
rounds=${2:-5}
loops=${3:-200000}
command -v perf >/dev/null || { echo "perf not installed (scripts/deps.sh install bench)" >&2; exit 2; }
perf bench sched pipe -l 1 >/dev/null 2>&1 || { echo "perf bench sched pipe does not run here" >&2; exit 2; }
ours=$dir/pipe
[ -x "$ours" ] || { echo "no $ours (make build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

usecs() {	# command... -> its "usecs/op" figure
	"$@" 2>/dev/null | awk '$2 == "usecs/op" { u = $1 } END { print u }'
}

. "$(dirname "$0")/../scripts/programs.sh"
list() { tr '\n' ' ' < "$1"; }

echo "pipe ping-pong, -l $loops round trips a run, $rounds interleaved rounds, $(nproc) CPUs, kernel $(uname -r), $(perf version)"
for mode in process threads; do
	opt=
	[ $mode = threads ] && opt=-T
	for i in $(seq "$rounds"); do
		# rotate the order so that no variant always runs first
		for v in $(printf 'peer\nours\nbare\n' | tail -n +$((i % 3 + 1)); printf 'peer\nours\nbare\n' | head -n $((i % 3))); do
			case $v in
			peer) u=$(usecs perf bench sched pipe -l "$loops" $opt) ;;
			ours) u=$(usecs "$ours" -l "$loops" $opt --results none) ;;
			bare) u=$(usecs "$ours" -l "$loops" $opt --results none --no-counters) ;;
			esac
			[ -n "$u" ] || { echo "bench: $mode: $v run failed" >&2; exit 1; }
			echo "$u" >> "$tmp/$mode.$v"
		done
	done
	mp=$(median <"$tmp/$mode.peer") mo=$(median <"$tmp/$mode.ours") mb=$(median <"$tmp/$mode.bare")
	echo "$mode (${opt:-no -T}):"
	printf '  %-34s median %8.3f usecs/op  [%s]\n' "perf bench sched pipe $opt" "$mp" "$(list "$tmp/$mode.peer")"
	printf '  %-34s median %8.3f usecs/op  [%s]\n' "sched_perf pipe, counters on" "$mo" "$(list "$tmp/$mode.ours")"
	printf '  %-34s median %8.3f usecs/op  [%s]\n' "sched_perf pipe, counters off" "$mb" "$(list "$tmp/$mode.bare")"
	paste "$tmp/$mode.peer" "$tmp/$mode.bare" | awk '{ print $1 / $2 }' > "$tmp/$mode.paired"
	bp=$(sort -n "$tmp/$mode.peer" | head -n1) bb=$(sort -n "$tmp/$mode.bare" | head -n1)
	awk -v p="$mp" -v o="$mo" -v b="$mb" -v bp="$bp" -v bb="$bb" -v pr="$(median <"$tmp/$mode.paired")" 'BEGIN {
		printf "  ops/s: perf %.0f, ours %.0f (counters off), %.0f (on)\n", 1e6 / p, 1e6 / b, 1e6 / o
		printf "  rate ratio ours/perf (counters off): %.3f (best runs %.3f, median within a round %.3f)\n", p / b, bp / bb, pr
		printf "  rate ratio ours/perf (counters on):  %.3f\n", p / o
		printf "  counter overhead (time on / off):    %.3f\n", o / b
	}'
done
