#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our dirdeep side by side with stress-ng --dirdeep: same instances, same
# duration, same filesystem, interleaved; prints both bogo-ops/s (stress-ng's
# real-time column; ours is computed the same way), their ratio, and our
# phase split (build, exercise, cleanup).
# Usage: bench/dirdeep.sh DIR_WITH_OUR_PROGRAMS [ROUNDS] [SECONDS] [INSTANCES] [WORKDIR]
set -eu
dir=$1
rounds=${2:-3}
secs=${3:-10}
inst=${4:-1}
work=${5:-${TMPDIR:-/tmp}}
command -v stress-ng >/dev/null || { echo "stress-ng not installed (scripts/deps.sh install bench)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ours() {
	"$dir/dirdeep" --instances "$inst" --duration "$secs" --iterations 1 \
		--workdir "$work" --results none --no-counters |
		sed -n 's/^dirdeep: \([0-9]*\) bogo ops in \([0-9.]*\) s (build \([0-9.]*\) s, exercise \([0-9.]*\) s, cleanup \([0-9.]*\) s), \([0-9.]*\) bogo ops\/s$/\6 \1 \3 \4 \5/p'
}

peer() {
	(cd "$work" && stress-ng --timeout "$secs" --metrics-brief --dirdeep "$inst" \
		--temp-path "$work" 2>&1) |
		awk '$4 == "dirdeep" && $5 ~ /^[0-9]+$/ { print $9, $5 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for i in $(seq "$rounds"); do
	if [ $((i % 2)) = 0 ]; then
		ours >>"$tmp/ours"; peer >>"$tmp/peer"
	else
		peer >>"$tmp/peer"; ours >>"$tmp/ours"
	fi
done
o=$(cut -d' ' -f1 "$tmp/ours" | median) p=$(cut -d' ' -f1 "$tmp/peer" | median)
echo "dirdeep: $inst instance(s), ${secs} s, $rounds interleaved rounds, $work ($(df -T "$work" | awk 'NR == 2 { print $2 }')), $(nproc) CPUs, kernel $(uname -r)"
echo "  peer: stress-ng $(stress-ng --version | awk '{ print $3 }') --timeout $secs --dirdeep $inst --temp-path $work"
echo "  ours: dirdeep --instances $inst --duration $secs --workdir $work"
printf '  stress-ng: median %.1f bogo-ops/s  runs [%s]\n' "$p" "$(cut -d' ' -f1 "$tmp/peer" | tr '\n' ' ')"
printf '  ours:      median %.1f bogo-ops/s  runs [%s]\n' "$o" "$(cut -d' ' -f1 "$tmp/ours" | tr '\n' ' ')"
awk -v o="$o" -v p="$p" 'BEGIN { printf "  ratio ours/stress-ng: %.3f\n", o / p }'
awk '{ b += $3; e += $4; c += $5; n++ } END {
	printf "  our phase split (mean): build %.2f s, exercise %.2f s, cleanup %.2f s\n", b / n, e / n, c / n }' "$tmp/ours"
