#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Documentation/**/*.rst parses as reStructuredText with docutils, warnings
# being errors (a table cell wider than its column is one); and a file with
# such a table is refused, so the check can fail.  The levels the reference
# states are compare.h's.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
py=/usr/bin/python3
[ -x $py ] || py=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

rst_check() {
	$py - "$1" <<'PY'
import sys
import docutils.core
import docutils.utils
src = open(sys.argv[1], encoding="utf-8").read()
try:
    docutils.core.publish_doctree(src, source_path=sys.argv[1],
        settings_overrides={"halt_level": 2, "report_level": 2,
                            "warning_stream": False})
except docutils.utils.SystemMessage as e:
    print(e)
    sys.exit(1)
PY
}

n=0
while IFS= read -r f; do
	msg=$(rst_check "$f") || fail "${f#"$top"/}: $msg"
	n=$((n + 1))
	pass "${f#"$top"/}: $(wc -l <"$f") lines parse without warnings"
done < <(find "$top/Documentation" -name '*.rst' | sort)
[ $n -gt 0 ] || fail "no .rst file under $top/Documentation"

# The reference states the comparison's levels once, in sched_perf_compare's
# --alpha row (the rest of the docs name --alpha): they must be compare.h's.
define() {	# name: the value of #define NAME in compare.h
	sed -n "s/^#define $1[[:space:]]\{1,\}\([0-9.]*\).*/\1/p" \
		"$top/tools/testing/selftests/sched_perf/compare.h"
}
ref=$top/Documentation/scheduler/sched-perf.rst
row=$(grep -A1 '^``--alpha A``' "$ref" | tr -s ' \n' ' ')
doc=$(sed -n 's/.*(\([0-9.]*\); boots \([0-9.]*\)); SAME.s own, per metric: \([0-9.]*\) .*/\1 \2 \3/p' <<<"$row")
want="$(define CMP_ALPHA) $(define CMP_ALPHA_BOOTS) $(define CMP_ALPHA_SAME)"
[ -n "$doc" ] || fail "sched-perf.rst: no --alpha row with '(A; boots B); SAME's own, per metric: S': $row"
awk -v d="$doc" -v w="$want" 'BEGIN { n = split(d, a); m = split(w, b)
	if (n != 3 || m != 3) exit 1; for (i = 1; i <= 3; i++) if (a[i] + 0 != b[i] + 0) exit 1 }' ||
	fail "sched-perf.rst's --alpha row says alpha, boots, SAME '$doc'; compare.h: '$want'"
pass "sched-perf.rst's --alpha row: alpha, boots' alpha, SAME's level $doc, as compare.h's"

# The reference's table of test categories: tests/run.sh's, in its order.
doc=$(awk '/^``make check`` is ``tests\/run.sh``/ { at = 1 }
	at && /^=+ +=+$/ { if (++rules == 2) exit; next }
	rules == 1 && /^``[a-z_]+``/ { gsub(/``/, "", $1); printf "%s%s", sep, $1; sep = " " }' "$ref")
want=$("$top/tests/run.sh" -c)
[ -n "$want" ] && [ "$doc" = "$want" ] ||
	fail "sched-perf.rst's categories '$doc', tests/run.sh -c '$want'"
pass "sched-perf.rst's categories in tests/run.sh's order: $doc"

printf 'Title\n=====\n\n===  ===\nab   c\n===  ===\nlonger  x\n===  ===\n' >"$tmp/bad.rst"
! rst_check "$tmp/bad.rst" >/dev/null || fail "a malformed table was accepted"
pass "a malformed table is refused"
done_ok
