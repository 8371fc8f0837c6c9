#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The gate's pass / open / fail shares and its power, by simulation:
# sched_perf_sim drives the real gate_run() (paired blocks, 8 to 24 per
# side, or to what --catch plans; unpaired: a baseline of 8 and a new run
# of 8 to 24) and compare_runsets() (boots: 3 a side, one look) with
# synthetic iterations: lognormal noise of CV c per iteration (per boot),
# a true change of the primary metric (metric 0 of 3; thresholds -5 %,
# +5 %, -5 %, alarm lines at half), or of a mechanism metric.  Prints the
# tables of Documentation/scheduler/sched-perf-results/verdicts.rst, each
# rate with its 95 % Wilson interval: pass = exit 0, open = exit 4, fail
# = exit 1 of the whole gate.
#
# Usage: bench/verdicts.sh DIR_WITH_SCHED_PERF_SIM [GATES] (default 4000)
#   VERDICT_TABLES="gate catch share aa mde" (default: all)
#   CATCH_CVS="0.02 0.05 0.1" the CVs of the catch table
set -eu
dir=${1:?usage: bench/verdicts.sh DIR_WITH_SCHED_PERF_SIM [GATES]}
gates=${2:-4000}
sim=$dir/sched_perf_sim
seed=${SEED:-20261204}
tables=${VERDICT_TABLES:-gate catch share aa mde}
[ -x "$sim" ] || { echo "verdicts: no $sim (make build)" >&2; exit 2; }

run() { "$1" --seed "$seed" --gates "$gates" --boots 3 "${@:2}"; }
# "1.23 (0.9-1.6)": RATE of a sched_perf_sim line, in percent
rate() { sed -n "s/.*, $1 \([0-9.]*\)% \[\([0-9.]*\), \([0-9.]*\)\].*/\1 (\2-\3)/p" <<<"$2"; }
runs() { sed -n 's/.*median runs \([0-9]*\), 90th \([0-9]*\).*/\1\/\2/p' <<<"$1"; }
want() { case " $tables " in *" $1 "*) return 0 ;; esac; return 1; }

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

if want gate; then
	echo "The whole gate, true change of the primary metric: pass (exit 0), open (exit 4), fail (exit 1), % (95 % interval); runs a side, median/90th"
	echo
	widths=(8 4 6 21 21 21 5)
	border
	cells mode cv change pass open fail runs
	border
	for mc in "paired 0.02" "paired 0.05" "paired 0.1" "unpaired 0.05" "boots 0.02" "boots 0.05"; do
		set -- $mc
		for s in 0 -0.02 -0.025 -0.05 -0.1; do
			out=$(run "$sim" --mode "$1" --cv "$2" --shift "$s")
			cells "$1" "$2" "$s" "$(rate pass "$out")" "$(rate open "$out")" \
				"$(rate fail "$out")" "$(runs "$out")"
		done
	done
	border
	echo
fi

if want catch; then
	echo "Blocks planned for a size to catch (--catch 5 %, --max-runs 400), paired: pass, open, fail, % (95 % interval); blocks a side, median/90th"
	echo
	widths=(4 6 21 21 21 6)
	border
	cells cv change pass open fail blocks
	border
	for cv in ${CATCH_CVS:-0.02 0.05 0.1}; do
		for s in 0 -0.05; do
			out=$(run "$sim" --mode paired --cv "$cv" --shift "$s" --catch 0.05 --max-runs 400)
			cells "$cv" "$s" "$(rate pass "$out")" "$(rate open "$out")" \
				"$(rate fail "$out")" "$(runs "$out")"
		done
	done
	border
	echo
fi

if want share; then
	echo "The primary metric's share of alpha, paired, CV 0.02: fail at a true -5 % of the primary, at +5 % of a mechanism metric (a +5 % rule, alarm +2.5 %), and in A/A, % (95 % interval)"
	echo
	widths=(5 21 21 21)
	border
	cells share "primary -5 %" "mechanism +5 %" "A/A"
	border
	for ps in 0.34 0.5 0.7 0.8 0.9; do
		p=$(run "$sim" --mode paired --cv 0.02 --shift -0.05 --primary-share "$ps")
		m=$(run "$sim" --mode paired --cv 0.02 --shift -0.05 --shift-metric 1 --primary-share "$ps")
		a=$(run "$sim" --mode paired --cv 0.02 --primary-share "$ps")
		cells "$ps" "$(rate fail "$p")" "$(rate fail "$m")" "$(rate fail "$a")"
	done
	border
	echo
fi

if want aa; then
	echo "A/A under drift and missing values: fail (exit 1), any metric shown to move, % (95 % interval)"
	echo
	widths=(9 28 21 21 21)
	border
	cells mode condition fail "any move" drifting
	border
	for mode in paired unpaired boots; do
		conds=("--cv 0.02" "--cv 0.1" "--cv 0.2" "--cv 0.1 --missing 0.1")
		[ "$mode" = unpaired ] || conds+=("--cv 0.1 --drift 0.005" "--cv 0.1 --drift 0.01")
		[ "$mode" = unpaired ] && conds+=("--cv 0.05 --drift 0.005" "--cv 0.05 --drift 0.01")
		for c in "${conds[@]}"; do
			# shellcheck disable=SC2086
			out=$(run "$sim" --mode $mode $c)
			cells "$mode" "${c//--/}" "$(rate fail "$out")" "$(rate any_move "$out")" \
				"$(rate drifting "$out")"
		done
	done
	border
	echo
fi

if want mde; then
	echo "The mde the gate prints (cmp_mde), paired, first look at 8 blocks, and the share of simulated gates of that many blocks that fail at that change ($gates gates a cell):"
	echo
	"$sim" --seed "$seed" --gates "$gates" --mde-table
fi
