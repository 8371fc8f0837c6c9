#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What do the kernel/sched counters cost?  hackbench (or tcp_rr) in the
# 6.12 guest, the kernel with kernel/sched/*.patch against the same kernel without
# them, in interleaved boots (ABBA ABBA ...: slow drift of the host hits
# both alike), first with schedstats on (the patches count), then with
# schedstats off (the counters sit behind the static key: their cost
# should be nothing).  Per boot, the program runs BENCH_ITER iterations; the
# iterations of all boots of one kernel are pooled.
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
#   BENCH_MODES ("on off")       schedstats on, off, or both
#   BENCH_QEMU ("-icount shift=0,sleep=off")  qemu options ("" for the
#                       host's clock)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=${1:-$top/build/linux-source-6.12}
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
py=/usr/bin/python3
[ -x "$py" ] || { echo "counters: $py not found" >&2; exit 2; }
[ -d "$ksrc" ] || { echo "counters: $ksrc: no kernel tree (make ksrc)" >&2; exit 2; }
# reads the guest's run sets (--dump)
cmp=${SCHED_PERF_COMPARE:-$ksrc/tools/testing/selftests/sched_perf/sched_perf_compare}
[ -x "$cmp" ] || { echo "counters: no $cmp (make build)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One boot: kernel (1 patched, 0 not), schedstats mode; the iterations'
# values of METRIC appended to $tmp/<mode>-<patched>.<metric>
boot() {	# patched mode n
	local out=$tmp/boot-$1-$2-$3 args="--iterations $iter --budget 200 $opts"
	[ "$2" = off ] && args="$args --no-counters"
	{
		echo "$var=$args"
		[ "$2" = off ] && echo "SCHED_PERF_SCHEDSTATS=0"
	} >"$tmp/args"
	if ! VM_PATCHES=$1 VM_CHECKS=0 VM_PROGS=$prog VM_OUT=$out VM_QEMU_ARGS=$qemu_args \
		VM_ARGS="$(cat "$tmp/args")" "$top/scripts/vmtest.sh" "$ksrc" >"$out.log" 2>&1; then
		echo "counters: boot $3 (patched=$1, schedstats $2) failed:" >&2
		tail -5 "$out.log" >&2
		exit 1
	fi
	"$cmp" --dump "$out/results/$prog.results" >"$out.dump" || exit 1
	for metric in $tput task_clock_us_per_op; do
		awk -F'\t' -v m="$metric" '$1 == "runs" && $2 == m { print $3 }' "$out.dump" \
			>>"$tmp/$2-$1.$metric"
	done
	has=$(sed -n 's/^# # fair_stats: \(.*\)/\1/p' "$out/ktap" | cut -c1-40)
	echo "counters: boot $3: patched=$1 schedstats=$2 fair_stats: $has;" \
	     "$tput median $(awk -F'\t' -v m="$tput" '$1 == "runs" && $2 == m {
		n = split($3, v, " ")
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		printf "%.9g", n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }' "$out.dump")"
}

# Both kernels built first, so the boots are not interleaved with a build.
VM_PATCHES=0 "$top/scripts/vmtest.sh" "$ksrc" kernel
VM_PATCHES=1 "$top/scripts/vmtest.sh" "$ksrc" kernel
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
        with open(f"{tmp}/{mode}-{patched}.{metric}") as f:
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

# Student's t, two-sided 95 %, by degrees of freedom (then 1.96)
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]

def t975(df):
    if df >= len(T975):
        return 1.96 + (T975[-1] - 1.96) * len(T975) / df
    lo = int(df)
    if lo < 1:
        return T975[0]
    hi = min(lo + 1, len(T975))
    return T975[lo - 1] + (T975[hi - 1] - T975[lo - 1]) * (df - lo)

def welch(a, b):
    """The change of the boots' medians (B/A - 1) and its 95 % interval:
    Welch's t on their logs, the boot as the unit."""
    la = [math.log(statistics.median(x)) for x in a]
    lb = [math.log(statistics.median(x)) for x in b]
    va, vb = statistics.variance(la) / len(la), statistics.variance(lb) / len(lb)
    d, se = statistics.mean(lb) - statistics.mean(la), math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1)) if se else 1e9
    t = t975(df)
    return math.expm1(d), math.expm1(d - t * se), math.expm1(d + t * se)

print("schedstats  metric                unpatched     patched   patched/unpatched  95% interval")
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
        if len(a) >= 2 and len(b) >= 2:
            d, lo, hi = welch(a, b)
            print(f"{'':10s}  {'':20s}  Welch on the boots' medians: {100 * d:+.2f} % "
                  f"(95 % interval {100 * lo:+.2f} to {100 * hi:+.2f} %)")
PY
