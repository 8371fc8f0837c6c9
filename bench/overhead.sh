#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What measuring costs the workload: each program run with no counters
# (--counters none), with the default sources (all but perf: the workers'
# own /proc files, /proc/schedstat, sched/fair_stats, /proc/stat) and with
# every source (--counters all: perf events inherited by every worker
# too), interleaved in rounds (the order rotated each round), on this
# machine in one run.  Absolute rates on a shared VM mean little: what is
# printed is each mode's throughput against "none" in the same round,
# the median over rounds and its range, and the wall time the run took
# around its timed iterations (start-up, the readings at each end,
# writing the results).
#
# Usage: bench/overhead.sh DIR_WITH_OUR_PROGRAMS [ROUNDS]
# Environment (default):
#   OVERHEAD_PROGS (every program of the suite's Makefile; one that
#                  cannot run here, exit 4, is left out and said so)
#   OVERHEAD_MODES ("none default all"): also any --counters list, e.g.
#                  "perf" or "tasks,machine", one source's cost alone
#   OVERHEAD_RUN ("--iterations 3 --budget 3")  every run's length
#   OVERHEAD_LARGE (1): also at about 1600 tasks on 2 CPUs: hackbench
#                  -g 40, tcp_rr and udp_rr --nr-threads 800%
set -eu
. "$(dirname "$0")/../scripts/programs.sh"
dir=$1
rounds=${2:-5}
progs=${OVERHEAD_PROGS:-$(sched_perf_programs "$dir")}
modes=${OVERHEAD_MODES:-none default all}
run_args=${OVERHEAD_RUN:---iterations 3 --budget 3}
large=${OVERHEAD_LARGE:-1}
cmp=$dir/sched_perf_compare
[ -x "$cmp" ] || { echo "overhead: no $cmp (make build)" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "overhead: ROUNDS '$rounds': want a whole number above 0" >&2; exit 2; }
for prog in $progs; do
	[ -x "$dir/$prog" ] || { echo "overhead: no $dir/$prog" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the cases: "label|program|its arguments"; a program that cannot run
# here (exit 4: no SCTP, say) is left out
cases=()
for prog in $progs; do
	rc=0
	"$dir/$prog" --iterations 1 --budget 1 --counters none --results none \
		>"$tmp/probe.out" 2>&1 || rc=$?
	if [ $rc = 4 ]; then
		echo "overhead: $prog left out: $(grep -m1 'SKIP' "$tmp/probe.out" | sed 's/.*SKIP //')"
		continue
	fi
	cases+=("$prog|$prog|")
done
if [ "$large" = 1 ]; then
	for prog in $(for c in "${cases[@]}"; do echo "${c%%|*}"; done); do
		case $prog in
		hackbench) cases+=("hackbench -g 40|hackbench|-g 40") ;;
		tcp_rr|udp_rr) cases+=("$prog 800%|$prog|--nr-threads 800") ;;
		esac
	done
fi

# awk: the median of a[1..n] (sorts a)
AWK_MEDIAN='function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'

# One run: its rate (the median of its iterations' <ops>_per_sec) and
# its wall seconds beyond the timed iterations, appended to FILE
run() {	# file prog mode args...
	local file=$1 prog=$2 mode=$3 t0 t1 res=$tmp/run.results
	shift 3
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	"$dir/$prog" "$@" $run_args --counters "$mode" --results "$res" >"$tmp/run.out" 2>&1 ||
		{ echo "overhead: $prog $* --counters $mode failed: $(tail -2 "$tmp/run.out")" >&2; exit 1; }
	t1=$(date +%s%N)
	"$cmp" --dump "$res" | awk -F'\t' -v wall="$(((t1 - t0) / 1000))" "$AWK_MEDIAN"'
		$1 == "runs" && $2 ~ /_per_sec$/ && !rate { rate = median(v, split($3, v, " ")) }
		$1 == "value" && $2 ~ /^time\.[0-9]+$/ { timed += $3 }
		END { printf "%.9g %.3f\n", rate, wall / 1e6 - timed }' >>"$file"
}

echo "overhead: $rounds interleaved rounds of $modes; each run $run_args; $(nproc) CPUs, kernel $(uname -r)"
k=0
for c in "${cases[@]}"; do
	IFS='|' read -r label prog args <<<"$c"
	k=$((k + 1))
	read -ra order <<<"$modes"
	for ((r = 0; r < rounds; r++)); do
		for ((i = 0; i < ${#order[@]}; i++)); do
			mode=${order[(i + r) % ${#order[@]}]}
			# shellcheck disable=SC2086
			run "$tmp/$k.$mode" "$prog" "$mode" $args
		done
	done
done

# per case and mode: median rate, the median and range over rounds of
# the rate against "none" of the same round, the wall beyond the timed
printf '%-18s %-16s %12s %9s %17s %12s\n' case counters "rate" "vs none" "range (rounds)" "untimed s"
k=0
for c in "${cases[@]}"; do
	IFS='|' read -r label prog args <<<"$c"
	k=$((k + 1))
	for mode in $modes; do
		paste -d' ' "$tmp/$k.$mode" "$tmp/$k.none" 2>/dev/null | awk -v label="$label" -v mode="$mode" "$AWK_MEDIAN"'
			{ n++; rate[n] = $1; ratio[n] = $3 > 0 ? $1 / $3 : 0; untimed[n] = $2
			  lo = n == 1 || ratio[n] < lo ? ratio[n] : lo; hi = n == 1 || ratio[n] > hi ? ratio[n] : hi }
			END {
				printf "%-18s %-16s %12.4g %9.4f %8.4f-%-8.4f %12.2f\n", label, mode,
				       median(rate, n), median(ratio, n), lo, hi, median(untimed, n)
			}'
	done
done
