#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# As distro CI ships the suite: make -C tools/testing/selftests
# TARGETS=sched_perf gen_tar, the tarball unpacked into an empty directory
# outside both trees and run there with run_kselftest.sh; then the LAVA
# side: lava/ktap2lava.sh maps that run's KTAP to lava-test-case calls (a
# stub records them), lava/sched_perf.yaml passes lava-common's schema and
# its steps, run as LAVA runs them, install and run the suite from the
# tarball.
set -u
. "$(dirname "$0")/lib.sh"
make=$1 selftests=$2
top=$(cd "$(dirname "$0")/.." && pwd)
selftests=$(cd "$selftests" && pwd)
ksrc=$(cd "$selftests/../../.." && pwd)
install=$selftests/kselftest_install	# gen_tar's INSTALL_PATH by default
had_install=
[ -e "$install" ] && had_install=1
had_packages=
[ -e "$install/kselftest-packages" ] && had_packages=1
tmp=$(mktemp -d)
cleanup() {
	rm -rf "$tmp"
	if [ -z "$had_install" ]; then
		rm -rf "$install"
	elif [ -z "$had_packages" ]; then
		rm -rf "$install/kselftest-packages"
	fi
}
trap cleanup EXIT
t0=$(date +%s)

# --- the tarball --------------------------------------------------------
# KBUILD_OUTPUT would move INSTALL_PATH out of the tree: not what we clean.
log=$(env -u KBUILD_OUTPUT $make -s -C "$selftests" TARGETS=sched_perf gen_tar 2>&1) ||
	fail "gen_tar failed: $log"
tarball=$(sed -n 's/^Created //p' <<<"$log" | tail -n1)
[ -n "$tarball" ] || fail "gen_tar did not say what it created: $log"
[ "$tarball" = "$install/kselftest-packages/kselftest.tar.gz" ] ||
	fail "tarball at $tarball, not in $install/kselftest-packages"
[ -s "$tarball" ] || fail "$tarball missing or empty"
pass "created $tarball ($(stat -c %s "$tarball") bytes)"

tar -tvzf "$tarball" >"$tmp/listing" && tar -tzf "$tarball" >"$tmp/names" ||
	fail "$tarball is not a gzip tar"
sed 's|^\./||' "$tmp/names" | grep -v '^$' | sort >"$tmp/members"
# every program of the Makefile's list
for f in run_kselftest.sh kselftest-list.txt kselftest/runner.sh kselftest/prefix.pl \
	 $(for p in $(sched_perf_programs "$top/tools/testing/selftests/sched_perf"); do echo "sched_perf/$p"; done) \
	 sched_perf/sched_perf_compare sched_perf/bounds \
	 sched_perf/settings sched_perf/config sched_perf/lava/ktap2lava.sh \
	 sched_perf/lava/sched_perf.yaml; do
	grep -qx "$f" "$tmp/members" || fail "tarball lacks $f"
done
! grep -q '^l' "$tmp/listing" || fail "tarball holds symlinks: $(grep '^l' "$tmp/listing")"
! grep -q 'kselftest-packages' "$tmp/members" || fail "tarball holds itself (kselftest-packages)"
pass "tarball: $(grep -vc '/$' "$tmp/members") files, no symlink: runner, programs, bounds, settings, config, lava/"

# --- unpacked into an empty directory, run from another ------------------
u=$tmp/unpacked
mkdir "$u" "$tmp/elsewhere" "$tmp/results"
for tree in "$top" "$ksrc"; do
	case "$(realpath "$u")/" in "$(realpath "$tree")"/*)
		fail "unpack directory $u is inside $tree (set TMPDIR elsewhere)" ;;
	esac
done
[ -z "$(ls -A "$u")" ] || fail "$u is not empty"
tar -xzf "$tarball" -C "$u" || fail "cannot unpack $tarball"
# This copy's bounds file, not the tree's, must be the one judged: one
# bound becomes 4321.  The others open wide: what is tested here is that
# the suite runs from the tarball, not how this (maybe busy) machine
# performs; test-suite and test-install judge that.
sed -i -E -e 's/^([^ #]+) <= [-+.0-9eE]+/\1 <= 1e9/' -e 's/^([^ #]+) >= [-+.0-9eE]+/\1 >= 0/' \
	-e 's/^hackbench\.ctx_switches_per_op <= 1e9/hackbench.ctx_switches_per_op <= 4321/' \
	"$u/sched_perf/bounds"
grep -q '^hackbench\.ctx_switches_per_op <= 4321$' "$u/sched_perf/bounds" ||
	fail "bounds file has no 'hackbench.ctx_switches_per_op <= N' line to change"
pass "unpacked into empty $u; its bounds opened, ctx_switches_per_op <= 4321"

out=$tmp/out
(cd "$tmp/elsewhere" &&
 SCHED_PERF_RESULTS_DIR=$tmp/results \
	KSELFTEST_HACKBENCH_ARGS="--iterations 2 --budget 2" \
	KSELFTEST_TCP_RR_ARGS="--iterations 2 --budget 2" \
	KSELFTEST_UDP_RR_ARGS="--iterations 2 --budget 2" \
	KSELFTEST_SCTP_RR_ARGS="--iterations 2 --budget 2" \
	KSELFTEST_DIRDEEP_ARGS="--iterations 2 --budget 2 --sync none" \
	KSELFTEST_PIPE_ARGS="--iterations 2 --budget 2" \
	"$u/run_kselftest.sh" -c sched_perf >>"$out" 2>&1) # append: the runner reopens /dev/stdout
cat "$out"
# one runner result per program of the Makefile's list
nprogs=$(sched_perf_programs "$top/tools/testing/selftests/sched_perf" | wc -w)
grep -qx "1\.\.$nprogs" "$out" || fail "runner plan is not 1..$nprogs"
[ "$(grep -cE '^(not )?ok [0-9]+ selftests: sched_perf: ' "$out")" = "$nprogs" ] ||
	fail "not $nprogs runner results"
for prog in $(sched_perf_programs "$top/tools/testing/selftests/sched_perf" | sed 's/\bsctp_rr\b//'); do
	check_ktap "$out" $prog
done
if grep -q '^ok [0-9]* selftests: sched_perf: sctp_rr # SKIP$' "$out"; then
	check_skipped "$out" sctp_rr
else
	check_ktap "$out" sctp_rr
fi
grep -qE '^# # hackbench\.ctx_switches_per_op: .* <= 4321$' "$out" && grep -qE '^# ok [0-9]+ hackbench\.ctx_switches_per_op$' "$out" ||
	fail "hackbench was not judged by the unpacked bounds file (<= 4321)"
pass "judged by the unpacked bounds file"
for path in "$selftests" "$(realpath "$selftests")" "$ksrc" "$top"; do
	! grep -qF "$path" "$out" || fail "output names the build tree: $(grep -F "$path" "$out" | head -n3)"
	find "$u" -type f -exec grep -IlF "$path" {} + >"$tmp/refs"
	[ ! -s "$tmp/refs" ] || fail "unpacked files name $path: $(cat "$tmp/refs")"
done
pass "neither the output nor an unpacked text file names $ksrc or $top"
ls "$tmp"/results/sched_perf-hackbench-*.results >/dev/null 2>&1 ||
	fail "no results file in SCHED_PERF_RESULTS_DIR"
pass "results files written: $(ls "$tmp"/results/*.results | wc -l)"

# --- KTAP -> LAVA test cases -----------------------------------------------
k2l=$u/sched_perf/lava/ktap2lava.sh
mkdir "$tmp/bin"
cat >"$tmp/bin/lava-test-case" <<'EOF'
#!/bin/sh
echo "$*" >>"$LAVA_CASES"
EOF
chmod +x "$tmp/bin/lava-test-case"
# $1: ktap file, $2: cases file; runs ktap2lava.sh with the stub, prints rc
k2l_run() {
	: >"$2"
	LAVA_CASES=$2 PATH=$tmp/bin:$PATH sh "$k2l" "$1" >/dev/null 2>"$2.err"
	echo $?
}

# The expected cases, read from the suite's KTAP with sed alone.
expect() {
	sed -nE -e 's/^ok [0-9]+ selftests: sched_perf: ([a-z_]+) # SKIP$/\1 --result skip/p' \
		-e 's/^ok [0-9]+ selftests: sched_perf: ([a-z_]+)$/\1 --result pass/p' \
		-e 's/^not ok [0-9]+ selftests: sched_perf: ([a-z_]+)( .*)?$/\1 --result fail/p' \
		-e 's/^# ok [0-9]+ # SKIP ([a-z_]+\.[a-z0-9_.]+):.*$/\1 --result skip/p' \
		-e 's/^# ok [0-9]+ ([a-z_]+\.[a-z0-9_.]+) # SKIP( .*)?$/\1 --result skip/p' \
		-e 's/^# ok [0-9]+ ([a-z_]+\.[a-z0-9_.]+)( .*)?$/\1 --result pass/p' \
		-e 's/^# not ok [0-9]+ ([a-z_]+\.[a-z0-9_.]+)( .*)?$/\1 --result fail/p' "$1"
	echo "ktap_complete --result ${2:-pass}"
}

# The checks named as a metric printed before them ("# # NAME: VALUE[
# UNIT]", a number), with that value: "NAME VALUE" lines.
expect_measured() {
	sed -nE -e 's/^# # ([a-z_]+\.[a-z0-9_]+): ([-+0-9.eE]+)( [^ ]+)?$/note \1 \2/p' \
		-e 's/^# (not )?ok [0-9]+ # SKIP ([a-z_]+\.[a-z0-9_]+):.*$/check \2/p' \
		-e 's/^# (not )?ok [0-9]+ ([a-z_]+\.[a-z0-9_]+)( .*)?$/check \2/p' "$1" |
		awk '$1 == "note" { v[$2] = $3 } $1 == "check" && ($2 in v) { print $2 " " v[$2] }'
}
# The "NAME VALUE" of the made cases that carry a measurement with a unit
made_measured() {
	sed -nE 's/^([^ ]+) --result [a-z]+ --measurement ([^ ]+) --units [A-Za-z0-9._\/%-]+$/\1 \2/p' "$1"
}

rc=$(k2l_run "$out" "$tmp/cases")
[ "$rc" = 0 ] || fail "ktap2lava.sh exit $rc on a passing run: $(cat "$tmp/cases.err")"
expect "$out" | sort >"$tmp/expected"
sed 's/ --measurement .*//' "$tmp/cases" | sort | diff "$tmp/expected" - >"$tmp/diff" ||
	fail "lava-test-case calls differ from the KTAP (< expected, > made): $(cat "$tmp/diff")"
expect_measured "$out" | sort >"$tmp/measured"
[ -s "$tmp/measured" ] || fail "no check of the run is named as a metric it printed"
made_measured "$tmp/cases" | sort | diff "$tmp/measured" - >"$tmp/diff" ||
	fail "measurements differ from the KTAP's metrics (< expected, > made): $(cat "$tmp/diff")"
grep -qE '^hackbench\.messages_per_sec --result [a-z]+ --measurement [0-9.e+]+ --units messages/s$' "$tmp/cases" ||
	fail "hackbench.messages_per_sec: no measurement in messages/s: $(grep messages_per_sec "$tmp/cases")"
pass "ktap2lava.sh: $(wc -l <"$tmp/measured") checks carry their metric's value (--measurement --units), as printed"
# (a bound on what other work moves is a SKIP on a busy machine)
for c in "hackbench --result pass" "hackbench.completed --result pass" \
	 "hackbench.migrations_per_1k_ops --result [a-z]+" "dirdeep --result pass" \
	 "ktap_complete --result pass"; do
	sed 's/ --measurement .*//' "$tmp/cases" | grep -qxE "$c" || fail "no lava-test-case $c"
done
pass "ktap2lava.sh: $(wc -l <"$tmp/cases") lava-test-case calls, as the KTAP says: $(grep -c ' --result pass' "$tmp/cases") pass, $(grep -c ' --result skip' "$tmp/cases") skip"
cat "$tmp/cases.err"

# A failed check, a SKIP, names LAVA would not take, a program that
# failed, and kselftest.h's own SKIP ("ok N # SKIP text", no name) as
# another suite prints it.
fake=$((nprogs + 1))
sed "s/^1\.\.$nprogs\$/1..$fake/" "$out" >"$tmp/synthetic"
cat >>"$tmp/synthetic" <<'EOF'
# selftests: sched_perf: fake
# TAP version 13
# 1..9
# # fake.bad_metric: 9
# # fake.rate_per_sec: 12.5 /s
# # fake.wait_us_per_op: 1.5e+03 us
# # fake.moves_per_1k_ops: 3
# # fake.x_share: 0.25
# # fake.gone_per_op: n/a (no counter)
# # fake.odd: not a number
# not ok 1 fake.bad_metric 9 <= 1
# ok 2 # SKIP fake.odd/name (x): a reason, with words
# ok 3 check of another suite=1
# # not ok 4 a diagnostic, not a result
# ok 4 fake.passed 1 <= 2
# ok 5 fake.rate_per_sec # 12.5 >= 1
# ok 6 fake.wait_us_per_op # SKIP machine busy
# not ok 7 fake.moves_per_1k_ops # 3 <= 1
# ok 8 fake.gone_per_op # SKIP no counter
# ok 9 fake.x_share # 0.25 <= 1
# # Totals: pass:4 fail:2 xfail:0 xpass:0 skip:3 error:0
EOF
echo "not ok $fake selftests: sched_perf: fake # exit=1" >>"$tmp/synthetic"
rc=$(k2l_run "$tmp/synthetic" "$tmp/syn-cases")
[ "$rc" = 1 ] || fail "ktap2lava.sh exit $rc, not 1, on a failed check"
for c in "fake.bad_metric --result fail --measurement 9 --units none" \
	 "fake.odd_name --result skip" \
	 "fake.check_of_another_suite_1 --result pass" "fake.passed --result pass" \
	 "fake.rate_per_sec --result pass --measurement 12.5 --units rate/s" \
	 "fake.wait_us_per_op --result skip --measurement 1.5e+03 --units us" \
	 "fake.moves_per_1k_ops --result fail --measurement 3 --units /1k_ops" \
	 "fake.gone_per_op --result skip" \
	 "fake.x_share --result pass --measurement 0.25 --units fraction" \
	 "fake --result fail" "ktap_complete --result pass"; do
	grep -qxF "$c" "$tmp/syn-cases" || fail "synthetic: no lava-test-case $c: $(tail -n12 "$tmp/syn-cases")"
done
[ "$(grep -c '^fake' "$tmp/syn-cases")" = 10 ] || fail "synthetic: not 10 cases for fake"
! grep -v '^[A-Za-z0-9._-]* --result \(pass\|fail\|skip\)\( --measurement [-+0-9.eE]* --units [A-Za-z0-9._/%-]*\)\{0,1\}$' "$tmp/syn-cases" ||
	fail "a case name outside [A-Za-z0-9._-], or a measurement or unit that is no word"
pass "not ok -> fail (exit 1), SKIP -> skip (both forms), names sanitized: fake.odd_name, fake.check_of_another_suite_1"
pass "measurements: units as printed (us), messages_per_sec's /s as rate/s, else from the name (/1k_ops, fraction, none); n/a and a SKIP without a figure carry none"
sh "$k2l" -n "$tmp/synthetic" 2>/dev/null | grep -qx 'fake.rate_per_sec pass 12.5 rate/s' ||
	fail "-n does not print 'NAME RESULT VALUE UNIT': $(sh "$k2l" -n "$tmp/synthetic" 2>&1 | grep rate_per_sec)"
pass "-n: NAME RESULT VALUE UNIT lines"

# Cut short: the runner planned them all, reported one fewer.
grep -v '^ok 5 selftests: sched_perf: dirdeep$' "$out" >"$tmp/cut"
rc=$(k2l_run "$tmp/cut" "$tmp/cut-cases")
[ "$rc" = 1 ] && grep -qxF "ktap_complete --result fail" "$tmp/cut-cases" ||
	fail "a run cut short is not ktap_complete fail (exit $rc)"
rc=$(k2l_run /dev/null "$tmp/none-cases")
[ "$rc" = 2 ] && [ "$(cat "$tmp/none-cases")" = "ktap_complete --result fail" ] ||
	fail "no KTAP at all is not exit 2 and ktap_complete fail (exit $rc)"
pass "a run cut short or missing: ktap_complete fail"

# ktap2lava.sh under another shell and awk must map the same cases.
same_cases_with() {	# label awk-path shell...
	local label=$1 awk=$2
	shift 2
	mkdir "$tmp/$label"
	ln -s "$awk" "$tmp/$label/awk"
	LAVA_CASES=$tmp/$label-cases PATH=$tmp/$label:$tmp/bin:$PATH "$@" "$k2l" "$tmp/synthetic" \
		>/dev/null 2>&1
	diff "$tmp/syn-cases" "$tmp/$label-cases" >/dev/null ||
		fail "$label maps differently: $(diff "$tmp/syn-cases" "$tmp/$label-cases")"
}
if command -v busybox >/dev/null; then
	same_cases_with busybox "$(command -v busybox)" busybox sh
	pass "busybox sh + busybox awk: the same $(wc -l <"$tmp/busybox-cases") cases"
else
	echo "SKIP: $name: no busybox here to run ktap2lava.sh with"
fi
# mawk, Debian's default awk where gawk is not installed
if command -v mawk >/dev/null; then
	same_cases_with mawk "$(command -v mawk)" sh
	pass "mawk: the same $(wc -l <"$tmp/mawk-cases") cases"
else
	echo "SKIP: $name: no mawk here to run ktap2lava.sh with"
fi

# --- the LAVA test definition ------------------------------------------------
yaml=$u/sched_perf/lava/sched_perf.yaml
py=/usr/bin/python3
[ -x $py ] || py=python3
# lava-common is in scripts/deps.list (make check verifies it first); a
# user's run without it checks YAML and keys only.
if $py -c 'import lava_common.schemas.test.testdef, yaml' 2>/dev/null; then
	# A job that runs the definition from git and inline, for lava-schema.
	$py - "$yaml" "$tmp/job.yaml" $(sched_perf_programs "$top/tools/testing/selftests/sched_perf") \
		<<'EOF' || fail "$yaml does not validate"
import sys, yaml, voluptuous
from lava_common.schemas.test.testdef import testdef, validate
with open(sys.argv[1]) as f:
    d = yaml.safe_load(f)
validate(d)                             # as lava-dispatcher does
voluptuous.Schema(testdef())(d)         # and no key LAVA does not know
for k, v in d["params"].items():        # LAVA writes KEY='value' lines
    assert isinstance(v, str) and "'" not in v, "param %s: %r" % (k, v)
# one KSELFTEST_<PROG>_ARGS per program of the Makefile's list, no other
want = {"KSELFTEST_%s_ARGS" % p.upper().replace("-", "_") for p in sys.argv[3:]}
have = {k for k in d["params"] if k.startswith("KSELFTEST_") and k.endswith("_ARGS")}
assert want and want == have, "params: missing %s, not a program %s" % (
    sorted(want - have), sorted(have - want))
path = "tools/testing/selftests/sched_perf/lava/sched_perf.yaml"
test = {"timeout": {"minutes": 30}, "definitions": [
    {"from": "git", "repository": "https://example.org/linux.git",
     "path": path, "name": d["metadata"]["name"],
     "parameters": {"KSELFTEST_PATH": "/opt/kselftest"}},
    {"from": "inline", "repository": d, "path": "inline/sched_perf.yaml",
     "name": d["metadata"]["name"] + "-inline"}]}
job = {"device_type": "qemu", "job_name": "sched_perf", "priority": "medium",
       "visibility": "public", "timeouts": {"job": {"minutes": 60}},
       "actions": [{"test": test}]}
with open(sys.argv[2], "w") as f:
    yaml.safe_dump(job, f)
EOF
	schema=/usr/share/lava-common/lava-schema.py
	if [ -f $schema ]; then
		$py $schema job --strict "$tmp/job.yaml" >"$tmp/schema.out" 2>&1 ||
			fail "lava-schema job: $(cat "$tmp/schema.out")"
	else
		schema=
	fi
	ver=$(dpkg-query -W -f '${Version}' lava-common 2>/dev/null ||
	      $py -c 'import lava_common.version as v; print(v.__version__)')
	pass "LAVA schema (lava-common $ver): test definition strict${schema:+; lava-schema job --strict with it from git and inline}; a KSELFTEST_<PROG>_ARGS for each of $(sched_perf_programs "$top/tools/testing/selftests/sched_perf")"
elif $py -c 'import yaml' 2>/dev/null; then
	echo "SKIP: $name: no lava-common (scripts/deps.sh install check): YAML and keys checked without LAVA's schema"
	$py - "$yaml" <<'EOF' || fail "$yaml is not a LAVA test definition"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
m = d["metadata"]
assert m["format"] == "Lava-Test Test Definition 1.0" and isinstance(m["name"], str)
assert all(isinstance(s, str) for s in d["run"]["steps"]), "a step is not a string"
assert all(isinstance(v, str) for v in d["params"].values())
EOF
	pass "test definition: YAML, metadata, string steps and params (own check)"
else
	fail "neither lava-common nor python3-yaml: cannot check $yaml"
fi

# Its steps as LAVA runs them: parameters as shell assignments, set -e, in
# the definition's checkout (here an empty directory: the installed
# ktap2lava.sh must be found), the suite unpacked from the tarball.
if $py -c 'import yaml' 2>/dev/null; then
	lt=$tmp/lava-target
	mkdir -p "$tmp/checkout"
	KSELFTEST_PATH=$lt/kselftest KSELFTEST_TARBALL=$tarball TESTS=sched_perf:hackbench \
	KSELFTEST_HACKBENCH_ARGS="--iterations 2 --budget 1 --bounds $u/sched_perf/bounds" \
	RESULTS_DIR=$lt/results \
	$py - "$yaml" "$tmp/checkout" >"$tmp/run.sh" <<'EOF' || fail "cannot write run.sh"
import os, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
print("###default parameters from test definition###")
for k, v in d["params"].items():
    print("%s='%s'" % (k, v or ""))
print("###test parameters from job submission###")
for k in ("KSELFTEST_PATH", "KSELFTEST_TARBALL", "TESTS",
          "KSELFTEST_HACKBENCH_ARGS", "RESULTS_DIR"):
    print("%s='%s'" % (k, os.environ[k]))
print("set -e")
print("cd '%s'" % sys.argv[2])
for s in d["run"]["steps"]:
    print(s)
EOF
	: >"$tmp/lava-cases"
	LAVA_CASES=$tmp/lava-cases PATH=$tmp/bin:$PATH sh "$tmp/run.sh" >"$tmp/lava.log" 2>&1 ||
		fail "the definition's steps failed: $(tail -n 20 "$tmp/lava.log")"
	[ -x "$lt/kselftest/run_kselftest.sh" ] || fail "steps did not unpack KSELFTEST_TARBALL"
	check_ktap "$lt/results/ktap.txt" hackbench
	# the job's KSELFTEST_HACKBENCH_ARGS reached hackbench (exported)
	grep -q '^# # hackbench\.iterations: 2$' "$lt/results/ktap.txt" ||
		fail "LAVA steps: KSELFTEST_HACKBENCH_ARGS (--iterations 2) did not reach hackbench"
	for c in "hackbench --result pass" "hackbench.completed --result pass" \
		 "ktap_complete --result pass"; do
		grep -qxF "$c" "$tmp/lava-cases" || fail "LAVA steps: no lava-test-case $c"
	done
	! grep -q '^tcp_rr' "$tmp/lava-cases" || fail "LAVA steps: TESTS=sched_perf:hackbench ran tcp_rr"
	pass "LAVA steps (sh, set -e): tarball unpacked, hackbench run, $(wc -l <"$tmp/lava-cases") cases reported"
else
	echo "SKIP: $name: no python3-yaml to read the definition's steps"
fi

echo "$name: $(($(date +%s) - t0)) s"
done_ok
