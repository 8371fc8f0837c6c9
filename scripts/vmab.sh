#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Two kernels judged against each other over interleaved boots: build A
# and B through vmtest's cache (two trees, or two commits of one git
# tree, built in one work tree so that the second rebuilds only what
# differs), boot them A B B A A B ..., VM_BOOTS times each, run the
# programs in every boot, then judge each program's boots of B against
# those of A with sched_perf_compare --boots: each boot's median is one
# run, since boots of one kernel differ more than the iterations of one
# boot.
#
# Usage: scripts/vmab.sh A B
#   A, B: a kernel tree, or TREE@COMMIT (any git revision of TREE); the
#   same tree twice with VM_B_PATCHES judges a series from the list
#   against its base without any git
# Environment (and vmtest.sh's: VM_PROGS, VM_ARGS, VM_QEMU_ARGS, VM_CPUS,
# VM_PATCHES...; SCHED_PERF_COMPARE: the host's sched_perf_compare, by
# default the one make build leaves in build/):
#   VM_BOOTS=3     boots per kernel
#   VM_A_PATCHES="FILE...", VM_B_PATCHES="FILE..."  more patches for that
#                  side's kernel, in order, after vmtest's own (anything
#                  patch -p1 accepts in the tree's root)
#   VM_TIMEOUT=S   a hung guest is killed after S seconds (default: 3
#                  times the longest boot so far, at least 180; 1200 for
#                  the first), and booted once more
#   VM_OUT=DIR     boots and verdicts go to DIR/boot-N-A|B, DIR/verdict
#   VM_BISECT=1    exit as git bisect run wants it, B being the commit
#                  under test: 0 good, 1 bad, 125 skip, 128 abort
# Output: per program sched_perf_compare's table, then KTAP, one test per
# program, named after it, the tally or the metrics flagged after " # "
# ("not ok 1 hackbench # regressed: hackbench.m +12.0%").  Exit 0 no
# regression, 1 a program regressed, 2 bad input or a boot that failed,
# 4 a program not shown within its thresholds (or nothing judged).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${SCHED_PERF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sched_perf}
boots=${VM_BOOTS:-3}
bisect=${VM_BISECT:-0}

die() {
	echo "vmab: $*" >&2
	[ "$bisect" = 1 ] && exit 128
	exit 2
}
say() { echo "vmab: $*"; }

[ $# = 2 ] || die "usage: $0 A B (a kernel tree, or TREE@COMMIT)"
[[ $boots =~ ^[0-9]+$ ]] && [ "$boots" -ge 2 ] && [ "$boots" -le 50 ] ||
	die "VM_BOOTS=$boots: want 2..50 (Welch's test needs 2 boots a side)"
case $bisect in 0|1) ;; *) die "VM_BISECT=$bisect: want 0 or 1" ;; esac
for side in A B; do
	list=VM_${side}_PATCHES
	for p in ${!list:-}; do
		[ -f "$p" ] && [ -r "$p" ] || die "$list: $p: not a readable file"
	done
done
cmp=${SCHED_PERF_COMPARE:-$top/build/linux-source-6.12/tools/testing/selftests/sched_perf/sched_perf_compare}
[ -x "$cmp" ] || die "no $cmp (make build, or SCHED_PERF_COMPARE=PATH)"
out=${VM_OUT:-$(mktemp -d)}
mkdir -p "$out"

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
	VM_KERNEL_PATCHES="${VM_KERNEL_PATCHES:-}$more" "$top/scripts/vmtest.sh" "$tree" kernel >"$log" 2>&1 ||
		{ tail -5 "$log" >&2
		  [ "$bisect" = 1 ] && [ "$side" = B ] && { say "bisect: exit 125 (skip): B does not build"; exit 125; }
		  die "$side ($spec) does not build (see $log)"; }
	image=$(sed -n 's/^vmtest: kernel: //p' "$log" | tail -n1)
	# the image outlives the next checkout: keep a copy per side
	cp "$image" "$out/bzImage-$side" || die "$side: no kernel image from vmtest (see $log)"
	printf -v "kernel_$side" '%s' "$out/bzImage-$side"
	printf -v "tree_$side" '%s' "$tree"
	say "$side: $(grep -o 'kernel cached\|what changed since the last kernel built there\|several minutes on 2 CPUs' "$log" | head -n1)"
}

build_side A "$1"
build_side B "$2"
suite_tree=$tree_A	# the kselftest framework the suite is built with

# Boots A B, B A, A B, ...: drift of the host over the boots cancels.
order=()
for ((i = 0; i < boots; i++)); do
	if ((i % 2)); then order+=(B A); else order+=(A B); fi
done
# A hung guest is killed after 3 times the longest boot so far (at least
# 3 minutes) rather than vmtest's 20 minutes, then booted once more.
# VM_TIMEOUT, when set, wins.
longest=0
boot_timeout() {
	if [ -n "${VM_TIMEOUT:-}" ]; then
		echo "$VM_TIMEOUT"
	elif [ "$longest" = 0 ]; then
		echo 1200
	else
		echo $((3 * longest > 180 ? 3 * longest : 180))
	fi
}
n=0
for side in "${order[@]}"; do
	n=$((n + 1))
	dir=$out/boot-$n-$side
	img=kernel_$side
	for try in 1 2; do
		say "boot $n of $((2 * boots)): $side$([ "$try" = 2 ] && echo ", again")"
		rc=0
		rm -rf "$dir"
		t0=$(date +%s)
		VM_TIMEOUT=$(boot_timeout) VM_KERNEL=${!img} VM_BISECT=0 VM_OUT=$dir \
			"$top/scripts/vmtest.sh" "$suite_tree" run >"$dir.log" 2>&1 || rc=$?
		# a program's own verdict (1, 4) is not the boot's failure
		case $rc in
		0|1|4) ;;
		*) tail -5 "$dir.log" >&2; die "boot $n ($side) failed, exit $rc (see $dir.log)" ;;
		esac
		# vmtest says 1 for a guest that hung or died too: no results then
		if ls "$dir/results/"*.results >/dev/null 2>&1; then
			t0=$(($(date +%s) - t0))
			[ "$t0" -gt "$longest" ] && longest=$t0
			break
		fi
		say "boot $n ($side): no results, $(grep -m1 'FAIL: ' "$dir.log" | sed 's/^vmtest: //')"
		cp "$dir.log" "$dir.try$try.log"
		[ "$try" = 2 ] && die "boot $n ($side) gave no results twice (see $dir.try1.log, $dir.log)"
	done
done

# Each program: its boots of B against those of A.
progs=$(ls "$out/boot-1-A/results" 2>/dev/null | sed -n 's/\.results$//p')
[ -n "$progs" ] || die "no results from the first boot (see $out/boot-1-A.log)"
regressed=() judged=0 open=0 nr=0
ktap=$out/verdict
: >"$ktap"
for prog in $progs; do
	nr=$((nr + 1))
	a= b=
	for ((i = 1; i <= n; i++)); do
		for side in A B; do
			f=$out/boot-$i-$side/results/$prog.results
			[ -f "$f" ] || continue
			if [ $side = A ]; then a=${a:+$a,}$f; else b=${b:+$b,}$f; fi
		done
	done
	rc=0
	"$cmp" --boots "$a" "$b" >"$out/$prog.compare" 2>&1 || rc=$?
	cat "$out/$prog.compare"
	# the verdicts of its metrics: "2 same, 4 undecided"
	tally=$(awk '$NF ~ /^(same|improved|better|worse|undecided|noisy|too-few-runs|missing|drifting|REGRESSION)$/ { print $NF }' \
		"$out/$prog.compare" | sort | uniq -c | awk '{ printf "%s%s %s", (NR > 1 ? ", " : ""), $1, $2 }')
	case $rc in
	0)
		judged=$((judged + 1))
		echo "ok $nr $prog # no metric worse than its threshold over $boots boots each ($tally)" >>"$ktap"
		;;
	4)
		# a metric not shown within its threshold the bad way
		open=$((open + 1))
		echo "ok $nr $prog # SKIP not shown within its thresholds over $boots boots each ($tally)" >>"$ktap"
		;;
	1)
		judged=$((judged + 1))
		regressed+=("$prog")
		# "# hackbench.m: regressed: median 0.094 -> 3.97 (+4128.0%), ..."
		echo "not ok $nr $prog # regressed: $(sed -n 's/^# \([^:]*\): regressed: median [^ ]* -> [^ ]* (\([^)]*\)).*/\1 \2/p' \
			"$out/$prog.compare" | paste -sd, | sed 's/,/, /g')" >>"$ktap"
		;;
	*)
		echo "ok $nr $prog # SKIP cannot compare: $(head -n1 "$out/$prog.compare")" >>"$ktap"
		;;
	esac
done
{ echo "TAP version 13"; echo "1..$nr"; cat "$ktap"; } | tee "$ktap.tap"
if [ ${#regressed[@]} != 0 ]; then
	[ "$bisect" = 1 ] && say "bisect: exit 1 (bad): ${regressed[*]} regressed"
	exit 1
fi
# good only when no program may still be worse than its thresholds
if [ "$open" != 0 ] || [ "$judged" = 0 ]; then
	[ "$bisect" = 1 ] && { say "bisect: exit 125 (skip): $open program(s) not shown within their thresholds"; exit 125; }
	exit 4
fi
[ "$bisect" = 1 ] && say "bisect: exit 0 (good)"
exit 0
