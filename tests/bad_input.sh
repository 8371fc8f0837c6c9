#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bad input: one line on stderr, exit 2 within a second, nothing run, no
# results file, nothing written anywhere in the test's directory.  Inputs
# that are no regular file (/dev/zero, a FIFO) or too large are refused
# before they are read; output paths before the first iteration.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'hackbench.messages_per_sec => 1\n' > "$tmp/bad-op.bounds"
printf 'hackbench.messages_per_sec >= many\n' > "$tmp/bad-number.bounds"
printf 'hackbench.no_such_metric <= 1\n' > "$tmp/unknown-metric.bounds"
printf 'tcp_rr.throughput >= 1  # a hackbench metric\n' > "$tmp/rr-unknown-metric.bounds"

# Every path under $tmp with its type, but the program's own stdout and stderr.
snapshot() {
	find "$tmp" \( -path "$tmp/out" -o -path "$tmp/err" \) -prune -o -printf '%y %p\n' | sort
}

# timeout: a read that never ends (a FIFO, /dev/zero) or a run that
# starts after all is a failure, not a hang.  want: a part of the message.
expect_usage_error() {
	local what=$1 before; shift

	mkdir -p "$tmp/results"
	before=$(snapshot)
	within_ms=1000 expect_refused 2 "$what" \
		env SCHED_PERF_RESULTS_DIR="${results_env:-$tmp/results}" "$dir/${prog:-hackbench}" "$@"
	[ -z "$(ls -A "$tmp/results")" ] || fail "$what: a results file was written"
	[ "$(snapshot)" = "$before" ] ||
		fail "$what: something was written: $(diff <(echo "$before") <(snapshot) | grep '^[<>]')"
	pass "$what -> exit 2 in $refused_ms ms: $refused_err"
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
want="'bogus' is not a counter source" expect_usage_error "--counters bogus" --counters bogus
want="'' is not a counter source" expect_usage_error "--counters with an empty name" --counters tasks,
want="--no-counters and --counters: give one" expect_usage_error "--counters and --no-counters" \
	--counters perf --no-counters
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
prog=pipe expect_usage_error "pipe: loop zero" -l 0
prog=pipe expect_usage_error "pipe: loop not numeric" --loop many
prog=pipe expect_usage_error "pipe: pairs above the limit" --pairs 65537
prog=pipe expect_usage_error "pipe: a hackbench option" --groups 2

# Inputs: a regular file of at most 16 MiB, refused before a byte is read.
mkfifo "$tmp/fifo"
mkdir "$tmp/dir"
limit=$((16 << 20))
truncate -s $((limit + 1)) "$tmp/big"		# sparse: no disk
want="/dev/zero: not a regular file but a character device" \
	expect_usage_error "--baseline /dev/zero" --baseline /dev/zero
want="$tmp/fifo: not a regular file but a FIFO" \
	expect_usage_error "--baseline a FIFO" --baseline "$tmp/fifo"
want="$tmp/big: $((limit + 1)) bytes, above the limit of 16 MiB" \
	expect_usage_error "--baseline above the size limit" --baseline "$tmp/big"
# at the limit the file is read, and judged as a run set
truncate -s "$limit" "$tmp/big"
want="$tmp/big: no meta.runset_version" \
	expect_usage_error "--baseline at the size limit: read" --baseline "$tmp/big"
rm "$tmp/big"
want="$tmp/fifo: not a regular file but a FIFO" \
	expect_usage_error "--bounds a FIFO" --bounds "$tmp/fifo"
want="/dev/zero: not a regular file" expect_usage_error "--bounds /dev/zero" --bounds /dev/zero
want="$tmp/dir: Is a directory" expect_usage_error "--baseline a directory" --baseline "$tmp/dir"
want="cannot read /proc/sys/kernel: Is a directory" \
	expect_usage_error "--ab PATH=VALUE on a directory" --ab /proc/sys/kernel=1

# Outputs: checked before the first iteration, nothing created.
want="--save: $tmp/dir is a directory" expect_usage_error "--save a directory" --save "$tmp/dir"
want="--save: cannot write into $tmp/missing: No such file" \
	expect_usage_error "--save in a missing directory" --save "$tmp/missing/base.res"
want="--save: $tmp/fifo is not a regular file" \
	expect_usage_error "--save a FIFO" --save "$tmp/fifo"
mkdir "$tmp/base.res.a"
want="--save (A side): $tmp/base.res.a is a directory" \
	expect_usage_error "--save FILE --ab: FILE.a a directory" --ab NO_SUCH_FEATURE \
	--save "$tmp/base.res"
rmdir "$tmp/base.res.a"
want="--results: $tmp/dir is a directory" expect_usage_error "--results a directory" --results "$tmp/dir"
want="--results: $tmp/fifo is not a regular file" \
	expect_usage_error "--results a FIFO" --results "$tmp/fifo"
want="--evidence: $tmp/fifo is not a directory" \
	expect_usage_error "--evidence a FIFO" --evidence "$tmp/fifo"
want="--evidence: cannot write into $tmp/missing: No such file" \
	expect_usage_error "--evidence in a missing directory" --evidence "$tmp/missing/ev"

# --help: exit 0, every option of the tables on stdout within 80
# columns, nothing on stderr; 'make report' looks for '--evidence DIR'.
for p in $(sched_perf_programs "$dir"); do
	"$dir/$p" --help >"$tmp/out" 2>"$tmp/err" || fail "$p --help: exit $?"
	[ ! -s "$tmp/err" ] || fail "$p --help: stderr: $(cat "$tmp/err")"
	wide=$(awk 'length > 80' "$tmp/out")
	[ -z "$wide" ] || fail "$p --help: lines over 80 columns: $wide"
	for opt in "--evidence DIR" "--nr-threads P[%]" "--help"; do
		grep -qF -- "$opt" "$tmp/out" || fail "$p --help: no '$opt'"
	done
	pass "$p --help: exit 0, $(grep -c -- '^ *-' "$tmp/out") options, within 80 columns"
done
grep -qE '^  -g, --groups N +groups of F senders' <("$dir/hackbench" --help) ||
	fail "hackbench --help: no '-g, --groups N' line"
pass "hackbench --help: '-g, --groups N' and its help"

# An empty value is no value: never silently ignored.
for opt in --ab --baseline --save --results --bounds --evidence; do
	want="$opt: empty value" expect_usage_error "$opt ''" "$opt" ""
done
done_ok
