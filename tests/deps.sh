#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/deps.sh and scripts/deps.list: the list parses, every target's
# needs are met here (make check verified them), a need nothing provides
# is named with its reason and exit 1, and a malformed list is exit 2 with
# one line naming the line.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
deps=$top/scripts/deps.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$deps" verify check >"$tmp/out" 2>&1 || fail "check's needs: $(cat "$tmp/out")"
n=$("$deps" packages check | wc -l)
[ "$n" -ge 20 ] || fail "only $n packages for check"
pass "check: $n packages, every need met"
"$deps" packages run | grep -qxF "$SCHED_PERF_KSRC_PKG" || fail "run does not name the default tree's $SCHED_PERF_KSRC_PKG"
"$deps" packages check | grep -qx python3-jinja2 || fail "check does not name python3-jinja2"
! "$deps" packages run | grep -qx lava-common || fail "run names check's lava-common"
pass "targets select their packages (run: $("$deps" packages run | wc -l), fuzz: $("$deps" packages fuzz | wc -l))"

# A need no package brings: named, with the reason, exit 1.
cp "$top/scripts/deps.list" "$tmp/list"
printf 'need check py:no_such_module_xyz  tests/x.sh: what it is for\n' >>"$tmp/list"
printf 'need check cmd:no-such-command-xyz  tests/y.sh\n' >>"$tmp/list"
DEPS_LIST=$tmp/list "$deps" verify check 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || fail "a missing need: exit $rc, want 1"
grep -qx 'deps: missing python3 module no_such_module_xyz (tests/x.sh: what it is for; for check)' "$tmp/err" &&
	grep -qx 'deps: missing command no-such-command-xyz (tests/y.sh; for check)' "$tmp/err" &&
	grep -q 'scripts/deps.sh install check' "$tmp/err" ||
	fail "the missing needs are not named: $(cat "$tmp/err")"
DEPS_LIST=$tmp/list "$deps" verify run 2>/dev/null || fail "a need of check failed run"
pass "missing needs named with their reason, exit 1; other targets unaffected"

bad() {
	local what=$1 line=$2 want=$3
	{ cat "$top/scripts/deps.list"; printf '%s\n' "$line"; } >"$tmp/bad"
	expect_refused 2 "$what" env DEPS_LIST="$tmp/bad" "$deps" verify check
	pass "$what -> exit 2: $refused_err"
}
last=$(($(wc -l <"$top/scripts/deps.list") + 1))
bad "unknown directive" "get foo check" ":$last: 'get': want pkg or need"
bad "unknown target" "pkg foo checks" "unknown target 'checks'"
bad "package name" "pkg Foo_Bar check" "not a Debian package name"
bad "pkg with extra field" "pkg foo check extra" "want 'pkg PACKAGE TARGETS'"
bad "need without a kind" "need check gcc the compiler" "want cmd:, py: or file:"
bad "need without a reason" "need check cmd:gcc" "want 'need TARGETS KIND:NAME WHY'"
DEPS_LIST=$tmp/none "$deps" verify check 2>"$tmp/err"
[ $? = 2 ] && grep -q "no such readable file" "$tmp/err" || fail "a missing list: $(cat "$tmp/err")"
"$deps" verify nosuch 2>"$tmp/err"
[ $? = 2 ] && grep -q "unknown target 'nosuch'" "$tmp/err" || fail "unknown target: $(cat "$tmp/err")"
"$deps" verify 2>"$tmp/err"
[ $? = 2 ] && grep -q "^usage:" "$tmp/err" || fail "no target: $(cat "$tmp/err")"
pass "missing list, unknown target, no target -> exit 2"

# Nothing but scripts/deps.sh installs packages.
hits=$(grep -rlE 'apt-get( -[a-zA-Z]+)* install' "$top/tests" "$top/bench" "$top/scripts" \
	"$top/Makefile" "$top/.ci" | grep -vE "/(scripts|tests)/deps.sh$")
[ -z "$hits" ] || fail "these install packages themselves: $hits"
pass "no test, bench or script but scripts/deps.sh installs packages"
done_ok
