#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Nothing lost: an output that cannot be written is an error, never a
# pass.  In a mount namespace of its own (unshare -m --propagation
# private: nothing is mounted outside it) the test mounts small tmpfs and
# fills them, then points each output of the suite there: --results,
# --save, --save with --ab (FILE.a, the A side), --evidence DIR and
# sched_perf_compare --merge OUT.  Each run must exit 2 (128 with
# --bisect) with exactly one line on stderr naming the file and "No space
# left on device", after a whole KTAP (the plan met, the totals printed),
# and leave no partial file and no temporary file.  A filesystem is full
# in three ways, each met at another step: no inode left (the error at
# the open), no block left (at the first write), a few blocks left for a
# larger file (a short write first, the error midway).
# The A side: --ab needs a knob this host can write; a regular file bound
# over /proc/sys/kernel/printk_ratelimit in the test's namespace is one,
# and nothing global changes.  FILE takes the one inode left, FILE.a finds
# none.
# Not run (exit 4, a SKIP for tests/run.sh, with the reason) without
# root or unshare.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1

if [ -z "${NO_SPACE_NS:-}" ]; then
	not_run() { echo "no_space: $*; not run"; exit 4; }
	[ "$(id -u)" = 0 ] || not_run "needs root (mounting a tmpfs)"
	command -v unshare >/dev/null || not_run "no unshare (util-linux)"
	err=$(unshare -m --propagation private true 2>&1) ||
		not_run "unshare -m --propagation private refused: $err"
	NO_SPACE_NS=1 exec unshare -m --propagation private "$0" "$@"
fi

tmp=$(mktemp -d)
mounts=()
cleanup() {
	local m
	for m in "${mounts[@]}"; do
		umount -l "$m" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
# no bounds: a short run is judged by its completion only
: >"$tmp/nobounds"
hb() { "$dir/hackbench" --bounds "$tmp/nobounds" --iterations 1 --budget 1 "$@"; }

# A tmpfs at $tmp/NAME of SIZE KiB with FREE KiB left, a file "fill"
# taking the rest; INODES, when given, is its nr_inodes (the root takes
# one).  Its path on stdout.
fs() {	# name size_k free_k [inodes]
	local m=$tmp/$1 opts="size=${2}k"
	[ -n "${4:-}" ] && opts="$opts,nr_inodes=$4"
	mkdir -p "$m"
	mount -t tmpfs -o "$opts" none "$m" || fail "cannot mount a tmpfs ($opts) in the test's namespace"
	mounts+=("$m")
	[ "$2" = "$3" ] || dd if=/dev/zero of="$m/fill" bs=1k count=$(($2 - $3)) status=none 2>/dev/null
	[ "$(df -k --output=avail "$m" | tail -n1 | tr -d ' ')" = "$3" ] ||
		fail "tmpfs $1: $(df -k --output=avail "$m" | tail -n1) KiB free, want $3"
}

# Is OUT a whole KTAP: a plan, as many results at the top level, totals?
ktap_whole() {
	local plan results
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$1" | head -n1)
	results=$(grep -cE '^(not )?ok [0-9]+ ' "$1")
	[ -n "$plan" ] && [ "$plan" = "$results" ] && grep -q '^# Totals: ' "$1"
}

# The names in directory DIR, a line each.
entries() { find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n'; }

# expect_lost WHAT FILE DIR KEEP COMMAND...: COMMAND exits ${code:-2},
# its stderr is one line naming FILE and ENOSPC, its KTAP is whole (or
# stdout empty with ktap=none), and DIR holds nothing but "fill" and the
# names in KEEP (space-separated).
expect_lost() {
	local what=$1 file=$2 d=$3 rc left k pats=()
	for k in $4; do pats+=(-e "$k"); done
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" = "${code:-2}" ] || fail "$what: exit $rc, want ${code:-2}: $(head -c 300 "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "$what: stderr is not one line: $(cat "$tmp/err")"
	grep -qF -- "$file: No space left on device" "$tmp/err" ||
		fail "$what: stderr does not say '$file: No space left on device': $(cat "$tmp/err")"
	if [ "${ktap:-}" = none ]; then
		[ ! -s "$tmp/out" ] || fail "$what: printed on stdout: $(head -c 300 "$tmp/out")"
	else
		ktap_whole "$tmp/out" || fail "$what: KTAP not whole: $(grep -E '^1\.\.|^# Totals' "$tmp/out")"
	fi
	left=$(entries "$d" | grep -vxF -e fill "${pats[@]}")
	[ -z "$left" ] || fail "$what: left in $d: $left"
	left=$(entries "$d" | tr '\n' ' ')
	pass "$what: exit $rc, $(cat "$tmp/err"); in the directory: ${left:-nothing}"
}

# --results: no block, no inode, a few blocks for a file of 7 KiB
fs full 64 0
expect_lost "--results, no block left" "$tmp/full/r.results" "$tmp/full" "" \
	hb --results "$tmp/full/r.results"
fs noinode 64 64 1
expect_lost "--results, no inode left (at the open)" "$tmp/noinode/r.results" "$tmp/noinode" "" \
	hb --results "$tmp/noinode/r.results"
fs some 64 4
expect_lost "--results, 4 KiB left (a short write, then the error)" "$tmp/some/r.results" \
	"$tmp/some" "" hb --results "$tmp/some/r.results"

# a file already there stays as it was
fs older 64 64
echo "# an older run" >"$tmp/older/r.results"
cp "$tmp/older/r.results" "$tmp/older.copy"
dd if=/dev/zero of="$tmp/older/fill" bs=1k status=none 2>/dev/null
expect_lost "--results over an older file" "$tmp/older/r.results" "$tmp/older" "r.results" \
	hb --results "$tmp/older/r.results"
cmp -s "$tmp/older.copy" "$tmp/older/r.results" || fail "the older results file changed"
pass "the older file is as it was"

# the line comes after the KTAP when both go to one file
hb --results "$tmp/full/r.results" >"$tmp/both" 2>&1
if ! tail -n2 "$tmp/both" | head -n1 | grep -q '^# Totals: ' ||
	! tail -n1 "$tmp/both" | grep -qF "$tmp/full/r.results: No space left on device"; then
	fail "stdout and stderr together: the error is not the last line after the totals: $(tail -n3 "$tmp/both")"
fi
pass "stdout and stderr together: the totals, then the error line"

# --bisect: a lost output stops the bisect (128), neither good nor skip
code=128 expect_lost "--results --bisect" "$tmp/full/r.results" "$tmp/full" "" \
	hb --bisect --results "$tmp/full/r.results"

# --save, --results elsewhere
fs save 64 0
expect_lost "--save, no block left" "$tmp/save/base" "$tmp/save" "" \
	hb --results none --save "$tmp/save/base"
fs save_some 64 4
expect_lost "--save, 4 KiB left" "$tmp/save_some/base" "$tmp/save_some" "" \
	hb --results none --save "$tmp/save_some/base"

# --save with --ab: FILE takes the one inode left, FILE.a (the A side)
# finds none.  The knob: a file bound over printk_ratelimit here only.
knob=/proc/sys/kernel/printk_ratelimit
echo 5 >"$tmp/knob"
if [ -e "$knob" ] && mount --bind "$tmp/knob" "$knob" 2>/dev/null; then
	mounts+=("$knob")
	fs ab 1024 1024 2
	expect_lost "--save with --ab: FILE.a, no inode left" "$tmp/ab/base.a" "$tmp/ab" "base" \
		"$dir/hackbench" --bounds "$tmp/nobounds" --iterations 2 --max-runs 2 --budget 1 \
		--results none --ab "$knob=6" --save "$tmp/ab/base"
	[ -s "$tmp/ab/base" ] || fail "--save with --ab: FILE (the B side) not written"
	[ "$(cat "$tmp/knob")" = 5 ] || fail "--ab: the knob not restored: $(cat "$tmp/knob")"
	pass "--save with --ab: FILE written, the knob restored"
else
	echo "# --save with --ab: cannot bind a file over $knob here; save_a_side() is write_results() on FILE.a, covered above"
fi

# sched_perf_compare --merge OUT
rs=$dir/fixtures/runset/old
ktap=none expect_lost "sched_perf_compare --merge, no block left" "$tmp/full/merged" \
	"$tmp/full" "" "$dir/sched_perf_compare" --merge "$tmp/full/merged" "$rs" "$rs"
ktap=none expect_lost "sched_perf_compare --merge, no inode left" "$tmp/noinode/merged" \
	"$tmp/noinode" "" "$dir/sched_perf_compare" --merge "$tmp/noinode/merged" "$rs" "$rs"

# --evidence DIR: tracefs and a tracer (trace-cmd, else perf) needed
if ! command -v trace-cmd >/dev/null && ! command -v perf >/dev/null; then
	echo "# --evidence: neither trace-cmd nor perf installed: not tried"
	done_ok
	exit 0
fi
fs ev 64 0
mkdir "$tmp/ev/given"
expect_lost "--evidence DIR, no block left" "$tmp/ev/given/run.log" "$tmp/ev/given" "" \
	hb --results none --evidence "$tmp/ev/given"
expect_lost "--evidence DIR (new), no block left" "$tmp/ev/new/run.log" "$tmp/ev" "given" \
	hb --results none --evidence "$tmp/ev/new"
fs ev_noinode 64 64 1
expect_lost "--evidence DIR (new), no inode left" "$tmp/ev_noinode/new" "$tmp/ev_noinode" "" \
	hb --results none --evidence "$tmp/ev_noinode/new"
# a tracer that records fills 64 KiB, then fails: lost, not "no tracer"
hb --results none --evidence "$tmp/ev_ok" >"$tmp/out" 2>&1
if grep -qE '^ok [0-9]+ hackbench.evidence trace and summary.txt in ' "$tmp/out"; then
	fs ev_some 64 64
	expect_lost "--evidence DIR, 64 KiB for the trace" "$tmp/ev_some/given" "$tmp/ev_some" "" \
		hb --results none --evidence "$tmp/ev_some/given"
else
	echo "# --evidence with room for a part of the trace: no tracer records here: $(grep -E 'hackbench.evidence' "$tmp/out")"
fi
done_ok
