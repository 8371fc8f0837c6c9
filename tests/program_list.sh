#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite's programs are listed once, in its Makefile (TEST_GEN_PROGS,
# TEST_GEN_PROGS_EXTENDED).  The suite's own .gitignore, which travels
# with it into a kernel tree as kselftest keeps one per directory, names
# no program: it ignores every name without a dot and keeps the few
# files without one.  So every program and core/ must be ignored, no file
# of the suite in git may be, and an ignored file beside the suite's
# sources must be something the Makefile builds; and nothing built (no
# Python byte code, no program) is committed.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
rel=tools/testing/selftests/sched_perf
suite=$top/$rel
progs="$(sched_perf_programs "$suite") $(sched_perf_programs "$suite" TEST_GEN_PROGS_EXTENDED)"
[ -n "${progs// /}" ] || fail "no programs in $suite/Makefile"
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || skip "$top is not a git work tree: .gitignore cannot be checked"
for p in $progs core/objects.o; do
	git -C "$top" check-ignore -q "$rel/$p" || fail "$rel/.gitignore does not ignore $p, which the Makefile builds"
done
pass "the suite's .gitignore ignores the Makefile's $(echo $progs | wc -w) programs and core/ without naming them"
kept=$(git -C "$top" ls-files -ci --exclude-standard -- "$rel")
[ -z "$kept" ] || fail "files of the suite in git that its .gitignore ignores: $kept"
for f in $(git -C "$top" ls-files -oi --exclude-standard --directory -- "$rel"); do
	f=${f#"$rel/"}
	[[ " $progs core/ " == *" ${f%/} "* ]] || [ "$f" = core/ ] ||
		fail "$rel/$f is ignored but is not a program of the Makefile nor core/: a source without a dot in its name?"
done
pass "no file of the suite in git is ignored ($(git -C "$top" ls-files -- "$rel" | wc -l) files), nothing else ignored beside them"
# No other file lists the programs by hand: a line naming four or more
# of them (the request-response family is three, named as such) outside
# the Makefile and the reference's prose would miss the next program.
typed=$(git -C "$top" grep -nwE "$(echo $progs | tr ' ' '|')" -- . ":!$rel/Makefile" ':!Documentation' |
	awk -v progs="$progs" 'BEGIN { n = split(progs, p, " ") }
	{ line = $0; sub(/^[^:]*:[0-9]+:/, "", line); k = 0
	  for (i = 1; i <= n; i++) if (line ~ "(^|[^a-z_])" p[i] "([^a-z_]|$)") k++
	  if (k >= 4) print }')
[ -z "$typed" ] || fail "a program list typed by hand (read the Makefile: scripts/programs.sh): $typed"
pass "no file but the Makefile lists the programs by hand"
built=$(git -C "$top" ls-files | grep -E '(^|/)__pycache__/|\.pyc$|\.o$' || true)
for p in $progs; do
	git -C "$top" ls-files --error-unmatch "$rel/$p" >/dev/null 2>&1 &&
		built="$built $rel/$p"
done
[ -z "${built// /}" ] || fail "built files are committed: $built"
pass "nothing built is committed (byte code, objects, programs)"
done_ok
