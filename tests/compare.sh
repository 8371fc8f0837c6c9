#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# sched_perf_compare: the same run sets are no regression (exit 0), a
# hand-made -14 % throughput is (exit 1, regressed in the table, one JSON
# object per line with --json), an improvement is reported and not failed,
# a metric left undecided is exit 4, and every bad input is exit 2 with
# one line on stderr and nothing on stdout.  Then the same on real hackbench runs, when the driver writes
# run sets.
set -u
. "$(dirname "$0")/lib.sh"
dir=$1
cmp=$dir/sched_perf_compare
fix=$(cd "$(dirname "$0")/.." && pwd)/tools/testing/selftests/sched_perf/fixtures/runset
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$cmp" ] || fail "no $cmp (make build)"
[ -f "$fix/old" ] || fail "no fixtures in $fix"

run() { "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; }

# Every line of $tmp/out is one JSON object with the fields of a metric.
json_lines() {
	python3 -c '
import json, sys
keys = {"metric", "old_median", "old_stddev", "old_n", "new_median",
	"new_stddev", "new_n", "change", "ci_lo", "ci_hi", "p", "p_adj", "p_beyond",
	"p_same", "p_ni", "threshold", "cv_block", "worse_when", "beyond",
	"estimate_beyond", "open",
	"alpha", "looks", "level", "verdict", "why",
	"median_change", "alarm", "primary", "share", "mde", "mde_now", "level_metric"}
for line in sys.stdin:
	o = json.loads(line)
	assert isinstance(o, dict) and set(o) == keys, line
' <"$tmp/out"
}

# the metric's row of the table
row() { grep "  hackbench\.$1\( \|\$\)" "$tmp/out"; }

rc=$(run "$cmp" --bounds "$fix/bounds" "$fix/old" "$fix/old")
[ "$rc" = 0 ] || fail "identical run sets: exit $rc, want 0: $(cat "$tmp/err" "$tmp/out")"
[ ! -s "$tmp/err" ] || fail "identical run sets: stderr: $(cat "$tmp/err")"
[ "$(grep -c '  hackbench\.' "$tmp/out")" = 3 ] || fail "identical run sets: not 3 rows: $(cat "$tmp/out")"
! grep -qE 'regressed|improved|noisy|too-few-runs|missing|undecided|drifting' "$tmp/out" &&
	[ "$(grep -c '  hackbench\.[a-z0-9_]*  same$' "$tmp/out")" = 3 ] ||
	fail "identical run sets: not all marked same: $(cat "$tmp/out")"
pass "identical run sets: exit 0, 3 rows, each marked same"

rc=$(run "$cmp" --bounds "$fix/bounds" "$fix/old" "$fix/regressed")
[ "$rc" = 1 ] || fail "regression: exit $rc, want 1: $(cat "$tmp/err" "$tmp/out")"
row messages_per_sec | grep -q -- '-14\.0%.*hackbench\.messages_per_sec  regressed$' ||
	fail "regression: no regressed row: $(cat "$tmp/out")"
[ "$(grep -c '  hackbench\.[a-z0-9_]*  regressed$' "$tmp/out")" = 1 ] || fail "regression: other metrics flagged: $(cat "$tmp/out")"
head -n1 "$tmp/out" | grep -q "$fix/old vs $fix/regressed.*Mann-Whitney.*Bonferroni over the metrics, alpha 0.015" ||
	fail "regression: header does not name the files and the test: $(head -n1 "$tmp/out")"
pass "regression: exit 1, $(row messages_per_sec | tr -s ' ')"

# --metric: only the metrics named are judged (a bisect on what regressed)
rc=$(run "$cmp" --bounds "$fix/bounds" --metric ctx_switches_per_op "$fix/old" "$fix/regressed")
[ "$rc" = 0 ] && [ "$(grep -c '  hackbench\.' "$tmp/out")" = 1 ] && row ctx_switches_per_op | grep -q ' same$' &&
	head -n1 "$tmp/out" | grep -q '; 1 change thresholds;' ||
	fail "--metric ctx_switches_per_op: exit $rc, want 0 and its row alone: $(cat "$tmp/err" "$tmp/out")"
rc=$(run "$cmp" --bounds "$fix/bounds" --metric hackbench.messages_per_sec --metric ctx_switches_per_op \
	"$fix/old" "$fix/regressed")
[ "$rc" = 1 ] && [ "$(grep -c '  hackbench\.' "$tmp/out")" = 2 ] &&
	row messages_per_sec | grep -q 'regressed$' ||
	fail "--metric twice: exit $rc, want 1 with 2 rows: $(cat "$tmp/err" "$tmp/out")"
rc=$(run "$cmp" --bounds "$fix/bounds" --metric nr_widgets "$fix/old" "$fix/regressed")
[ "$rc" = 2 ] && [ ! -s "$tmp/out" ] &&
	grep -qx 'sched_perf_compare: --metric nr_widgets: hackbench has no change threshold for it' "$tmp/err" ||
	fail "--metric of no threshold: exit $rc, want 2 and one line: $(cat "$tmp/err" "$tmp/out")"
pass "--metric: only the metrics named judged (0 on ctx switches alone, 1 with messages/s), an unknown one refused (2)"

# --summary: the one line scripts pass on (vmab's KTAP) without reading
# the table
rc=$(run "$cmp" --bounds "$fix/bounds" --summary "$tmp/summary" "$fix/old" "$fix/regressed")
[ "$rc" = 1 ] && grep -qx 'regressed: hackbench.messages_per_sec -14.0%' "$tmp/summary" ||
	fail "--summary of a regression: exit $rc: $(cat "$tmp/summary" "$tmp/err")"
rc=$(run "$cmp" --bounds "$fix/bounds" --summary "$tmp/summary" "$fix/old" "$fix/old")
[ "$rc" = 0 ] && grep -qx '3 same' "$tmp/summary" ||
	fail "--summary of identical run sets: exit $rc: $(cat "$tmp/summary" "$tmp/err")"
pass "--summary: '$(cat "$tmp/summary")' for identical run sets, the regressed metric and its change for a regression"

rc=$(run "$cmp" --bounds "$fix/bounds" --json "$fix/old" "$fix/regressed")
[ "$rc" = 1 ] || fail "--json regression: exit $rc, want 1"
[ "$(wc -l <"$tmp/out")" = 3 ] || fail "--json: not 3 lines: $(cat "$tmp/out")"
json_lines || fail "--json: not one JSON object per line: $(cat "$tmp/out")"
python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' <"$tmp/out" ||
	fail "--json: a line is not JSON"
grep -q '^{"metric":"hackbench.messages_per_sec",.*"change":-0.14,.*"threshold":-0.05,"alarm":-0.025,"primary":true,"share":0.7,.*"worse_when":"falls","beyond":true,"estimate_beyond":true,"open":true,"alpha":0.015,"looks":1,"level":0.015,"level_metric":0.0105,"verdict":"regressed","why":"shown worse (one-sided p [^"]*), estimated beyond the alarm line -2.5%; the regression to catch is -5.0%; medians [^"]*"}$' "$tmp/out" ||
	fail "--json: the regression is not in the JSON: $(cat "$tmp/out")"
pass "--json: 3 JSON objects, one per line, messages_per_sec regressed: worse when it falls, beyond its threshold, open (a worse move shown), alpha 0.015 over 1 look"
rc=$(run "$cmp" --bounds "$fix/bounds" --json --looks 4 "$fix/old" "$fix/old")
[ "$rc" = 0 ] && [ "$(grep -c '"worse_when":"rises","beyond":false,"estimate_beyond":false,"open":false,"alpha":0.015,"looks":4,"level":0.00375,"level_metric":0.0005625,"verdict":"same","why":"[^"]*"}$' "$tmp/out")" = 2 ] ||
	fail "--json --looks 4, identical run sets: exit $rc: $(cat "$tmp/out")"
pass "--json --looks 4: the look's level 0.0125; the per-op metrics worse when they rise, same, not beyond, not open"

# --tsv: the fields of --json, the same values, for shell scripts
rc=$(run "$cmp" --bounds "$fix/bounds" --json "$fix/old" "$fix/regressed")
cp "$tmp/out" "$tmp/json"
rc=$(run "$cmp" --bounds "$fix/bounds" --tsv "$fix/old" "$fix/regressed")
[ "$rc" = 1 ] && [ "$(wc -l <"$tmp/out")" = 4 ] || fail "--tsv regression: exit $rc: $(cat "$tmp/out")"
python3 - "$tmp/json" "$tmp/out" <<'PY' || fail "--tsv differs from --json"
import json, math, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
keys = rows[0]
assert keys == list(objs[0].keys()), (keys, list(objs[0].keys()))
for o, r in zip(objs, rows[1:]):
    for k, v in zip(keys, r):
        j = o[k]
        if j is None:
            assert v == "-", (k, v)
        elif isinstance(j, bool):
            assert v == ("true" if j else "false"), (k, v)
        elif isinstance(j, (int, float)):
            assert float(v) == j or (math.isinf(j) and float(v) == j), (k, v, j)
        else:
            assert v == j, (k, v, j)
PY
nkeys=$(head -n1 "$tmp/out" | wc -w)
want="--json and --tsv: give one"
rc=$(run "$cmp" --bounds "$fix/bounds" --json --tsv "$fix/old" "$fix/regressed")
[ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/err" || fail "--json --tsv: exit $rc: $(cat "$tmp/err")"
pass "--tsv: a line of the $nkeys keys of --json, then its values row by row; with --json refused"

# --plan: the look sizes vmab and the benches add runs or boots up to
rc=$(run "$cmp" --plan 3/9)
[ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "3 5 8 9" ] || fail "--plan 3/9: exit $rc: $(cat "$tmp/out" "$tmp/err")"
rc=$(run "$cmp" --plan 8/24)
[ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "8 12 18 24" ] || fail "--plan 8/24: exit $rc: $(cat "$tmp/out")"
rc=$(run "$cmp" --plan 5/5)
[ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "5" ] || fail "--plan 5/5: exit $rc: $(cat "$tmp/out")"
pass "--plan: 3/9 is 3 5 8 9, 8/24 is 8 12 18 24, 5/5 one look"

# the other way round: +16 % throughput is an improvement, not a failure
rc=$(run "$cmp" --bounds "$fix/bounds" "$fix/regressed" "$fix/old")
[ "$rc" = 0 ] || fail "improvement: exit $rc, want 0"
row messages_per_sec | grep -q '+16\.3%.*  improved$' || fail "improvement: not marked: $(cat "$tmp/out")"
pass "improvement: exit 0, marked improved"

rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.0001 "$fix/old" "$fix/regressed")
[ "$rc" = 4 ] && row messages_per_sec | grep -q 'too-few-runs$' ||
	fail "--alpha 0.0001: 8 vs 8 runs cannot reach it: exit $rc: $(cat "$tmp/out")"
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.0001 --tsv "$fix/old" "$fix/regressed")
[ "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	NR == 2 { print $c["verdict"], $c["beyond"], $c["estimate_beyond"] }' "$tmp/out")" = "too-few-runs false true" ] ||
	fail "--alpha 0.0001 --tsv: -14 % not beyond, yet its estimate past -5 %: $(cat "$tmp/out")"
pass "--alpha 0.0001: too-few-runs, exit 4; the estimate past its threshold (estimate_beyond), not shown (beyond)"

# Paired blocks (as --ab --save writes them): the signed-rank test; 8 blocks
# all beyond the threshold give one-sided p 1 / 2^8, below 0.05 / 3 / 2.
rc=$(run "$cmp" --bounds "$fix/bounds" --paired "$fix/old" "$fix/regressed")
[ "$rc" = 1 ] && row messages_per_sec | grep -q 'regressed$' &&
	head -n1 "$tmp/out" | grep -q "paired: Wilcoxon signed-rank.*alpha 0.015 over 1 look," ||
	fail "--paired: exit $rc, want 1 and the paired test named: $(cat "$tmp/out")"
pass "--paired: exit 1, $(row messages_per_sec | tr -s ' ')"
# At alpha 0.05 (as found), 4 looks: each at 0.0125, the primary metric keeps
# 70 % of it, 0.00875: 2 / 2^8 reaches it (an even split, 0.0042 a metric,
# could not); 8 looks: 0.0044 cannot
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.05 --paired --looks 4 "$fix/old" "$fix/regressed")
[ "$rc" = 1 ] && row messages_per_sec | grep -q 'regressed$' ||
	fail "--paired --looks 4: exit $rc, want 1: the primary metric reaches its level: $(cat "$tmp/out")"
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.05 --paired --looks 8 "$fix/old" "$fix/regressed")
[ "$rc" = 4 ] && row messages_per_sec | grep -q 'too-few-runs$' ||
	fail "--paired --looks 8: exit $rc, want 4 and too few runs: $(cat "$tmp/out")"
pass "--paired --looks 4: the primary metric's 70 % of 0.0125 reaches 2 / 2^8: exit 1; --looks 8: too few runs, exit 4"
rc=$(run "$cmp" --bounds "$fix/bounds" --json "$fix/old" "$fix/old")
[ "$rc" = 0 ] && [ "$(grep -c '"verdict":"same"' "$tmp/out")" = 3 ] ||
	fail "identical run sets: not proven the same: $(cat "$tmp/out")"
pass "identical run sets: all 3 metrics proven the same (equivalence test)"
# cv_block: the spread of the per-block ratios, null unless paired
cv_blocks() { python3 -c 'import json, sys; print(" ".join(str(json.loads(l)["cv_block"]) for l in sys.stdin))' <"$tmp/out"; }
[ "$(cv_blocks)" = "None None None" ] || fail "unpaired --json: cv_block not null: $(cat "$tmp/out")"
run "$cmp" --bounds "$fix/bounds" --json --paired "$fix/old" "$fix/old" >/dev/null
[ "$(cv_blocks)" = "0 0 0" ] || fail "--paired --json, a run set with itself: cv_block not 0: $(cat "$tmp/out")"
# the old runs rotated by one: ratios 1000300 / 1000000, 1000000 / 1001000, ...
old=(1000000 1001000 999000 1000500 999500 1000200 999800 1000300)
rot=("${old[7]}" "${old[@]:0:7}")
sed "s/^\(hackbench.runs.messages_per_sec:\).*/\1 ${rot[*]}/" "$fix/old" >"$tmp/rotated"
run "$cmp" --bounds "$fix/bounds" --json --paired "$fix/old" "$tmp/rotated" >/dev/null
# robust CV = MAD / median / Phi^-1(3/4) of the ratios, computed here from the list
python3 -c '
import json, statistics as st, sys
old = [float(x) for x in sys.argv[1].split()]
new = [float(x) for x in sys.argv[2].split()]
r = [n / o for o, n in zip(old, new)]
med = st.median(r)
want = st.median(abs(x - med) for x in r) / med / st.NormalDist().inv_cdf(0.75)
got = json.loads(sys.stdin.readline())["cv_block"]
assert abs(got - want) < 1e-6 * want, (got, want)
' "${old[*]}" "${rot[*]}" <"$tmp/out" ||
	fail "--paired --json, rotated runs: cv_block is not the robust CV of the ratios: $(head -n1 "$tmp/out")"
pass "--json cv_block: null unpaired, 0 for a run set with itself, the robust CV of the block ratios ($(head -n1 "$tmp/out" | sed 's/.*"cv_block":\([^,]*\).*/\1/'))"

# Interleaved boots: each boot one run (its mean), Welch's t-test
sed 's/^\(hackbench.runs.messages_per_sec:\).*/\1 1020000 1021000 1019000 1020500 1019500 1020200 1019800 1020300/' \
	"$fix/old" >"$tmp/boot-high"
rc=$(run "$cmp" --bounds "$fix/bounds" --boots "$fix/old,$fix/old,$tmp/boot-high,$fix/old" \
	"$fix/regressed,$fix/regressed,$fix/regressed,$fix/regressed")
[ "$rc" = 1 ] && row messages_per_sec | grep -q 'regressed$' &&
	head -n1 "$tmp/out" | grep -q "boots: Welch's t on the boots' means, .*alpha 0.01 " ||
	fail "--boots, 4 boots a side, -14 %: exit $rc: $(cat "$tmp/out" "$tmp/err")"
pass "--boots, 4 boots a side, new 14 % lower: exit 1 at alpha 0.01, $(row messages_per_sec | tr -s ' ')"
# Three a side (one old boot 6 % high) show the move but not that it is
# beyond the alarm line, -2.5 %, at the boots' alpha of 0.01; at 0.05 they do.
sed 's/^\(hackbench.runs.messages_per_sec:\).*/\1 1060000 1060000 1060000 1060000 1060000 1060000 1060000 1060000/' \
	"$fix/old" >"$tmp/boot-6pc"
rc=$(run "$cmp" --bounds "$fix/bounds" --boots "$fix/old,$fix/old,$tmp/boot-6pc" \
	"$fix/regressed,$fix/regressed,$fix/regressed")
[ "$rc" = 4 ] && row messages_per_sec | grep -q ' undecided$' ||
	fail "--boots, 3 boots a side, -14 %: exit $rc, want 4 and undecided: $(cat "$tmp/out" "$tmp/err")"
pass "--boots, 3 boots a side, -14 %: exit 4, undecided"
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.05 --boots "$fix/old,$fix/old,$tmp/boot-6pc" \
	"$fix/regressed,$fix/regressed,$fix/regressed")
[ "$rc" = 1 ] && row messages_per_sec | grep -q 'regressed$' ||
	fail "--boots --alpha 0.05, 3 boots a side, -14 %: exit $rc: $(cat "$tmp/out" "$tmp/err")"
pass "--boots --alpha 0.05, 3 boots a side, -14 %: exit 1, regressed"
# The same two boots a side, one of them 2 % high: no move, but two boots
# bound the change no closer than its interval at the boots' level, which
# reaches beyond +/-5 %: never regressed, and no pass ("same" and a pass
# need the interval inside M); with 3 boots of each a side it is inside.
rc=$(run "$cmp" --bounds "$fix/bounds" --boots "$fix/old,$tmp/boot-high" "$tmp/boot-high,$fix/old")
[ "$rc" = 4 ] && ! grep -q '  regressed$' "$tmp/out" ||
	fail "--boots, the same two boots a side in another order: exit $rc: $(cat "$tmp/out")"
rc=$(run "$cmp" --bounds "$fix/bounds" --boots "$fix/old,$tmp/boot-high,$fix/old,$tmp/boot-high,$fix/old,$tmp/boot-high" \
	"$tmp/boot-high,$fix/old,$tmp/boot-high,$fix/old,$tmp/boot-high,$fix/old")
[ "$rc" = 0 ] && ! grep -q '  regressed$' "$tmp/out" ||
	fail "--boots, the same six boots a side in another order: exit $rc: $(cat "$tmp/out")"
pass "--boots, the same boots a side: two exit 4 (interval wider than M), six exit 0, $(row messages_per_sec | awk '{ print $NF }')"
rc=$(run "$cmp" --bounds "$fix/bounds" --boots "$fix/old" "$fix/regressed")
[ "$rc" = 4 ] && grep -q "too few boots: 1 vs 1" "$tmp/out" ||
	fail "--boots, one boot a side: exit $rc, want 4 and too few boots: $(cat "$tmp/out")"
pass "--boots, one boot a side: exit 4, too few boots"

# A look of a sequential gate over boots (vmab): alpha spent as the
# in-boot gate spends it, alpha ln(1 + (e - 1) N/M) by a look at N of M
# boots a side.  Three a side with one old boot 7 % high: at the whole
# alpha of 0.05 regressed (the move shown at 0.05 x 0.7, the primary
# metric's share, / 2, its estimate beyond -2.5 %); a first look at 3 of
# 9 has 45 % of it and does not show the move (undecided); a last look at
# 5 after 3 spends what is left and regresses again.
sed 's/^\(hackbench.runs.messages_per_sec:\).*/\1 1070000 1070000 1070000 1070000 1070000 1070000 1070000 1070000/' \
	"$fix/old" >"$tmp/boot-3pc"
three=("$fix/old,$fix/old,$tmp/boot-3pc" "$fix/regressed,$fix/regressed,$fix/regressed")
# what may be spent of alpha $1 by a look at $2 of $3, less by one at $4 of $3
spent() {
	python3 -c 'import math, sys
a, n, m, p = map(float, sys.argv[1:])
f = lambda t: a * math.log(1 + (math.e - 1) * t)
print("%.3g" % (f(n / m) - f(p / m)))' "$1" "$2" "$3" "${4:-0}"
}
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.05 --boots "${three[@]}")
[ "$rc" = 1 ] || fail "--boots --alpha 0.05, a boot 7 % high: exit $rc, want 1: $(cat "$tmp/out" "$tmp/err")"
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.05 --boots --look 3/9 "${three[@]}")
[ "$rc" = 4 ] && row messages_per_sec | grep -q ' undecided$' &&
	head -n1 "$tmp/out" | grep -q "alpha 0.05 spent over looks: look 1 at 3 of 9 runs a side, level $(spent 0.05 3 9), same $(spent 0.05 3 9)," ||
	fail "--look 3/9: exit $rc, want 4, undecided, level $(spent 0.05 3 9): $(cat "$tmp/out" "$tmp/err")"
pass "--look 3/9: the first look spends 45 % of alpha ($(spent 0.05 3 9) of 0.05): undecided, exit 4, where the whole alpha says regressed"
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.05 --boots --look 5/9 --prev-look 3 "${three[@]}")
level=$(spent 0.05 5 9 3)
[ "$rc" = 4 ] && head -n1 "$tmp/out" | grep -q "look 2 at 5 of 9 runs a side after 3, level $level," ||
	fail "--look 5/9 --prev-look 3: exit $rc, want 4 at level $level: $(head -n1 "$tmp/out") $(cat "$tmp/err")"
pass "--look 5/9 --prev-look 3: level $level, spent by 5/9 less by 3/9: exit 4"
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.05 --boots --look 5/9 --prev-look 3 --last "${three[@]}")
level=$(spent 0.05 9 9 3)
[ "$rc" = 1 ] && row messages_per_sec | grep -q 'regressed$' &&
	head -n1 "$tmp/out" | grep -q "look 2 at 5 of 9 runs a side after 3 (the last), level $level," ||
	fail "--look 5/9 --prev-look 3 --last: exit $rc, want 1 at level $level: $(cat "$tmp/out" "$tmp/err")"
pass "--look 5/9 --prev-look 3 --last: what is left ($level): regressed, exit 1"
"$cmp" --bounds "$fix/bounds" --alpha 0.05 --boots "${three[@]}" | sed 1d >"$tmp/whole"
rc=$(run "$cmp" --bounds "$fix/bounds" --alpha 0.05 --boots --look 9/9 "${three[@]}")
[ "$rc" = 1 ] && sed 1d "$tmp/out" | cmp -s - "$tmp/whole" ||
	fail "--look 9/9: exit $rc, not the verdicts of the whole alpha: $(cat "$tmp/out" "$tmp/err")"
pass "--look 9/9, a single planned look: the whole alpha, the same table and verdicts as without --look"

# Every verdict word true.  An old side of zeros: the change of
# a metric where 0 is normal is relative to its floor (0.01 migrations per
# 1k ops), and a move away from 0 is never "same" (it was "+inf% same" at
# --looks 4, where the equivalence margin silently became 0.5 migrations
# per 1k ops).
rc=$(run "$cmp" --bounds "$fix/bounds" --looks 4 "$fix/zero-old" "$fix/zero-new")
row migrations_per_1k_ops | grep -q '+100.0%' && ! row migrations_per_1k_ops | grep -q ' same$' &&
	grep -q 'migrations_per_1k_ops: .*shift +100.0% of the floor 0.01 \[' "$tmp/out" ||
	fail "0 -> 0.01 migrations per 1k ops: exit $rc: $(cat "$tmp/out" "$tmp/err")"
pass "0 -> 0.01 migrations per 1k ops: +100 % of its floor, $(row migrations_per_1k_ops | awk '{ print $NF }'), not same"
# A gated metric left undecided is not a pass: exit 4, as a skip.
rc=$(run "$cmp" --bounds "$fix/bounds" "$fix/old" "$fix/undecided")
[ "$rc" = 4 ] && row messages_per_sec | grep -q 'undecided$' ||
	fail "throughput undecided: exit $rc, want 4: $(cat "$tmp/out" "$tmp/err")"
pass "throughput undecided: exit 4"
# A metric without a floor, from 0: any move shown is beyond every
# threshold (+inf), and JSON keeps its sign (1e999: valid JSON, read as
# inf by Python and as the largest double by jq), never null.
sed 's/^\(hackbench.runs.ctx_switches_per_op:\).*/\1 0 0 0 0 0 0 0 0/' "$fix/old" >"$tmp/ctx0"
rc=$(run "$cmp" --bounds "$fix/bounds" "$tmp/ctx0" "$fix/old")
[ "$rc" = 1 ] && row ctx_switches_per_op | grep -q '+inf%.*regressed$' ||
	fail "0 -> 0.052 switches per op: exit $rc: $(cat "$tmp/out" "$tmp/err")"
rc=$(run "$cmp" --bounds "$fix/bounds" --json "$tmp/ctx0" "$fix/old")
grep -q '"metric":"hackbench.ctx_switches_per_op",.*"change":1e999,' "$tmp/out" &&
	python3 -c 'import json, sys; assert any(json.loads(l)["change"] == float("inf") for l in sys.stdin)' <"$tmp/out" ||
	fail "--json: +inf change not kept: $(cat "$tmp/out")"
pass "0 -> 0.052 switches per op: +inf% regressed; in JSON 1e999 with its sign, not null"
# A finite, absurd change: three digits, not the 300 of %+8.1f
sed 's/^\(hackbench.runs.ctx_switches_per_op:\).*/\1 1e-300 1e-300 1e-300 1e-300 1e-300 1e-300 1e-300 1e-300/' \
	"$fix/old" >"$tmp/ctx-tiny"
rc=$(run "$cmp" --bounds "$fix/bounds" "$tmp/ctx-tiny" "$fix/old")
width=$(row ctx_switches_per_op | wc -c)
[ "$rc" = 1 ] && [ "$width" -lt 100 ] && row ctx_switches_per_op | grep -q '+5.2e+300%' ||
	fail "1e-300 -> 0.052 switches per op: exit $rc, a row of $width characters: $(row ctx_switches_per_op)"
pass "1e-300 -> 0.052 switches per op: $(row ctx_switches_per_op | tr -s ' '), $width characters"

# A bounds line's own alarm line, inside its change and on its side; any
# other is bad input (below).
sed 's/^hackbench.messages_per_sec change >= -5%$/& alarm -2%/' "$fix/bounds" >"$tmp/alarm-bounds"
grep -q 'alarm -2%$' "$tmp/alarm-bounds" || fail "no messages_per_sec change line to give an alarm: $(cat "$fix/bounds")"
rc=$(run "$cmp" --bounds "$tmp/alarm-bounds" --json "$fix/old" "$fix/regressed")
[ "$rc" = 1 ] && grep -q '"metric":"hackbench.messages_per_sec",.*"threshold":-0.05,"alarm":-0.02,' "$tmp/out" &&
	grep -q '"metric":"hackbench.ctx_switches_per_op",.*"alarm":0.1,' "$tmp/out" ||
	fail "'change >= -5% alarm -2%': exit $rc: $(cat "$tmp/out" "$tmp/err")"
pass "'change >= -5% alarm -2%': the line's own alarm -2 %, the others half their change"

rc=$(run "$cmp" --help)
[ "$rc" = 0 ] && grep -q '^Usage: sched_perf_compare' "$tmp/out" || fail "--help: exit $rc"
pass "--help: usage, exit 0"

# Bad input: exit 2 within a second (timeout: a read that never ends is a
# failure, not a hang), one line on stderr, nothing on stdout.
bad() {
	local what=$1; shift
	within_ms=1000 expect_refused 2 "$what" "$cmp" "$@"
	grep -q '^sched_perf_compare: ' <<<"$refused_err" || fail "$what: unprefixed: $refused_err"
	pass "$what -> exit 2 in $refused_ms ms: $refused_err"
}
b=(--bounds "$fix/bounds")
want="No such file" bad "missing file" "${b[@]}" "$fix/old" "$tmp/none"
want="truncated" bad "truncated" "${b[@]}" "$fix/old" "$fix/truncated"
want="truncated: runset.end says 4" bad "end count" "${b[@]}" "$fix/end-mismatch" "$fix/old"
want="version 1, this program reads 2" bad "version 1" "${b[@]}" "$fix/version-1" "$fix/old"
want="not a finite number" bad "non-numeric run" "${b[@]}" "$fix/old" "$fix/non-numeric"
want="has 7 values" bad "ragged runs" "${b[@]}" "$fix/old" "$fix/ragged"
want="no meta.workload" bad "no workload" "${b[@]}" "$fix/old" "$fix/no-workload"
want="another workload: hackbench vs tcp_rr" bad "other workload" "${b[@]}" "$fix/old" "$fix/other-workload"
want="other options: '-g 4 --pipe' vs '-g 8 --pipe'" bad "other options" "${b[@]}" "$fix/old" "$fix/other-options"
want="not a 'key: value' line" bad "not a results file" "${b[@]}" "$fix/old" "$fix/bounds"
want="between 0 and 1" bad "--alpha 0" --alpha 0 "${b[@]}" "$fix/old" "$fix/old"
want="between 0 and 1" bad "--alpha 1" --alpha 1 "${b[@]}" "$fix/old" "$fix/old"
want="between 0 and 1" bad "--alpha not a number" --alpha lots "${b[@]}" "$fix/old" "$fix/old"
want="needs a value" bad "--alpha without value" "${b[@]}" "$fix/old" "$fix/old" --alpha
want="above 0" bad "--max-cv 0" --max-cv 0 "${b[@]}" "$fix/old" "$fix/old"
want="above 0" bad "--max-cv negative" --max-cv -1 "${b[@]}" "$fix/old" "$fix/old"
want="no run set in ','" bad "--boots, an empty list" --boots "${b[@]}" , "$fix/old"
want="--paired and --boots: give one" bad "--paired --boots" --paired --boots "${b[@]}" "$fix/old" "$fix/old"
want="--boots: cannot compare $fix/other-workload with $fix/old: another workload" \
	bad "--boots, boots of two workloads" --boots "${b[@]}" "$fix/old,$fix/other-workload" "$fix/old"
want="truncated" bad "--boots, a truncated boot" --boots "${b[@]}" "$fix/old,$fix/truncated" "$fix/old"
want="not a whole number" bad "--looks 1.5" --looks 1.5 "${b[@]}" "$fix/old" "$fix/old"
want="between 0 and 1001" bad "--looks 0" --looks 0 "${b[@]}" "$fix/old" "$fix/old"
for look in 3 0/9 10/9 3/0 3/1001 a/9 3/9x /9 3/ -1/9 +3/9 ""; do
	want="--look '$look' is not N/M, whole numbers 1 <= N <= M <= 1000" bad "--look '$look'" \
		--boots --look "$look" "${b[@]}" "$fix/old,$fix/old" "$fix/old,$fix/old"
done
want="--prev-look '3' is not a list of whole numbers from 1, ascending, below --look's N, 3" \
	bad "--prev-look at the look" \
	--boots --look 3/9 --prev-look 3 "${b[@]}" "$fix/old,$fix/old" "$fix/old,$fix/old"
for al in "alarm -7%" "alarm +2%" "alarm x%" "warn -2%" "alarm -2% more"; do
	sed "s/^hackbench.messages_per_sec change >= -5%\$/& $al/" "$fix/bounds" >"$tmp/bad-alarm"
	want="bad-alarm:" bad "a bounds line with '$al'" --bounds "$tmp/bad-alarm" "$fix/old" "$fix/old"
done
want="--prev-look '5,3' is not a list of whole numbers from 1, ascending" bad "--prev-look not ascending" \
	--boots --look 8/9 --prev-look 5,3 "${b[@]}" "$fix/old,$fix/old" "$fix/old,$fix/old"
want="--prev-look 'x' is not a list of whole numbers" bad "--prev-look x" \
	--boots --look 3/9 --prev-look x "${b[@]}" "$fix/old,$fix/old" "$fix/old,$fix/old"
want="--prev-look and --last go with --look" bad "--prev-look without --look" \
	--boots --prev-look 2 "${b[@]}" "$fix/old,$fix/old" "$fix/old,$fix/old"
want="--prev-look and --last go with --look" bad "--last without --look" \
	--boots --last "${b[@]}" "$fix/old,$fix/old" "$fix/old,$fix/old"
want="--looks and --look: give one" bad "--looks and --look" \
	--boots --looks 3 --look 3/9 "${b[@]}" "$fix/old,$fix/old" "$fix/old,$fix/old"
sed -E 's/^(hackbench\.runs\..*) [^ ]+$/\1/' "$fix/old" >"$tmp/seven"
want="do not have as many runs" bad "--paired, 8 and 7 runs" --paired "${b[@]}" "$fix/old" "$tmp/seven"
want="--summary $tmp/no/such: No such file" bad "--summary not writable" \
	--summary "$tmp/no/such" "${b[@]}" "$fix/old" "$fix/old"
want="--summary goes with a comparison" bad "--summary with --dump" \
	--summary "$tmp/summary" --dump "$fix/old"
want="--plan '0/9' is not N/M" bad "--plan 0/9" --plan 0/9
want="--plan '9/3' is not N/M" bad "--plan 9/3" --plan 9/3
want="--plan takes no run set" bad "--plan with run sets" --plan 3/9 "$fix/old" "$fix/old"
want="unknown option '--bogus'" bad "unknown option" --bogus "${b[@]}" "$fix/old" "$fix/old"
want="got 1 operand" bad "one operand" "${b[@]}" "$fix/old"
want="got 0 operands" bad "no operand" "${b[@]}"
want="got 3 operands" bad "three operands" "${b[@]}" "$fix/old" "$fix/old" "$fix/old"
want="No such file" bad "bounds file missing" --bounds "$tmp/none" "$fix/old" "$fix/old"
printf 'hackbench.messages_per_sec change >= 5%%\n' >"$tmp/bad.bounds"
want=":1:" bad "bounds file malformed" --bounds "$tmp/bad.bounds" "$fix/old" "$fix/old"
printf 'tcp_rr.transactions_per_sec change >= -5%%\n' >"$tmp/tcp.bounds"
want="no change thresholds for hackbench" bad "no threshold for the workload" --bounds "$tmp/tcp.bounds" "$fix/old" "$fix/old"

# Every input a regular file of at most 16 MiB, refused before it is read.
mkfifo "$tmp/fifo"
truncate -s $(((16 << 20) + 1)) "$tmp/big"	# sparse: no disk
want="/dev/zero: not a regular file but a character device" bad "OLD /dev/zero" "${b[@]}" /dev/zero "$fix/old"
want="$tmp/fifo: not a regular file but a FIFO" bad "OLD a FIFO" "${b[@]}" "$tmp/fifo" "$fix/old"
want="$tmp/fifo: not a regular file but a FIFO" bad "NEW a FIFO" "${b[@]}" "$fix/old" "$tmp/fifo"
want="$tmp/fifo: not a regular file but a FIFO" bad "--boots, a FIFO among the boots" --boots \
	"${b[@]}" "$fix/old,$tmp/fifo" "$fix/old,$fix/old"
want="$tmp/big: $(((16 << 20) + 1)) bytes, above the limit of 16 MiB" \
	bad "NEW above the size limit" "${b[@]}" "$fix/old" "$tmp/big"
want="$tmp/fifo: not a regular file but a FIFO" bad "--bounds a FIFO" --bounds "$tmp/fifo" "$fix/old" "$fix/old"
want="/dev/zero: not a regular file" bad "--bounds /dev/zero" --bounds /dev/zero "$fix/old" "$fix/old"
want="$tmp/big: .* above the limit" bad "--bounds above the size limit" --bounds "$tmp/big" "$fix/old" "$fix/old"
rm "$tmp/big"
want="--bounds: empty file name" bad "--bounds ''" --bounds "" "$fix/old" "$fix/old"
want="'': an empty file name" bad "OLD ''" "${b[@]}" "" "$fix/old"

# The bounds file beside the program is the default.
if grep -q '^hackbench\.messages_per_sec *change *>= *-[0-9.]*%' "$dir/bounds"; then
	rc=$(run "$cmp" "$fix/old" "$fix/regressed")
	[ "$rc" = 1 ] && row messages_per_sec | grep -q 'regressed$' ||
		fail "default bounds: exit $rc, want 1: $(cat "$tmp/err" "$tmp/out")"
	pass "default bounds ($dir/bounds): exit 1, messages_per_sec regressed"
fi

# --dump: the run set and its bounds as tab-separated lines, the one way
# scripts read them: every meta field, every metric's runs as written,
# the change thresholds compare judges with.
rc=$(run "$cmp" --bounds "$fix/bounds" --dump "$fix/old")
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] || fail "--dump: exit $rc: $(cat "$tmp/err")"
# what fixtures/runset/old holds
while IFS='|' read -r k v; do
	grep -qxF "$(printf 'meta\t%s\t%s' "$k" "$v")" "$tmp/out" || fail "--dump: meta $k is not '$v'"
done <<'EOF'
workload|hackbench
variant|pipe-process
options|-g 4 --pipe
nr_cpus|4
kconfig|5a1c0de2b3f40917
kernel|6.12.117 #1 SMP PREEMPT_DYNAMIC
EOF
n=3
[ "$(grep -c '^runs	' "$tmp/out")" = "$n" ] || fail "--dump: $(grep -c '^runs	' "$tmp/out") runs lines, want $n"
want_runs="1000000 1001000 999000 1000500 999500 1000200 999800 1000300"
got_runs=$(awk -F'\t' '$1 == "runs" && $2 == "messages_per_sec" { print $3 }' "$tmp/out")
[ "$got_runs" = "$want_runs" ] || fail "--dump: messages_per_sec runs '$got_runs', want '$want_runs'"
"$cmp" --bounds "$fix/bounds" --json "$fix/old" "$fix/old" >"$tmp/json"
[ "$(grep -c '^change	' "$tmp/out")" = "$(wc -l <"$tmp/json")" ] ||
	fail "--dump: $(grep -c '^change	' "$tmp/out") change thresholds, compare judged $(wc -l <"$tmp/json")"
grep -qxF "$(printf 'change\tmessages_per_sec\t-0.05')" "$tmp/out" || fail "--dump: no change >= -5% for messages_per_sec"
[ "$(grep -c '^meta	' "$tmp/out")" = 7 ] && grep -qxF "$(printf 'meta\trunset_version\t2')" "$tmp/out" ||
	fail "--dump: not the 7 meta lines of the file: $(grep '^meta' "$tmp/out" | tr '\t\n' ' |')"
pass "--dump: 7 meta, $n runs and $(grep -c '^change	' "$tmp/out") change lines, as the run set and bounds say"
want="--dump: expected one run set, got 2" bad "--dump with two run sets" "${b[@]}" --dump "$fix/old" "$fix/old"
want="not a regular file" bad "--dump of /dev/zero" "${b[@]}" --dump /dev/zero

# --merge OUT [--runs LIST] RUNSET...: the one writer of run sets besides
# the programs' --save.  The runs of both files one after another, the
# meta lines of the first; the chosen runs in the order given; a metric
# not in every file left out and named; what it writes reads back.
dumped() { "$cmp" --bounds "$fix/bounds" --dump "$1" | awk -F'\t' -v k="$2" -v m="$3" '$1 == k && $2 == m { print $3 }'; }
rc=$(run "$cmp" --merge "$tmp/both.res" "$fix/old" "$fix/regressed")
[ "$rc" = 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] || fail "--merge: exit $rc: $(cat "$tmp/out" "$tmp/err")"
want_runs="$(dumped "$fix/old" runs messages_per_sec) $(dumped "$fix/regressed" runs messages_per_sec)"
[ "$(dumped "$tmp/both.res" runs messages_per_sec)" = "$want_runs" ] ||
	fail "--merge: runs '$(dumped "$tmp/both.res" runs messages_per_sec)', want '$want_runs'"
cmp -s <("$cmp" --bounds "$fix/bounds" --dump "$fix/old" | grep '^meta') \
	<("$cmp" --bounds "$fix/bounds" --dump "$tmp/both.res" | grep '^meta') ||
	fail "--merge: other meta lines than the first file's"
rc=$(run "$cmp" --bounds "$fix/bounds" "$fix/old" "$tmp/both.res")
# the merged set holds old's runs, then regressed's: a trend with the
# order measured, which compare must see as drift, not as a regression
[ "$rc" = 4 ] && grep -qE '  hackbench\.messages_per_sec  drifting$' "$tmp/out" ||
	fail "--merge: the merged run set against old: exit $rc, want 4 with messages_per_sec drifting: $(cat "$tmp/err" "$tmp/out")"
pass "--merge of two files: 16 runs of each metric in order, the first file's meta; against old: drifting (exit 4)"
rc=$(run "$cmp" --merge "$tmp/pick.res" --runs 8,1,3-4 "$fix/old")
[ "$rc" = 0 ] && [ "$(dumped "$tmp/pick.res" runs messages_per_sec)" = "1000300 1000000 999000 1000500" ] &&
	[ "$(dumped "$tmp/pick.res" runs ctx_switches_per_op)" = "0.052 0.052 0.053 0.05" ] ||
	fail "--merge --runs 8,1,3-4: exit $rc, runs '$(dumped "$tmp/pick.res" runs messages_per_sec)'"
rc=$(run "$cmp" --merge "$tmp/pick2.res" --runs 9-10,2 "$fix/old" "$fix/regressed")
[ "$rc" = 0 ] && [ "$(dumped "$tmp/pick2.res" runs messages_per_sec)" = "$(echo "$want_runs" | awk '{ print $9, $10, $2 }')" ] ||
	fail "--merge --runs 9-10,2 of two files: exit $rc, runs '$(dumped "$tmp/pick2.res" runs messages_per_sec)'"
pass "--merge --runs: runs 8,1,3-4 of one file and 9-10,2 of two, in the order given"
sed -e '/^hackbench\.runs\.ctx_switches_per_op:/d' -e 's/^runset\.end: 3$/runset.end: 2/' "$fix/old" >"$tmp/two-metrics"
rc=$(run "$cmp" --merge "$tmp/dropped.res" "$fix/old" "$tmp/two-metrics")
[ "$rc" = 0 ] && [ "$(cat "$tmp/out")" = "$(printf 'dropped\tctx_switches_per_op')" ] &&
	[ "$("$cmp" --bounds "$fix/bounds" --dump "$tmp/dropped.res" | grep -c '^runs	')" = 2 ] ||
	fail "--merge, a metric in one file only: exit $rc: $(cat "$tmp/out" "$tmp/err")"
pass "--merge: a metric not in every file left out, named on stdout: $(tr '\t' ' ' <"$tmp/out")"
m=$tmp/merged.res
mb() { local what=$1 w=$2; shift 2; want=$w absent="$m" bad "$what" "$@"; ! ls "$tmp" | grep -q '\.tmp' || fail "$what: a temporary file left"; }
mb "--merge --runs 0" "'0' is not a run number" --merge "$m" --runs 0 "$fix/old"
mb "--merge --runs beyond" "run 17, but the run set has 16 runs" --merge "$m" --runs 1,17 "$fix/old" "$fix/regressed"
mb "--merge --runs twice" "run 3 given twice" --merge "$m" --runs 1-4,3 "$fix/old"
mb "--merge --runs a falling range" "'5-2' is not" --merge "$m" --runs 5-2 "$fix/old"
mb "--merge --runs a trailing comma" "'' is not" --merge "$m" --runs 1, "$fix/old"
mb "--merge --runs a word" "'all' is not" --merge "$m" --runs all "$fix/old"
mb "--merge --runs ''" "an empty list" --merge "$m" --runs "" "$fix/old"
mb "--merge no run set" "no run set to read" --merge "$m"
mb "--merge of two workloads" "cannot merge .*other-workload.*another workload" --merge "$m" "$fix/old" "$fix/other-workload"
mb "--merge of other options" "other options" --merge "$m" "$fix/old" "$fix/other-options"
mb "--merge of a truncated run set" "truncated" --merge "$m" "$fix/old" "$fix/truncated"
mb "--merge of a ragged run set" "ragged runs" --merge "$m" "$fix/ragged"
mb "--merge into a directory" "is a directory" --merge "$tmp" "$fix/old"
mb "--merge into a missing directory" "cannot write into $tmp/no/such" --merge "$tmp/no/such/x" "$fix/old"
mb "--merge ''" "--merge: empty value" --merge "" "$fix/old"
mb "--runs without --merge" "--runs goes with --merge" --runs 1 "$fix/old" "$fix/old"
mb "--dump and --merge" "give one" --dump --merge "$m" "$fix/old"

# Real runs, once the driver writes run sets into its results file.
"$dir/hackbench" --iterations 6 --budget 3 --results "$tmp/a.res" >"$tmp/run.out" 2>&1 ||
	fail "hackbench run: $(tail -3 "$tmp/run.out")"
grep -q '^hackbench.runs.' "$tmp/a.res" || fail "hackbench --results wrote no runs: $(head -c 300 "$tmp/a.res")"
{
	"$dir/hackbench" --iterations 6 --budget 3 --results "$tmp/b.res" >/dev/null 2>&1 ||
		fail "second hackbench run"
	"$dir/hackbench" --iterations 6 --budget 3 --socket --results "$tmp/s.res" >/dev/null 2>&1 ||
		fail "hackbench --socket run"
	# against itself: never worse; 6 noisy runs may not show "same" (4)
	rc=$(run "$cmp" "$tmp/a.res" "$tmp/a.res")
	[ "$rc" = 0 ] || [ "$rc" = 4 ] || fail "real run against itself: exit $rc: $(cat "$tmp/err" "$tmp/out")"
	! grep -qE 'regressed|worse|better|improved' "$tmp/out" || fail "real run against itself: a move"
	pass "real run against itself: exit $rc, $(grep -c '  hackbench\.' "$tmp/out") rows, no move"
	# two runs of one kernel: rarely a regression, but noise may say so,
	# and 6 runs rarely decide every metric (exit 4)
	rc=$(run "$cmp" "$tmp/a.res" "$tmp/b.res")
	{ [ "$rc" = 0 ] || [ "$rc" = 1 ] || [ "$rc" = 4 ]; } && [ ! -s "$tmp/err" ] ||
		fail "two real runs: exit $rc: $(cat "$tmp/err")"
	pass "two real runs: exit $rc, marks: $(awk '/  hackbench\./ && $NF !~ /^hackbench\./ { printf "%s=%s ", $(NF - 1), $NF }' "$tmp/out")"
	rc=$(run "$cmp" --json "$tmp/a.res" "$tmp/b.res")
	{ [ "$rc" = 0 ] || [ "$rc" = 1 ] || [ "$rc" = 4 ]; } && [ -s "$tmp/out" ] && json_lines ||
		fail "two real runs --json: exit $rc: $(cat "$tmp/err" "$tmp/out")"
	pass "two real runs --json: $(wc -l <"$tmp/out") JSON objects"
	want="another variant: pipe-process vs socket-process" bad "real runs of two variants" "$tmp/a.res" "$tmp/s.res"
	"$dir/tcp_rr" --iterations 2 --budget 2 --results none --save "$tmp/t.res" >/dev/null 2>&1 ||
		fail "tcp_rr --save run"
	# the summary figures as 'value' lines: tcp_rr's latency percentiles
	"$cmp" --dump "$tmp/t.res" >"$tmp/t.dump" || fail "--dump of a tcp_rr run set"
	grep -q '^value	latency_p99_us	[0-9.e+]*$' "$tmp/t.dump" && grep -q '^meta	schedstat	' "$tmp/t.dump" ||
		fail "--dump of a tcp_rr run: no latency_p99_us value or meta schedstat: $(grep -v '^runs' "$tmp/t.dump" | head -n 5)"
	pass "--dump of a real tcp_rr run: $(grep -c '^meta' "$tmp/t.dump") meta lines, $(grep -c '^value' "$tmp/t.dump") values (latency_p99_us $(awk -F'\t' '$2 == "latency_p99_us" { print $3 }' "$tmp/t.dump") us)"
}
done_ok
