#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our dirdeep side by side with stress-ng --dirdeep: same instances, same
# duration, interleaved (stress-ng first in odd rounds, ours first in even
# ones); prints both bogo-ops/s (stress-ng's real-time column; ours is
# computed the same way), their ratio, and our phase split (build,
# exercise, cleanup).
#
# Every run, ours and stress-ng's, gets a filesystem of its own, made for
# it and thrown away after it: a sparse image in IMGDIR (default /var/tmp),
# mkfs.ext4 with the inode tables and journal written at once (no lazy
# init left to run in the background of the next run), loop-mounted at a
# private mount point in a mount namespace of the run's own (unshare -m),
# so that nothing is mounted outside and the mount ends with the run.  An
# ageing filesystem (/tmp) changes from one run to the next; a fresh one
# does not.  Needs root.  The image and the mount point are removed on
# any exit, Ctrl-C included.
#
# Usage: bench/dirdeep.sh DIR_WITH_OUR_PROGRAMS [ROUNDS] [SECONDS] [INSTANCES] [FS_SIZE]
#   defaults: 4 rounds of 8 s, 1 instance, a 1G filesystem (the size of
#   vmtest's dirdeep disk); FS_SIZE as truncate(1) reads it.
#   IMGDIR=DIR puts the images elsewhere.
set -eu
dir=$(realpath -- "$1")
rounds=${2:-4}
secs=${3:-8}
inst=${4:-1}
size=${5:-1G}
imgdir=${IMGDIR:-/var/tmp}

die() { echo "dirdeep bench: $*" >&2; exit 2; }
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || die "ROUNDS '$rounds': want a positive integer"
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || die "SECONDS '$secs': want a positive integer (stress-ng's --timeout)"
[[ "$inst" =~ ^[1-9][0-9]*$ ]] || die "INSTANCES '$inst': want a positive integer"
[ -x "$dir/dirdeep" ] || die "$dir/dirdeep: no such program (make build)"
command -v stress-ng >/dev/null || die "stress-ng not installed (scripts/deps.sh install bench)"
for c in mkfs.ext4 mount umount unshare truncate; do
	PATH=$PATH:/sbin:/usr/sbin command -v $c >/dev/null ||
		die "$c not installed (scripts/deps.sh install bench)"
done
export PATH=$PATH:/sbin:/usr/sbin
[ "$(id -u)" = 0 ] || die "needs root (a loop-mounted ext4 per run)"
{ [ -d "$imgdir" ] && [ -w "$imgdir" ]; } || die "IMGDIR '$imgdir': not a writable directory"

tmp=$(mktemp -d)
img=
mnt=
cleanup() {
	# the namespace's end unmounts; a mount point is only ever ours
	[ -n "$mnt" ] && rmdir "$mnt" 2>/dev/null
	[ -n "$img" ] && rm -f "$img"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A fresh ext4 for one run: sets img and mnt; fs_desc says what it is.
fresh_fs() {
	img=$(mktemp "$imgdir/sched_perf-dirdeep.XXXXXX.img")
	mnt=$(mktemp -d "$imgdir/sdd.XXXXXX")
	truncate -s "$size" "$img"
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" ||
		die "mkfs.ext4 $img failed"
}

drop_fs() {
	rmdir "$mnt"
	rm -f "$img"
	img='' mnt=''
}

# Runs "$@" in a namespace of its own where the fresh fs is mounted at
# $mnt and is the current directory; unmounted before the namespace ends
# (a trapped, not ignored, INT: the run still gets Ctrl-C and cleans up).
# The last stderr line starting with "fs:" describes the filesystem.
in_fresh_fs() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	unshare -m --propagation private sh -c '
		img=$1 mnt=$2
		shift 2
		trap : INT TERM
		mount -o loop "$img" "$mnt" || exit 2
		cd "$mnt"
		df -T -h . | awk -v i="$(df -i . | awk "NR == 2 { print \$4 }")" \
			"NR == 2 { print \"fs: \" \$2 \" \" \$3 \" on \" \$1 \", \" i \" free inodes\" }" >&2
		"$@"
		rc=$?
		cd /
		umount "$mnt"
		exit $rc' sh "$img" "$mnt" "$@"
}

ours() {
	fresh_fs
	in_fresh_fs "$dir/dirdeep" --instances "$inst" --duration "$secs" --iterations 1 \
		--workdir "$mnt" --results none --no-counters 2>"$tmp/err" >"$tmp/out" ||
		{ cat "$tmp/err" "$tmp/out" >&2; die "our dirdeep failed"; }
	drop_fs
	sed -n 's/^dirdeep: \([0-9]*\) bogo ops in \([0-9.]*\) s (build \([0-9.]*\) s, exercise \([0-9.]*\) s, cleanup \([0-9.]*\) s), \([0-9.]*\) bogo ops\/s$/\6 \1 \2 \3 \4 \5/p' "$tmp/out" >>"$tmp/ours"
	grep '^fs:' "$tmp/err" | tail -1 >"$tmp/fs"
}

peer() {
	fresh_fs
	in_fresh_fs stress-ng --timeout "$secs" --metrics-brief --dirdeep "$inst" \
		--temp-path "$mnt" >"$tmp/out" 2>"$tmp/err" ||
		{ cat "$tmp/err" "$tmp/out" >&2; die "stress-ng failed"; }
	drop_fs
	cat "$tmp/out" "$tmp/err" | awk '$4 == "dirdeep" && $5 ~ /^[0-9]+$/ { print $9, $5, $6 }' >>"$tmp/peer"
}

. "$(dirname "$0")/../scripts/programs.sh"

: >"$tmp/ours"
: >"$tmp/peer"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$rounds"); do
	if [ $((i % 2)) = 0 ]; then
		ours; peer
	else
		peer; ours
	fi
done
[ "$(wc -l <"$tmp/ours")" = "$rounds" ] || die "our output did not parse: $(cat "$tmp/out")"
[ "$(wc -l <"$tmp/peer")" = "$rounds" ] || die "stress-ng's output did not parse"
o=$(cut -d' ' -f1 "$tmp/ours" | median) p=$(cut -d' ' -f1 "$tmp/peer" | median)
echo "dirdeep: $inst instance(s), ${secs} s, $rounds interleaved rounds, $(nproc) CPUs, kernel $(uname -r)"
echo "  load average: $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end (other work on the machine moves sync()'s cost)"
echo "  each run: a fresh $size ext4 (mkfs.ext4, loop, own mount namespace), image in $imgdir ($(df -T "$imgdir" | awk 'NR == 2 { print $2 }')); $(sed 's/^fs: //' "$tmp/fs")"
echo "  peer: stress-ng $(stress-ng --version | awk '{ print $3 }') --timeout $secs --dirdeep $inst --temp-path MNT"
echo "  ours: dirdeep --instances $inst --duration $secs --workdir MNT"
printf '  stress-ng: median %.1f bogo-ops/s  runs [%s]\n' "$p" "$(cut -d' ' -f1 "$tmp/peer" | tr '\n' ' ')"
printf '             bogo-ops [%s] in s [%s]\n' "$(cut -d' ' -f2 "$tmp/peer" | tr '\n' ' ')" "$(cut -d' ' -f3 "$tmp/peer" | tr '\n' ' ')"
printf '  ours:      median %.1f bogo-ops/s  runs [%s]\n' "$o" "$(cut -d' ' -f1 "$tmp/ours" | tr '\n' ' ')"
printf '             bogo-ops [%s] in s [%s]\n' "$(cut -d' ' -f2 "$tmp/ours" | tr '\n' ' ')" "$(cut -d' ' -f3 "$tmp/ours" | tr '\n' ' ')"
awk -v o="$o" -v p="$p" 'BEGIN { printf "  ratio ours/stress-ng: %.3f\n", o / p }'
awk '{ b += $4; e += $5; c += $6; n++ } END {
	printf "  our phase split (mean): build %.2f s, exercise %.2f s, cleanup %.2f s\n", b / n, e / n, c / n }' "$tmp/ours"
