#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A git repository of a kernel source with the suite's counters and the
# seed series on top, to gate and bisect real commits:
#
#   base                the source as it is (the Debian 6.12 source)
#   3 commits           kernel/sched/*.patch, the suite's tracepoints
#                       (tag sched_perf-counters, its name from the
#                       series' first form)
#   10 commits          kernel/seed/*.patch: neutral ones (comments, a
#                       rename, a refactor) and the three classes of the
#                       seed reports, each a commit under test after a
#                       parent without it: the idle search examines more
#                       CPUs (0004, 4c77b18cf8b7's direction); wakeup
#                       preemption curbed by the protected slice (0007,
#                       63304558ba5d, after 0006 lifted the curb); the
#                       scan starts after target (0009, 56498cfb045d,
#                       after 0008 started it at target)

# Build and run any commit with VM_PATCHES=0 (the tracepoints are in the
# tree already): scripts/vmtest.sh DEST.
#
# Usage: scripts/seed-tree.sh KSRC DEST
# Exit 0 made, 1 a patch does not apply, 2 bad input.
set -eu
me=seed-tree
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# = 2 ] || { echo "usage: $me KSRC DEST" >&2; exit 2; }
ksrc=$1 dest=$2
[ -f "$ksrc/Makefile" ] && [ -d "$ksrc/kernel/sched" ] ||
	{ echo "$me: $ksrc: not a kernel source tree" >&2; exit 2; }
[ ! -e "$dest" ] || { echo "$me: $dest exists: give a new directory" >&2; exit 2; }
ksrc=$(realpath "$ksrc")
command -v git >/dev/null || { echo "$me: git not found" >&2; exit 2; }

# one author and date for every commit: the same tree gives the same ids
export GIT_AUTHOR_NAME="sched_perf seed-tree" GIT_AUTHOR_EMAIL="seed-tree@sched-perf.invalid"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE="2026-12-01T00:00:00Z" GIT_COMMITTER_DATE="2026-12-01T00:00:00Z"

mkdir -p "$dest"
tar -C "$ksrc" --exclude=./tools/testing/selftests/sched_perf --exclude=./.git -cf - . |
	tar -C "$dest" -xf - || { echo "$me: cannot copy $ksrc to $dest" >&2; exit 2; }
cd "$dest"
# Debian's .gitignore ignores everything at the top level (its packaging
# repository holds only debian/): a source repository must not
sed -i '/^\/\*$/d; /^!\/debian\/$/d' .gitignore
git init -q
git add -A
version=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' Makefile | paste -sd.)
git commit -q -m "Linux $version, as $(basename "$ksrc") has it"
git tag base
apply() {	# tag patches...
	local tag=$1 p
	shift
	for p in "$@"; do
		git am -q --committer-date-is-author-date "$p" 2>/dev/null ||
			{ git am --abort 2>/dev/null
			  echo "$me: $(basename "$p") does not apply on $(git log -1 --format=%s)" >&2
			  exit 1; }
	done
	git tag "$tag"
}
apply sched_perf-counters "$top"/kernel/sched/*.patch
apply seed "$top"/kernel/seed/*.patch
git log --format='%h %s' base..seed
