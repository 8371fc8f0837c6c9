#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Two runs side by side leave the mount table alone, and neither takes a
# mount from under the other.  The test works in a mount namespace of its
# own (unshare -m --propagation private: nothing is mounted or unmounted
# outside it) where it first unmounts debugfs and tracefs, so that the
# programs must mount them for themselves.
#
# Side by side for sure, whatever this machine's speed: every run is
# started with SCHED_PERF_TEST_STOP=1, so that it stops itself once set up
# (its mounts made) before its first iteration, and goes on only when the
# test sends SIGCONT.  Each case holds two runs so, checks the table, then
# lets them end in the order it wants.  Whether this namespace's table
# changed at any moment in between is asked of the kernel (poll() on
# mountinfo signals POLLPRI after any change since the file was opened),
# not sampled.
#
#   private   hackbench (with --evidence: tracefs for the tracer) and
#             udp_rr, each in a namespace of its own: both held, each
#             one's namespace has debugfs, this one's table never changed;
#             each KTAP found the sched features (read, or refused by a
#             host that forbids reading them, but not missing).
#   The fallback (SCHED_PERF_MOUNTNS=0: mounted here, shared by the runs
#   of this namespace, the last one out unmounts; mounts.h):
#   ends      hackbench --evidence mounts debugfs, udp_rr finds it; both
#             held; hackbench ends (after mounting tracefs for its
#             tracer) while udp_rr is held: debugfs (and tracefs) stay
#             for udp_rr; udp_rr ends: the table as found.
#   kill      udp_rr mounts, hackbench finds; hackbench ends first:
#             debugfs stays; udp_rr is SIGKILLed: its guardian, the last
#             out, unmounts; the table as found.
#   found     debugfs mounted before the runs (as a system does): it is
#             left mounted, the table as found.
# After each fallback case no file of this namespace's share is left in
# /run/sched_perf.
# Not run (exit 4, a SKIP for tests/run.sh, with the reason) without
# root, unshare, debugfs or python3 (for poll()).
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
debugfs=/sys/kernel/debug
tracefs=/sys/kernel/tracing
share=/run/sched_perf
# the longest a run may take to reach its stop, or its guardian to end
limit=300

not_run() { echo "side_by_side: $*; not run"; exit 4; }
if [ -z "${SIDE_BY_SIDE_NS:-}" ]; then
	[ "$(id -u)" = 0 ] || not_run "needs root (the runs mount only as root)"
	command -v unshare >/dev/null || not_run "no unshare (util-linux)"
	command -v python3 >/dev/null || not_run "no python3 (poll() on mountinfo)"
	err=$(unshare -m --propagation private true 2>&1) ||
		not_run "unshare -m --propagation private refused: $err"
	grep -qw debugfs /proc/filesystems || not_run "no debugfs in this kernel"
	SIDE_BY_SIDE_NS=1 exec unshare -m --propagation private "$0" "$@"
fi

tmp=$(mktemp -d)
runs=
cleanup() {
	local p
	for p in $runs; do
		# the run's session: controller, guardian, workers
		kill -9 -- "-$p" 2>/dev/null
		kill -CONT "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
# no bounds: a short run is judged by nothing but its completion, so
# exit 0 says that the runs worked, whatever this machine's speed
: >"$tmp/nobounds"

# this test's namespace only: the programs find neither mounted
for m in $debugfs $tracefs; do
	while mountpoint -q "$m"; do
		umount -l "$m" || fail "cannot unmount $m in the test's namespace"
	done
done
pass "debugfs and tracefs unmounted in the test's namespace"

table() { cat "/proc/$$/mountinfo"; }
mine=$(readlink "/proc/$$/ns/mnt")
# the share's files of this namespace (mounts.h): mnt-INODE.*
ns_files() { ls "$share/mnt-${mine//[^0-9]/}."* 2>/dev/null; }
diff_of() { diff <(echo "$1") <(echo "$2") | grep '^[<>]' | head -n3; }
has() { grep -q " $1 " <<<"$2"; }

# From now on, has this namespace's mount table changed?  (fd 9: see
# watch; poll() says it once, then from that moment on.)
watch() { exec 9<"/proc/$$/mountinfo"; }
changed() {
	python3 -c 'import select, sys
p = select.poll()
p.register(9, select.POLLPRI)
sys.exit(0 if any(e & select.POLLPRI for _, e in p.poll(0)) else 1)'
}

# In the background and a session of its own (so that its guardian can
# be waited for): PROG with LABEL's files and the environment given,
# stopping once set up.  Sets last to its pid.
start() {	# label prog env... -- args...
	local label=$1 prog=$2 envs=()
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	setsid env SCHED_PERF_TEST_STOP=1 SCHED_PERF_EVIDENCE=0 "${envs[@]}" \
		"$dir/$prog" --iterations 2 --budget 4 --bounds "$tmp/nobounds" \
		--results "$tmp/$label.$prog.results" "$@" >"$tmp/$label.$prog.out" 2>&1 &
	last=$!
	runs="$runs $last"
}

# Wait until PID (LABEL's PROG) has stopped itself, set up.  A program
# that cannot run here (exit 4 with its reason) makes the test not run.
held() {	# pid label prog
	local pid=$1 out=$tmp/$2.$3.out i s rc
	for ((i = 0; i < limit * 20; i++)); do
		s=$(cat "/proc/$pid/stat" 2>/dev/null) || break
		s=${s##*) }
		[ "${s%% *}" = T ] && break
		sleep 0.05
	done
	if ! kill -0 "$pid" 2>/dev/null; then
		wait "$pid"
		rc=$?
		[ $rc = 4 ] && grep -q '^1\.\.0 # SKIP .' "$out" &&
			not_run "$2: $3: $(grep -m1 '^1\.\.0 # SKIP' "$out")"
		fail "$2: $3 ended (exit $rc) before its stop: $(tail -n3 "$out")"
	fi
	[ "${s%% *}" = T ] || fail "$2: $3 not stopped after $limit s"
	grep -q '^# TEST ONLY: SCHED_PERF_TEST_STOP=1' "$out" ||
		fail "$2: $3 stopped, but not at its own stop"
}

# Let PID go on and wait for its exit: 0, or the test fails.
finish() {	# pid label prog
	local rc
	kill -CONT "$1" 2>/dev/null
	wait "$1"
	rc=$?
	[ $rc = 0 ] || fail "$2: $3: exit $rc, want 0: $(grep -E '^not ok|Bail|: ' "$tmp/$2.$3.out" | tail -n3)"
}

# SIGKILL the controller PID only (as a runner's timeout does) and wait
# until its session is gone: its guardian has undone what it had to.
kill_run() {	# pid label prog
	local i
	kill -9 "$1"
	wait "$1" 2>/dev/null
	for ((i = 0; i < limit * 20; i++)); do
		pgrep -s "$1" >/dev/null || return 0
		sleep 0.05
	done
	fail "$2: $3's guardian still there $limit s after SIGKILL: $(pgrep -s "$1" -a)"
}

# Is PID in a mount namespace other than ours, with debugfs mounted there?
own_ns() {
	local ns
	ns=$(readlink "/proc/$1/ns/mnt" 2>/dev/null) || return 1
	[ "$ns" != "$mine" ] && grep -q " $debugfs " "/proc/$1/mountinfo" 2>/dev/null
}

# The fallback's run: its note says that it shares this namespace's mounts.
shares() {	# label prog
	grep -q "^# mounts: no namespace of the run's own (SCHED_PERF_MOUNTNS=0): .*the last run out of this namespace unmounts them" \
		"$tmp/$1.$2.out" || fail "$1: $2: $(grep -m1 '^# mounts:' "$tmp/$1.$2.out" || echo "no '# mounts:' line")"
}

# The end of a fallback case: the table and the share's files as found.
as_found() {	# label
	local after
	after=$(table)
	[ "$after" = "$before" ] || fail "$1: the table after: $(diff_of "$before" "$after")"
	[ -z "$(ns_files)" ] || fail "$1: left in $share: $(ns_files)"
	pass "$1: the table after the runs as found ($(wc -l <<<"$after") mounts), nothing of this namespace left in $share"
}

# --- the runs' own namespaces -------------------------------------------
before=$(table)
watch
start private hackbench -- --evidence "$tmp/private.evidence"
hb=$last
held "$hb" private hackbench
start private udp_rr --
udp=$last
held "$udp" private udp_rr
for p in "hackbench $hb" "udp_rr $udp"; do
	own_ns "${p#* }" || fail "private: ${p% *} set up, but not in a namespace of its own with debugfs"
done
now=$(table)
[ "$now" = "$before" ] || fail "private: the table with both runs set up: $(diff_of "$before" "$now")"
pass "private: both runs set up and held side by side, each in a namespace of its own with debugfs; this one's table as found"
kill -CONT "$hb" "$udp"
finish "$hb" private hackbench
finish "$udp" private udp_rr
after=$(table)
! changed || fail "private: this namespace's mount table changed while the runs ran (mountinfo polled POLLPRI)"
[ "$after" = "$before" ] || fail "private: the table after: $(diff_of "$before" "$after")"
pass "private: this namespace's table never changed from the first run's start to the last one's end ($(wc -l <<<"$after") mounts)"
for prog in hackbench udp_rr; do
	out=$tmp/private.$prog.out
	features=$(sed -n 's/^# sched_features: //p' "$out")
	# read, or refused by the host (EPERM) from a file that is there:
	# both need debugfs mounted; ENOENT would say that it was not
	case $features in
	"" | *"debugfs not mounted"* | *"debugfs cannot be mounted"* | *"No such file"*)
		fail "private: $prog: sched_features: '$features': debugfs not mounted for it" ;;
	esac
	! grep -q '^# mounts:' "$out" || fail "private: $prog: $(grep '^# mounts:' "$out")"
	pass "private: $prog's sched features: $(cut -c1-72 <<<"$features")"
done
ev=$(grep -E '^(ok|not ok) [0-9]+ .*hackbench\.evidence' "$tmp/private.hackbench.out")
case $ev in
*" # SKIP "*) echo "note: $name: private: no evidence: ${ev#* # SKIP }" ;;
"ok "*) pass "private: evidence recorded through the run's tracefs: $ev" ;;
*) fail "private: hackbench.evidence: '$ev'" ;;
esac

# --- the fallback: the one that mounted ends first ----------------------
export SCHED_PERF_MOUNTNS=0
before=$(table)
start ends hackbench -- --evidence "$tmp/ends.evidence"
hb=$last
held "$hb" ends hackbench
shares ends hackbench
has $debugfs "$(table)" || fail "ends: hackbench set up, but no debugfs here"
start ends udp_rr --
udp=$last
held "$udp" ends udp_rr
shares ends udp_rr
pass "ends: hackbench mounted debugfs here, udp_rr found it; both held"
finish "$hb" ends hackbench
now=$(table)
has $debugfs "$now" || fail "ends: hackbench ended and took debugfs from under udp_rr"
if grep -E '^ok [0-9]+ hackbench\.evidence( |$)' "$tmp/ends.hackbench.out" | grep -qv ' # SKIP'; then
	has $tracefs "$now" || fail "ends: hackbench's tracer recorded, but tracefs is gone before udp_rr's end"
	pass "ends: hackbench ended (evidence recorded): debugfs and tracefs stay for udp_rr"
else
	pass "ends: hackbench ended (no evidence: $(grep -m1 'hackbench\.evidence' "$tmp/ends.hackbench.out")): debugfs stays for udp_rr"
fi
finish "$udp" ends udp_rr
as_found ends

# --- the fallback: the last one out is a SIGKILLed run's guardian -------
start kill udp_rr --
udp=$last
held "$udp" kill udp_rr
has $debugfs "$(table)" || fail "kill: udp_rr set up, but no debugfs here"
start kill hackbench --
hb=$last
held "$hb" kill hackbench
finish "$hb" kill hackbench
has $debugfs "$(table)" || fail "kill: hackbench ended and took debugfs from under udp_rr"
pass "kill: udp_rr mounted debugfs, hackbench found it and ended: debugfs stays for udp_rr"
kill_run "$udp" kill udp_rr
as_found kill

# --- the fallback: debugfs found mounted --------------------------------
mount -t debugfs debugfs $debugfs || fail "found: cannot mount debugfs in the test's namespace"
before=$(table)
start found udp_rr --
udp=$last
held "$udp" found udp_rr
start found hackbench --
hb=$last
held "$hb" found hackbench
kill -CONT "$udp" "$hb"
finish "$udp" found udp_rr
finish "$hb" found hackbench
as_found found
umount $debugfs
done_ok
