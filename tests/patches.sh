#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel/sched patches: git format-patch files with a changelog and a
# Signed-off-by, checkpatch clean, and applying in order with git apply
# --check to the kernel source (KSRC, the Debian 6.12 source by default).
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=$(realpath "$1")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

mapfile -t patches < <(ls "$top"/kernel/sched/*.patch 2>/dev/null | sort)
[ ${#patches[@]} -gt 0 ] || fail "no kernel/sched/*.patch"

for p in "${patches[@]}"; do
	n=$(basename "$p")
	head -n1 "$p" | grep -qE '^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$' ||
		fail "$n: not git format-patch output"
	grep -qE '^Subject: \[PATCH [0-9]+/[0-9]+\] sched/' "$p" || fail "$n: no '[PATCH n/m] sched/...' subject"
	grep -qE '^Signed-off-by: .+ <.+@.+>$' "$p" || fail "$n: no Signed-off-by"
	# the changelog: the lines between the headers and the '---' line
	words=$(awk '/^---$/ { exit } body && !/^Signed-off-by:/ { print } /^$/ { body = 1 }' "$p" | wc -w)
	[ "$words" -ge 60 ] || fail "$n: changelog of $words words"
	out=$("$ksrc/scripts/checkpatch.pl" --no-tree --terse "$p" 2>&1) ||
		fail "$n: checkpatch: $out"
	grep -q "total: 0 errors, 0 warnings" <<<"$out" || [ -z "$out" ] ||
		fail "$n: checkpatch: $out"
	pass "$n: format-patch, Signed-off-by, $words-word changelog, checkpatch clean"
done

# Apply them in order to a copy of the files they touch.  A git tree
# around KSRC would make git apply skip every path: work outside it.
for f in $(sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u); do
	mkdir -p "$scratch/tree/$(dirname "$f")"
	[ -f "$ksrc/$f" ] && cp "$ksrc/$f" "$scratch/tree/$f"
done
cd "$scratch/tree" || fail "no scratch tree"
export GIT_CEILING_DIRECTORIES=$scratch
for p in "${patches[@]}"; do
	git apply --check "$p" 2>"$scratch/err" ||
		fail "$(basename "$p") does not apply to $ksrc: $(head -n3 "$scratch/err" | tr '\n' ' ')"
	git apply "$p" || fail "$(basename "$p"): git apply failed after --check passed"
done
pass "${#patches[@]} patches apply in order with git apply --check to $(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$ksrc/Makefile" | paste -sd.)"
grep -q 'debugfs_create_file("fair_stats"' kernel/sched/debug.c ||
	fail "applied, but kernel/sched/debug.c creates no fair_stats file"
pass "the patched debug.c creates sched/fair_stats"

# The check can fail: the last patch alone does not apply to the source.
if [ ${#patches[@]} -gt 1 ]; then
	rm -rf "$scratch/tree2" && mkdir -p "$scratch/tree2"
	(cd "$scratch/tree" && tar cf - .) | tar -C "$scratch/tree2" -xf -
	cd "$scratch/tree2" || fail "no scratch tree"
	for f in $(sed -n 's|^+++ b/||p' "${patches[@]}" | sort -u); do
		[ -f "$ksrc/$f" ] && cp "$ksrc/$f" "$f"
	done
	! git apply --check "${patches[1]}" 2>/dev/null ||
		fail "$(basename "${patches[1]}") applies without the patch before it: the check proves nothing"
	pass "out of order, $(basename "${patches[1]}") is refused"
fi
done_ok
