#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Request-response errors end the run with a clear failure, never a hang:
# a peer that dies (connection closed), a peer that stops answering
# (timeouts, TCP and UDP); and SIGTERM leaves no process and no socket.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'pkill -9 -f "$tmp/" 2>/dev/null; rm -rf "$tmp"' EXIT
cp "$dir/tcp_rr" "$dir/udp_rr" "$dir/bounds" "$tmp/"

# start PROG ARGS...: 4 pairs, long duration; waits until all 8 workers run
start() {
	local prog=$1; shift
	"$tmp/$prog" --pairs 4 --duration 600 --iterations 1 --results none "$@" \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	poll 10 has_workers "$pid" 8 || fail "$prog: workers did not start"
	# the pairs past their connect and first transactions: a server
	# killed before would fail the run another way
	sleep 0.5
}
none_left() {
	[ "$(pgrep -f "$tmp/" | wc -l)" = 0 ] && ! ss -tuanpH 2>/dev/null | grep -qE '"(tcp|udp)_rr"'
}

nth_child() { workers_of "$pid" | sed -n "${1}p"; }	# 1 = server 0


no_leftovers() {
	poll 5 none_left || fail "processes ($(pgrep -f "$tmp/" | wc -l)) or sockets left after $1"
	pass "no process and no socket left after $1"
}

expect_failure() {	# what pattern
	local rc=$2
	[ "$rc" = 1 ] || fail "$1: exit $rc, want 1"
	grep -q "$3" "$tmp/err" || fail "$1: no '$3' in: $(cat "$tmp/err")"
	pass "$1: exit 1, $(grep -m1 "$3" "$tmp/err")"
}

start tcp_rr
kill -9 "$(nth_child 1)"
wait_exit "$pid" 10 "a server died"
expect_failure "tcp server killed" $? "server closed the connection\|failed"
no_leftovers "a dead server"

start udp_rr --udp-timeout 100
kill -STOP "$(nth_child 1)"
wait_exit "$pid" 10 "a UDP server stopped answering"
expect_failure "udp server stopped" $? "lost datagrams"
no_leftovers "a silent UDP server"

start tcp_rr
kill -STOP "$(nth_child 1)"
wait_exit "$pid" 20 "a TCP server stopped answering"
expect_failure "tcp server stopped" $? "timed out"
no_leftovers "a silent TCP server"

start tcp_rr
kill -TERM "$pid"
wait_exit "$pid" 5 "SIGTERM"
[ $? = 143 ] || fail "SIGTERM: want exit 143"
pass "SIGTERM: controller exits at once"
no_leftovers "SIGTERM"

start tcp_rr -T
kill -TERM "$pid"
wait_exit "$pid" 5 "SIGTERM (threads)"
no_leftovers "SIGTERM in thread mode"
done_ok
