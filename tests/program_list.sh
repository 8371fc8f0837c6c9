#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite's programs are listed once, in its Makefile (TEST_GEN_PROGS,
# TEST_GEN_PROGS_EXTENDED).  The suite's own .gitignore, which travels
# with it into a kernel tree as kselftest keeps one per directory, must
# name exactly those programs and core/; and nothing built (no Python
# byte code, no program) is committed.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
suite=$top/tools/testing/selftests/sched_perf
progs="$(sched_perf_programs "$suite") $(sched_perf_programs "$suite" TEST_GEN_PROGS_EXTENDED)"
[ -n "${progs// /}" ] || fail "no programs in $suite/Makefile"
want=$(printf '%s\n' $progs core/ | sort)
have=$(grep -v '^#' "$suite/.gitignore" | sed '/^$/d' | sort)
[ "$want" = "$have" ] ||
	fail "$suite/.gitignore does not follow the Makefile: $(diff <(echo "$want") <(echo "$have") | grep '^[<>]' | tr '\n' ' ')"
pass "the suite's .gitignore names the Makefile's $(echo $progs | wc -w) programs and core/, nothing else"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	built=$(git -C "$top" ls-files | grep -E '(^|/)__pycache__/|\.pyc$|\.o$' || true)
	for p in $progs; do
		git -C "$top" ls-files --error-unmatch "tools/testing/selftests/sched_perf/$p" >/dev/null 2>&1 &&
			built="$built tools/testing/selftests/sched_perf/$p"
	done
	[ -z "${built// /}" ] || fail "built files are committed: $built"
	pass "nothing built is committed (byte code, objects, programs)"
fi
done_ok
