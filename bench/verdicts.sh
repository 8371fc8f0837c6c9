#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The gate's pass / open / fail shares, its power and its time, by
# simulation: sched_perf_sim drives the real gate_run() as the programs
# gate by default (after each look a plan to catch the primary rule's M
# at 90 %, within --gate-time 600 s on a simulated clock of 1.5 s an
# iteration, warm-ups included: a paired block takes 4.5 s) and as vmab
# gates boots by default (a plan to catch M at 90 % within VM_BUDGET's
# 1200 s at 50 s a boot, vmab's pace here under -icount; Welch's t,
# alpha 0.01), with synthetic iterations: lognormal noise of CV c per
# iteration (per boot), a linear drift per iteration, and a true change
# of the primary metric (metric 0 of 3; rules -M, +M, -M with M 5 %, or
# 2 % for boots as bounds.icount; alarm lines at half).  Prints the tables of
# Documentation/scheduler/sched-perf-results/verdicts.rst, each rate with
# its 95 % Wilson interval: pass = exit 0, open = exit 4, fail = exit 1 of
# the whole gate; "minutes" the median gate's simulated time.
#
# Usage: bench/verdicts.sh DIR_WITH_SCHED_PERF_SIM [GATES] (default 1000)
#   VERDICT_TABLES="gate honesty mde share" (default: all)
#   VERDICT_JOBS=N   rows at once (default: the CPUs)
#   VERDICT_MODES="paired unpaired boots" (default: all) the rows' modes
set -eu
dir=${1:?usage: bench/verdicts.sh DIR_WITH_SCHED_PERF_SIM [GATES]}
gates=${2:-1000}
sim=$dir/sched_perf_sim
seed=${SEED:-20261206}
tables=${VERDICT_TABLES:-gate honesty mde share}
jobs=${VERDICT_JOBS:-$(nproc)}
[ -x "$sim" ] || { echo "verdicts: no $sim (make build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { "$1" --seed "$seed" --gates "$gates" "${@:2}"; }
# "1.23 (0.9-1.6)": RATE of a sched_perf_sim line, in percent
rate() { sed -n "s/.*, $1 \([0-9.]*\)% \[\([0-9.]*\), \([0-9.]*\)\].*/\1 (\2-\3)/p" <<<"$2"; }
runs() { sed -n 's/.*median runs \([0-9]*\), 90th \([0-9]*\).*/\1\/\2/p' <<<"$1"; }
minutes() { sed -n 's/.*median minutes \([0-9.]*\), 90th \([0-9.]*\).*/\1\/\2/p' <<<"$1"; }
honesty() { sed -n 's/.*mde power mean \([0-9.]*\)% p10 \([0-9.]*\)% >=90% \([0-9.]*\)% >=80% \([0-9.]*\)% of \([0-9]*\).*/\1 \2 \3 \4 \5/p' <<<"$1"; }
want() { case " $tables " in *" $1 "*) return 0 ;; esac; return 1; }

# Every row of a table at once, VERDICT_JOBS at a time, each into its own
# file: rows "key|sim options..." on stdin; then $tmp/KEY holds its line.
rows() {
	local key opts
	while IFS='|' read -r key opts; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		# shellcheck disable=SC2086
		run "$sim" $opts >"$tmp/$key" &
	done
	wait
}
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

# mode cv drift threshold: the suite's -5 % rules, and for boots also
# bounds.icount's -2 % (alarm -1 %), what vmab judges kernels by under
# -icount; paired with a drift, to set beside unpaired
modes=("paired 0.02 0 0.05" "paired 0.05 0 0.05" "paired 0.1 0 0.05" "paired 0.18 0 0.05"
	"paired 0.05 0.01 0.05"
	"unpaired 0.05 0 0.05" "unpaired 0.05 0.005 0.05" "unpaired 0.05 0.01 0.05"
	"boots 0.005 0 0.05" "boots 0.01 0 0.05" "boots 0.02 0 0.05" "boots 0.05 0 0.05"
	"boots 0.005 0 0.02" "boots 0.01 0 0.02" "boots 0.02 0 0.02")
changes="0 -0.01 -0.02 -0.03 -0.05 -0.1"
kept=()
for mc in "${modes[@]}"; do
	case " ${VERDICT_MODES:-paired unpaired boots} " in *" ${mc%% *} "*) kept+=("$mc") ;; esac
done
[ ${#kept[@]} -gt 0 ] || { echo "verdicts: VERDICT_MODES='$VERDICT_MODES': want paired, unpaired or boots" >&2; exit 2; }
modes=("${kept[@]}")
key() { echo "$1-$2-$3-$4-$5"; }

if want gate || want honesty; then
	for mc in "${modes[@]}"; do
		set -- $mc
		for s in $changes; do
			echo "$(key "$1" "$2" "$3" "$4" "$s")|--mode $1 --cv $2 --drift $3 --threshold $4 --shift $s"
		done
	done | rows
fi

if want gate; then
	echo "The whole gate, default plan and time, true change of the primary metric: pass (exit 0), open (exit 4), fail (exit 1), % (95 % interval); runs a side and simulated minutes, median/90th"
	echo
	widths=(8 5 5 4 6 21 21 21 7 9)
	border
	cells mode cv drift M change pass open fail runs minutes
	border
	for mc in "${modes[@]}"; do
		set -- $mc
		for s in $changes; do
			out=$(cat "$tmp/$(key "$1" "$2" "$3" "$4" "$s")")
			cells "$1" "$2" "$3" "$4" "$s" "$(rate pass "$out")" "$(rate open "$out")" \
				"$(rate fail "$out")" "$(runs "$out")" "$(minutes "$out")"
		done
	done
	border
	echo
fi

if want honesty; then
	echo "The mde each gate printed for the primary metric with the runs it took (from the spread it saw), and the gate's power there at the true spread (cmp_power()): mean, 10th percentile, and the gates at 90 % and 80 % or more"
	echo
	widths=(8 5 4 6 6 6 7 7 6)
	border
	cells mode cv M change mean p10 ">=90%" ">=80%" gates
	border
	for mc in "${modes[@]}"; do
		set -- $mc
		[ "$3" = 0 ] || continue
		for s in 0 -0.05; do
			read -r mean p10 a90 a80 k <<<"$(honesty "$(cat "$tmp/$(key "$1" "$2" 0 "$4" "$s")")")"
			cells "$1" "$2" "$4" "$s" "$mean" "$p10" "$a90" "$a80" "$k"
		done
	done
	border
	echo
fi

if want share; then
	echo "The primary metric's share of alpha, paired, CV 0.05, default plan: fail at a true -5 % of the primary, at +5 % of a mechanism metric (a +5 % rule), and in A/A, % (95 % interval); simulated minutes at -5 % and in A/A, median/90th"
	echo
	for ps in 0.34 0.5 0.7 0.9; do
		echo "p$ps|--mode paired --cv 0.05 --shift -0.05 --primary-share $ps"
		echo "m$ps|--mode paired --cv 0.05 --shift -0.05 --shift-metric 1 --primary-share $ps"
		echo "a$ps|--mode paired --cv 0.05 --primary-share $ps"
	done | rows
	# and what a smaller share costs: the minutes of a gate at -5 % and
	# in A/A (a plan sized at a lower level runs longer)
	widths=(5 21 21 21 9 9)
	border
	cells share "primary -5 %" "mechanism +5 %" "A/A" "min -5 %" "min A/A"
	border
	for ps in 0.34 0.5 0.7 0.9; do
		cells "$ps" "$(rate fail "$(cat "$tmp/p$ps")")" "$(rate fail "$(cat "$tmp/m$ps")")" \
			"$(rate fail "$(cat "$tmp/a$ps")")" "$(minutes "$(cat "$tmp/p$ps")")" \
			"$(minutes "$(cat "$tmp/a$ps")")"
	done
	border
	echo
fi

if want mde; then
	echo "The power model (cmp_mde() from the true spread) against the gate: paired, a fixed plan (first look at 8 blocks, looks up to the blocks given), the share of simulated gates of that plan that fail at that change ($gates gates a cell):"
	echo
	"$sim" --seed "$seed" --gates "$gates" --mde-table
fi
