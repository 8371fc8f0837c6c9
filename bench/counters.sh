#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What do the kernel/sched tracepoints cost?  hackbench (or tcp_rr) in the
# 6.12 guest, the kernel with kernel/sched/*.patch against the same kernel
# without them, in interleaved boots (ABBA ABBA ...: slow drift of the host
# hits both alike), with schedstats on ("on") or off ("off"); nothing is
# attached to the tracepoints, so their cost should be nothing.  Mode "bpf": the form a reviewer proposes instead,
# a BPF program counting tracepoints (scripts/vmtest/bpf_count.c: a
# per-CPU array increment per hit, JIT-compiled), on a kernel without the
# patches but with BPF (VM_BPF=1), schedstats off: the program attached
# to BENCH_BPF_TP against the same kernel with nothing attached.  Mode
# "default": what the suite's own default measuring costs where every
# source has something to read (/proc/schedstat, the tracepoints, BPF):
# the patched kernel with BPF both sides, schedstats off at boot, --counters none against
# --counters default (which also turns kernel.sched_schedstats on for the
# run, a cost of measuring too).  Mode "counters=LIST" is the same with
# --counters LIST (e.g. counters=tasks,machine: the sources that leave
# schedstats as found; counters=bpf: the suite's BPF programs attached to
# the sched tracepoints and the series'), to take the default's cost apart.
# sched_waking fires once per try_to_wake_up(), where the idle search
# runs, and sched_wakeup once per wakeup that activates a task, where the
# preemption check runs: one call per search and one per check, the rate
# a bare tracepoint at each counted exit would fire.  Per boot, the
# program runs BENCH_ITER iterations; the iterations of all boots of one
# side are pooled.
#
# qemu counts guest time in instructions executed (-icount): under TCG
# with the host's clock, a busy host moved one kernel's boot medians by 2x
# and buried a 1 % effect; with -icount the guest's figures do not depend
# on the host's load (iterations vary by about 4 %, from the guest's own
# nondeterminism), so the ratio is the cost in instructions executed.
#
# Printed per mode: median throughput and CPU time per op of both
# kernels, the ratio patched/unpatched, and a 95 % bootstrap interval of
# that ratio (resampling boots, then iterations within them).
#
# Usage: bench/counters.sh [KSRC]   (default: the Debian 6.12 source)
# Environment (default):
#   BENCH_ROUNDS (3)    ABBA rounds per mode: 4 boots each
#   BENCH_ITER (12)     iterations per boot
#   BENCH_PROG (hackbench)       hackbench or tcp_rr
#   BENCH_HB ("-p -g 2 -l 200")  hackbench options (as the in-boot A/B)
#   BENCH_RR ("-l 0.5")          tcp_rr options: 0.5 s of guest time per
#                       iteration (under -icount its boots vary by 0.6 %,
#                       hackbench's by 3 %: the cheaper way to resolve 1 %)
#   BENCH_MODES ("on off")       schedstats on, off, bpf, default,
#                       counters=LIST, or several
#   BENCH_BPF_TP ("sched_waking sched_wakeup")  the tracepoints of mode bpf
#   BENCH_QEMU ("-icount shift=0,sleep=off")  qemu options ("" for the
#                       host's clock)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/programs.sh"
ksrc=${1:-$(sched_perf_ksrc "$top/build")}
rounds=${BENCH_ROUNDS:-3}
iter=${BENCH_ITER:-12}
qemu_args=${BENCH_QEMU--icount shift=0,sleep=off}
prog=${BENCH_PROG:-hackbench}
case $prog in
hackbench) opts=${BENCH_HB:--p -g 2 -l 200} tput=messages_per_sec var=KSELFTEST_HACKBENCH_ARGS ;;
tcp_rr) opts=${BENCH_RR:--l 0.5} tput=transactions_per_sec var=KSELFTEST_TCP_RR_ARGS ;;
*) echo "counters: BENCH_PROG=$prog: want hackbench or tcp_rr" >&2; exit 2 ;;
esac
modes=${BENCH_MODES:-on off}
bpf_tp=${BENCH_BPF_TP:-sched_waking sched_wakeup}
for mode in $modes; do
	case $mode in
	on|off|bpf|default) ;;
	counters=?*) [[ ${mode#counters=} =~ ^[a-z,]+$ ]] ||
		{ echo "counters: BENCH_MODES: '$mode': want counters=LIST of source names" >&2; exit 2; } ;;
	*) echo "counters: BENCH_MODES: '$mode': want on, off, bpf, default or counters=LIST" >&2; exit 2 ;;
	esac
done
py=/usr/bin/python3
[ -x "$py" ] || { echo "counters: $py not found" >&2; exit 2; }
[ -d "$ksrc" ] || { echo "counters: $ksrc: no kernel tree (make ksrc)" >&2; exit 2; }
# reads the guest's run sets (--dump)
cmp=${SCHED_PERF_COMPARE:-$ksrc/tools/testing/selftests/sched_perf/sched_perf_compare}
[ -x "$cmp" ] || { echo "counters: no $cmp (make build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One boot of side 1 (patched, or BPF attached) or 0, in a mode; the
# iterations' values of METRIC appended to $tmp/<mode>-<side>.<metric>
boot() {	# side mode n
	# a mode's files: its commas would split sched_perf_compare --boots' lists
	local tag=${2//,/+}
	local out=$tmp/boot-$1-$tag-$3 args="--iterations $iter --budget 200 $opts"
	local patches=$1 bpf=0 count=
	case $2 in
	on) ;;
	default|counters=*)
		patches=1 bpf=1
		if [ "$1" = 1 ]; then
			args="$args --counters ${2#counters=}"
		else
			args="$args --counters none"
		fi
		;;
	*) args="$args --no-counters" ;;
	esac
	{
		echo "$var=$args"
		[ "$2" = on ] || echo "SCHED_PERF_SCHEDSTATS=0"
	} >"$tmp/args"
	if [ "$2" = bpf ]; then
		patches=0 bpf=1
		[ "$1" = 1 ] && count=$bpf_tp
	fi
	if ! VM_PATCHES=$patches VM_BPF=$bpf VM_BPF_COUNT=$count VM_CHECKS=0 VM_PROGS=$prog \
		VM_OUT=$out VM_QEMU_ARGS=$qemu_args \
		VM_ARGS="$(cat "$tmp/args")" "$top/scripts/vmtest.sh" "$ksrc" >"$out.log" 2>&1; then
		echo "counters: boot $3 (side $1, mode $2) failed:" >&2
		tail -5 "$out.log" >&2
		exit 1
	fi
	"$cmp" --dump "$out/results/$prog.results" >"$out.dump" || exit 1
	echo "$out/results/$prog.results" >>"$tmp/$tag-$1.files"
	for metric in $tput task_clock_us_per_op; do
		awk -F'\t' -v m="$metric" '$1 == "runs" && $2 == m { print $3 }' "$out.dump" \
			>>"$tmp/$tag-$1.$metric"
	done
	has=$(sed -n 's/^# # bpf: \(.*\)/\1/p' "$out/ktap" | cut -c1-40)
	[ "$2" = bpf ] && has="BPF counted: $(sed -n 's/^sched_perf guest: bpf_count: //p' \
		"$out/console.log" | tr -d '\r' | paste -sd, -)"
	echo "counters: boot $3: side=$1 mode=$2 bpf: $has;" \
	     "$tput median $(awk -F'\t' -v m="$tput" '$1 == "runs" && $2 == m {
		n = split($3, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		printf "%.9g", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }' "$out.dump")"
}

# Both kernels built first, so the boots are not interleaved with a build.
VM_PATCHES=0 VM_BPF=0 "$top/scripts/vmtest.sh" "$ksrc" kernel
VM_PATCHES=1 VM_BPF=0 "$top/scripts/vmtest.sh" "$ksrc" kernel
VM_PATCHES=1 VM_BPF=1 "$top/scripts/vmtest.sh" "$ksrc" kernel
case " $modes " in
*" bpf "*) VM_PATCHES=0 VM_BPF=1 "$top/scripts/vmtest.sh" "$ksrc" kernel ;;
esac
n=0
for mode in $modes; do
	for _ in $(seq "$rounds"); do
		for p in 0 1 1 0; do
			n=$((n + 1))
			boot "$p" "$mode" "$n"
		done
	done
done

echo "counters: $prog $opts, $iter iterations per boot, qemu: ${qemu_args:-host clock}"
"$py" - "$tmp" "$modes" "$tput" <<'PY'
import math, random, statistics, sys
tmp, modes, tput = sys.argv[1], sys.argv[2].split(), sys.argv[3]
random.seed(1)

def load(mode, patched, metric):
    """One list of iterations per boot."""
    try:
        with open(f"{tmp}/{mode.replace(',', '+')}-{patched}.{metric}") as f:
            return [[float(x) for x in line.split()] for line in f if line.strip()]
    except FileNotFoundError:
        return []

def resample(boots):
    pool = []
    for boot in random.choices(boots, k=len(boots)):
        pool += random.choices(boot, k=len(boot))
    return statistics.median(pool)

def ratio_ci(a, b, n=4000):
    r = sorted(resample(b) / resample(a) for _ in range(n))
    return r[int(0.025 * n)], r[int(0.975 * n)]

def flat(boots):
    return [x for boot in boots for x in boot]

# side 0 and side 1: unpatched and patched (on, off); nothing attached
# and BPF attached (bpf); --counters none and default (default)
print("mode        metric                   side 0      side 1    side 1/side 0   95% interval")
for mode in modes:
    for metric in (tput, "task_clock_us_per_op"):
        a, b = load(mode, 0, metric), load(mode, 1, metric)
        if not a or not b:
            print(f"{mode:10s}  {metric:20s}  (not measured: counters off)")
            continue
        lo, hi = ratio_ci(a, b)
        ma, mb = statistics.median(flat(a)), statistics.median(flat(b))
        print(f"{mode:10s}  {metric:20s}  {ma:10.4g}  {mb:10.4g}  {mb / ma:17.4f}  "
              f"{lo:.4f}-{hi:.4f}  (boots {len(a)},{len(b)}; "
              f"iterations {len(flat(a))},{len(flat(b))})")
PY
# Welch's t on the boots' medians, the boot as the unit: sched_perf_compare
# --boots, one metric at a time (so its interval is at 95 %)
for mode in $modes; do
	tag=${mode//,/+}
	for metric in $tput task_clock_us_per_op; do
		[ -s "$tmp/$tag-0.$metric" ] && [ -s "$tmp/$tag-1.$metric" ] || continue
		"$cmp" --boots --json --alpha 0.05 --metric "$metric" \
			"$(paste -sd, "$tmp/$tag-0.files")" "$(paste -sd, "$tmp/$tag-1.files")" |
			"$py" -c 'import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r.get("change") is None:
        continue
    c, lo, hi = 100 * r["change"], 100 * r["ci_lo"], 100 * r["ci_hi"]
    print(f"{sys.argv[1]:10s}  {sys.argv[2]:20s}  Welch on the boots\x27 medians (sched_perf_compare --boots): "
          f"{c:+.2f} % (95 % interval {lo:+.2f} to {hi:+.2f} %)")' "$mode" "$metric"
	done
done
