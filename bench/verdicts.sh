#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The verdict words' error rates and power, by simulation:
# sched_perf_sim drives the real gate_run() (paired blocks, 8 to 24 per
# side over 4 looks; unpaired: a baseline of 8 and a new run of 8 to 24)
# and compare_runsets() (boots: 3 a side, interleaved) with synthetic
# iterations: lognormal noise of CV c per iteration (per boot), a linear
# drift per iteration, values missing at random, a true change of the
# first of 3 metrics (thresholds -5 %, +5 %, -5 %).  Prints the tables of
# Documentation/scheduler/sched-perf-results/verdicts.rst, each rate with its 95 % Wilson
# interval.  OLD_SIM=PATH adds the columns "before" from a sched_perf_sim
# built against an older tree.
#
# Usage: bench/verdicts.sh DIR_WITH_SCHED_PERF_SIM [GATES] (default 4000)
set -eu
dir=${1:?usage: bench/verdicts.sh DIR_WITH_SCHED_PERF_SIM [GATES]}
gates=${2:-4000}
sim=$dir/sched_perf_sim
old=${OLD_SIM:-}
seed=${SEED:-20261202}
[ -x "$sim" ] || { echo "verdicts: no $sim (make build)" >&2; exit 2; }

run() { "$1" --seed "$seed" --gates "$gates" --boots 3 "${@:2}"; }
# "1.23 (0.9-1.6)": RATE of a sched_perf_sim line, in percent
rate() { sed -n "s/.*, $1 \([0-9.]*\)% \[\([0-9.]*\), \([0-9.]*\)\].*/\1 (\2-\3)/p" <<<"$2"; }
runs() { sed -n 's/.*median runs \([0-9]*\).*/\1/p' <<<"$1"; }

# An RST simple table: widths in $widths, a row of cells, a border.
widths=()
cells() {
	local i=0 v
	for v in "$@"; do
		printf '%-*s ' "${widths[i]}" "$v"
		i=$((i + 1))
	done | sed 's/ *$//'
	echo
}
border() {
	local w
	for w in "${widths[@]}"; do
		printf '%*s' "$w" '' | tr ' ' '='
		printf ' '
	done | sed 's/ *$//'
	echo
}

echo "verdicts.sh: $gates gates a row, seed $seed, $(date -u +%Y-%m-%d)"
echo
echo "A/A: false DIFFERENT per gate (any of 3 metrics regressed or improved), any move (regressed, improved, worse or better), % (95 % interval)"
echo
widths=(9 28 20 20 20 5)
border
cells mode condition "false DIFFERENT" "any move" drifting runs
border
for mode in paired unpaired boots; do
	conds=("--cv 0.02" "--cv 0.1" "--cv 0.2" "--cv 0.1 --missing 0.1")
	[ "$mode" = unpaired ] || conds+=("--cv 0.1 --drift 0.005" "--cv 0.1 --drift 0.01" "--cv 0.02 --drift 0.01")
	[ "$mode" = unpaired ] && conds+=("--cv 0.05 --drift 0.005" "--cv 0.05 --drift 0.01" "--cv 0.05 --drift 0.025")
	for c in "${conds[@]}"; do
		# shellcheck disable=SC2086
		out=$(run "$sim" --mode $mode $c)
		cells "$mode" "${c//--/}" "$(rate any_diff "$out")" "$(rate any_move "$out")" \
			"$(rate drifting "$out")" "$(runs "$out")"
	done
done
border
echo
echo "At the threshold (true -5 %) and at 80 % of it (-4 %), metric 0, % (95 % interval)"
echo
widths=(9 6 20 20 5)
border
cells mode cv "same at -5 %" "regressed at -4 %" runs
border
for mode in paired unpaired boots; do
	for cv in 0.05 0.1; do
		at=$(run "$sim" --mode $mode --cv $cv --shift -0.05)
		in=$(run "$sim" --mode $mode --cv $cv --shift -0.04)
		cells "$mode" "$cv" "$(rate same "$at")" "$(rate regressed "$in")" "$(runs "$at")/$(runs "$in")"
	done
done
border
echo
echo "Power, metric 0 (threshold -5 %): regressed (shown beyond -5 %) and flagged (regressed or worse), % (95 % interval); median runs a side"
echo
widths=(9 5 6 20 20 5 20 5)
border
cells mode cv change regressed flagged runs "before: regressed" runs
border
for mode in paired boots; do
	for cv in 0.05 0.1; do
		for s in -0.02 -0.05 -0.1; do
			out=$(run "$sim" --mode $mode --cv $cv --shift $s)
			b=- br=-
			if [ -n "$old" ]; then
				prev=$(run "$old" --mode $mode --cv $cv --shift $s)
				b=$(rate regressed "$prev") br=$(runs "$prev")
			fi
			cells "$mode" "$cv" "$s" "$(rate regressed "$out")" "$(rate flagged "$out")" \
				"$(runs "$out")" "$b" "$br"
		done
	done
done
border
