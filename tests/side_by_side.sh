#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Two runs side by side leave the mount table alone.  The test works in a
# mount namespace of its own (unshare -m --propagation private: nothing
# is mounted or unmounted outside it) where it first unmounts debugfs and
# tracefs, so that the programs must mount them for themselves.  Then
# hackbench (with --evidence: tracefs for the tracer) and udp_rr run at
# once, and this namespace's whole mount table is sampled every 0.1 s.
# Each run mounts in a namespace of its own: every sample, and the table
# after, must be the table as found, while each run's own table had
# debugfs and its KTAP found the sched features there (read, or refused
# by a host that forbids reading them, but not missing).
# Then the same with SCHED_PERF_MOUNTNS=0, the fallback (mount where the
# run started, unmount at its end): the samples must see debugfs (and
# tracefs, when a tracer recorded) appear, or the sampling proves nothing;
# the table after must still be as found (the guard's undo).
# Not run (exit 4, a SKIP for tests/run.sh, with the reason) without
# root, unshare or debugfs.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
debugfs=/sys/kernel/debug
tracefs=/sys/kernel/tracing

if [ -z "${SIDE_BY_SIDE_NS:-}" ]; then
	not_run() { echo "side_by_side: $*; not run"; exit 4; }
	[ "$(id -u)" = 0 ] || not_run "needs root (the runs mount only as root)"
	command -v unshare >/dev/null || not_run "no unshare (util-linux)"
	err=$(unshare -m --propagation private true 2>&1) ||
		not_run "unshare -m --propagation private refused: $err"
	grep -qw debugfs /proc/filesystems || not_run "no debugfs in this kernel"
	SIDE_BY_SIDE_NS=1 exec unshare -m --propagation private "$0" "$@"
fi

tmp=$(mktemp -d)
pids=
cleanup() {
	# shellcheck disable=SC2086
	[ -n "$pids" ] && kill -9 $pids 2>/dev/null
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

# In the background: PROG with LABEL's files, the environment given.
start() {	# label prog env... -- args...
	local label=$1 prog=$2 envs=()
	shift 2
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env SCHED_PERF_EVIDENCE=0 "${envs[@]}" "$dir/$prog" --iterations 2 --budget 4 \
		--bounds "$tmp/nobounds" --results "$tmp/$label.$prog.results" "$@" \
		>"$tmp/$label.$prog.out" 2>&1 &
}

# Both programs at once, this namespace's table sampled meanwhile.  Sets
# samples, changed (samples unlike the table before), seen_debug and
# seen_trace (samples with debugfs, tracefs here), both (samples with
# both running), own_* (samples where the program's namespace was not
# ours and had debugfs), rc_*, diff_first and after.
run_pair() {	# label env...
	local label=$1 now
	shift
	before=$(table)
	start "$label" hackbench "$@" -- --evidence "$tmp/$label.evidence"
	hb=$!
	start "$label" udp_rr "$@" --
	udp=$!
	pids="$hb $udp"
	samples=0 changed=0 seen_debug=0 seen_trace=0 both=0 own_hackbench=0 own_udp_rr=0 diff_first=
	while kill -0 "$hb" 2>/dev/null || kill -0 "$udp" 2>/dev/null; do
		now=$(table)
		samples=$((samples + 1))
		if [ "$now" != "$before" ]; then
			changed=$((changed + 1))
			[ -n "$diff_first" ] ||
				diff_first=$(diff <(echo "$before") <(echo "$now") | grep '^[<>]' | head -n3)
		fi
		grep -q " $debugfs " <<<"$now" && seen_debug=$((seen_debug + 1))
		grep -q " $tracefs " <<<"$now" && seen_trace=$((seen_trace + 1))
		kill -0 "$hb" 2>/dev/null && kill -0 "$udp" 2>/dev/null && both=$((both + 1))
		own_ns "$hb" && own_hackbench=$((own_hackbench + 1))
		own_ns "$udp" && own_udp_rr=$((own_udp_rr + 1))
		sleep 0.1
	done
	wait "$hb"
	rc_hackbench=$?
	wait "$udp"
	rc_udp_rr=$?
	pids=
	after=$(table)
}

# Is PID in a mount namespace other than ours, with debugfs mounted there?
own_ns() {
	local ns
	ns=$(readlink "/proc/$1/ns/mnt" 2>/dev/null) || return 1
	[ "$ns" != "$mine" ] && grep -q " $debugfs " "/proc/$1/mountinfo" 2>/dev/null
}

# PROG's exit in LABEL: 0, or 4 with its reason (this host lacks
# something).  Returns 1 for a skip, so that its checks are left out.
exited_ok() {	# label prog
	local rc out=$tmp/$1.$2.out
	eval "rc=\$rc_$2"
	if [ "$rc" = 4 ]; then
		grep -q '^1\.\.0 # SKIP .' "$out" || fail "$1: $2: exit 4 without a reason: $(tail -n3 "$out")"
		pass "$1: $2 skipped: $(grep -m1 '^1\.\.0 # SKIP' "$out")"
		return 1
	fi
	[ "$rc" = 0 ] || fail "$1: $2: exit $rc, want 0: $(grep -E '^not ok|Bail|: ' "$out" | tail -n3)"
	pass "$1: $2 exit 0"
}

# --- the runs' own namespaces -------------------------------------------
run_pair private
[ "$both" -ge 5 ] || fail "private: the two runs overlapped in $both samples only"
pass "private: $samples samples, both programs running in $both"
[ "$changed" = 0 ] || fail "private: the table changed in $changed of $samples samples: $diff_first"
pass "private: this namespace's table as found in all $samples samples ($seen_debug with debugfs, $seen_trace with tracefs)"
[ "$after" = "$before" ] || fail "private: the table after: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -n3)"
pass "private: the table after the runs as found ($(wc -l <<<"$after") mounts)"
for prog in hackbench udp_rr; do
	exited_ok private $prog || continue
	out=$tmp/private.$prog.out
	features=$(sed -n 's/^# sched_features: //p' "$out")
	# read, or refused by the host (EPERM) from a file that is there:
	# both need debugfs mounted; ENOENT would say that it was not
	case $features in
	"" | *"debugfs not mounted"* | *"debugfs cannot be mounted"* | *"No such file"*)
		fail "private: $prog: sched_features: '$features': debugfs not mounted for it" ;;
	esac
	! grep -q '^# mounts:' "$out" || fail "private: $prog: $(grep '^# mounts:' "$out")"
	eval "own=\$own_$prog"
	[ "$own" -ge 1 ] || fail "private: $prog's namespace never seen apart from ours with debugfs"
	pass "private: $prog's sched features: $(cut -c1-72 <<<"$features"); its own namespace had debugfs in $own samples"
done
ev=$(grep -E '^(ok|not ok) [0-9]+ .*hackbench\.evidence' "$tmp/private.hackbench.out")
case $ev in
*" # SKIP "*) echo "note: $name: private: no evidence: ${ev#* # SKIP }" ;;
"ok "*) pass "private: evidence recorded through the run's tracefs: $ev" ;;
*) [ "$rc_hackbench" = 4 ] || fail "private: hackbench.evidence: '$ev'" ;;
esac

# --- the fallback: the sampling must see the mounts ---------------------
run_pair fallback SCHED_PERF_MOUNTNS=0
[ "$both" -ge 5 ] || fail "fallback: the two runs overlapped in $both samples only"
ran=0
for prog in hackbench udp_rr; do
	exited_ok fallback $prog || continue
	ran=1
	grep -q "^# mounts: no namespace of the run's own (SCHED_PERF_MOUNTNS=0): " \
		"$tmp/fallback.$prog.out" || fail "fallback: $prog: no '# mounts:' line"
done
[ $ran = 1 ] || fail "fallback: neither program ran"
pass "fallback: $(cat "$tmp"/fallback.*.out | grep -m1 '^# mounts:')"
[ $((own_hackbench + own_udp_rr)) = 0 ] || fail "fallback: a run in a namespace of its own"
[ "$seen_debug" -ge 1 ] || fail "fallback: debugfs never seen here in $samples samples: the sampling proves nothing"
pass "fallback: debugfs seen in this namespace in $seen_debug of $samples samples"
if grep -E '^ok [0-9]+ hackbench\.evidence( |$)' "$tmp/fallback.hackbench.out" | grep -qv ' # SKIP'; then
	[ "$seen_trace" -ge 1 ] || fail "fallback: a tracer recorded, but tracefs never seen here"
	pass "fallback: tracefs seen in this namespace in $seen_trace samples"
fi
[ "$after" = "$before" ] || fail "fallback: the table after: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -n3)"
pass "fallback: the table after the runs as found (the guard's undo)"
done_ok
