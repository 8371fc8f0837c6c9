#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In-boot A/B gates on a known kernel cost, fresh and end to end: each
# gate is one boot of the 6.12 guest under -icount (guest time counts
# instructions, so the host's load cannot move the figures) with
# kernel/test's patch, one program run as the suite runs it with
#   --ab /sys/module/kernel/parameters/sched_test_cost_ns=X
# (A: no cost, B: X ns per fair wakeup) at the gate's defaults (the
# default plan: catch M at 90 % within --gate-time), and its exit code
# and verdicts kept.  Then, per program, the same number of gates whose
# knob changes nothing measurable (AC_AA_KNOB): the false alarms.
#
# X per program is set beforehand (AC_COST), from a calibration: with
# AC_CAL=1 a first boot runs AC_CAL_BLOCKS blocks of each program at
# its X and prints the change it measured, then stops.
#
# Each boot builds the static suite from KSRC's copy of it (vmtest): a
# make build of the same tree while the bench runs (its sync empties the
# copy for a moment) can fail a boot's build, which the table shows as a
# gate without a verdict.
#
# Usage: bench/ab_cost_guest.sh KSRC
# Environment (default):
#   AC_PROGS ("tcp_rr hackbench")  the programs, each gated alone
#   AC_COST ("tcp_rr=460 hackbench=650")  PROG=NS: the B side's cost
#   AC_RUNS (10)        gates per program with the cost
#   AC_AA_RUNS (5)      gates per program with AC_AA_KNOB
#   AC_AA_KNOB (LATENCY_WARN)  a sched feature that changes nothing
#                       measured (it only warns on a long wait to run)
#   AC_BOUNDS (bounds.icount)  the thresholds, a file installed beside the
#                       programs: under -icount 2 % on throughput and CPU
#                       time per op, alarm at 1 %
#   AC_ARGS ("")        more arguments for every gate (e.g. --gate-time 300)
#   AC_JOBS (2)         boots at once: under -icount a boot's figures do
#                       not depend on the host's load (its host time does)
#   AC_CAL (0)          1: the calibration boot only
#   AC_CAL_BLOCKS (16)  its blocks per program
#   AC_OUT (a new directory)  boots, logs and the table
# Output: a line per gate (program, knob, exit, the primary's blocks a
# side and shift, host seconds), then per program and knob:
# exit 1 / 0 / 4 counts.  Exit 0 all gates ran, 2 bad input or a kernel
# that does not build, 1 a boot that gave no verdict.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/programs.sh"
me=ab_cost_guest
die() { echo "$me: $*" >&2; exit 2; }
[ $# = 1 ] || die "usage: bench/ab_cost_guest.sh KSRC"
[ -f "$1/Makefile" ] || die "$1: not a kernel tree"
ksrc=$(realpath "$1")
known=" AC_PROGS AC_COST AC_RUNS AC_AA_RUNS AC_AA_KNOB AC_BOUNDS AC_ARGS AC_JOBS AC_CAL AC_CAL_BLOCKS AC_OUT "
for v in $(compgen -e | grep '^AC_'); do
	[[ $known == *" $v "* ]] || die "$v: no such setting (known:$known)"
done
progs=${AC_PROGS:-tcp_rr hackbench}
costs=${AC_COST:-tcp_rr=460 hackbench=650}
runs=${AC_RUNS:-10}
aa_runs=${AC_AA_RUNS:-5}
aa_knob=${AC_AA_KNOB:-LATENCY_WARN}
bounds=${AC_BOUNDS:-bounds.icount}
extra=${AC_ARGS:-}
jobs=${AC_JOBS:-2}
cal=${AC_CAL:-0}
cal_blocks=${AC_CAL_BLOCKS:-16}
out=${AC_OUT:-$(mktemp -d)}
for v in "AC_RUNS=$runs" "AC_AA_RUNS=$aa_runs" "AC_JOBS=$jobs" "AC_CAL_BLOCKS=$cal_blocks"; do
	[[ ${v#*=} =~ ^[0-9]+$ ]] && [ "${v#*=}" -le 100 ] || die "$v: want a count 0..100"
done
[ "$jobs" -ge 1 ] || die "AC_JOBS=$jobs: want at least 1"
case $cal in 0|1) ;; *) die "AC_CAL=$cal: want 0 or 1" ;; esac
knob=/sys/module/kernel/parameters/sched_test_cost_ns
patch=$(ls "$top"/kernel/test/0001-*.patch)
mkdir -p "$out"

cost_of() {	# prog: its ns, or nothing
	local c
	for c in $costs; do
		[ "${c%%=*}" = "$1" ] && { echo "${c#*=}"; return; }
	done
}
for p in $progs; do
	[ -n "$(cost_of "$p")" ] || die "AC_COST: no cost for $p (want PROG=NS)"
	[[ $(cost_of "$p") =~ ^[1-9][0-9]*$ ]] || die "AC_COST: $p: want whole ns above 0"
done

export VM_ICOUNT=1 VM_CHECKS=0 VM_KERNEL_PATCHES=$patch
VM_STATUS=$out/kernel.status "$top/scripts/vmtest.sh" "$ksrc" kernel >"$out/kernel.log" 2>&1 ||
	{ tail -5 "$out/kernel.log" >&2; die "the kernel with kernel/test does not build"; }
kernel=$(vm_status "$out/kernel.status" kernel)
[ -f "$kernel" ] || die "no kernel image in $out/kernel.log"
cp "$kernel" "$out/bzImage"
export VM_KERNEL=$out/bzImage

var_of() { echo "KSELFTEST_$(echo "$1" | tr a-z- A-Z_)_ARGS"; }

# One boot: label, then "PROG ARGS" lines; the programs' KTAP and saved
# A/B run sets in $out/LABEL.
boot() {	# label lines
	local label=$1 lines=$2 t0 rc=0 progs_here
	progs_here=$(cut -d' ' -f1 <<<"$lines" | tr '\n' ' ')
	t0=$(date +%s)
	VM_PROGS=$progs_here VM_OUT=$out/$label VM_TIMEOUT=5400 \
		VM_ARGS=$(while read -r p args; do echo "$(var_of "$p")=$args"; done <<<"$lines") \
		"$top/scripts/vmtest.sh" "$ksrc" run >"$out/$label.log" 2>&1 || rc=$?
	echo "$(($(date +%s) - t0))" >"$out/$label.host_s"
	echo "$rc" >"$out/$label.vmtest_rc"
}

# The A/B arguments of one program's gate: knob, then more words.
ab_args() {	# prog knob
	echo "$1 --ab $2 --bounds /kselftest/sched_perf/$bounds --results none --save /results/$1.ab.results $extra${3:+ $3}"
}

if [ "$cal" = 1 ]; then
	lines=
	for p in $progs; do
		lines+="$(ab_args "$p" "$knob=$(cost_of "$p")" "--iterations $cal_blocks --max-runs $cal_blocks")"$'\n'
	done
	boot cal "${lines%$'\n'}"
	for p in $progs; do
		f=$out/cal/results/$p.results
		[ -f "$f" ] && [ -f "$f.a" ] || { echo "$me: calibration: $p saved nothing (see $out/cal.log)" >&2; exit 1; }
		"$(sched_perf_compare_bin "$top")" \
			--paired --bounds "$top/tools/testing/selftests/sched_perf/$bounds" "$f.a" "$f" |
			grep -E "^# $p\.(transactions|messages)_per_sec|^# $p\.task_clock" | sed "s/^/cal $(cost_of "$p") ns: /"
	done
	echo "$me: calibration boot: $(cat "$out/cal.host_s") s of host time; $out"
	exit 0
fi

# The gates, cost and A/A interleaved so that the host's state spreads
# over both; AC_JOBS boots at once.
plan=()
for ((i = 1; i <= runs || i <= aa_runs; i++)); do
	for p in $progs; do
		[ "$i" -le "$runs" ] && plan+=("$p cost $i")
		[ "$i" -le "$aa_runs" ] && plan+=("$p aa $i")
	done
done
echo "$me: ${#plan[@]} gates, $jobs at once, -icount, thresholds $bounds; costs $costs; A/A knob $aa_knob; $out"
running=0
for g in "${plan[@]}"; do
	read -r p kind i <<<"$g"
	if [ "$kind" = cost ]; then k="$knob=$(cost_of "$p")"; else k=$aa_knob; fi
	boot "$p-$kind-$i" "$(ab_args "$p" "$k")" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n || :
		running=$((running - 1))
	fi
done
wait

# The table: the program's exit (the runner's "# exit=N", 0 when ok),
# the primary's line before its result, its blocks and time.
printf '%-10s %-5s %3s %4s  %s\n' prog knob n exit "primary: blocks a side, shift (medians); host s" | tee "$out/table"
bad=0
for g in "${plan[@]}"; do
	read -r p kind i <<<"$g"
	d=$out/$p-$kind-$i
	line=$(grep -E "^(not )?ok [0-9]+ selftests: sched_perf: $p( |$)" "$d/ktap" 2>/dev/null | head -n1) || :
	if [ -z "$line" ]; then
		rc=none bad=1
	elif [[ $line == not* ]]; then
		rc=$(sed -n 's/.*# exit=\([0-9]*\).*/\1/p' <<<"$line")
	elif [[ $line == *"# SKIP"* ]]; then
		rc=4
	else
		rc=0
	fi
	prim=$(grep -m1 -E "^# # $p\.ab\.(transactions|messages)_per_sec:" "$d/ktap" 2>/dev/null |
		sed -n 's/^# # \([a-z_.]*\): old .*(n=\([0-9]*\)), new .*medians \([-+0-9.]*%\), shift \([-+0-9.]*%\).*/\1: \2 blocks, shift \4 (medians \3)/p') || :
	printf '%-10s %-5s %3s %4s  %s; host %s s\n' "$p" "$kind" "$i" "$rc" "${prim:-no verdict line}" \
		"$(cat "$d.host_s")" | tee -a "$out/table"
done
echo
for p in $progs; do
	for kind in cost aa; do
		awk -v p="$p" -v k="$kind" '$1 == p && $2 == k { n++; c[$4]++ }
			END { if (n) printf "%s %s: %d gates: exit 1 in %d, 0 in %d, 4 in %d, other %d\n",
				p, k, n, c[1], c[0], c[4], n - c[1] - c[0] - c[4] }' "$out/table"
	done
done | tee "$out/summary"
exit $bad
