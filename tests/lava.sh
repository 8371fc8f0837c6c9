#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite's LAVA test definition run by LAVA (scripts/lavarun.sh): lava-run
# on a qemu device booting vmtest's kernel and initramfs, every program
# short (--iterations 2 --budget 2).  LAVA must finish the job and hold
# every program and check of the guest's KTAP as a test case with its
# result, each bound's check with its metric as a measurement in units
# (scripts/lava/results.py); a check failing its bound is the suite's
# verdict on this busy guest, not this test's.  Then results.py must
# refuse a log with a test case, a measurement or a program missing, a
# wrong measurement or an unfinished job.
set -u
. "$(dirname "$0")/lib.sh"
ksrc=$1
top=$(cd "$(dirname "$0")/.." && pwd)
results=$top/scripts/lava/results.py
progs=$(sched_perf_programs "$top/tools/testing/selftests/sched_perf")

[ "$(id -u)" = 0 ] || { echo "SKIP: $name: lava-run keeps its job in /var/lib/lava (root)"; exit 4; }
command -v lava-run >/dev/null ||
	{ echo "SKIP: $name: no lava-run (lava-dispatcher: scripts/deps.sh install lava)"; exit 4; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

start=$(date +%s)
# (a hung guest: the test action ends after 10 minutes, the job 10 later)
LAVA_OUT=$out LAVA_RUN_ARGS="--iterations 2 --budget 2" LAVA_TIMEOUT=10 "$top/scripts/lavarun.sh" "$ksrc" \
	>"$out/run.log" 2>&1
rc=$?
secs=$(($(date +%s) - start))
grep -v '^[A-Za-z0-9._-]*  *\(pass\|fail\|skip\) ' "$out/run.log"
[ "$rc" = 0 ] || [ "$rc" = 1 ] ||
	fail "lavarun.sh exit $rc: LAVA's results are not the KTAP's, or no job (above; log tail: $(tail -n 5 "$out/lava.log" 2>/dev/null))"
pass "lava-run: job finished, every program and check of the KTAP a LAVA test case with its result and measurement (results.py), $secs s in all"
log=$out/lava.log

# What the log holds, read here without results.py
grep -q '"lvl": "results", "msg": {"case": "job", "definition": "lava", "result": "pass"}' "$log" ||
	fail "no 'job pass' result in lava-run's log"
grep -q '"lvl": "target", "msg": "sched_perf guest: 6\.12' "$log" ||
	fail "the guest did not boot vmtest's 6.12 kernel"
grep -q '"lvl": "info", "msg": "Modifying .*initrd\.gz' "$log" ||
	fail "LAVA did not append its overlay to the ramdisk"
pass "LAVA booted vmtest's 6.12 kernel with its overlay in the ramdisk"
for prog in $progs; do
	grep -qE "\"lvl\": \"results\", \"msg\": \{\"case\": \"$prog\", \"definition\": \"0_sched-perf\"" "$log" ||
		fail "no LAVA test case for program $prog"
	# each program's rate bound carries the rate in <operations>/s
	line=$(grep -E "\"case\": \"$prog\.[a-z_]+_per_sec\", \"definition\": \"0_sched-perf\"" "$log" | head -n1)
	[[ "$line" =~ \"measurement\":\ [^,]*[0-9].*\"units\":\ \"[a-z_]+/s\" ]] ||
		fail "$prog: its rate's test case has no measurement in <operations>/s: ${line:-none}"
	pass "$prog: a LAVA test case; its rate measured: $(sed -E 's/.*"case": "([^"]*)".*"measurement": ! "([^"]*)".*"units": "([^"]*)".*/\1 = \2 \3/' <<<"$line")"
done
n=$(grep -c '"definition": "0_sched-perf".*"measurement": ' "$log")
pass "$n LAVA test cases carry a measurement"

# results.py must refuse what LAVA did not record.
refused() {	# what log-file pattern-of-the-complaint
	local rc
	/usr/bin/python3 "$results" "$2" $progs >/dev/null 2>"$out/err"
	rc=$?
	[ "$rc" = 2 ] && grep -qE "$3" "$out/err" ||
		fail "results.py accepted $1 (exit $rc): $(cat "$out/err")"
	pass "refused: $1: $(head -n1 "$out/err")"
}
case_line='"case": "hackbench.messages_per_sec", "definition": "0_sched-perf"'
grep -q "$case_line.*\"measurement\"" "$log" || fail "no measured hackbench.messages_per_sec case to take out"
grep -vF "$case_line" "$log" >"$out/no-case"
refused "a test case missing" "$out/no-case" "no test case hackbench\.messages_per_sec"
sed "/$case_line/s/\"measurement\": [^,}]*, //" "$log" >"$out/no-measurement"
refused "a measurement missing" "$out/no-measurement" "hackbench\.messages_per_sec has no measurement"
sed "/$case_line/s/\"measurement\": [^,}]*, /\"measurement\": 1.5, /" "$log" >"$out/wrong-measurement"
refused "a measurement not the KTAP's" "$out/wrong-measurement" "hackbench\.messages_per_sec measured 1\.5"
# a program gone from the console and from the results alike
grep -v 'pipe' "$log" >"$out/no-program"
refused "a program of the Makefile's list left out" "$out/no-program" "program pipe has no test case"
sed 's/"case": "job", "definition": "lava", "result": "pass"/"case": "job", "definition": "lava", "result": "fail"/' \
	"$log" >"$out/no-job"
refused "a job that did not finish" "$out/no-job" "the LAVA job did not finish"
echo "$name: $secs s"
done_ok
