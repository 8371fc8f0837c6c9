#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A stand-in for scripts/vmtest.sh that boots nothing: bench/kernel_power
# replays comparisons drawn from its pools through scripts/vmab.sh itself
# (SCHED_PERF_VMTEST), so that the rates it prints are those of vmab's
# own looks, stops and verdicts.  KP_PLAN=DIR holds the plan: DIR/A and
# DIR/B list the boot directories each side gets, in order, one a line.
#   TREE kernel  prints an "image" naming the side: B when
#                VM_KERNEL_PATCHES names DIR/B.patch (VM_B_PATCHES)
#   TREE run     copies the results of that side's next boot into
#                VM_OUT/results (VM_PROGS' only, when set) and adds the
#                boot to DIR/used-SIDE
# Exit 0, or 2 with one line: no plan, or a side's boots used up.
set -eu
die() { echo "pool_vmtest: $*" >&2; exit 2; }
plan=${KP_PLAN:-}
[ -d "$plan" ] || die "KP_PLAN=$plan: not a directory"
case ${2:-} in
kernel)
	side=A
	case " ${VM_KERNEL_PATCHES:-} " in *" $plan/B.patch "*) side=B ;; esac
	echo "$side" >"$plan/image-$side"
	echo "kernel: $plan/image-$side" >>"${VM_STATUS:?}"
	;;
run)
	side=$(cat "${VM_KERNEL:?}")
	used=0
	[ -f "$plan/used-$side" ] && used=$(wc -l <"$plan/used-$side")
	boot=$(sed -n "$((used + 1))p" "$plan/$side")
	[ -n "$boot" ] || die "side $side: no boot $((used + 1)) in $plan/$side"
	mkdir -p "${VM_OUT:?}/results"
	if [ -n "${VM_PROGS:-}" ]; then
		for p in $VM_PROGS; do
			cp "$boot/results/$p.results" "$VM_OUT/results/" || die "$boot: no $p results"
		done
	else
		cp "$boot"/results/*.results "$VM_OUT/results/" || die "$boot: no results"
	fi
	echo "$boot" >>"$plan/used-$side"
	;;
*)
	die "usage: pool_vmtest.sh TREE kernel|run"
	;;
esac
