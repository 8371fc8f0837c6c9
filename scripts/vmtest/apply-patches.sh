#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A patched copy of a kernel tree: DEST is a tree of symlinks into SRC
# (where a copy of 1.7 GB took minutes), and each PATCH, in
# order, is applied to it with patch -p1.  --follow-symlinks makes patch
# replace the link of every file it changes with a patched file of its
# own, SRC untouched, so any patch that patch -p1 accepts applies: git
# format-patch output, diff -u with timestamps after the names, renames
# and new files alike.  SRC's copy of the suite is left out (it is
# synced separately).
#
# Usage: scripts/vmtest/apply-patches.sh SRC DEST [PATCH...]
# Exit 0 applied, 1 a patch does not apply (one line on stderr names it),
# 2 bad input.
set -u
me=apply-patches
[ $# -ge 2 ] || { echo "usage: $me SRC DEST [PATCH...]" >&2; exit 2; }
src=$1 dest=$2
shift 2
[ -d "$src" ] || { echo "$me: $src: not a directory" >&2; exit 2; }
for p in "$@"; do
	[ -f "$p" ] && [ -r "$p" ] || { echo "$me: $p: no such patch" >&2; exit 2; }
done
src=$(cd "$src" && pwd)
# A tree of links to this SRC made before is brought up to date instead
# of made again (minutes for 80000 links on 2 busy CPUs): the files
# patched last time become links again, files SRC gained get links,
# links to files SRC lost go.
if [ "$(cat "$dest/.sched_perf-links-of" 2>/dev/null)" = "$src" ]; then
	while read -r f; do
		rm -f "$dest/$f"
		[ -e "$src/$f" ] && ln -s "$src/$f" "$dest/$f"
	done <"$dest/.sched_perf-real"
	cp -as -n "$src/." "$dest/" && find "$dest" -xtype l -delete
else
	rm -rf "$dest" && mkdir -p "$dest" && cp -as "$src/." "$dest/"
fi && rm -rf "$dest/tools/testing/selftests/sched_perf" ||
	{ echo "$me: cannot link $src into $dest" >&2; exit 2; }
# what is not a link from here on is ours to undo next time
rm -f "$dest/.sched_perf-real" "$dest/.sched_perf-links-of"
for p in "$@"; do
	out=$(patch -d "$dest" -p1 -s --follow-symlinks --no-backup-if-mismatch \
		-r - <"$p" 2>&1) ||
		{ echo "$me: $(basename "$p") does not apply: $(tr '\n' ' ' <<<"$out" | cut -c1-200)" >&2
		  exit 1; }
done
find "$dest" -type f -printf '%P\n' >"$dest/.sched_perf-real.tmp" &&
	mv "$dest/.sched_perf-real.tmp" "$dest/.sched_perf-real" &&
	echo "$src" >"$dest/.sched_perf-links-of" ||
	{ echo "$me: cannot write to $dest" >&2; exit 2; }
exit 0
