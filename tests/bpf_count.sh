#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/vmtest/bpf_count.c, the BPF counter bench/counters.sh attaches
# in the guest (VM_BPF_COUNT), on this host's kernel: it counts the
# wakeups of a ping-pong it is told of, says "attached" only once it is,
# and says "failed" with the kernel's reason (exit 1) for a tracepoint
# that does not exist, so that the guest's init never waits on it.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cc -O2 -static -o "$tmp/bpf_count" "$top/scripts/vmtest/bpf_count.c" ||
	fail "scripts/vmtest/bpf_count.c does not build"
mkfifo "$tmp/ready"

# start it on TRACEPOINTS; its first line (attached or failed) in $ready
start() {	# tracepoint...
	"$tmp/bpf_count" "$tmp/ready" "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	ready=$(head -n1 "$tmp/ready")
}

start no_such_tracepoint
wait "$pid"
rc=$? pid=
[ "$rc" = 1 ] && [ "$ready" = failed ] &&
	grep -q "no_such_tracepoint: attach refused: No such file or directory" "$tmp/err" ||
	skip_or_fail=$(cat "$tmp/err")
if [ -n "${skip_or_fail:-}" ]; then
	# no bpf() here (not root, no CONFIG_BPF_SYSCALL, or locked down)
	grep -Eq "map refused: (Operation not permitted|Function not implemented|Invalid argument)" \
		"$tmp/err" && skip "no BPF on this kernel: $skip_or_fail"
	fail "a missing tracepoint: exit $rc, said '$ready', want 1 and 'failed': $skip_or_fail"
fi
pass "a missing tracepoint: exit 1, 'failed', $(cat "$tmp/err")"

start sched_waking sched_wakeup
[ "$ready" = attached ] || fail "sched_waking, sched_wakeup: said '$ready': $(cat "$tmp/err")"
# 200 round trips through two pipes: in a round trip at least one side
# blocks in read() and is woken, unless the child answers in the few
# instructions between the parent's write and its read: at least 100
python3 - <<'PY' || fail "the ping-pong failed"
import os
a, b = os.pipe(), os.pipe()
if os.fork() == 0:
    for _ in range(200):
        os.read(a[0], 1)
        os.write(b[1], b"x")
    os._exit(0)
for _ in range(200):
    os.write(a[1], b"x")
    os.read(b[0], 1)
os.wait()
PY
kill -TERM "$pid"
wait "$pid"
rc=$? pid=
waking=$(sed -n 's/^bpf_count: sched_waking: //p' "$tmp/out")
wakeup=$(sed -n 's/^bpf_count: sched_wakeup: //p' "$tmp/out")
[ "$rc" = 0 ] && [ "${waking:-0}" -ge 100 ] && [ "${wakeup:-0}" -ge 100 ] ||
	fail "200 round trips: exit $rc, sched_waking '${waking:-}', sched_wakeup '${wakeup:-}': $(cat "$tmp/out" "$tmp/err")"
pass "200 pipe round trips: counted $waking at sched_waking and $wakeup at sched_wakeup (at least 100 each), exit 0 on SIGTERM"
done_ok
