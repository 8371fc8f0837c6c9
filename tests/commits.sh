#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Commit messages as the kernel's: a subject of at most 72 characters,
# then a blank line before any body.  Checked from the first commit made
# under that rule (SINCE); the older history is published (stops landed
# on it) and is not rewritten.  A fixed-up message fails here.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
since=4f07cfb
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || skip "$top is not a git work tree"
git -C "$top" cat-file -e "$since^{commit}" 2>/dev/null || skip "no commit $since here (a shallow clone?)"

# check_log: "hash subject-length second-line-length" lines on stdin
check_log() {
	awk '$2 > 72 { print $1 ": subject of " $2 " characters"; bad = 1 }
		$3 > 0 { print $1 ": no blank line after the subject"; bad = 1 }
		END { exit bad }'
}
log_lines() {	# git log arguments
	git -C "$top" log --format='%h%x00%B%x01' "$@" |
		awk 'BEGIN { RS = "\001"; FS = "\n" }
		NF { sub(/^\n/, ""); split($0, l, "\n"); split(l[1], h, "\0")
		     print h[1], length(h[2]), length(l[2]) }'
}
n=$(git -C "$top" rev-list --count "$since..HEAD")
out=$(log_lines "$since..HEAD" | check_log) || fail "$out"
pass "$n commits since $since: subjects within 72 characters, a blank line before the body"
# the check itself, on made-up lines
printf 'abc 73 0\n' | check_log >/dev/null && fail "a 73-character subject was accepted"
printf 'abc 20 5\n' | check_log >/dev/null && fail "a body right after the subject was accepted"
printf 'abc 72 0\n' | check_log >/dev/null || fail "a 72-character subject was refused"
pass "73 characters and a body without a blank line are refused, 72 accepted"
done_ok
