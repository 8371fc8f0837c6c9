#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A worker that dies must fail the run, never hang it; SIGTERM to the
# controller must leave no worker behind.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
tmp=$(mktemp -d)
trap 'pkill -9 -f "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
cp "$dir/hackbench" "$dir/bounds" "$tmp/"	# a unique path to find our tasks

start_long_run() {
	"$tmp/hackbench" "$@" -g 2 -l 100000000 --results none \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	poll 10 has_workers "$pid" 80 || fail "workers did not start"
}
none_left() { [ "$(pgrep -f "$tmp/hackbench" | wc -l)" = 0 ]; }


no_leftovers() {
	poll 5 none_left || fail "$(pgrep -f "$tmp/hackbench" | wc -l) tasks left behind after $1"
	pass "no task left behind after $1"
}

for victim in receiver sender; do
	start_long_run --pipe
	# children in creation order: 20 receivers, 20 senders, then group 2
	if [ $victim = receiver ]; then n=1; else n=21; fi
	kill -9 "$(workers_of "$pid" | sed -n ${n}p)"
	wait_exit "$pid" 10 "a $victim was killed"
	rc=$?
	[ "$rc" = 1 ] || fail "exit $rc after a $victim died, want 1"
	grep -q "failed" "$tmp/err" || fail "no failure message: $(cat "$tmp/err")"
	grep -q "^not ok 1 hackbench.completed" "$tmp/out" || fail "completed check did not fail"
	pass "killed $victim: exit 1, '$(tail -1 "$tmp/err")'"
	no_leftovers "a dead $victim"
done

start_long_run --pipe
kill -TERM "$pid"
wait_exit "$pid" 5 "SIGTERM"
rc=$?
[ "$rc" = 143 ] || fail "exit $rc after SIGTERM, want 143 (killed by SIGTERM)"
pass "SIGTERM: controller exits at once"
no_leftovers "SIGTERM"

start_long_run --pipe -T
kill -TERM "$pid"
wait_exit "$pid" 5 "SIGTERM (threads)"
pass "SIGTERM in thread mode: exits at once"
done_ok
