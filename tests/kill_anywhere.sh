#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Kill the controller anywhere: start a program in its own session, send
# SIGTERM, SIGINT or SIGKILL to the controller (only, as the kselftest
# runner's timeout does) at a random moment of setup, the first
# iteration, the measured iterations or teardown, then count what is left:
# processes of the session, sockets they hold, work directories, temporary
# results files, and sysctls/sched features/mounts not restored.  Every count
# must be 0.  Half the runs set SCHED_PERF_TEST_SPAWN_DELAY_US, which
# makes each new worker sleep 100 ms before it arms PR_SET_PDEATHSIG, so
# that kills land in that window too.
#
# The kills of a program (kill_plan): each of the 4 moments with each of
# the 2 ways a run can end, a caught signal (SIGTERM and SIGINT take one
# handler: they alternate, each moment sees both) or SIGKILL (the
# guardian undoes), once with the spawn window widened and once without:
# 16 kills.  Processes and threads alternate so that each moment and way
# is tried once with each (and each moment, way and window once).  (24 kills, with SIGTERM and SIGINT each a
# factor of its own, tried the same code twice.)
#
# usage: kill_anywhere.sh DIR [KILLS [PROG...]]
#   DIR    where the programs are; KILLS per program (16: the plan once)
#   SEED   environment: random seed (default: the date), printed
#   KILL_HACKBENCH_LOOPS  environment: hackbench's -l (300; fewer in a
#          slow guest, where 300 loops take 11 s a run)
#   SCHED_PERF_MOUNTNS=0  environment: the runs mount debugfs here, not in
#          a namespace of their own (mounts.h), so that the mount count
#          checks the guard's unmounting; run it so in a mount namespace
#          where debugfs is not mounted (unshare -m --propagation private)
# POSIX sh: it also runs in the vmtest guest under busybox.
# Exit: 0 nothing left, 1 something left (or a hang).
set -u
dir=$1
kills=${2:-16}
[ $# -ge 2 ] && shift 2 || shift $#
# by default every program of the selftest Makefile's list (this script
# also runs alone in the guest, so it reads the list itself)
all=$(sed -n 's/^TEST_GEN_PROGS := //p' "$dir/Makefile" 2>/dev/null)
progs=${*:-$all}
[ -n "$progs" ] || { echo "kill_anywhere: no programs given and no $dir/Makefile" >&2; exit 1; }
seed=${SEED:-$(date +%s)}
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
work=$tmp/work
res=$tmp/results
mkdir "$work" "$res"
schedstats=/proc/sys/kernel/sched_schedstats
features=/sys/kernel/debug/sched/features
bad=0

now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# state: what must be the same before and after a run
state() {
	cat "$schedstats" 2>/dev/null || echo "-"
	cat "$features" 2>/dev/null || echo "-"
	# a run mounts debugfs and tracefs in a namespace of its own, or
	# (SCHED_PERF_MOUNTNS=0, no namespace) here for its duration only
	grep -c ' /sys/kernel/debug \| /sys/kernel/tracing ' /proc/mounts
}

# live processes of session SID (the controller's pid): one awk over every
# /proc/PID/stat (a process per entry made each look cost a second); the
# fields after the command name, which may hold spaces, start at ") ".
# A zombie holds nothing but its pid, and one whose parent was killed
# waits for init to reap it (a second or more here): not counted.
session_pids() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v sid="$1" '{
		rest = substr($0, index($0, ") ") + 2); split(rest, f, " ")
		if (f[4] == sid && f[1] != "Z") print $1 }'
}

# sockets held by the processes given
sockets_of() {
	n=0
	for p in "$@"; do
		n=$((n + $(ls -l "/proc/$p/fd" 2>/dev/null | grep -c 'socket:')))
	done
	echo $n
}

# sockets owned by a process named PROG (as ss -p shows them) that carries
# TAG in its environment: a worker that escaped the session keeps it, and
# the sockets of another run beside this one (CI, a developer) do not count
ss_sockets() {	# prog tag
	command -v ss >/dev/null || { echo 0; return; }
	n=0
	for p in $({ ss -tuanpH; ss -SanpH; } 2>/dev/null | grep "\"$1\"" |
		   grep -o 'pid=[0-9]*' | cut -d= -f2); do
		{ tr '\0' '\n' <"/proc/$p/environ"; } 2>/dev/null | grep -qx "KILL_ANYWHERE_RUN=$2" &&
			n=$((n + 1))
	done
	echo $n
}

# Another run of the suite beside this one (its processes without TAG): it
# sets schedstats for itself (and, run without a mount namespace of its
# own, mounts debugfs), so the global state says nothing about the run
# killed here.
others_running() {	# tag
	for c in $(echo "$all $progs sched_perf-grd" | tr -s ' ' '|' |
		   grep -lxEf - /proc/[0-9]*/comm 2>/dev/null); do
		{ tr '\0' '\n' <"${c%comm}environ"; } 2>/dev/null | grep -qx "KILL_ANYWHERE_RUN=$1" ||
			return 0
	done
	return 1
}

# kill K of the plan: its moment (0 setup, 1 first iteration, 2
# measurement, 3 teardown), the way it ends, the spawn window, the mode
moment_of() { echo $(($1 % 4)); }
sig_name() {
	if [ $(($1 / 4 % 2)) = 1 ]; then
		echo KILL
	elif [ $((($1 + $1 / 8) % 2)) = 0 ]; then
		echo TERM
	else
		echo INT
	fi
}
widened_for() { echo $(($1 / 8 % 2)); }
threads_for() { echo $((($1 % 4 + $1 / 4 + $1 / 8) % 2)); }

args_for() {	# prog kill-number
	mode=-P
	[ "$(threads_for "$2")" = 1 ] && mode=-T
	case $1 in
	hackbench) echo "$mode -g 2 -l ${KILL_HACKBENCH_LOOPS:-300} --iterations 3" ;;
	*_rr) echo "$mode --pairs 4 --duration 0.3 --iterations 3" ;;
	dirdeep) echo "--duration 0.3 --iterations 2 --workdir $work" ;;
	pipe) echo "$mode --pairs 2 --budget 0.9 --iterations 3" ;;
	esac
}

# Wall time of one run that is not killed, in ms; "skip" when the program
# cannot run here (exit 4, e.g. no SCTP).
calibrate() {
	t0=$(now_ms)
	# shellcheck disable=SC2046
	"$dir/$1" $(args_for "$1" 0) --results none >"$tmp/out" 2>&1
	rc=$?
	[ $rc = 4 ] && { echo skip; return; }
	# 1: a bound failed in so short a run; it ran, which is what counts here
	[ $rc = 0 ] || [ $rc = 1 ] || { echo "FAIL: kill_anywhere: $1 does not run: $(tail -n3 "$tmp/out")" >&2; echo 0; return; }
	echo $(($(now_ms) - t0))
}

# delay in ms for kill K of a run lasting T ms, at K's moment
delay_for() {
	awk -v k="$1" -v m="$(moment_of "$1")" -v t="$2" -v seed="$seed" 'BEGIN {
		srand(seed + k * 7919); r = rand()
		if (m == 0) d = r * 60			# setup: fork, bind, mkdir
		else if (m == 1) d = 60 + r * (t / 3 - 60)	# first iteration
		else if (m == 2) d = t / 3 + r * (t * 0.85 - t / 3)	# measurement
		else d = t * 0.85 + r * t * 0.2		# teardown and exit
		printf "%d\n", d < 0 ? 0 : d }'
}

ms_sleep() { sleep "$(awk -v ms="$1" 'BEGIN { printf "%.3f\n", ms / 1000 }')"; }

moment_name() { case $(moment_of "$1") in 0) echo setup ;; 1) echo first ;; 2) echo measure ;; 3) echo teardown ;; esac; }

kill_once() {	# prog k t
	prog=$1 k=$2 t=$3
	before=$(state)
	beside=0
	others_running "$$-$k" && beside=1
	d=$(delay_for "$k" "$t")
	sig=$(sig_name "$k")
	# half the runs widen the fork/PR_SET_PDEATHSIG window (test-only
	# knob of tasks.c): a kill there must still leave nothing
	widen=$(widened_for "$k")
	widened=$((widened + widen))
	# shellcheck disable=SC2046
	SCHED_PERF_TEST_SPAWN_DELAY_US=$((widen * 100000)) KILL_ANYWHERE_RUN=$$-$k \
		setsid "$dir/$prog" $(args_for "$prog" "$k") --results "$res/r" \
		>"$tmp/out" 2>&1 &
	pid=$!
	ms_sleep "$d"
	kill -"$sig" "$pid" 2>/dev/null
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "FAIL: kill_anywhere: $prog still running 30 s after SIG$sig at $d ms" >&2
		kill -9 "$pid"
		hangs=$((hangs + 1))
	fi
	wait "$pid" 2>/dev/null
	# whatever the session still holds gets 30 s to go away: after a
	# SIGKILL the guardian removes what the run left, and a dirdeep tree
	# on a busy disk (a kernel build beside) took longer than 3 s
	i=0
	while [ -n "$(session_pids "$pid")" ] && [ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
	left=$(session_pids "$pid")
	n=$(echo $left | wc -w)
	s=$(($(sockets_of $left) + $(ss_sockets "$prog" "$$-$k")))
	w=$(ls -A "$work" | wc -l)
	r=$(ls -A "$res" | grep -vc '^r$')
	c=0
	if [ "$(state)" != "$before" ]; then
		if [ $beside = 1 ] || others_running "$$-$k"; then
			echo "note: $prog kill $k: global state changed while another sched_perf run was beside this one: not judged"
			unjudged=$((unjudged + 1))
		else
			c=1
		fi
	fi
	if [ $((n + s + w + r + c)) != 0 ]; then
		echo "leftover: $prog kill $k SIG$sig at $d ms ($(moment_name "$k")): processes $n, sockets $s, work dirs $w, temp results $r, state changed $c" >&2
		[ -n "$left" ] && ps -o pid,ppid,stat,wchan:20,args -p "$(echo $left | tr ' ' ',')" >&2 2>/dev/null
	fi
	procs=$((procs + n)) socks=$((socks + s)) dirs=$((dirs + w))
	temps=$((temps + r)) states=$((states + c))
	eval "at_$(moment_name "$k")=\$((at_$(moment_name "$k") + 1))"
	eval "by_$sig=\$((by_$sig + 1))"
	threads=$((threads + $(threads_for "$k")))
	# the next run starts clean, whatever this one left
	[ -n "$left" ] && kill -9 $left 2>/dev/null
	rm -rf "${work:?}"/* "${res:?}"/* 2>/dev/null
	[ "$c" = 1 ] && restore "$before"
	return 0
}

restore() {	# state before: first line sched_schedstats
	v=$(echo "$1" | head -n1)
	[ "$v" != - ] && echo "$v" >"$schedstats" 2>/dev/null
}

echo "kill_anywhere: seed $seed, $kills kills per program"
for prog in $progs; do
	[ -x "$dir/$prog" ] || { echo "FAIL: kill_anywhere: no $dir/$prog" >&2; exit 1; }
	t=$(calibrate "$prog")
	if [ "$t" = skip ]; then
		echo "kill_anywhere: $prog: SKIP (cannot run here: $(grep -m1 'SKIP' "$tmp/out"))"
		continue
	fi
	[ "$t" = 0 ] && { bad=1; continue; }
	procs=0 socks=0 dirs=0 temps=0 states=0 hangs=0 unjudged=0
	at_setup=0 at_first=0 at_measure=0 at_teardown=0 by_TERM=0 by_INT=0 by_KILL=0 widened=0 threads=0
	k=0
	while [ $k -lt "$kills" ]; do
		kill_once "$prog" $k "$t"
		k=$((k + 1))
	done
	total=$((procs + socks + dirs + temps + states + hangs))
	echo "kill_anywhere: $prog: $kills kills (run $t ms; setup $at_setup, first iteration $at_first, measurement $at_measure, teardown $at_teardown; SIGTERM $by_TERM, SIGINT $by_INT, SIGKILL $by_KILL; spawn window widened $widened; threads $threads): left processes $procs, sockets $socks, work dirs $dirs, temp results $temps, state not restored $states (not judged $unjudged: another run beside), hangs $hangs"
	[ $total = 0 ] || bad=1
done
if [ $bad != 0 ]; then
	echo "FAIL: kill_anywhere: something was left (see above)" >&2
	exit 1
fi
echo "kill_anywhere: nothing left"
