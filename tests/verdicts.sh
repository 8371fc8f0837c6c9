#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every verdict word true and a gate that gates, by simulation:
# sched_perf_sim drives the real gate_run() with synthetic iterations, as
# the programs gate by default (a plan to catch M within --gate-time; boots
# as vmab: a plan to catch M within 1200 s at 50 s a boot), a short seeded
# form of make bench-verdicts.
# Each row fails when a rate is shown (95 % Wilson interval) to leave its
# bound: a failed gate in A/A at most 1 %, a false "same" at the
# threshold at most 5 %, a fail well inside the alarm line at most 5 %; a
# -10 % at CV 0.05 failed in 95 %, a -5 % in 90 % at CV 0.02 and 0.05,
# a -3 % (between the alarm line and M) in 60 % at CV 0.02; across
# kernels at tcp_rr's boot CV under -icount (0.008) and M 2 %, a -2 %
# in 90 % and an unchanged kernel passed in 90 %.
# Seeded: the same rows give the same figures on every machine.
set -u
. "$(dirname "$0")/lib.sh"
sim=$1/sched_perf_sim
[ -x "$sim" ] || fail "no $sim (make build)"

row() {	# what, then sched_perf_sim's options
	local what=$1 out rc=0 l
	shift
	out=$("$sim" --seed 28 "$@" 2>&1) || rc=$?
	while IFS= read -r l; do echo "  $l"; done <<<"$out"
	[ "$rc" = 0 ] || fail "$what: exit $rc: $(echo "$out" | grep -v '^ok ' | tail -n2)"
	pass "$what: $(echo "$out" | grep -c '^ok ') rates within their bounds"
}

# A/A: a gate fails (a move shown, its estimate beyond the alarm line) in at most 1 %
row "paired A/A, CV 0.1, drift 1 %/iteration, 1 in 10 missing" --mode paired --cv 0.1 \
	--drift 0.01 --missing 0.1 --gates 200 --expect fail\<=0.01 --expect any_diff\<=0.01 \
	--expect any_move\<=0.05
row "unpaired A/A, CV 0.1" --mode unpaired --cv 0.1 --gates 400 --expect fail\<=0.01 \
	--expect drifting\<=0.25
row "boots A/A, CV 0.1, 1 in 10 missing" --mode boots --cv 0.1 --missing 0.1 --gates 1000 \
	--expect fail\<=0.01 --expect any_diff\<=0.01
row "boots A/A, CV 0.2, 3 boots a side" --mode boots --boots 3 --cv 0.2 --gates 4000 \
	--expect fail\<=0.01
# same only within the threshold; rarely a fail well inside the alarm line
row "paired, CV 0.05, true change at the threshold" --mode paired --cv 0.05 --shift -0.05 \
	--gates 300 --expect same\<=0.05
row "paired, CV 0.05, true change -1 % (inside the alarm line -2.5 %)" --mode paired \
	--cv 0.05 --shift -0.01 --gates 300 --expect fail\<=0.05
row "boots, CV 0.05, true change at the threshold" --mode boots --cv 0.05 \
	--shift -0.05 --gates 1000 --expect same\<=0.05
# the gate fails on the regressions it is for, with the plan it makes
row "paired, CV 0.05, a true -10 %" --mode paired --cv 0.05 --shift -0.1 --gates 300 \
	--expect fail\>=0.95
row "paired, CV 0.02, a true -5 %" --mode paired --cv 0.02 --shift -0.05 --gates 400 \
	--expect fail\>=0.9
row "paired, CV 0.05, a true -5 %" --mode paired --cv 0.05 --shift -0.05 --gates 300 \
	--expect fail\>=0.9
row "paired, CV 0.02, a true -3 % (between the alarm line and M)" --mode paired --cv 0.02 \
	--shift -0.03 --gates 400 --expect fail\>=0.6
row "boots, CV 0.008 (tcp_rr's boots), M 2 %, a true -2 %" --mode boots --cv 0.008 \
	--threshold 0.02 --shift -0.02 --gates 400 --expect fail\>=0.9
row "boots A/A, CV 0.008, M 2 %: passed" --mode boots --cv 0.008 --threshold 0.02 --gates 400 \
	--expect pass\>=0.9 --expect fail\<=0.01
row "paired, CV 0.02, a mechanism metric +30 % over a +15 % rule (its alarm +7.5 %)" \
	--mode paired --cv 0.02 --threshold 0.15 --shift -0.3 --shift-metric 1 --gates 400 \
	--expect fail\>=0.9

# the check can fail: A/A is not flagged in most gates
rc=0
"$sim" --seed 28 --mode paired --cv 0.1 --gates 100 --expect flagged\>=0.5 >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "an expectation A/A cannot meet: exit $rc, want 1"
pass "an expectation A/A cannot meet: exit 1"
# and a gate that failed at the threshold's half without a margin would
# leave the A/A goal: alpha 0.3 with the alarm line at 1 % of the change
rc=0
"$sim" --seed 28 --mode boots --boots 3 --cv 0.2 --gates 4000 --alpha 0.3 --alarm 0.01 \
	--expect fail\<=0.01 >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "boots A/A at CV 0.2, alpha 0.3, no margin: exit $rc, want 1"
pass "boots A/A at CV 0.2, alpha 0.3, no margin: shown above 1 %, exit 1"
rc=0
"$sim" --expect nonsense\<=1 >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--expect of no rate: exit $rc, want 2"
pass "--expect of no rate: exit 2"
done_ok
