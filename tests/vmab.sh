#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/vmab.sh and vmtest's kernel options refuse bad input before
# they build or boot anything: one line on stderr, exit 2 (128 for git
# bisect run).  Their real runs are make bench-vmab and make test-vm;
# vmab's sequential rule over stand-in boots is tests/vmab_seq.sh.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCHED_PERF_CACHE=$tmp/cache VM_OUT=$tmp/out SCHED_PERF_COMPARE=/bin/true SCHED_PERF_VMAB=/bin/true
export VM_BOUNDS=$top/tools/testing/selftests/sched_perf/bounds

refused() {	# code what want command...
	local code=$1 what=$2 want=$3
	shift 3
	stdout=any expect_refused "$code" "$what" "$@"
	[ -z "$(ls -A "$tmp/cache" 2>/dev/null)" ] || fail "$what: something was built in the cache"
	pass "$what: exit $code, $refused_err"
}

git -C "$tmp" init -q repo && git -C "$tmp/repo" -c user.name=t -c user.email=t@t \
	commit -q --allow-empty -m empty
refused 2 "vmab: one kernel" "usage" "$top/scripts/vmab.sh" "$ksrc"
# the engine's step, called out of a run: refused, nothing booted
refused 2 "vmab: --boot outside a run" "usage: .* --boot A|B N (sched_perf_vmab's step" \
	"$top/scripts/vmab.sh" --boot A 1
VMAB_OUT=$tmp/out refused 2 "vmab: --boot C 1" "usage: .* --boot A|B N" "$top/scripts/vmab.sh" --boot C 1
SCHED_PERF_VMAB=$tmp/none refused 2 "vmab: no engine" "no $tmp/none (make build, or SCHED_PERF_VMAB=PATH)" \
	"$top/scripts/vmab.sh" "$ksrc" "$ksrc"
refused 2 "vmab: not a tree" "$tmp: not a kernel tree" "$top/scripts/vmab.sh" "$tmp" "$ksrc"
refused 2 "vmab: no such commit" "no commit 'nope'" "$top/scripts/vmab.sh" "$tmp/repo@nope" "$ksrc"
VM_BOOTS=1 refused 2 "vmab: VM_BOOTS=1" "want 2..50" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
for m in 2 51 x -1; do
	VM_BOOTS=3 VM_MAX_BOOTS=$m refused 2 "vmab: VM_MAX_BOOTS=$m" "VM_MAX_BOOTS=$m: want 3..50 (at least VM_BOOTS)" \
		"$top/scripts/vmab.sh" "$ksrc" "$ksrc"
done
VM_BOOTS=12 VM_MAX_BOOTS=9 refused 2 "vmab: VM_MAX_BOOTS below VM_BOOTS" "VM_MAX_BOOTS=9: want 12..50" \
	"$top/scripts/vmab.sh" "$ksrc" "$ksrc"
for b in 0 -5 1h 1.5 " 60"; do
	VM_BUDGET=$b refused 2 "vmab: VM_BUDGET='$b'" "VM_BUDGET=$b: want host seconds, a whole number above 0" \
		"$top/scripts/vmab.sh" "$ksrc" "$ksrc"
done
for c in 0% x -3% 3%% 0.0; do
	VM_CATCH=$c refused 2 "vmab: VM_CATCH='$c'" "VM_CATCH=$c: want a percentage above 0, like 3%, or 0 (no plan)" \
		"$top/scripts/vmab.sh" "$ksrc" "$ksrc"
done
VM_ICOUNT=2 refused 2 "vmab: VM_ICOUNT=2" "VM_ICOUNT=2: want 0 or 1" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
VM_BOUNDS="$VM_BOUNDS $tmp/none" refused 2 "vmab: VM_BOUNDS of a missing file" \
	"VM_BOUNDS: $tmp/none: not a readable file" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
VM_BOUNDS= refused 2 "vmab: no bounds beside sched_perf_compare" \
	"VM_BOUNDS: /bin/bounds: not a readable file" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
VM_METRICS="hackbench.ok messages_per_sec" refused 2 "vmab: VM_METRICS without the program" \
	"VM_METRICS: 'messages_per_sec': want PROG.METRIC" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
VM_METRICS="hackbench.messages_per_sec=+20%" refused 2 "vmab: VM_METRICS's threshold the wrong way" \
	"no 'change <=' threshold for hackbench.messages_per_sec" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
for t in -0% -100% +0.0%; do
	VM_METRICS="hackbench.messages_per_sec=$t" refused 2 "vmab: VM_METRICS's threshold $t" \
		"want a threshold above 0 % (and a fall below 100 %)" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
done
VM_METRICS="hackbench.messages_per_sec=-5" refused 2 "vmab: VM_METRICS's threshold without %" \
	"want PROG.METRIC or PROG.METRIC=+N% / -N%" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
VM_CHECKS=2 refused 2 "vmab: VM_CHECKS=2" "VM_CHECKS=2: want 0 or 1" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
SCHED_PERF_VMTEST=$tmp/none refused 2 "vmab: SCHED_PERF_VMTEST of a missing file" \
	"SCHED_PERF_VMTEST=$tmp/none: not an executable file" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
SCHED_PERF_VMTEST=$tmp refused 2 "vmab: SCHED_PERF_VMTEST of a directory" \
	"not an executable file" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
VM_BISECT=1 VM_MAX_BOOTS=1 refused 128 "vmab: VM_MAX_BOOTS=1 while bisecting" "VM_MAX_BOOTS=1: want 3..50" \
	"$top/scripts/vmab.sh" "$ksrc" "$ksrc"
VM_B_PATCHES="$ksrc/Makefile $tmp/none.patch" refused 2 "vmab: VM_B_PATCHES of a missing file" \
	"VM_B_PATCHES: $tmp/none.patch: not a readable file" "$top/scripts/vmab.sh" "$ksrc" "$ksrc"
VM_BISECT=1 refused 128 "vmab: bad input while bisecting" "not a kernel tree" \
	"$top/scripts/vmab.sh" "$tmp" "$ksrc"
VM_KERNEL_PATCHES=$tmp/none.patch refused 2 "vmtest: VM_KERNEL_PATCHES of a missing file" \
	"none.patch: no such file" "$top/scripts/vmtest.sh" "$ksrc"
VM_KERNEL=$tmp/bzImage refused 2 "vmtest: VM_KERNEL of a missing image" \
	"no such kernel image" "$top/scripts/vmtest.sh" "$ksrc"
done_ok
