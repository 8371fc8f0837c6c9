#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vmtest's boot options refuse bad input before they build or boot
# anything: VM_APPEND (words for the guest kernel's command line, e.g.
# kernel/test's sched_test_cost_ns=N), VM_ICOUNT (deterministic guest
# time) and VM_BPF / VM_BPF_COUNT (a BPF counter in the guest).  One line on stderr, exit 2 (128 for git bisect run), nothing
# in the cache.  make bench-kernel-power boots with them.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCHED_PERF_CACHE=$tmp/cache VM_OUT=$tmp/out

refused() {	# code what want [VAR=value...]
	local code=$1 what=$2 want=$3
	shift 3
	expect_refused "$code" "$what" env "$@" "$top/scripts/vmtest.sh" "$ksrc"
	[ -z "$(ls -A "$tmp/cache" 2>/dev/null)" ] || fail "$what: something was built in the cache"
	[ ! -e "$tmp/out" ] || fail "$what: VM_OUT was made"
	pass "$what: exit $code, $refused_err"
}

refused 2 "VM_APPEND with quotes" "want name or name=value" 'VM_APPEND=a="b c"'
refused 2 "VM_APPEND with a command substitution" "'x=\$(id)'" 'VM_APPEND=x=$(id)'
refused 2 "VM_APPEND with a glob" "'\*'" "VM_APPEND=sched_test_cost_ns=1000 *"
refused 2 "VM_APPEND with init's --" "'--'" "VM_APPEND=quiet -- x"
refused 2 "VM_APPEND of two lines" "no newline" "VM_APPEND=a=1"$'\n'"b=2"
refused 2 "VM_APPEND with console=" "console= is vmtest's own" "VM_APPEND=console=ttyS1"
refused 2 "VM_APPEND with rdinit=" "rdinit= is vmtest's own" "VM_APPEND=loglevel=7 rdinit=/bin/sh"
refused 128 "VM_APPEND bad while bisecting" "want name or name=value" VM_BISECT=1 "VM_APPEND=a;b"
refused 2 "VM_ICOUNT=2" "VM_ICOUNT=2: want 0 or 1" VM_ICOUNT=2
refused 2 "VM_ICOUNT=1 with KVM" "needs VM_ACCEL=tcg" VM_ICOUNT=1 VM_ACCEL=kvm
refused 2 "VM_ICOUNT=1 and -icount in VM_QEMU_ARGS" "give one of them" VM_ICOUNT=1 \
	"VM_QEMU_ARGS=-icount shift=1"
refused 2 "VM_BPF=yes" "VM_BPF=yes: want 0 or 1" VM_BPF=yes
refused 2 "VM_BPF_COUNT with VM_BPF=0" "needs VM_BPF=1" VM_BPF=0 "VM_BPF_COUNT=sched_waking"
refused 2 "VM_BPF_COUNT with a command" "tracepoint names (a-z, 0-9, _)" VM_BPF=1 \
	"VM_BPF_COUNT=sched_waking;reboot"
refused 2 "VM_BPF_COUNT with a quote" "tracepoint names (a-z, 0-9, _)" VM_BPF=1 \
	'VM_BPF_COUNT=a" b'
# good words pass the check: a missing image is refused next, not them
refused 2 "VM_APPEND of good words" "no such kernel image" VM_KERNEL="$tmp/none" \
	"VM_APPEND= sched_test_cost_ns=2000	loglevel=7 a.b=1,2:/x+y-z " VM_ICOUNT=1

# make bench-kernel-power's own settings, refused the same way before it
# builds or boots (its pools would go to KP_OUT)
bench_refused() {	# what want [VAR=value...]
	local what=$1 want=$2
	shift 2
	expect_refused 2 "kernel_power: $what" env KP_OUT="$tmp/kp" "$@" \
		"$top/bench/kernel_power.sh" "$ksrc"
	[ ! -e "$tmp/kp" ] && [ -z "$(ls -A "$tmp/cache" 2>/dev/null)" ] ||
		fail "kernel_power: $what: something was made"
	pass "kernel_power: $what: exit 2, $refused_err"
}
bench_refused "KP_COSTS with a glob" "'\*': want ns per wakeup" "KP_COSTS=0 *"
bench_refused "KP_COSTS beyond the patch's range" "'100001'" "KP_COSTS=100001"
bench_refused "KP_COSTS of 0 only" "want a cost other than 0" "KP_COSTS=0 0"
bench_refused "KP_FIRST=1" "want 2..50" KP_FIRST=1
bench_refused "KP_MAX_BOOTS below KP_FIRST" "want 4..50" KP_FIRST=4 KP_MAX_BOOTS=3
bench_refused "a retired setting, KP_PER_SIDE" "KP_PER_SIDE: no such setting" KP_PER_SIDE=1
bench_refused "VM_APPEND given" "set by this bench" VM_APPEND=quiet
done_ok
