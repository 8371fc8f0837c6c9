#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# vmtest boots once more when the guest died of an "Oops: int3" under TCG
# (a vCPU ran a breakpoint text_poke_bp() had already taken out: the
# emulator's race with live code patching, not the kernel's), keeps the
# first console, and fails when the second boot dies the same way.  A
# stand-in for qemu-system-x86_64 (first on PATH) plays the guest: it
# prints the oops, or a whole run, from a list of what each boot does.
set -u
. "$(dirname "$0")/lib.sh"
ksrc=$(realpath "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<'STUB'
#!/bin/bash
n=$(($(cat "$STUB/boots" 2>/dev/null || echo 0) + 1))
echo "$n" >"$STUB/boots"
case $(sed -n "${n}p" "$STUB/plan") in
int3)
	printf 'Oops: int3: 0000 [#1] SMP\nKernel panic - not syncing: Fatal exception in interrupt\n'
	exit 0 ;;
oops)
	printf 'BUG: kernel NULL pointer dereference, address: 0000000000000000\nKernel panic - not syncing: Fatal exception\n'
	exit 0 ;;
esac
printf 'TAP version 13\n1..1\n# selftests: sched_perf: hackbench\nok 1 selftests: sched_perf: hackbench\nSCHED_PERF_VM_EXIT=0\n'
STUB
chmod +x "$tmp/bin/qemu-system-x86_64"
: >"$tmp/bzImage"

vmtest() {	# name plan...: the exit status; the log in $tmp/NAME.log
	local name=$1 rc=0
	shift
	export STUB=$tmp/stub-$name
	mkdir -p "$STUB"
	printf '%s\n' "$@" >"$STUB/plan"
	PATH="$tmp/bin:$PATH" VM_KERNEL="$tmp/bzImage" VM_OUT="$tmp/out-$name" VM_CHECKS=0 \
		VM_PROGS=hackbench VM_ACCEL=tcg VM_ICOUNT=0 \
		"$top/scripts/vmtest.sh" "$ksrc" >"$tmp/$name.log" 2>&1 || rc=$?
	echo "$rc"
}
boots() { cat "$tmp/stub-$1/boots"; }

rc=$(vmtest once int3 ok)
[ "$rc" = 0 ] && [ "$(boots once)" = 2 ] &&
	grep -q '^vmtest: the guest died of an int3 oops .*: booting once more$' "$tmp/once.log" &&
	grep -q '^Oops: int3' "$tmp/out-once/console-int3.log" &&
	grep -q '^SCHED_PERF_VM_EXIT=0' "$tmp/out-once/console.log" ||
	fail "an int3 oops, then a whole run: exit $rc after $(boots once) boots, want 0 after 2: $(tail -n 5 "$tmp/once.log")"
pass "an int3 oops, then a whole run: booted once more, said so, the first console kept, exit 0"

rc=$(vmtest twice int3 int3 ok)
[ "$rc" = 1 ] && [ "$(boots twice)" = 2 ] &&
	grep -q 'FAIL: the guest died before the suite finished' "$tmp/twice.log" ||
	fail "two int3 oopses: exit $rc after $(boots twice) boots, want 1 after 2: $(tail -n 5 "$tmp/twice.log")"
pass "two int3 oopses: exit 1 after 2 boots, no third"

rc=$(vmtest other oops ok)
[ "$rc" = 1 ] && [ "$(boots other)" = 1 ] ||
	fail "another oops: exit $rc after $(boots other) boots, want 1 after 1 (not booted again)"
pass "another oops (a NULL dereference): exit 1, not booted again"
done_ok
