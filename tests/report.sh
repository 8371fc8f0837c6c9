#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/report.sh: reports of short real runs (hackbench run alone and
# against a baseline, tcp_rr) and of the run set fixtures, with the fake
# evidence directory of tests/data/evidence-sample.  Each page exists, is
# not trivially small, is well-formed (a tag-balance check with Python's
# html.parser; xmllint too when installed, the page being well-formed
# XML), references nothing outside itself, escapes what the evidence
# holds, and has the expected number of plots in every section.  Every
# bad input is exit 2 with one line on stderr and no page.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
top=$(cd "$(dirname "$0")/.." && pwd)
report=$top/scripts/report.sh
sample=$top/tests/data/evidence-sample
fix=$top/tools/testing/selftests/sched_perf/fixtures/runset
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)

[ -x "$dir/hackbench" ] && [ -x "$dir/tcp_rr" ] && [ -x "$dir/sched_perf_compare" ] ||
	fail "no programs in $dir (make build)"
# the reader of the results and bounds files (--dump)
export SCHED_PERF_COMPARE=$dir/sched_perf_compare
[ -f "$sample/migrations.tsv" ] || fail "no evidence sample in $sample"

command -v gnuplot >/dev/null 2>&1 ||
	fail "gnuplot is not installed (scripts/deps.sh install check, as root)"
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || fail "no python3 for the HTML check"

# The page's structure: tags balanced (void elements and <x/> aside),
# nothing external (src=, href= other than #fragment, url() other than
# #fragment, @import, script/link/img/iframe/object/embed), one <title>;
# prints "section=number of <svg>" for every <section id=...>.
cat >"$tmp/check.py" <<'EOF'
import html.parser, re, sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
BANNED = {"script", "link", "img", "iframe", "object", "embed", "frame",
          "audio", "video", "source", "base"}


class Check(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.svgs, self.order = [], [], {}, []
        self.section, self.titles, self.doctype, self.in_style = None, 0, False, False

    def err(self, what):
        self.errors.append("line %d: %s" % (self.getpos()[0], what))

    def attrs(self, tag, attrs):
        if tag in BANNED:
            self.err("<%s> element" % tag)
        for k, v in attrs:
            v = (v or "").strip()
            if k == "src" or k.endswith(":src"):
                self.err("%s=%r on <%s>" % (k, v, tag))
            if (k == "href" or k.endswith(":href")) and not v.startswith("#"):
                self.err("%s=%r on <%s>: not a fragment of this page" % (k, v, tag))
            if k == "style" or "url(" in v:
                for u in re.findall(r"url\(\s*['\"]?([^)'\"]*)", v):
                    if not u.startswith("#"):
                        self.err("url(%s) on <%s>" % (u, tag))
            if k.startswith("on"):
                self.err("event handler %s on <%s>" % (k, tag))

    def handle_decl(self, decl):
        self.doctype = decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        self.attrs(tag, attrs)
        if tag == "section":
            self.section = dict(attrs).get("id", "?")
            self.svgs[self.section] = 0
            self.order.append(self.section)
        if tag == "svg":
            if self.section is None:
                self.err("<svg> outside a section")
            else:
                self.svgs[self.section] += 1
        if tag == "title" and not self.stack[-1:] == ["svg"] and "svg" not in self.stack:
            self.titles += 1
        self.in_style = tag == "style"
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.attrs(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.err("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
            return
        self.stack.pop()
        if tag == "section":
            self.section = None
        self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            if "@import" in data:
                self.err("@import in <style>")
            for u in re.findall(r"url\(\s*['\"]?([^)'\"]*)", data):
                if not u.startswith("#"):
                    self.err("url(%s) in <style>" % u)


c = Check()
with open(sys.argv[1], encoding="utf-8") as f:
    c.feed(f.read())
c.close()
if not c.doctype:
    c.errors.append("no <!DOCTYPE html>")
if c.stack:
    c.errors.append("unclosed at the end: %s" % " ".join(c.stack))
if c.titles != 1:
    c.errors.append("%d page <title>s" % c.titles)
if c.errors:
    print("; ".join(c.errors[:5]))
    sys.exit(1)
print(" ".join("%s=%d" % (s, c.svgs[s]) for s in c.order))
EOF

# check_page NAME FILE MIN_BYTES "header=0 throughput=1 ...": the page's
# size, structure, references and plots per section.
check_page() {
	local what=$1 page=$2 min=$3 want=$4 got size
	[ -f "$page" ] || fail "$what: no $page"
	size=$(wc -c <"$page")
	[ "$size" -ge "$min" ] || fail "$what: $size bytes, want at least $min"
	got=$("$py" "$tmp/check.py" "$page") || fail "$what: not well-formed or not self-contained: $got"
	[ "$got" = "$want" ] || fail "$what: plots per section: $got, want $want"
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout --nonet "$page" 2>"$tmp/xml.err" ||
			fail "$what: xmllint: $(head -n3 "$tmp/xml.err")"
	fi
	! grep -qiE '(src|href)[[:space:]]*=[[:space:]]*["'\'']?[[:space:]]*(https?:|file:|ftp:|//|data:)' "$page" ||
		fail "$what: an external reference: $(grep -oiE '(src|href)[[:space:]]*=[^ >]*' "$page" | grep -v "=['\"]#" | head -n2)"
	! grep -qiE '<(script|link|img|iframe|object|embed)[[:space:]>/]' "$page" ||
		fail "$what: a script, link or embedded object"
	pass "$what: $size bytes, well-formed$(command -v xmllint >/dev/null && echo ' (html.parser, xmllint)'), self-contained, plots: $got"
}

# rep NAME ARGS...: a report that must succeed, silently
rep() {
	local what=$1
	shift
	"$report" "$@" >"$tmp/out" 2>"$tmp/err" || fail "$what: exit $?: $(cat "$tmp/err")"
	[ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ] || fail "$what: output: $(cat "$tmp/out" "$tmp/err")"
}

# has NAME PAGE SECTION TEXT: SECTION of PAGE says TEXT (fixed string)
has() {
	sed -n "/<section id=\"$3\">/,/<\/section>/p" "$2" | grep -qF -- "$4" ||
		fail "$1: section $3 does not say \"$4\""
}

# --- short real runs ---------------------------------------------------------
save() {
	local prog=$1 out=$2 rc
	nice -n 10 "$dir/$prog" --iterations 3 --budget 2 --results none --save "$out" \
		>"$tmp/$prog.log" 2>&1
	rc=$?
	[ "$rc" -le 1 ] && [ -s "$out" ] ||
		fail "$prog --save: exit $rc, no run set: $(tail -n3 "$tmp/$prog.log")"
}
save hackbench "$tmp/hb-base.results"
save hackbench "$tmp/hb-new.results"
save tcp_rr "$tmp/tcp.results"
pass "saved run sets: hackbench twice, tcp_rr, 3 iterations each ($(($(date +%s) - t0)) s)"

none="header=0 throughput=1 distributions=0 latency=0 migrations=0 evidence=0"

rep "hackbench run" -o "$tmp/run.html" "$tmp/hb-new.results"
check_page "hackbench run" "$tmp/run.html" 8000 "$none"
has "hackbench run" "$tmp/run.html" migrations "no evidence: run with --evidence DIR"
has "hackbench run" "$tmp/run.html" distributions "no baseline"
has "hackbench run" "$tmp/run.html" latency "no latency percentiles"
has "hackbench run" "$tmp/run.html" header "<th>CPUs</th><td>$(getconf _NPROCESSORS_ONLN)</td>"
has "hackbench run" "$tmp/run.html" header "<th>kernel</th><td>$(uname -r)</td>"
pass "hackbench run: header facts, and the sections without a baseline or evidence say so"

rep "hackbench vs baseline" -o "$tmp/cmp.html" "$tmp/hb-new.results" \
	--baseline "$tmp/hb-base.results" --evidence "$sample"
rows=$(grep -c '<tr class="cmp">' "$tmp/cmp.html")
[ "$rows" -ge 1 ] || fail "hackbench vs baseline: no comparison row"
grep -q '<tr class="cmp"><td>hackbench.messages_per_sec</td>' "$tmp/cmp.html" ||
	fail "hackbench vs baseline: no messages_per_sec row"
# a metric this host does not measure is a row "missing", with no plot
drawn=$(grep '<tr class="cmp">' "$tmp/cmp.html" | grep -vc '>missing</td></tr>$')
check_page "hackbench vs baseline" "$tmp/cmp.html" 40000 \
	"header=0 throughput=1 distributions=$drawn latency=1 migrations=2 evidence=0"
pass "hackbench vs baseline: $rows rows, a distribution plot for each of the $drawn measured"

# the evidence: escaped, summary.txt verbatim
page=$tmp/cmp.html
! grep -q 'bad<comm>' "$page" && ! grep -q '<idle>' "$page" || fail "evidence: a comm not escaped"
has evidence "$page" evidence '<td>bad&lt;comm&gt;&amp;x</td>'
has evidence "$page" evidence '<td>&lt;idle&gt;</td>'
sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' "$sample/summary.txt" >"$tmp/summary.esc"
while IFS= read -r line; do
	grep -qxF -- "$line" "$page" || grep -qF -- "<pre>$line" "$page" || grep -qF -- "$line</pre>" "$page" ||
		fail "evidence: summary.txt line not in the page: $line"
done <"$tmp/summary.esc"
has evidence "$page" evidence 'trace.dat: the binary trace, not drawn'
has evidence "$page" migrations '450 migrations between 11 CPU pairs'
has evidence "$page" latency '21664 wakeups'
pass "evidence: comms escaped (<idle>, bad<comm>&x), summary.txt verbatim ($(wc -l <"$sample/summary.txt") lines), totals"

# POSIX awk: Debian's default is mawk
if command -v mawk >/dev/null 2>&1; then
	mkdir "$tmp/bin" && ln -s "$(command -v mawk)" "$tmp/bin/awk"
	PATH=$tmp/bin:$PATH rep "mawk" -o "$tmp/mawk.html" "$tmp/hb-new.results" \
		--baseline "$tmp/hb-base.results" --evidence "$sample"
	norm() { grep -v 'UTC' "$1" | sed 's/sched_perf-report\.[A-Za-z0-9]*//g'; }
	cmp -s <(norm "$tmp/cmp.html") <(norm "$tmp/mawk.html") ||
		fail "mawk: another page than gawk's: $(diff <(norm "$tmp/cmp.html") <(norm "$tmp/mawk.html") | head -n4)"
	pass "mawk: the same page as with $(readlink -f "$(command -v awk)")"
fi

rep "tcp_rr run" -o "$tmp/tcp.html" "$tmp/tcp.results" --evidence "$sample"
check_page "tcp_rr run" "$tmp/tcp.html" 30000 \
	"header=0 throughput=1 distributions=0 latency=2 migrations=2 evidence=0"
has "tcp_rr run" "$tmp/tcp.html" latency '<td>p99.9</td>'
has "tcp_rr run" "$tmp/tcp.html" throughput 'n=3, median'
pass "tcp_rr run: latency percentiles and the wakeup histogram"

# the fixtures: a -14 % throughput, with the fixtures' bounds
rep "fixtures" -o "$tmp/fix.html" "$fix/regressed" --baseline "$fix/old" --bounds "$fix/bounds"
check_page "fixtures" "$tmp/fix.html" 20000 \
	"header=0 throughput=1 distributions=3 latency=0 migrations=0 evidence=0"
# the row is sched_perf_compare's: its change, interval and verdict
want=$("$SCHED_PERF_COMPARE" --tsv --bounds "$fix/bounds" "$fix/old" "$fix/regressed" |
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	$1 == "hackbench.messages_per_sec" { printf "%+.1f%% %+.1f%% %+.1f%% %s", 100 * $c["change"],
		100 * $c["ci_lo"], 100 * $c["ci_hi"], $c["verdict"] }')
[ "$want" = "-14.0% -14.1% -13.9% regressed" ] || fail "fixtures: sched_perf_compare says '$want'"
grep -q '<tr class="cmp"><td>hackbench.messages_per_sec</td><td class="num">1000100</td>.*<td class="num">860086</td>.*<td class="num">-14.0%</td><td class="num">-14.1% to -13.9%</td><td>&gt;= -5.0%</td><td class="bad" title="[^"]*">regressed</td></tr>' "$tmp/fix.html" ||
	fail "fixtures: the -14 % row: $(grep 'messages_per_sec</td>' "$tmp/fix.html")"
[ "$(grep -c 'class="bad"' "$tmp/fix.html")" = 1 ] || fail "fixtures: another metric marked bad"
[ "$(grep -c 'class="good" title="[^"]*">same<' "$tmp/fix.html")" = 2 ] || fail "fixtures: the other 2 metrics not same"
pass "fixtures: 3 metrics, the row is compare's: -14.0 % in [-14.1, -13.9] regressed (>= -5%), 2 same"

# evidence with files missing, and a latency bucket without an upper bound
mkdir "$tmp/partial"
cp "$sample/summary.txt" "$sample/wakeup_latency.tsv" "$tmp/partial/"
printf '1e+07\tinf\t3\n' >>"$tmp/partial/wakeup_latency.tsv"
rep "partial evidence" -o "$tmp/partial.html" "$tmp/hb-new.results" --evidence "$tmp/partial"
check_page "partial evidence" "$tmp/partial.html" 15000 \
	"header=0 throughput=1 distributions=0 latency=1 migrations=0 evidence=0"
has "partial evidence" "$tmp/partial.html" migrations "no migrations.tsv in $tmp/partial"
has "partial evidence" "$tmp/partial.html" evidence "no tasks.tsv in $tmp/partial"
has "partial evidence" "$tmp/partial.html" evidence "no preemptions.tsv in $tmp/partial"
has "partial evidence" "$tmp/partial.html" latency "99 % within"
mkdir "$tmp/empty"
rep "empty evidence" -o "$tmp/empty.html" "$tmp/hb-new.results" --evidence "$tmp/empty"
check_page "empty evidence" "$tmp/empty.html" 8000 "$none"
has "empty evidence" "$tmp/empty.html" evidence "no summary.txt in $tmp/empty"
pass "missing evidence files: said in their sections, no error"

"$report" --help >"$tmp/out" 2>&1 && grep -q '^usage: report.sh -o OUT.html RESULTS' "$tmp/out" ||
	fail "--help: $(cat "$tmp/out")"
pass "--help: usage, exit 0"

# --- bad input: exit 2, one line on stderr, nothing on stdout, no page -------
mkdir "$tmp/garbage" "$tmp/header"
printf '# from_cpu\tto_cpu\tmigrations\n0\t1\t12\n1\tzero\t4\n' >"$tmp/garbage/migrations.tsv"
printf '# pid\tcomm\tcount\n1\tinit\t2\n' >"$tmp/header/tasks.tsv"
: >"$tmp/empty.results"
printf 'hello\n' >"$tmp/plain.txt"
bad() {
	local what=$1 want=$2
	shift 2
	rm -f "$tmp/bad.html"
	absent=$tmp/bad.html expect_refused 2 "$what" "$@"
	nbad=$((nbad + 1))
}
nbad=0
o="-o $tmp/bad.html"
new=$tmp/hb-new.results
bad "no arguments" "usage:" "$report"
bad "unknown option" "unknown option '--frobnicate'" "$report" $o "$new" --frobnicate
bad "-o without a file" "-o needs an argument" "$report" "$new" -o
bad "no -o" "no -o OUT.html" "$report" "$new"
bad "no results" "no RESULTS file" "$report" $o
bad "two results files" "more than one results file" "$report" $o "$new" "$new"
bad "missing file" "no such file" "$report" $o "$tmp/nonexistent"
bad "a directory" "is a directory" "$report" $o "$tmp"
bad "empty file" "no meta.runset_version nor runset.end" "$report" $o "$tmp/empty.results"
bad "plain text" "plain.txt:1: not a 'key: value' line" "$report" $o "$tmp/plain.txt"
bad "a binary" "not a 'key: value' line" "$report" $o "$dir/hackbench"
bad "no meta.workload" "no meta.workload" "$report" $o "$fix/no-workload"
bad "no runs" "no runs" "$report" $o "$fix/no-runs"
bad "no run set version" "no meta.runset_version" "$report" $o "$fix/no-version"
bad "run set version 1" "run set version 1" "$report" $o "$fix/version-1"
bad "truncated" "truncated" "$report" $o "$fix/truncated"
bad "runset.end mismatch" "runset.end says 4" "$report" $o "$fix/end-mismatch"
bad "non-numeric run" "'fast' is not a finite number" "$report" $o "$fix/non-numeric"
bad "ragged runs" "ragged runs" "$report" $o "$fix/ragged"
bad "bad baseline" "no meta.workload" "$report" $o "$fix/old" --baseline "$fix/no-workload"
bad "baseline of another workload" "a tcp_rr run set" "$report" $o "$fix/old" --baseline "$fix/other-workload"
bad "missing baseline" "no such file" "$report" $o "$fix/old" --baseline "$tmp/nonexistent"
bad "evidence not a directory" "not a directory" "$report" $o "$new" --evidence "$new"
bad "evidence missing" "not a directory" "$report" $o "$new" --evidence "$tmp/nonexistent"
bad "garbage migrations.tsv" "migrations.tsv:3: field 2 (to_cpu) is \"zero\"" \
	"$report" $o "$new" --evidence "$tmp/garbage"
bad "another tasks.tsv header" "tasks.tsv:1: header is" "$report" $o "$new" --evidence "$tmp/header"
bad "missing bounds" "no such file" "$report" $o "$new" --bounds "$tmp/nonexistent"
printf 'hackbench.messages_per_sec change >= +5%%\n' >"$tmp/bad.bounds"
bad "malformed bounds" "bad.bounds:1: a change bound is" "$report" $o "$new" --bounds "$tmp/bad.bounds"
bad "no sched_perf_compare" "sched_perf_compare not found at $tmp/none" \
	env SCHED_PERF_COMPARE="$tmp/none" "$report" $o "$new"
bad "output directory missing" "cannot write into" "$report" -o "$tmp/no/such/dir/x.html" "$new"
bad "no gnuplot" "gnuplot not found" env GNUPLOT="$tmp/no-gnuplot" "$report" $o "$new"
pass "bad input: $nbad cases, each exit 2, one line on stderr, no page"

done_ok
echo "report: $(($(date +%s) - t0)) s"
