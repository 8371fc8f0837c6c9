#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The BPF counter source (--counters bpf, src_bpf.c) on this kernel,
# against the kernel's own per-task counts of the same tasks:
#  - every wakeup of a worker ends one of its voluntary switches, so the
#    programs' wakeups per op equal the workers' voluntary switches per op
#    from /proc/<tid>/sched (--counters tasks) within 1 %, and their
#    switches away from a runnable worker the involuntary ones: in
#    process and thread mode, and while a second measured pipe runs
#    beside it, whose wakeups must not be counted (each run follows its
#    own tasks only);
#  - a wakeup away from the wakee's previous CPU is one of its migrations:
#    tp_wake_migrations_per_1k_ops <= the workers' se.nr_migrations;
#  - the placement shares add up to 1, p50 <= p99 > 0, and the results
#    file holds every tp_ figure the KTAP shows, under the same name;
#  - as nobody, every tp_ bound is a SKIP "not permitted", exit 0;
#  - nothing stays attached after the runs (bpftool, where installed).
# Not run (exit 4) without root or where the kernel refuses BPF.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
[ "$(id -u)" = 0 ] || skip "needs root to load BPF programs"
tmp=$(mktemp -d)
chmod 755 "$tmp"
beside=
trap '[ -z "$beside" ] || kill "$beside" 2>/dev/null; rm -rf "$tmp"' EXIT

run() {	# NAME PROG ARGS...: $tmp/NAME.out and $tmp/NAME.res
	local n=$1 prog=$2
	shift 2
	"$dir/$prog" --iterations 2 --budget 2 --results "$tmp/$n.res" "$@" >"$tmp/$n.out" 2>&1 ||
		fail "$prog $*: exit $?: $(grep -E 'not ok|Bail|rror' "$tmp/$n.out" | head -3)"
}

# our programs' names in the kernel's list of loaded programs
attached() {
	bpftool prog show 2>/dev/null | grep -cE " name (sched_process_f|sched_process_e|sched_waking|sched_migrate_t|sched_wakeup|sched_wakeup_ne|sched_switch) "
}
loaded_before=$(attached)

run probe pipe --counters bpf
why=$(sed -n 's/^# bpf: //p' "$tmp/probe.out")
# what the kernel lacks or forbids is not run here; a program of ours the
# verifier refuses, or anything else, is a failure
case $why in
raw\ tracepoints*) ;;
"not permitted"*|"no bpf()"*|"no raw tracepoint"*) skip "no BPF here: $why" ;;
"") fail "no '# bpf:' line in the header: $(head -5 "$tmp/probe.out")" ;;
*) fail "the bpf source did not attach: $why" ;;
esac

# PREFIX: the tp_ figure agrees with the tasks source's within 1 %
agrees() {	# NAME PROG TP_METRIC TASK_METRIC
	local tp task
	tp=$(result "$tmp/$1.res" "$2.$3") task=$(result "$tmp/$1.res" "$2.$4")
	[ -n "$tp" ] && [ -n "$task" ] || fail "$1: no $3 or $4 in the results: '$tp' '$task'"
	within "$tp" "$task" 0.01 0.0005 || fail "$1: $3 $tp, $4 $task: more than 1 % apart"
	echo "$3 $tp, $4 $task"
}

check_run() {	# NAME PROG
	local n=$1 prog=$2 shares lat names
	pass "$n: $(agrees "$n" "$prog" tp_wakeups_per_op voluntary_switches_per_op)"
	pass "$n: $(agrees "$n" "$prog" tp_involuntary_switches_per_op involuntary_switches_per_op)"
	local moved all
	moved=$(result "$tmp/$n.res" "$prog.tp_wake_migrations_per_1k_ops")
	all=$(result "$tmp/$n.res" "$prog.task_migrations_per_1k_ops")
	awk -v m="$moved" -v a="$all" 'BEGIN { exit !(m != "" && a != "" && m <= a * 1.01 + 0.001) }' ||
		fail "$n: wakeups moved per 1k ops '$moved', more than all migrations '$all'"
	shares=$(for s in prev_cpu waker_cpu llc other_llc; do
		result "$tmp/$n.res" "$prog.tp_wake_${s}_share"; done | awk '{ s += $1; n++ } END { if (n == 4) print s }')
	[ -n "$shares" ] && within "$shares" 1 0.001 0 ||
		fail "$n: the four placement shares add up to '$shares', not 1"
	lat=$(result "$tmp/$n.res" "$prog.tp_wakeup_latency_p50_us")\ $(result "$tmp/$n.res" "$prog.tp_wakeup_latency_p99_us")
	awk -v l="$lat" 'BEGIN { split(l, v, " "); exit !(v[1] > 0 && v[1] <= v[2]) }' ||
		fail "$n: wakeup latency p50, p99: $lat"
	# the KTAP's tp_ figures and the results file's, by name
	names=$(diff <(sed -n "s/^# \($prog\.tp_[a-z0-9_]*\): [0-9].*/\1/p" "$tmp/$n.out" | sort -u) \
		<(sed -n "s/^\($prog\.tp_[a-z0-9_]*\): .*/\1/p" "$tmp/$n.res" | sort -u))
	[ -z "$names" ] || fail "$n: tp_ names differ between the KTAP and the results file: $names"
	pass "$n: wakeups moved $moved <= migrations $all per 1k ops; placement shares sum to $shares; latency p50, p99 $lat us; $(grep -c "^$prog\.tp_" "$tmp/$n.res") tp_ figures, the same names in KTAP and results"
}

run pipe pipe --counters bpf,tasks
check_run pipe pipe
run pipe_threads pipe --counters bpf,tasks --threads
check_run pipe_threads pipe
run hackbench hackbench --counters bpf,tasks
check_run hackbench hackbench

# a second measured pipe beside it: each counts its own tasks
"$dir/pipe" --iterations 2 --budget 4 --counters bpf,tasks --results "$tmp/beside.res" \
	>"$tmp/beside.out" 2>&1 &
beside=$!
run busy pipe --counters bpf,tasks --pairs 2
wait "$beside" || fail "the pipe beside failed: $(grep -E 'not ok|Bail' "$tmp/beside.out")"
beside=
check_run busy pipe
check_run beside pipe

# as nobody: SKIP "not permitted", never FAIL
cp "$dir/hackbench" "$dir/bounds" "$tmp/"
su nobody -s /bin/bash -c "cd $tmp && ./hackbench --budget 2 --iterations 1 --results none" \
	>"$tmp/nobody.out" 2>&1 || fail "as nobody: exit $?: $(grep -E 'not ok|Bail' "$tmp/nobody.out")"
ktap_is "$tmp/nobody.out" "$(grep -m1 "^ok [0-9]* hackbench.tp_wakeups_per_op # SKIP" "$tmp/nobody.out")" \
	"not permitted (BPF needs root or CAP_BPF and CAP_PERFMON)" ||
	fail "as nobody: tp_wakeups_per_op not a SKIP 'not permitted': $(grep -A1 "tp_wakeups_per_op" "$tmp/nobody.out")"
pass "as nobody: $(grep -c "^ok [0-9]* hackbench.tp_.* # SKIP not permitted$" "$tmp/nobody.out") tp_ bounds SKIP 'not permitted', exit 0"

if command -v bpftool >/dev/null; then
	[ "$(attached)" = "$loaded_before" ] ||
		fail "programs left loaded: $loaded_before before, $(attached) after"
	pass "no program left loaded ($loaded_before of ours before and after)"
fi
done_ok
