#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two kernels judged against each other over interleaved boots: build A
# and B through vmtest's cache (two trees, or two commits of one git
# tree, built in one work tree so that the second rebuilds only what
# differs), boot them A B B A A B ..., run the programs (only them: the
# guest's self-checks are make vmtest's) in every boot, then judge each
# program's boots of B against those of A as sched_perf_compare --boots
# does: the mean of a boot is one run, since boots of one kernel differ
# more than the iterations of one boot.
#
# Sequential over boots, by the in-boot gate's own loop: sched_perf_vmab
# (gate_run() with boots as the runs) looks at VM_BOOTS boots a side
# first, then at the sizes the gate plans from the boots' spread to catch
# each program's change line at 90 % power, while a program may still be
# worse than a threshold, up to VM_MAX_BOOTS boots a side or until the
# boots took VM_BUDGET host seconds (20 min by default); alpha is spent
# over the looks as the in-boot gate spends it, the last look spending
# what is left.  It calls this script back (--boot SIDE N) for each boot
# it needs.  Each program has a gate of its own over the same boots, the
# gates in step: a pair is added while one is open; once one regressed
# none is, and the rest stand as their last look left them.
#
# Usage: scripts/vmab.sh A B
#   A, B: a kernel tree, or TREE@COMMIT (any git revision of TREE); the
#   same tree twice with VM_B_PATCHES judges a series from the list
#   against its base without any git
# Environment (and vmtest.sh's: VM_QEMU_ARGS, VM_CPUS, VM_PATCHES...;
# SCHED_PERF_COMPARE: the host's sched_perf_compare, by default the one
# make build leaves in build/; SCHED_PERF_VMAB: the engine, by default
# sched_perf_vmab beside it):
#   VM_PROGS="hackbench tcp_rr"  the programs run in every boot ("": all)
#   VM_ARGS=...    their KSELFTEST_<PROG>_ARGS lines (default: each of the
#                  two 5 iterations in 3 s of guest time, 10 s with
#                  VM_ICOUNT=0; "": the programs' own budgets)
#   VM_ICOUNT=1    deterministic guest time (-icount shift=0,sleep=off): a
#                  guest second is 10^9 instructions whatever the host's
#                  load, and the thresholds of bounds.icount hold (2 % on
#                  throughput and CPU time per op); about 45 s a boot here.
#                  0: the host's clock, about 23 s a boot, boots varying by
#                  2-28 %, the suite's bounds (3-5 %): mechanism counters
#   VM_BOOTS=3     boots per kernel at the first look, 2..50
#   VM_MAX_BOOTS=N boots per kernel at most, VM_BOOTS..50 (default 50; 9,
#                  or VM_BOOTS when that is more, with VM_CATCH=0;
#                  VM_BOOTS: no boot added)
#   VM_CATCH=P%    the regression to catch: after each open look, plan the
#                  boots a side at which each open program's throughput
#                  would catch a fall of P % at 90 % power (as the in-boot
#                  gate's --catch, from the boots' spread), within
#                  VM_MAX_BOOTS and VM_BUDGET; by default each program's
#                  own change line M (bounds.icount: 2 %); 0: no plan, the
#                  in-boot gate's look sizes up to VM_MAX_BOOTS.  The plan
#                  is printed first, and after each look what is needed
#                  and what the boots made can catch
#   VM_BUDGET=S    add no boots once the boots took S host seconds in all:
#                  the look then is the last (default 1200, a CI slot:
#                  about 12 boots a side here under -icount; none with
#                  VM_CATCH=0)
#   VM_CHECKS=1    run the guest's self-checks in every boot too (default
#                  0: minutes a boot, and they test the suite, not the
#                  kernel)
#   VM_A_PATCHES="FILE...", VM_B_PATCHES="FILE..."  more patches for that
#                  side's kernel, in order, after vmtest's own (anything
#                  patch -p1 accepts in the tree's root)
#   VM_TIMEOUT=S   a hung guest is killed after S seconds (default: 3
#                  times the longest boot so far, at least 180; 1200 for
#                  the first), and booted once more
#   VM_BOUNDS="FILE..."  the thresholds, each file over the ones before it
#                  (default: bounds beside sched_perf_compare, and with
#                  VM_ICOUNT=1 bounds.icount over it)
#   VM_METRICS="PROG.METRIC[=+N%|-N%]..."  judge only these metrics of
#                  their programs (sched_perf_compare --metric), e.g. to
#                  bisect on the metric that regressed; a program with
#                  none named is judged on all its thresholds.  =+N%
#                  (worse when it rises) or =-N% (when it falls) replaces
#                  the metric's threshold: in a bisect, well inside the
#                  change the bad end showed (+300 % for +1200 %)
#   VM_OUT=DIR     boots and verdicts go to DIR/boot-N-A|B (and each
#                  boot's host seconds to DIR/boot-N-A|B.secs), DIR/look-K
#                  (each look's table per program), DIR/verdict, DIR/stop
#   VM_BISECT=1    exit as git bisect run wants it, B being the commit
#                  under test: 0 good, 1 bad, 125 skip, 128 abort
#   SCHED_PERF_VMTEST=PATH  for tests and benches: a stand-in for
#                  scripts/vmtest.sh, called as it is ("TREE kernel"
#                  prints "vmtest: kernel: IMAGE"; "TREE run" with
#                  VM_KERNEL and VM_OUT writes VM_OUT/results/PROG.results)
# Output: a line per boot with its host seconds, a line per look and
# program, then the last look's sched_perf_compare table per program, then
# KTAP, one test per program, named after it ("not ok 1 hackbench"), the
# tally or the metrics flagged on the line before ("# hackbench:
# regressed: hackbench.m +12.0%"), then the boots used per side, the host
# time and why it stopped.  Exit 0 no regression, 1 a program regressed, 2 bad input or a
# boot that failed, 4 a program not shown within its thresholds (or
# nothing judged).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/programs.sh"
cache=${SCHED_PERF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sched_perf}
boots=${VM_BOOTS:-3}
max_boots=${VM_MAX_BOOTS:-}
catch=${VM_CATCH:-}
budget=${VM_BUDGET:-}
checks=${VM_CHECKS:-0}
bisect=${VM_BISECT:-0}
vmtest=${SCHED_PERF_VMTEST:-$top/scripts/vmtest.sh}
# Kernels are compared boot against boot, not iteration against
# iteration: by default the two programs of the reports this gate exists
# for (hackbench pipe, netperf TCP_RR), each 5 iterations, under
# -icount in 3 s of guest time (about 45 s a boot of host time: TCG runs
# one vCPU at a time), on the host's clock in 10 s (about 23 s a boot).
# VM_PROGS="" runs every program, VM_ARGS="" their own budgets (minutes
# a boot).
export VM_PROGS=${VM_PROGS-hackbench tcp_rr}
export VM_ICOUNT=${VM_ICOUNT:-1}
case $VM_ICOUNT in 0) guest_budget=10 ;; *) guest_budget=3 ;; esac
export VM_ARGS=${VM_ARGS-"KSELFTEST_HACKBENCH_ARGS=--iterations 5 --budget $guest_budget
KSELFTEST_TCP_RR_ARGS=--iterations 5 --budget $guest_budget"}
started=$(date +%s)

die() {
	echo "vmab: $*" >&2
	decided=1
	[ "$bisect" = 1 ] && exit 128
	exit 2
}
say() { echo "vmab: $*"; }
# An exit nobody decided on (a command that failed under set -e, often
# with 1) must not read as "regressed" or a bisect's "bad": 2, or 128 to
# abort the bisect.  die() in a command substitution exits its subshell
# with 2 or 128, said already: those pass as they are.
decided=
on_exit() {
	local rc=$?
	case $rc in
	0|128) return 0 ;;
	esac
	[ -z "$decided" ] || return 0
	if [ "$bisect" = 1 ]; then
		echo "vmab: unexpected failure (exit $rc): bisect aborted (128)" >&2
		exit 128
	fi
	[ "$rc" = 2 ] && return 0
	echo "vmab: unexpected failure (exit $rc): exit 2" >&2
	exit 2
}
trap on_exit EXIT

# A hung guest is killed after 3 times the longest boot so far (at least
# 3 minutes) rather than vmtest's 20 minutes, then booted once more.
# VM_TIMEOUT, when set, wins.
boot_timeout() {
	local longest=0 f s
	for f in "$out"/boot-*.secs; do
		[ -f "$f" ] || continue
		s=$(cat "$f")
		[ "$s" -le "$longest" ] || longest=$s
	done
	if [ -n "${VM_TIMEOUT:-}" ]; then
		echo "$VM_TIMEOUT"
	elif [ "$longest" = 0 ]; then
		echo 1200
	else
		echo $((3 * longest > 180 ? 3 * longest : 180))
	fi
}

# Boot $2 (A or B) as boot $1, once more if it gave no results; its host
# seconds, every try's, into $out/boot-N-SIDE.secs for the engine's clock.
boot() {	# n side
	local n=$1 side=$2 dir=$out/boot-$1-$2 img=kernel_$2 try rc t0 secs total=0
	for try in 1 2; do
		say "boot $n: $side$([ "$try" = 2 ] && echo ", again")"
		rc=0
		rm -rf "$dir"
		t0=$(date +%s)
		rm -f "$dir.status"
		VM_TIMEOUT=$(boot_timeout) VM_KERNEL=${!img} VM_BISECT=0 VM_CHECKS=$checks VM_OUT=$dir \
			VM_STATUS=$dir.status \
			"$vmtest" "$suite_tree" run >"$dir.log" 2>&1 || rc=$?
		secs=$(($(date +%s) - t0))
		total=$((total + secs))
		# a program's own verdict (1, 4) is not the boot's failure
		case $rc in
		0|1|4) ;;
		*) tail -5 "$dir.log" >&2; die "boot $n ($side) failed, exit $rc (see $dir.log)" ;;
		esac
		# vmtest says 1 for a guest that hung or died too: no results then
		if ls "$dir/results/"*.results >/dev/null 2>&1; then
			echo "$total" >"$dir.secs"
			say "boot $n: $side: $secs s"
			return
		fi
		say "boot $n ($side): no results after $secs s, FAIL: $(vm_status "$dir.status" failure)"
		cp "$dir.log" "$dir.try$try.log"
		[ "$try" = 2 ] && die "boot $n ($side) gave no results twice (see $dir.try1.log, $dir.log)"
	done
}

# sched_perf_vmab calls this script back as its step: --boot SIDE N boots
# kernel SIDE as boot N, with what the run below exported to it.
if [ "${1:-}" = --boot ]; then
	[ $# = 3 ] && [[ $2 =~ ^[AB]$ ]] && [[ $3 =~ ^[1-9][0-9]*$ ]] && [ -n "${VMAB_OUT:-}" ] ||
		die "usage: $0 --boot A|B N (sched_perf_vmab's step, within a run of $0 A B)"
	out=$VMAB_OUT suite_tree=$VMAB_SUITE_TREE kernel_A=$VMAB_KERNEL_A kernel_B=$VMAB_KERNEL_B
	boot "$3" "$2"
	decided=1
	exit 0
fi

[ $# = 2 ] || die "usage: $0 A B (a kernel tree, or TREE@COMMIT)"
[[ $boots =~ ^[0-9]+$ ]] && [ "$boots" -ge 2 ] && [ "$boots" -le 50 ] ||
	die "VM_BOOTS=$boots: want 2..50 (Welch's test needs 2 boots a side)"
case $catch in
''|0) ;;
*)	[[ $catch =~ ^[0-9]+(\.[0-9]+)?%?$ ]] && [[ $catch =~ [1-9] ]] ||
		die "VM_CATCH=$catch: want a percentage above 0, like 3%, or 0 (no plan)" ;;
esac
# unset: the engine's default (50; 9, or VM_BOOTS when more, without a plan)
if [ -n "$max_boots" ]; then
	[[ $max_boots =~ ^[0-9]+$ ]] && [ "$max_boots" -ge "$boots" ] && [ "$max_boots" -le 50 ] ||
		die "VM_MAX_BOOTS=$max_boots: want $boots..50 (at least VM_BOOTS)"
fi
[ -z "$budget" ] || [[ $budget =~ ^[1-9][0-9]{0,8}$ ]] ||
	die "VM_BUDGET=$budget: want host seconds, a whole number above 0"
case $checks in 0|1) ;; *) die "VM_CHECKS=$checks: want 0 or 1" ;; esac
case $VM_ICOUNT in 0|1) ;; *) die "VM_ICOUNT=$VM_ICOUNT: want 0 or 1" ;; esac
case $bisect in 0|1) ;; *) die "VM_BISECT=$bisect: want 0 or 1" ;; esac
[ -x "$vmtest" ] && [ ! -d "$vmtest" ] || die "SCHED_PERF_VMTEST=$vmtest: not an executable file"
for side in A B; do
	list=VM_${side}_PATCHES
	for p in ${!list:-}; do
		[ -f "$p" ] && [ -r "$p" ] || die "$list: $p: not a readable file"
	done
done
cmp=$(sched_perf_compare_bin "$top")
[ -x "$cmp" ] || die "no $cmp (make build, or SCHED_PERF_COMPARE=PATH)"
engine=${SCHED_PERF_VMAB:-$(dirname "$cmp")/sched_perf_vmab}
[ -x "$engine" ] || die "no $engine (make build, or SCHED_PERF_VMAB=PATH)"
# the thresholds: the suite's bounds, under -icount bounds.icount over them
if [ -z "${VM_BOUNDS:-}" ]; then
	VM_BOUNDS=$(dirname "$cmp")/bounds
	[ "$VM_ICOUNT" = 0 ] || VM_BOUNDS="$VM_BOUNDS $(dirname "$cmp")/bounds.icount"
fi
bounds=()
for f in $VM_BOUNDS; do
	[ -f "$f" ] && [ -r "$f" ] || die "VM_BOUNDS: $f: not a readable file"
	bounds+=(--bounds "$f")
done
# VM_METRICS names metrics, each with an optional threshold of its own
# ("hackbench.tp_sis_scanned_per_wakeup=+300%"): a bisect looks for the
# effect the bad end showed, and a metric whose boots vary by 40 % cannot
# be shown within the gate's +50 % in 9 boots a side, so a step without
# the regression would stay open and be skipped.  The sign is the way
# the metric gets worse, as in the bounds already read.
metrics=() metric_bounds=
for m in ${VM_METRICS:-}; do
	[[ $m =~ ^([a-z0-9_]+\.[a-z0-9_]+)(=([-+])([0-9]+(\.[0-9]+)?)%)?$ ]] ||
		die "VM_METRICS: '$m': want PROG.METRIC or PROG.METRIC=+N% / -N%, e.g. hackbench.tp_sis_scanned_per_wakeup=+300%"
	metrics+=("${BASH_REMATCH[1]}")
	[ -n "${BASH_REMATCH[2]}" ] || continue
	op='<='
	[ "${BASH_REMATCH[3]}" = + ] || op='>='
	awk -v n="${BASH_REMATCH[4]}" -v op="$op" 'BEGIN { exit !(n > 0 && (op == "<=" || n < 100)) }' ||
		die "VM_METRICS: '$m': want a threshold above 0 % (and a fall below 100 %)"
	grep -qE "^${BASH_REMATCH[1]//./\\.}[[:space:]]+change[[:space:]]+$op" $VM_BOUNDS ||
		die "VM_METRICS: '$m': no 'change $op' threshold for ${BASH_REMATCH[1]} in $VM_BOUNDS (the sign is the way it gets worse)"
	metric_bounds+="${BASH_REMATCH[1]} change $op ${BASH_REMATCH[3]}${BASH_REMATCH[4]}%"$'\n'
done
out=${VM_OUT:-$(mktemp -d)}
mkdir -p "$out"
if [ -n "$metric_bounds" ]; then
	printf '# the thresholds given in VM_METRICS, over VM_BOUNDS\n%s' "$metric_bounds" >"$out/metrics.bounds" ||
		die "cannot write $out/metrics.bounds"
	bounds+=(--bounds "$out/metrics.bounds")
fi

# A tree to build side $1 from: the tree itself, or a work tree of the
# repository checked out at the commit (one per repository, so that the
# two commits share one build tree and the second rebuilds what differs).
tree_of() {	# spec
	local spec=$1 repo rev wt
	if [[ $spec != *@* ]]; then
		[ -f "$spec/Makefile" ] || die "$spec: not a kernel tree"
		realpath "$spec"
		return
	fi
	repo=${spec%@*} rev=${spec##*@}
	# resolved in the repository: HEAD is the commit a bisect is at there
	rev=$(git -C "$repo" rev-parse --verify -q "$rev^{commit}") ||
		die "$spec: no commit '${spec##*@}' in $repo"
	wt=$cache/wt-$(realpath "$repo" | sha256sum | cut -c1-16)
	# a work tree left by a repository since removed and made again at
	# the same path is no work tree of this one: make it anew
	if [ -e "$wt/.git" ] && ! git -C "$wt" rev-parse -q --git-dir >/dev/null 2>&1; then
		rm -rf "$wt"
		git -C "$repo" worktree prune >&2
	fi
	if [ ! -e "$wt/.git" ]; then
		git -C "$repo" worktree add -q --detach "$wt" "$rev" >&2 ||
			die "cannot make a work tree of $repo in $wt"
	fi
	git -C "$wt" checkout -q --detach "$rev" >&2 || die "cannot check out $rev in $wt"
	echo "$wt"
}

# Build side $1 ($2: its spec, with VM_$1_PATCHES on it); sets kernel_$1
# and tree_$1.
build_side() {
	local side=$1 spec=$2 tree image log=$out/build-$1.log list=VM_$1_PATCHES p more=
	tree=$(tree_of "$spec")
	for p in ${!list:-}; do
		more="$more $(realpath "$p")"
	done
	say "$side: building $spec${more:+ with$more}"
	rm -f "$out/build-$side.status"
	VM_STATUS=$out/build-$side.status VM_KERNEL_PATCHES="${VM_KERNEL_PATCHES:-}$more" \
		"$vmtest" "$tree" kernel >"$log" 2>&1 ||
		{ tail -5 "$log" >&2
		  [ "$bisect" = 1 ] && [ "$side" = B ] && { say "bisect: exit 125 (skip): B does not build"; decided=1; exit 125; }
		  die "$side ($spec) does not build (see $log)"; }
	image=$(vm_status "$out/build-$side.status" kernel)
	# the image outlives the next checkout: keep a copy per side
	cp "$image" "$out/bzImage-$side" || die "$side: no kernel image from vmtest (see $log)"
	printf -v "kernel_$side" '%s' "$out/bzImage-$side"
	printf -v "tree_$side" '%s' "$tree"
	say "$side: kernel $(vm_status "$out/build-$side.status" kernel_build)"
}

tree_A=''	# set by build_side, as kernel_A and the B side's
build_side A "$1"
build_side B "$2"
suite_tree=$tree_A	# the kselftest framework the suite is built with

# The looks, the boots they need and the verdicts: sched_perf_vmab, the
# in-boot gate's own loop (gate_run()) over boots, calling this script
# back as its step to boot side X as boot N.
args=(--first "$boots" "${bounds[@]}")
[ -z "$max_boots" ] || args+=(--max-boots "$max_boots")
case $catch in
'') ;;
0) args+=(--no-catch) ;;
*) args+=(--catch "$catch") ;;
esac
[ -z "$budget" ] || args+=(--budget "$budget")
for m in "${metrics[@]}"; do
	args+=(--metric "$m")
done
rc=0
VMAB_OUT=$out VMAB_SUITE_TREE=$suite_tree VMAB_KERNEL_A=$kernel_A VMAB_KERNEL_B=$kernel_B \
	"$engine" --step "$(printf '%q' "$top/scripts/vmab.sh") --boot" "${args[@]}" "$out" || rc=$?
case $rc in
0|1|4) ;;
128) decided=1; exit 128 ;;	# a step's die() when bisecting: said already
*) die "the sequential engine failed, exit $rc (said above)" ;;
esac

progs=$(sed -n 's/^\(not \)\{0,1\}ok [0-9]* \([^ ]*\).*/\2/p' "$out/verdict")
for prog in $progs; do
	[ ! -f "$out/$prog.compare" ] || cat "$out/$prog.compare"
done
nr=$(echo $progs | wc -w)
ktap=$out/verdict
{ echo "TAP version 13"; echo "1..$nr"; cat "$ktap"; } | tee "$ktap.tap"
read -r _ k <"$out/stop"
read -r _ na nb < <(sed -n 2p "$out/stop")
why=$(sed -n 's/^why //p' "$out/stop")
n=$((na + nb)) boot_secs=0
for f in "$out"/boot-*.secs; do
	[ ! -f "$f" ] || boot_secs=$((boot_secs + $(cat "$f")))
done
total=$(($(date +%s) - started))
say "stopped at look $k: $why; $((na < nb ? na : nb)) boots a side (A $na, B $nb), $n in all: $boot_secs s of host time in boots ($((boot_secs / (n > 0 ? n : 1))) s a boot), $total s in all with the builds"
# what follows exits as decided
decided=1
if [ "$rc" = 1 ]; then
	[ "$bisect" = 1 ] && say "bisect: exit 1 (bad): $(grep '^not ok' "$ktap" | cut -d' ' -f4 | paste -sd' ') regressed"
	exit 1
fi
# good only when no program may still be worse than its thresholds
if [ "$rc" = 4 ]; then
	[ "$bisect" = 1 ] && { say "bisect: exit 125 (skip): $(grep -c '# SKIP' "$ktap") program(s) not shown within their thresholds"; exit 125; }
	exit 4
fi
[ "$bisect" = 1 ] && say "bisect: exit 0 (good)"
exit 0
