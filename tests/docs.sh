#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Documentation/**/*.rst parses as reStructuredText with docutils, warnings
# being errors (a table cell wider than its column is one); and a file with
# such a table is refused, so the check can fail.  Every cross-reference
# resolves; the levels the reference states are compare.h's, the options
# it names the programs', its test categories tests/run.sh's; the README's
# commands name targets, programs and paths that exist.
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
from docutils import nodes
from docutils.parsers.rst import roles

# Sphinx's cross-reference roles parse here; xref_check resolves them
def xref_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []
for role in ("ref", "doc"):
    roles.register_local_role(role, xref_role)
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

# Every cross-reference in the .rst files under DIR resolves within DIR:
# :ref:`label` to a ".. _label:" of some file, :doc:`path` to a file
# (relative to the citing one, or to DIR from "/"), ``name.rst`` to a file
# (by its path under DIR's scheduler/ or by its name), and a section cited
# by its title, 'the reference's "Title"', 'sched-perf.rst's "Title"' or
# 'section "Title"', to a section of DIR/scheduler/sched-perf.rst (or, for
# the last, of the citing file).  `Title`_ within a file is docutils'.
# Prints one line per dangling reference; exit 1 when there is one.
xref_check() {	# dir
	$py - "$1" <<'PY'
import os
import re
import sys
import docutils.core
import docutils.utils
from docutils import nodes
from docutils.parsers.rst import roles

def xref_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []
for role in ("ref", "doc"):
    roles.register_local_role(role, xref_role)

root = os.path.realpath(sys.argv[1])
files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".rst"))
reference = os.path.join(root, "scheduler", "sched-perf.rst")
text, titles, labels = {}, {}, set()
for f in files:
    text[f] = open(f, encoding="utf-8").read()
    tree = docutils.core.publish_doctree(text[f], source_path=f, settings_overrides={
        "report_level": 5, "halt_level": 5, "warning_stream": False,
        "doctitle_xform": False})
    titles[f] = {" ".join(sec[0].astext().split()) for sec in tree.findall(nodes.section)}
    labels.update(re.findall(r"^\.\. _([^:`]+):\s*$", text[f], re.M))
names = {os.path.basename(f) for f in files}
paths = {os.path.relpath(f, os.path.join(root, "scheduler")) for f in files}
paths |= {os.path.relpath(f, os.path.dirname(root)) for f in files}

def target(role):	# "text <target>" or "target"
    m = re.search(r"<([^<>]+)>$", role)
    return (m.group(1) if m else role).strip()

bad = 0
def dangling(f, pos, what):
    global bad
    bad += 1
    line = text[f].count("\n", 0, pos) + 1
    print(f"{os.path.relpath(f, os.path.dirname(root))}:{line}: {what}")

for f in files:
    t = text[f]
    for m in re.finditer(r":ref:`([^`]+)`", t):
        if target(m.group(1)) not in labels:
            dangling(f, m.start(), f":ref: to no label: {m.group(0)}")
    for m in re.finditer(r":doc:`([^`]+)`", t):
        d = target(m.group(1))
        p = os.path.join(root, d.lstrip("/")) if d.startswith("/") else os.path.join(os.path.dirname(f), d)
        if not os.path.isfile(os.path.normpath(p) + ".rst"):
            dangling(f, m.start(), f":doc: to no file: {m.group(0)}")
    for m in re.finditer(r"``([A-Za-z0-9_./-]+\.rst)``", t):
        n = m.group(1)
        if n not in (paths if "/" in n else names):
            dangling(f, m.start(), f"no such document: {n}")
    for m in re.finditer(r"(the\s+reference's|([A-Za-z0-9_-]+\.rst)'s|[Ss]ection)\s+\"([^\"]+)\"", t):
        title = " ".join(m.group(3).split())
        page = reference
        if m.group(2):
            page = next((g for g in files if os.path.basename(g) == m.group(2)), m.group(2))
        where = titles.get(page, set())
        if m.group(1).lower() == "section":
            where = where | titles[f]
        if title not in where:
            dangling(f, m.start(), f"no section \"{title}\" in {os.path.basename(page)}")
sys.exit(1 if bad else 0)
PY
}

n=0
while IFS= read -r f; do
	msg=$(rst_check "$f") || fail "${f#"$top"/}: $msg"
	n=$((n + 1))
	pass "${f#"$top"/}: $(wc -l <"$f") lines parse without warnings"
done < <(find "$top/Documentation" -name '*.rst' | sort)
[ $n -gt 0 ] || fail "no .rst file under $top/Documentation"

out=$(xref_check "$top/Documentation") || fail "dangling references: $out"
pass "every cross-reference under Documentation/ resolves (:ref:, :doc:, document names, cited sections)"
mkdir -p "$tmp/Documentation/scheduler"
printf 'Ref\n===\n\nGating\n------\n\nText.\n' >"$tmp/Documentation/scheduler/sched-perf.rst"
printf 'R\n=\n\n.. _here:\n\nSee :ref:`here`, :ref:`gone`, :doc:`sched-perf`, :doc:`x <none>`,\n``sched-perf.rst``, ``none.rst``, the reference'"'"'s "Gating" and the reference'"'"'s\n"Gone", section "Nowhere".\n' \
	>"$tmp/Documentation/scheduler/cites.rst"
out=$(xref_check "$tmp/Documentation") && fail "dangling references were accepted"
[ "$(wc -l <<<"$out")" = 5 ] || fail "5 dangling references, found: $out"
pass "dangling references refused: $(wc -l <<<"$out") of 5 (:ref:, :doc:, a document, two sections)"

# The reference states the comparison's levels once, in "Comparing saved
# runs" (the rest of the docs name --alpha): they must be compare.h's.
define() {	# name: the value of #define NAME in compare.h
	sed -n "s/^#define $1[[:space:]]\{1,\}\([0-9.]*\).*/\1/p" \
		"$top/tools/testing/selftests/sched_perf/compare.h"
}
ref=$top/Documentation/scheduler/sched-perf.rst
levels='The levels (``compare.h``): regressed and improved at alpha'
doc=$(tr -s ' \n' ' ' <"$ref" | grep -o "$levels ([0-9.]*; boots [0-9.]*) over the metrics, same at [0-9.]* per metric" |
	sed 's/.*(\([0-9.]*\); boots \([0-9.]*\)).* same at \([0-9.]*\) .*/\1 \2 \3/')
want="$(define CMP_ALPHA) $(define CMP_ALPHA_BOOTS) $(define CMP_ALPHA_SAME)"
[ -n "$doc" ] || fail "sched-perf.rst: no '$levels (A; boots B) over the metrics, same at S per metric'"
awk -v d="$doc" -v w="$want" 'BEGIN { n = split(d, a); m = split(w, b)
	if (n != 3 || m != 3) exit 1; for (i = 1; i <= 3; i++) if (a[i] + 0 != b[i] + 0) exit 1 }' ||
	fail "sched-perf.rst's levels say alpha, boots, same '$doc'; compare.h: '$want'"
pass "sched-perf.rst's levels: alpha, boots' alpha, same's $doc, as compare.h's"

# The options carry their help (--help); the reference only names them,
# and each it names is one the suite declares (a peer's, "stress-ng
# ``--dirdeep``", is the peer's).
suite_options() {	# the suite's long options, one a line
	cat "$top"/tools/testing/selftests/sched_perf/*.[ch] |
		grep -oE '(OPT_[A-Z_]+\([^,]*, *|long_name = )"[a-z0-9-]+"' |
		sed 's/.*"\(.*\)"/\1/' | sort -u
}
named_options() {	# rst file: the suite's --options it names, one a line
	grep -oE '(stress-ng )?``--[a-z0-9-]+' "$1" | grep -v '^stress-ng ' |
		sed 's/``--//' | sort -u
}
unknown_options() {	# rst file: the --options it names that the suite lacks
	named_options "$1" | comm -23 - <(suite_options)
}
out=$(unknown_options "$ref")
[ -z "$out" ] || fail "sched-perf.rst names options no program has: $out"
[ "$(unknown_options <(printf '``--budget`` ``--no-such-option``\n'))" = no-such-option ] ||
	fail "a reference naming --no-such-option was accepted"
pass "sched-perf.rst: the $(named_options "$ref" | wc -l) options it names are the programs' (a made-up one is refused)"

# sched-perf-tools.rst's table of test categories: tests/run.sh's, in its order.
doc=$(awk '/^``make check`` is ``tests\/run.sh``/ { at = 1 }
	at && /^=+ +=+$/ { if (++rules == 2) exit; next }
	rules == 1 && /^``[a-z_]+``/ { gsub(/``/, "", $1); printf "%s%s", sep, $1; sep = " " }' \
	"$top/Documentation/scheduler/sched-perf-tools.rst")
want=$("$top/tests/run.sh" -c)
[ -n "$want" ] && [ "$doc" = "$want" ] ||
	fail "sched-perf-tools.rst's categories '$doc', tests/run.sh -c '$want'"
pass "sched-perf-tools.rst's categories in tests/run.sh's order: $doc"

printf 'Title\n=====\n\n===  ===\nab   c\n===  ===\nlonger  x\n===  ===\n' >"$tmp/bad.rst"
! rst_check "$tmp/bad.rst" >/dev/null || fail "a malformed table was accepted"
pass "a malformed table is refused"

# The README's commands: every "make TARGET" of a command line (indented
# by 4) is a target of the Makefile, the setup and gate targets among
# them; every $P/PROG is a program the suite builds; every path under
# scripts/, tests/, Documentation/, kernel/ or lava/ it names is there.
targets=$(make -C "$top" -pRrq -f Makefile .sched-perf-no-such-goal 2>/dev/null |
	awk -F: '/^[a-z][a-z0-9-]*:([^=]|$)/ { print $1 }' | sort -u)
[ -n "$targets" ] || fail "no target read from the Makefile"
readme_targets() {	# README file
	sed -n 's/^    \(.*[^a-z_]\)\{0,1\}make \([a-z][a-z0-9-]*\).*/\2/p' "$1" | sort -u
}
readme_missing() {	# README file: its commands' targets the Makefile lacks
	readme_targets "$1" | while read -r t; do
		grep -qx -- "$t" <<<"$targets" || echo "$t"
	done
}
out=$(readme_missing "$top/README")
[ -z "$out" ] || fail "README: make targets the Makefile lacks: $out"
for t in run check check-quick vmab vmtest; do
	readme_targets "$top/README" | grep -qx "$t" || fail "README: no command line with make $t"
done
pass "README: $(readme_targets "$top/README" | wc -l) make targets of its command lines are the Makefile's (run, check, check-quick, vmab, vmtest among them)"
printf '    make no-such-target\n' >"$tmp/README"
[ "$(readme_missing "$tmp/README")" = no-such-target ] || fail "a README naming no-such-target was accepted"
pass "a README command with a target the Makefile lacks is refused"

suite=$top/tools/testing/selftests/sched_perf
progs=" $(sched_perf_programs "$suite") $(sched_perf_programs "$suite" TEST_GEN_PROGS_EXTENDED) "
n=0
for p in $(grep -o '\$P/[a-z_]*' "$top/README" | sort -u); do
	case $progs in *" ${p#\$P/} "*) n=$((n + 1)) ;; *) fail "README: $p: not a program the suite builds" ;; esac
done
[ $n -gt 0 ] || fail "README: no \$P/PROGRAM line"
grep -qx "    P=$(sched_perf_ksrc build)/tools/testing/selftests/sched_perf" "$top/README" ||
	fail "README: P= is not where make build leaves the programs"
pass "README: its $n \$P/ programs are the suite's, P where make build leaves them"
n=0
for f in $(grep -oE '(^|[ (])(scripts|tests|Documentation|kernel|lava)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' "$top/README" |
		sed 's/^[ (]//' | sort -u); do
	[ -e "$top/$f" ] || [ -e "$suite/$f" ] || fail "README: $f: no such file"
	n=$((n + 1))
done
pass "README: the $n paths it names exist"
done_ok
