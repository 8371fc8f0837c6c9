#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The timed window closes when the last worker has finished its work; the
# workers read their own figures (--counters tasks) and exit after it.
# SCHED_PERF_TEST_EXIT_DELAY_MS makes every worker sleep where it reads:
# the run takes that long more, and no iteration's time holds it.  One
# hackbench group of 10 loops is 4000 messages: timed with a 1.5 s sleep
# an iteration could not exceed 2667 messages/s.  Processes and threads,
# with the default sources and with none.
# Usage: window.sh INTREE
set -u
. "$(dirname "$0")/lib.sh"
dir=${1:?usage: window.sh INTREE}
[ -x "$dir/hackbench" ] && [ -x "$dir/sched_perf_compare" ] || fail "no programs in $dir (make build)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
delay_ms=1500

for mode in "" -T; do
	for counters in default none; do
		what="hackbench ${mode:+$mode }--counters $counters"
		t0=$(date +%s%N)
		rc=0
		SCHED_PERF_TEST_EXIT_DELAY_MS=$delay_ms "$dir/hackbench" -g 1 -l 10 $mode \
			--counters $counters --iterations 2 --results none \
			--save "$tmp/set" >"$tmp/out" 2>&1 || rc=$?
		secs=$(( ($(date +%s%N) - t0) / 1000000 ))
		[ $rc -le 1 ] || fail "$what: exit $rc: $(tail -n2 "$tmp/out")"
		grep -q "^# TEST ONLY: SCHED_PERF_TEST_EXIT_DELAY_MS=$delay_ms" "$tmp/out" ||
			fail "$what: the delay is not in effect"
		[ "$secs" -ge $((2 * delay_ms)) ] ||
			fail "$what: the run took $secs ms, under the 2 sleeps of $delay_ms ms: the workers did not sleep"
		rates=$("$dir/sched_perf_compare" --dump "$tmp/set" |
			awk -F'\t' '$1 == "runs" && $2 == "messages_per_sec" { print $3 }')
		[ -n "$rates" ] || fail "$what: no messages_per_sec in the run set"
		for r in $rates; do
			awk -v r="$r" 'BEGIN { exit !(r > 4000 / 1.5) }' ||
				fail "$what: an iteration of $r messages/s: the $delay_ms ms after the work was timed"
		done
		pass "$what: the run took $secs ms with the workers' sleeps, its iterations $rates messages/s"
	done
done
done_ok
