#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Documentation/**/*.rst parses as reStructuredText with docutils, warnings
# being errors (a table cell wider than its column is one); and a file with
# such a table is refused, so the check can fail.
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

printf 'Title\n=====\n\n===  ===\nab   c\n===  ===\nlonger  x\n===  ===\n' >"$tmp/bad.rst"
! rst_check "$tmp/bad.rst" >/dev/null || fail "a malformed table was accepted"
pass "a malformed table is refused"
done_ok
