#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input: one line on stderr, exit 2, nothing run, no results file.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'hackbench.messages_per_sec => 1\n' > "$tmp/bad-op.bounds"
printf 'hackbench.messages_per_sec >= many\n' > "$tmp/bad-number.bounds"
printf 'hackbench.no_such_metric <= 1\n' > "$tmp/unknown-metric.bounds"
printf 'tcp_rr.throughput >= 1  # a hackbench metric\n' > "$tmp/rr-unknown-metric.bounds"

expect_usage_error() {
	local what=$1; shift
	local out="$tmp/out" err="$tmp/err" rc

	mkdir -p "$tmp/results"
	SCHED_PERF_RESULTS_DIR="${results_env:-$tmp/results}" "$dir/${prog:-hackbench}" "$@" \
		>"$out" 2>"$err"
	rc=$?
	[ "$rc" = 2 ] || fail "$what: exit $rc, want 2"
	[ "$(wc -l <"$err")" = 1 ] || fail "$what: stderr is not one line: $(cat "$err")"
	[ ! -s "$out" ] || fail "$what: printed on stdout (ran something?)"
	[ -z "$(ls -A "$tmp/results")" ] || fail "$what: a results file was written"
	pass "$what -> exit 2: $(cat "$err")"
}

expect_usage_error "unknown option" --bogus
expect_usage_error "unexpected argument" extra
expect_usage_error "missing value" --loops
expect_usage_error "groups zero" -g 0
expect_usage_error "groups not numeric" -g abc
expect_usage_error "groups out of range" -g 99999999
expect_usage_error "negative loops" -l -5
expect_usage_error "datasize zero" -s 0
expect_usage_error "fds out of range" -f 5000
expect_usage_error "nr-threads not a percentage" --nr-threads abc
expect_usage_error "nr-threads zero" --nr-threads 0%
expect_usage_error "nr-threads trailing junk" --nr-threads 50%x
expect_usage_error "iterations zero" --iterations 0
expect_usage_error "budget not numeric" --budget fast
expect_usage_error "bounds file missing" --bounds "$tmp/none"
expect_usage_error "bounds bad operator" --bounds "$tmp/bad-op.bounds"
expect_usage_error "bounds bad number" --bounds "$tmp/bad-number.bounds"
expect_usage_error "bounds unknown metric" --bounds "$tmp/unknown-metric.bounds"
expect_usage_error "results directory missing" --results "$tmp/no/such/dir/r"
results_env="$tmp/nowhere" expect_usage_error "results dir env missing" -g 1
prog=tcp_rr expect_usage_error "rr: size zero" -r 0
prog=tcp_rr expect_usage_error "rr: response not numeric" -r 1,abc
prog=udp_rr expect_usage_error "rr: size above a datagram" -r 70000
prog=tcp_rr expect_usage_error "rr: pairs zero" --pairs 0
prog=tcp_rr expect_usage_error "rr: duration not numeric" --duration soon
prog=udp_rr expect_usage_error "rr: udp timeout zero" --udp-timeout 0
prog=sctp_rr expect_usage_error "rr: unknown option" --pipe
prog=tcp_rr expect_usage_error "rr: bounds unknown metric" --bounds "$tmp/rr-unknown-metric.bounds"
prog=dirdeep expect_usage_error "dirdeep: dirs above 36" --dirs 37
prog=dirdeep expect_usage_error "dirdeep: files negative" --files -1
prog=dirdeep expect_usage_error "dirdeep: inodes zero" --inodes 0
prog=dirdeep expect_usage_error "dirdeep: unknown sync" --sync sometimes
prog=dirdeep expect_usage_error "dirdeep: workdir missing" --workdir "$tmp/no-such-dir"
prog=dirdeep expect_usage_error "dirdeep: workdir is a file" --workdir "$tmp/bad-op.bounds"
prog=dirdeep expect_usage_error "dirdeep: instances zero" --instances 0
done_ok
