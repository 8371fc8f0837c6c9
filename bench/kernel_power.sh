#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The gate's power across kernels without a kernel per amount: ONE image
# built with kernel/test's wakeup cost (vmtest, VM_KERNEL_PATCHES), booted
# KP_BOOTS times per cost in KP_COSTS with sched_test_cost_ns=X on its
# command line (VM_APPEND), the programs run in every boot (VM_CHECKS=0):
# boots with cost 0 stand in for a base kernel, boots with cost X for a
# kernel whose fair wakeups are X ns slower.  Then (bench/kernel_power.py):
#  - calibration: per program and cost, the median of the boots'
#    throughput medians and its change against cost 0, the CV across
#    boots, host seconds per boot, and the X that would cost 2, 5 and
#    10 % (interpolated between the costs measured);
#  - comparisons drawn from the pools (said so in the output: they share
#    boots, so they are not independent), each replayed through
#    scripts/vmab.sh itself, bench/pool_vmtest.sh handing out the drawn
#    boots of cost 0 as A and of cost X as B (or disjoint ones of cost 0:
#    A/A): vmab's own looks, sequential from KP_FIRST boots a side up to
#    KP_MAX_BOOTS, its thresholds (bounds.icount under -icount), its plan
#    (by default to catch each program's change line; VM_CATCH=0: fixed
#    looks, vmab's design before 2026-12-07) and its exit; the detection
#    rate per cost, the A/A false-alarm rate, each with its 95 % Wilson
#    interval, the boots a side at the stop and the
#    host minutes a gate took (the sum of its boots' seconds).
# Boots go round the costs (every cost's boot 1, then every cost's boot 2,
# ...) so that drift of the host spreads over all of them.  The pools are
# kept in KP_OUT: a second run with the same settings adds boots to them
# up to KP_BOOTS (KP_BOOTS=0: judge the pools as they are, boot nothing).
#
# Usage: bench/kernel_power.sh KSRC
# Environment (default):
#   KP_COSTS ("0 2000 8000")  ns per fair wakeup; 0 is always added
#   KP_BOOTS (4)       boots per cost in the pools
#   KP_BASE_BOOTS (KP_BOOTS)  boots of cost 0: an A/A comparison takes
#                      two disjoint sides from them, so twice as many
#   KP_JOBS (1)        boots at once; more than 1 only with VM_ICOUNT=1,
#                      where a boot's figures do not depend on the host's
#                      load (its host seconds do)
#   KP_FIRST (3)       boots a side at the first look (vmab's VM_BOOTS)
#   KP_MAX_BOOTS (12)  boots a side at most (vmab's VM_MAX_BOOTS; fewer
#                      when the pools are smaller).  A replay's boots take
#                      no host time, so VM_BUDGET cannot stop it: the cap
#                      stands in for it, 12 being what vmab's 1200 s
#                      hold at 50 s a boot (VM_CATCH=0 and 9: the old
#                      design)
#   KP_DRAWS (200)     comparisons drawn per cost
#   KP_JUDGE="PROG..." replay with only these programs' results (vmab
#                      stops at the first program that regressed, so a
#                      program's own rate needs it alone)
#   KP_SEED (random)   the draws' seed
#   KP_OUT             where the pools go (build/kernel-power-host, or
#                      build/kernel-power-icount with VM_ICOUNT=1)
#   KP_KERNEL=FILE     an image built with kernel/test already
#   KP_APPEND="w ..."  more words for every boot's kernel command line,
#                      after sched_test_cost_ns=X (vmtest's VM_APPEND
#                      rules), e.g. "norandmaps nokaslr": kept in the
#                      pools' setting, so boots with other words are not
#                      mixed in
#   VM_ICOUNT (1)      deterministic guest time (-icount shift=0,sleep=off),
#                      as vmab; 0: the host's clock
#   VM_PROGS ("hackbench tcp_rr"), VM_ARGS (each program 5 iterations in
#   10 s, or in 3 s of guest time with VM_ICOUNT=1), VM_CPUS...: vmtest's
# Exit: 0 judged, 2 bad input, a kernel that does not build or a boot
# that gave no results twice.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/programs.sh"
die() { echo "kernel_power: $*" >&2; exit 2; }
say() { echo "kernel_power: $*"; }
[ $# = 1 ] || die "usage: bench/kernel_power.sh KSRC"
[ -f "$1/Makefile" ] || die "$1: not a kernel tree"
ksrc=$(realpath "$1")
# A misspelt or retired setting (KP_PER_SIDE is now KP_FIRST) would
# otherwise be ignored silently and the bench run with the defaults.
known=" KP_COSTS KP_BOOTS KP_BASE_BOOTS KP_JOBS KP_FIRST KP_MAX_BOOTS KP_DRAWS KP_JUDGE KP_SEED KP_OUT KP_KERNEL KP_APPEND "
for v in $(compgen -e | grep '^KP_'); do
	[[ $known == *" $v "* ]] || die "$v: no such setting (known:$known)"
done
costs=${KP_COSTS:-0 2000 8000}
boots=${KP_BOOTS:-4}
base_boots=${KP_BASE_BOOTS:-$boots}
jobs=${KP_JOBS:-1}
first=${KP_FIRST:-3}
most=${KP_MAX_BOOTS:-12}
draws=${KP_DRAWS:-200}
seed=${KP_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
icount=${VM_ICOUNT:-1}
cmp=$(sched_perf_compare_bin "$top")

case $costs in *$'\n'*) die "KP_COSTS: one line of numbers" ;; esac
read -ra costs <<<"$costs"
for c in "${costs[@]}"; do
	[[ $c =~ ^[0-9]{1,6}$ ]] && [ "$c" -le 100000 ] ||
		die "KP_COSTS: '$c': want ns per wakeup, 0..100000 (kernel/test's range)"
done
# 0 first, each cost once, in the order given
read -ra costs < <(printf '%s\n' 0 "${costs[@]}" | awk '!seen[$1 + 0]++ { print $1 + 0 }' | paste -sd' ')
[ ${#costs[@]} -ge 2 ] || die "KP_COSTS: want a cost other than 0"
[[ $boots =~ ^[0-9]+$ ]] && [ "$boots" -le 100 ] || die "KP_BOOTS=$boots: want 0..100"
[[ $base_boots =~ ^[0-9]+$ ]] && [ "$base_boots" -le 100 ] || die "KP_BASE_BOOTS=$base_boots: want 0..100"
[[ $jobs =~ ^[1-9]$ ]] || die "KP_JOBS=$jobs: want 1..9"
[ "$jobs" = 1 ] || [ "$icount" = 1 ] ||
	die "KP_JOBS=$jobs: boots at once disturb each other on the host's clock; only with VM_ICOUNT=1"
[[ $first =~ ^[0-9]+$ ]] && [ "$first" -ge 2 ] && [ "$first" -le 50 ] ||
	die "KP_FIRST=$first: want 2..50 (Welch's test needs 2 boots a side)"
[[ $most =~ ^[0-9]+$ ]] && [ "$most" -ge "$first" ] && [ "$most" -le 50 ] ||
	die "KP_MAX_BOOTS=$most: want $first..50 (at least KP_FIRST)"
[[ $draws =~ ^[0-9]+$ ]] && [ "$draws" -ge 1 ] || die "KP_DRAWS=$draws: want 1 or more"
[[ $seed =~ ^[0-9]+$ ]] || die "KP_SEED=$seed: want a number"
case $icount in 0|1) ;; *) die "VM_ICOUNT=$icount: want 0 or 1" ;; esac
[ -z "${VM_APPEND:-}" ] || die "VM_APPEND: set by this bench per boot (sched_test_cost_ns; KP_APPEND adds words)"
case ${KP_APPEND:-} in
*$'\n'*) die "KP_APPEND: one line of words" ;;
*sched_test_cost_ns*) die "KP_APPEND: sched_test_cost_ns is set by this bench per boot" ;;
esac
read -ra append <<<"${KP_APPEND:-}"
append=${append[*]}
[ -x "$cmp" ] || die "no $cmp (make build, or SCHED_PERF_COMPARE=PATH)"
clock=host
[ "$icount" = 0 ] || clock=icount
out=${KP_OUT:-$top/build/kernel-power-$clock}
budget=10
[ "$icount" = 0 ] || budget=3
export VM_CHECKS=0 VM_ICOUNT=$icount VM_PROGS=${VM_PROGS:-hackbench tcp_rr}
if [ -z "${VM_ARGS:-}" ]; then
	VM_ARGS=$(for p in $VM_PROGS; do
		echo "KSELFTEST_$(tr '[:lower:]' '[:upper:]' <<<"$p")_ARGS=--iterations 5 --budget $budget"
	done)
fi
export VM_ARGS

# One pool directory per setting: boots of another clock, other programs
# or other arguments are not mixed in.
mkdir -p "$out" || die "cannot make $out"
setting=$(printf 'clock %s\nprograms %s\nargs %s\ncpus %s\n' "$clock" "$VM_PROGS" \
	"$(tr '\n' ' ' <<<"$VM_ARGS" | sed 's/ *$//')" "${VM_CPUS:-4}"
	[ -z "$append" ] || printf 'append %s\n' "$append")
if [ -f "$out/setting" ]; then
	[ "$(cat "$out/setting")" = "$setting" ] ||
		die "$out holds boots of another setting ($(paste -sd';' "$out/setting")): use another KP_OUT"
else
	printf '%s\n' "$setting" >"$out/setting"
fi

# The image: built once with kernel/test (after kernel/sched), kept in
# vmtest's cache and copied into the pools' directory.
image() {
	local log=$out/build.log p list=
	if [ -n "${KP_KERNEL:-}" ]; then
		[ -f "$KP_KERNEL" ] || die "KP_KERNEL=$KP_KERNEL: no such image"
		[ "$KP_KERNEL" -ef "$out/bzImage" ] ||
			cp "$KP_KERNEL" "$out/bzImage" || die "cannot copy $KP_KERNEL"
		return
	fi
	for p in "$top"/kernel/test/*.patch; do
		list="$list $p"
	done
	say "building the kernel with$list"
	rm -f "$log.status"
	VM_STATUS=$log.status VM_KERNEL_PATCHES="${VM_KERNEL_PATCHES:-}$list" \
		"$top/scripts/vmtest.sh" "$ksrc" kernel \
		>"$log" 2>&1 || { tail -5 "$log" >&2; die "the kernel does not build (see $log)"; }
	p=$(vm_status "$log.status" kernel)
	cp "$p" "$out/bzImage" || die "no kernel image from vmtest (see $log)"
	say "kernel $(vm_status "$log.status" kernel_build): $p"
}

# A boot with results: its results/<prog>.results for every program
whole() {	# dir
	local p
	for p in $VM_PROGS; do
		[ -f "$1/results/$p.results" ] || return 1
	done
}

# A hung guest is killed after 3 times the longest boot so far (at least
# 3 minutes; 20 for the first), as scripts/vmab.sh does.
longest=0
boot_one() {	# cost n
	local dir=$out/cost-$1/boot-$2 try rc t0 t
	for try in 1 2; do
		rm -rf "$dir" "$dir.status"
		t0=$(date +%s)
		rc=0
		VM_TIMEOUT=${VM_TIMEOUT:-$((longest == 0 ? 1200 : (3 * longest > 180 ? 3 * longest : 180)))} \
			VM_KERNEL=$out/bzImage VM_APPEND="sched_test_cost_ns=$1${append:+ $append}" VM_OUT=$dir \
			VM_STATUS=$dir.status \
			"$top/scripts/vmtest.sh" "$ksrc" run >"$dir.log" 2>&1 || rc=$?
		t=$(($(date +%s) - t0))
		case $rc in
		0|1|4) ;;
		*) tail -5 "$dir.log" >&2; die "cost $1, boot $2: vmtest exit $rc (see $dir.log)" ;;
		esac
		if whole "$dir"; then
			[ "$t" -gt "$longest" ] && longest=$t
			printf 'cost %s\nclock %s\nseconds %s\n' "$1" "$clock" "$t" >"$dir/boot"
			say "cost $1 ns, boot $2: $t s"
			return
		fi
		say "cost $1 ns, boot $2: no results ($(vm_status "$dir.status" failure))"
		cp "$dir.log" "$dir.try$try.log"
	done
	die "cost $1, boot $2 gave no results twice (see $dir.try1.log, $dir.log)"
}

t0=$(date +%s)
say "$(nproc) CPUs, clock: $clock, costs (ns per fair wakeup): ${costs[*]}, $boots boots each, programs: $VM_PROGS, pools in $out"
# The boots still missing, round the costs: every cost's boot 1, then
# every cost's boot 2, ...; cost 0 up to KP_BASE_BOOTS, the others up to
# KP_BOOTS.
missing() {
	local n c want most=$((boots > base_boots ? boots : base_boots))
	for ((n = 1; n <= most; n++)); do
		for c in "${costs[@]}"; do
			want=$boots
			[ "$c" = 0 ] && want=$base_boots
			[ "$n" -le "$want" ] || continue
			[ -f "$out/cost-$c/boot-$n/boot" ] && whole "$out/cost-$c/boot-$n" && continue
			echo "$c $n"
		done
	done
}
todo=$(missing)
if [ -n "$todo" ]; then
	image
	running=0
	while read -r c n; do
		mkdir -p "$out/cost-$c"
		if [ "$jobs" = 1 ]; then
			boot_one "$c" "$n"
			continue
		fi
		# KP_JOBS at once: a boot that fails stops the bench
		if [ "$running" -ge "$jobs" ]; then
			wait -n || die "a boot failed (see above)"
			running=$((running - 1))
		fi
		boot_one "$c" "$n" &
		running=$((running + 1))
	done <<<"$todo"
	while [ "$running" -gt 0 ]; do
		wait -n || die "a boot failed (see above)"
		running=$((running - 1))
	done
	say "boots done in $(($(date +%s) - t0)) s"
fi
python3 "$top/bench/kernel_power.py" "$top" "$ksrc" "$cmp" "$out" "$first" "$most" "$draws" "$seed" \
	"$(nproc)" "${costs[@]}"
