#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dirdeep never leaves a directory behind: at the normal end, on SIGTERM
# and SIGINT, when the kselftest runner's timeout fires, and when an
# instance dies.  A full filesystem (ENOSPC) ends the build phase cleanly.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1 selftests=$2
tmp=$(mktemp -d)
work=$tmp/work
mkdir -p "$work"
cleanup() {
	pkill -9 -f "$tmp/" 2>/dev/null
	mountpoint -q "$tmp/dirs" && umount "$tmp/dirs"
	mountpoint -q "$tmp/small" && umount "$tmp/small"
	rm -rf "$tmp"
}
trap cleanup EXIT
cp "$dir/dirdeep" "$dir/bounds" "$tmp/"

empty() {	# what
	local left
	left=$(find "$work" -mindepth 1 | wc -l)
	[ "$left" = 0 ] || fail "$left entries left in the work directory after $1"
	pass "nothing left after $1"
}

# a tree in DIRECTORY has a few hundred directories
has_grown() { [ "$(find "$1" -mindepth 3 -type d 2>/dev/null | head -300 | wc -l)" -ge 300 ]; }
grown() { poll 30 has_grown "$1" || fail "the tree in $1 did not grow"; }

start() {	# extra args; waits until the tree has grown
	"$tmp/dirdeep" --workdir "$work" --duration 60 --iterations 1 --results none "$@" \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	grown "$work"
}

# no process's command line matches PATTERN
none_match() { ! pgrep -f -- "$1" >/dev/null; }
gone() { poll 30 none_match "$1" || fail "still running: $(pgrep -af -- "$1" | head -n2)"; }


"$tmp/dirdeep" --workdir "$work" --duration 2 --iterations 2 --results none >"$tmp/out" 2>&1 ||
	fail "normal run failed: $(tail -3 "$tmp/out")"
grep -q "build .* exercise .* cleanup" "$tmp/out" || fail "no phase split in the output"
empty "a normal run"

# three sub-trees per level: the build goes on past the first branch that
# reaches PATH_MAX, until the inode budget.  The work directory's own path
# takes 2900 of PATH_MAX, so that a branch ends within 600 levels and
# the budget, 1000 levels' worth, is spent past it, fast (a full
# PATH_MAX took longer than the 3 s window beside a CPU hog).  The budget
# is counted in the filesystem's free inodes, as stress-ng does, so
# anything else creating or removing files there moves it (beside other
# builds in /tmp a run made 2014 directories of 1500): as root the run
# gets a filesystem of its own.  A level's cost (a directory, a symlink
# and a hard link: 2 inodes on ext4, 3 on tmpfs) is measured there, one
# level made by hand.  --sync none: a global sync() per level waits for
# everyone's dirty data.
inodes_free() { df --output=iavail "$1" | tail -n1; }
dirs_fs=$work
if [ "$(id -u)" = 0 ]; then
	dirs_fs=$tmp/dirs
	mkdir "$dirs_fs"
	mount -t tmpfs -o size=64m,nr_inodes=100000 none "$dirs_fs" || fail "cannot mount tmpfs"
fi
: >"$dirs_fs/f"
before=$(inodes_free "$dirs_fs")
mkdir "$dirs_fs/0" && ln -s "$dirs_fs/f" "$dirs_fs/0/s" && ln "$dirs_fs/f" "$dirs_fs/0/h"
level=$((before - $(inodes_free "$dirs_fs")))
rm -rf "$dirs_fs/0" "$dirs_fs/f"
[ "$level" -gt 0 ] || fail "a level made by hand took $level inodes"
long=$dirs_fs
while [ ${#long} -lt 2650 ]; do long=$long/$(printf '%0240d' 0); done
mkdir -p "$long" || fail "cannot make a work directory of ${#long} characters"
branch=$(((4096 - ${#long}) / 2))	# levels of one branch, at most
"$tmp/dirdeep" --workdir "$long" --dirs 3 --inodes $((1000 * level)) --sync none \
	--duration 3 --iterations 1 --results "$tmp/dirs.results" >"$tmp/out" 2>&1 ||
	fail "--dirs 3 run failed"
mkdirs=$(result "$tmp/dirs.results" dirdeep.mkdirs_per_instance)
awk -v m="$mkdirs" -v b="$branch" 'BEGIN { exit !(m >= 800 && m <= 1100 && m > b) }' ||
	fail "--dirs 3 --inodes $((1000 * level)): $mkdirs directories, want about 1000 ($level inodes a level), more than a branch's $branch: $(grep '^dirdeep: [0-9]' "$tmp/out")"
pass "--dirs 3 --inodes $((1000 * level)): $mkdirs directories at $level inodes a level, past a branch's $branch (the budget, not the first PATH_MAX)"
rm -rf "${dirs_fs:?}/$(printf '%0240d' 0)"
left=$(find "$dirs_fs" -mindepth 1 | head -n3)
[ -z "$left" ] || fail "a --dirs 3 run left $left"
pass "nothing left after a --dirs 3 run"
mountpoint -q "$tmp/dirs" && umount "$tmp/dirs"

for sig in TERM INT; do
	start
	kill -$sig "$pid"
	wait_exit "$pid" 30 "SIG$sig"
	rc=$?
	[ "$rc" -ge 128 ] || fail "SIG$sig: exit $rc, want death by signal"
	pass "SIG$sig mid-build: exit $rc"
	empty "SIG$sig"
done

start
kill -9 "$(workers_of "$pid" | head -n1)"
wait_exit "$pid" 30 "an instance was killed"
rc=$?
[ "$rc" = 1 ] || fail "dead instance: exit $rc, want 1"
grep -q "an instance failed" "$tmp/err" || fail "no failure message: $(cat "$tmp/err")"
pass "dead instance: exit 1, '$(grep -m1 'instance failed' "$tmp/err")'"
empty "a dead instance"

# the kselftest runner's timeout (SIGTERM through timeout(1))
inst=$tmp/inst
make -s -C "$selftests" TARGETS=sched_perf install INSTALL_PATH="$inst" >/dev/null ||
	fail "install failed"
KSELFTEST_DIRDEEP_ARGS="--workdir $work --duration 60 --iterations 1 --results none" \
	"$inst/run_kselftest.sh" -o 3 -t sched_perf:dirdeep >>"$tmp/runner" 2>&1
grep -q "not ok 1 selftests: sched_perf: dirdeep # TIMEOUT 3 seconds" "$tmp/runner" ||
	fail "runner did not time out: $(tail -3 "$tmp/runner")"
gone "--workdir $work"	# its instances remove their trees after the signal
pass "runner timeout after 3 s"
empty "the runner's timeout"

# a full filesystem: a 200-inode tmpfs ends the build early, not the run
if [ "$(id -u)" = 0 ]; then
	mkdir "$tmp/small"
	mount -t tmpfs -o size=4m,nr_inodes=200 none "$tmp/small" || fail "cannot mount tmpfs"
	"$tmp/dirdeep" --workdir "$tmp/small" --duration 2 --iterations 1 \
		--results "$tmp/small.results" >"$tmp/out" 2>&1 ||
		fail "ENOSPC run failed: $(grep -E 'not ok|dirdeep:' "$tmp/out" | tail -3)"
	mkdirs=$(result "$tmp/small.results" dirdeep.mkdirs_per_instance)
	awk -v m="$mkdirs" 'BEGIN { exit !(m > 10 && m < 200) }' ||
		fail "ENOSPC: $mkdirs directories, expected the inode limit to stop it"
	pass "ENOSPC (200 inodes): build stopped at $mkdirs directories, run passed"
	[ -z "$(ls -A "$tmp/small")" ] || fail "ENOSPC: tree left in the small filesystem"
	pass "nothing left in the full filesystem"

	# any other error fails the run with a message: the filesystem turns
	# read-only under a build that never ends (two sub-trees per level)
	umount "$tmp/small"
	mount -t tmpfs -o size=512m,nr_inodes=1000000 none "$tmp/small" || fail "cannot mount tmpfs"
	"$tmp/dirdeep" --workdir "$tmp/small" --dirs 2 --sync none --duration 60 \
		--iterations 1 --results none >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	grown "$tmp/small"	# inside the build: 10^6 inodes take far longer
	# EBUSY while a file is open for writing at that instant: try again
	i=0
	until mount -o remount,ro "$tmp/small" 2>"$tmp/mount.err"; do
		i=$((i + 1))
		[ $i -lt 40 ] || fail "cannot remount read-only: $(cat "$tmp/mount.err")"
		sleep 0.05
	done
	wait_exit "$pid" 30 "EROFS"
	rc=$?
	mount -o remount,rw "$tmp/small"
	[ "$rc" = 1 ] || fail "EROFS: exit $rc, want 1"
	grep -q "mkdir .*Read-only file system" "$tmp/err" || fail "EROFS: no message: $(cat "$tmp/err")"
	pass "EROFS mid-build: exit 1, '$(grep -m1 'Read-only' "$tmp/err" | cut -c1-60)...'"
fi
done_ok
