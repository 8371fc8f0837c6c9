#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every verdict word true, by simulation: sched_perf_sim drives
# the real gate_run() and compare_runsets() with synthetic iterations, a
# short seeded form of make bench-verdicts.  Each row fails when a rate
# is shown (95 % Wilson interval) to leave its bound: false DIFFERENT in
# A/A at most 1 % per gate, false "same" at the threshold and false
# "beyond" at 80 % of it at most 5 %, a -10 % move flagged in most gates.
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

row "paired A/A, CV 0.1, drift 1 %/iteration, 1 in 10 missing" --mode paired --cv 0.1 \
	--drift 0.01 --missing 0.1 --gates 400 --expect any_diff\<=0.01 --expect any_move\<=0.05
row "unpaired A/A, CV 0.1" --mode unpaired --cv 0.1 --gates 400 --expect any_diff\<=0.01 \
	--expect drifting\<=0.05
row "boots A/A, CV 0.1, 1 in 10 missing" --mode boots --cv 0.1 --missing 0.1 --gates 1000 \
	--expect any_diff\<=0.01
row "boots A/A, CV 0.2, 3 boots a side" --mode boots --boots 3 --cv 0.2 --gates 4000 \
	--expect any_diff\<=0.01
row "paired, CV 0.05, true change at the threshold" --mode paired --cv 0.05 --shift -0.05 \
	--gates 400 --expect same\<=0.05
row "paired, CV 0.05, true change at 80 % of it" --mode paired --cv 0.05 --shift -0.04 \
	--gates 400 --expect regressed\<=0.05
row "boots, CV 0.05, true change at the threshold and at 80 %" --mode boots --cv 0.05 \
	--shift -0.05 --gates 1000 --expect same\<=0.05
row "boots, CV 0.05, at 80 % of the threshold" --mode boots --cv 0.05 --shift -0.04 \
	--gates 1000 --expect regressed\<=0.05
row "paired, CV 0.05, a true -10 %" --mode paired --cv 0.05 --shift -0.1 --gates 200 \
	--expect flagged\>=0.9

# the check can fail: A/A is not flagged in most gates
rc=0
"$sim" --seed 28 --mode paired --cv 0.1 --gates 100 --expect flagged\>=0.5 >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "an expectation A/A cannot meet: exit $rc, want 1"
pass "an expectation A/A cannot meet: exit 1"
# and boots at the old default alpha, 0.05, leave the goal at CV 0.2
rc=0
"$sim" --seed 28 --mode boots --boots 3 --cv 0.2 --gates 4000 --alpha 0.05 \
	--expect any_diff\<=0.01 >/dev/null || rc=$?
[ "$rc" = 1 ] || fail "boots A/A at CV 0.2 with alpha 0.05: exit $rc, want 1"
pass "boots A/A at CV 0.2 with alpha 0.05: shown above 1 %, exit 1"
rc=0
"$sim" --expect nonsense\<=1 >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--expect of no rate: exit $rc, want 2"
pass "--expect of no rate: exit 2"
done_ok
