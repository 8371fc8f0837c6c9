#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/vmab.sh's sequential rule over boots (its engine, sched_perf_vmab:
# the in-boot gate's loop over boots), without a VM: a stand-in
# for vmtest (SCHED_PERF_VMTEST) "builds" a kernel per side and "boots"
# it by writing a hackbench run set, the fixture run set
# (fixtures/runset/old) with its throughput scaled by a factor per boot
# from a table, the other metrics alike on both sides.  Judged with the
# fixtures' bounds (messages_per_sec change >= -5%):
#   (a) boots that agree: stops at the first look, exit 0, nothing open
#   (b) -30 %: stops at the first look, exit 1, regressed
#   (c) -4 % with 2-6 % between boots, no plan (VM_CATCH=0): pairs added
#       at 5, 8 and 9 boots a side, interleaved A B B A ..., stops at
#       VM_MAX_BOOTS with exit 4
#   (d) the same with VM_BUDGET: stops when the boots took it, the look
#       then the last (a clock that moves 100 s a call stands in for the
#       host's, so that each boot takes 100 s)
#   (e) VM_MAX_BOOTS=VM_BOOTS: one look, with the whole alpha
#   (f) VM_CATCH=5%: the plan held to VM_MAX_BOOTS, said after each look
#   (g) the default: the plan to catch the program's own change line,
#       said first, held to the default budget (1200 s)
# and a program that cannot be compared stops it (4), a bisect step left
# open is skipped (125), a failure of vmab's own exits 2 (128 bisecting).
set -u
. "$(dirname "$0")/lib.sh"
intree=$1
top=$(cd "$(dirname "$0")/.." && pwd)
fix=$top/tools/testing/selftests/sched_perf/fixtures/runset
[ -x "$intree/sched_perf_compare" ] || fail "no $intree/sched_perf_compare (make build)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the stand-in for vmtest: "TREE kernel" and "TREE run", as vmab calls it
cat >"$tmp/vmtest" <<'EOF'
#!/bin/bash
set -eu
case $2 in
kernel)
	# B's kernel is the one with b.patch (VM_B_PATCHES)
	side=A
	[[ ${VM_KERNEL_PATCHES:-} == */b.patch* ]] && side=B
	echo "$side" >"$STUB/image-$side"
	echo "kernel: $STUB/image-$side" >>"$VM_STATUS"
	;;
run)
	side=$(cat "$VM_KERNEL")
	k=$(($(cat "$STUB/count-$side" 2>/dev/null || echo 0) + 1))
	echo "$k" >"$STUB/count-$side"
	echo "$side" >>"$STUB/order"
	echo "$VM_CHECKS" >>"$STUB/checks"
	# BREAK_LOOK: a failure of vmab's own (its look's directory a file)
	[ -z "${BREAK_LOOK:-}" ] || touch "$(dirname "$VM_OUT")/look-1"
	# this side's k-th factor in the table: "A f1 f2 ..." and "B f1 f2 ..."
	f=$(awk -v s="$side" -v k="$k" '$1 == s { print $(k + 1) }' "$STUB/table")
	[ -n "$f" ] || { echo "vmtest stand-in: no factor for boot $k of $side" >&2; exit 2; }
	mkdir -p "$VM_OUT/results"
	awk -v f="$f" -v j="$(((k % 3) - 1))" '
		/^hackbench\.runs\.messages_per_sec:/ { for (i = 2; i <= NF; i++) $i *= f }
		/^hackbench\.runs\.(migrations_per_1k_ops|ctx_switches_per_op):/ {
			for (i = 2; i <= NF; i++) $i *= 1 + 0.002 * j }
		{ print }' "$FIXTURE" >"$VM_OUT/results/hackbench.results"
	# a second program, hb2 (hackbench's run set), by table2's factors
	if [ -f "$STUB/table2" ]; then
		f=$(awk -v s="$side" -v k="$k" '$1 == s { print $(k + 1) }' "$STUB/table2")
		awk -v f="$f" '/^hackbench\.runs\.messages_per_sec:/ { for (i = 2; i <= NF; i++) $i *= f }
			{ print }' "$FIXTURE" >"$VM_OUT/results/hb2.results"
	fi
	;;
*)
	exit 2
	;;
esac
EOF
# a clock that moves 100 s a call, for (d)
mkdir "$tmp/clock"
cat >"$tmp/clock/date" <<'EOF'
#!/bin/bash
t=$(($(cat "$STUB/clock" 2>/dev/null || echo 0) + 100))
echo "$t" >"$STUB/clock"
echo "$t"
EOF
chmod +x "$tmp/vmtest" "$tmp/clock/date"
mkdir "$tmp/tree"
touch "$tmp/tree/Makefile" "$tmp/b.patch"

# vmab on the table $1 (a case's name in $tmp/out-NAME); its exit status
vmab() {	# name table [VAR=VALUE...]
	local name=$1 table=$2 rc=0
	shift 2
	export STUB=$tmp/stub-$name
	mkdir -p "$STUB"
	echo "$table" >"$STUB/table"
	[ -z "${TABLE2:-}" ] || echo "$TABLE2" >"$STUB/table2"
	env -u VM_BOOTS -u VM_MAX_BOOTS -u VM_CATCH -u VM_BUDGET -u VM_CHECKS -u VM_BISECT -u VM_A_PATCHES \
		-u VM_KERNEL_PATCHES -u VM_TIMEOUT FIXTURE="$fix/old" SCHED_PERF_VMTEST="$tmp/vmtest" \
		SCHED_PERF_COMPARE="$intree/sched_perf_compare" VM_BOUNDS="$fix/bounds" SCHED_PERF_CACHE="$tmp/cache" VM_OUT="$tmp/out-$name" \
		VM_B_PATCHES="$tmp/b.patch" "$@" \
		"$top/scripts/vmab.sh" "${SIDE_A:-$tmp/tree}" "${SIDE_B:-$tmp/tree}" >"$tmp/$name.log" 2>&1 || rc=$?
	echo "$rc"
}
# the sides of the boots, in the order vmab numbered them: "A B B A ..."
boot_order() { find "$tmp/out-$1" -maxdepth 1 -name 'boot-*-[AB]' -type d -printf '%f\n' |
	sort -t- -k2n | sed 's/.*-//' | paste -sd' '; }
# "A B B A A B ..." for N pairs
interleaved() { local i s=; for ((i = 0; i < $1; i++)); do s="$s$( ((i % 2)) && echo ' B A' || echo ' A B')"; done; echo "${s# }"; }
stopped() { grep '^vmab: stopped at ' "$tmp/$1.log"; }
looks() { sed -n 's/^vmab: look \([0-9]*\) at \([0-9]*\) boots a side: hackbench: .*/\2/p' "$tmp/$1.log" | paste -sd' '; }
show() { tail -n 25 "$tmp/$1.log"; }

# TREE@REV sides build in a work tree kept in the cache; one left there
# by a repository since removed and made again at the same path is made
# anew, not refused
agree="A 1.000 1.001 0.999 1 1 1 1 1 1
B 0.9995 1.0005 1.000 1 1 1 1 1 1"
new_repo() { rm -rf "$tmp/repo" && git init -q "$tmp/repo" && touch "$tmp/repo/Makefile" &&
	git -C "$tmp/repo" add Makefile && git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -qm "$1"; }
new_repo first && rc=$(SIDE_A=$tmp/repo@HEAD SIDE_B=$tmp/repo@HEAD vmab wt1 "$agree")
[ "$rc" = 0 ] || fail "TREE@REV sides: exit $rc, want 0: $(show wt1)"
new_repo second && rc=$(SIDE_A=$tmp/repo@HEAD SIDE_B=$tmp/repo@HEAD vmab wt2 "$agree")
[ "$rc" = 0 ] || fail "TREE@REV, a work tree of a removed repository in the cache: exit $rc, want 0: $(show wt2)"
pass "TREE@REV: the cache's work tree of a repository removed and made again at its path is made anew (exit 0)"

# (a) A/A: boots that agree within 0.1 %
rc=$(vmab aa "A 1.000 1.001 0.999 1.0005 0.9995 1 1 1 1
B 0.9995 1.0005 1.000 0.999 1.001 1 1 1 1")
[ "$rc" = 0 ] && [ "$(looks aa)" = 3 ] && [ "$(boot_order aa)" = "$(interleaved 3)" ] &&
	stopped aa | grep -q '^vmab: stopped at look 1: nothing open; 3 boots a side (A 3, B 3), 6 in all: ' &&
	ktap_is "$tmp/out-aa/verdict.tap" 'ok 1 hackbench' 'no metric worse than its threshold over 3 boots each (3 same)' ||
	fail "(a) boots that agree: exit $rc, want 0 at the first look: $(show aa)"
pass "(a) boots that agree: exit 0 at the first look, 3 boots a side, $(stopped aa | sed 's/.*; //')"
[ "$(sort -u "$tmp/stub-aa/checks")" = 0 ] && grep -qE '^vmab: boot 6: B: [0-9]+ s$' "$tmp/aa.log" ||
	fail "(a) the boots ran the guest checks ($(sort -u "$tmp/stub-aa/checks" | paste -sd' ')) or no seconds a boot"
pass "(a) every boot without the guest checks (VM_CHECKS=0 by default), each boot's host seconds printed"
rc=$(vmab aa1 "A 1.000 1.001 0.999
B 0.9995 1.0005 1.000" VM_CHECKS=1)
[ "$rc" = 0 ] && [ "$(sort -u "$tmp/stub-aa1/checks")" = 1 ] || fail "VM_CHECKS=1: exit $rc, not passed on: $(show aa1)"
pass "VM_CHECKS=1: passed on to every boot"

# (b) -30 %: regressed at the first look
rc=$(vmab big "A 1.000 1.001 0.999 1 1 1 1 1 1
B 0.700 0.701 0.699 0.7 0.7 0.7 0.7 0.7 0.7")
[ "$rc" = 1 ] && [ "$(looks big)" = 3 ] &&
	stopped big | grep -q '^vmab: stopped at look 1: a program regressed; 3 boots a side (A 3, B 3), 6 in all' &&
	ktap_is "$tmp/out-big/verdict.tap" 'not ok 1 hackbench' 'regressed: hackbench.messages_per_sec -30.*' ||
	fail "(b) -30 %: exit $rc, want 1 at the first look: $(show big)"
pass "(b) -30 %: exit 1 at the first look, $(sed -n 's/^# hackbench: //p' "$tmp/out-big/verdict.tap")"

# (c) -4 % with boots 2-6 % apart: open at every look
border="A 1.00 1.06 0.95 1.03 0.97 1.05 0.96 1.02 0.98
B 0.96 0.91 1.01 0.93 0.99 0.94 0.98 0.92 0.97"
rc=$(vmab border "$border" VM_CATCH=0)
[ "$rc" = 4 ] && [ "$(looks border)" = "3 5 8 9" ] && [ "$(boot_order border)" = "$(interleaved 9)" ] &&
	[ "$(paste -sd' ' "$tmp/stub-border/order")" = "$(interleaved 9)" ] &&
	stopped border | grep -q '^vmab: stopped at look 4: VM_MAX_BOOTS (9 boots a side) reached; 9 boots a side (A 9, B 9), 18 in all' &&
	ktap_is "$tmp/out-border/verdict.tap" 'ok 1 hackbench # SKIP not shown within its thresholds' 'not shown within its thresholds over 9 boots each .*' ||
	fail "(c) -4 %: exit $rc, looks at '$(looks border)', boots $(boot_order border): $(show border)"
pass "(c) -4 %: exit 4, looks at $(looks border) boots a side, boots $(boot_order border)"
# each look spends its share: 3 of 9 first, 5 after 3, ..., the last what is left
for want in "1:look 1 at 3 of 9 runs a side, level 0.00453," "2:look 2 at 5 of 9 runs a side after 3, level 0.00217," \
	"3:look 3 at 8 of 9 runs a side after 3,5, level 0.00257," "4:look 4 at 9 of 9 runs a side after 3,5,8, level 0.000728,"; do
	head -n1 "$tmp/out-border/look-${want%%:*}/hackbench.compare" | grep -qF "${want#*:}" ||
		fail "(c) look ${want%%:*}: not '${want#*:}': $(head -n1 "$tmp/out-border/look-${want%%:*}/hackbench.compare")"
done
pass "(c) alpha 0.01 spent over the 4 looks as the gate spends it (0.00453, 0.00217, 0.00257, 0.000728)"

# (d) VM_BUDGET: 100 s a boot, 650 s: 6 boots at the first look, one pair more
rc=$(vmab budget "$border" VM_CATCH=0 VM_BUDGET=650 PATH="$tmp/clock:$PATH")
[ "$rc" = 4 ] && [ "$(looks budget)" = "3 4" ] && [ "$(boot_order budget)" = "$(interleaved 4)" ] &&
	stopped budget | grep -q '^vmab: stopped at look 2: VM_BUDGET (650 s) spent; 4 boots a side (A 4, B 4), 8 in all: 800 s of host time in boots (100 s a boot)' &&
	head -n1 "$tmp/out-budget/look-2/hackbench.compare" | grep -qF 'look 2 at 4 of 9 runs a side after 3 (the last), level 0.00547,' ||
	fail "(d) VM_BUDGET=650: exit $rc, looks at '$(looks budget)': $(show budget)"
pass "(d) VM_BUDGET=650 at 100 s a boot: the look at 4 boots a side the last (what is left: 0.00547), exit 4"

# (f) VM_CATCH=5%: boots 2-6 % apart need more than 9 a side to catch a 5 %
# fall at 90 %: said after each open look, the plan held to VM_MAX_BOOTS
rc=$(vmab catch "$border" VM_CATCH=5% VM_MAX_BOOTS=9)
need=$(sed -n 's/^vmab: catch 5%: \([0-9]*\) boots a side needed, more than VM_MAX_BOOTS 9; planned 9, about .*/\1/p' \
	"$tmp/catch.log" | head -n1)
[ "$rc" = 4 ] && [ "$(looks catch)" = "3 5 8 9" ] && [ -n "$need" ] && [ "$need" -gt 9 ] ||
	fail "(f) VM_CATCH=5%: exit $rc, looks '$(looks catch)', need '$need': $(show catch)"
grep -q "^vmab: look 1 at 3 boots a side: hackbench: open .*; could catch -[0-9.]*% (hackbench.messages_per_sec) with 9 boots a side" "$tmp/catch.log" ||
	fail "(f) no 'could catch' on the look: $(show catch)"
pass "(f) VM_CATCH=5%: $need boots a side needed, more than VM_MAX_BOOTS 9: planned 9; each look says what 9 could catch"
rc=$(vmab catch-bad "$border" VM_CATCH=0%)
[ "$rc" = 2 ] && grep -q "VM_CATCH=0%: want a percentage above 0" "$tmp/catch-bad.log" ||
	fail "(f) VM_CATCH=0%: exit $rc: $(show catch-bad)"
pass "(f) VM_CATCH=0%: refused, exit 2"

# (g) by default each program plans to catch its own change line (the
# fixtures' bounds: -5 %) within 1200 s of boots: said before the first
# look; (c)'s boots need more than 50 a side, the budget (12 boots of
# 100 s) ends it at 6 a side
rc=$(vmab default "$border" PATH="$tmp/clock:$PATH")
[ "$rc" = 4 ] && [ "$(looks default)" = "3 5 6" ] &&
	grep -qx 'vmab: plan: hackbench: catch -5% of hackbench.messages_per_sec at 90% power within 50 boots a side and 1200 s of boots; first look at 3' "$tmp/default.log" &&
	grep -q '^vmab: catch 5%: [0-9]* boots a side needed, more than VM_MAX_BOOTS 50; planned 6, about ' "$tmp/default.log" &&
	stopped default | grep -q '^vmab: stopped at look 3: VM_BUDGET (1200 s) spent; 6 boots a side (A 6, B 6), 12 in all' ||
	fail "(g) the default plan: exit $rc, looks at '$(looks default)': $(show default)"
pass "(g) by default: the plan to catch -5 % said first, held to 1200 s (6 boots a side at 100 s), exit 4"

# (e) VM_MAX_BOOTS=VM_BOOTS: the fixed design, one look with the whole alpha
rc=$(vmab fixed "$border" VM_BOOTS=3 VM_MAX_BOOTS=3)
[ "$rc" = 4 ] && [ "$(looks fixed)" = 3 ] &&
	stopped fixed | grep -q '^vmab: stopped at look 1: VM_MAX_BOOTS (3 boots a side) reached; 3 boots a side' &&
	head -n1 "$tmp/out-fixed/look-1/hackbench.compare" | grep -qF 'look 1 at 3 of 3 runs a side, level 0.01,' ||
	fail "(e) VM_MAX_BOOTS=3: exit $rc: $(show fixed)"
pass "(e) VM_MAX_BOOTS=VM_BOOTS=3: one look at the whole alpha 0.01, exit 4"

# VM_METRICS: (c)'s boots judged on context switches alone (the same on
# both sides) pass at the first look, as a bisect on that metric would
rc=$(vmab only "$border" VM_METRICS=hackbench.ctx_switches_per_op)
[ "$rc" = 0 ] && [ "$(looks only)" = 3 ] &&
	ktap_is "$tmp/out-only/verdict.tap" 'ok 1 hackbench' 'no metric worse than its threshold over 3 boots each (1 same)' &&
	head -n1 "$tmp/out-only/look-1/hackbench.compare" | grep -q '; 1 change thresholds;' ||
	fail "VM_METRICS=hackbench.ctx_switches_per_op: exit $rc, want 0 at the first look: $(show only)"
pass "VM_METRICS=hackbench.ctx_switches_per_op: (c)'s boots judged on it alone, exit 0 at the first look"

# VM_METRICS with a threshold of its own: (c)'s -4 % is open at -5 % for
# 9 boots a side (a bisect would skip it), and shown within -20 % (the
# threshold a bisect for a -40 % regression would give) at the second
# look: at the first, 3 boots a side, its interval reaches beyond -20 %
# ([-23 %, +20 %]), and "same" needs it inside
rc=$(vmab wide "$border" VM_BISECT=1 VM_MAX_BOOTS=5 "VM_METRICS=hackbench.messages_per_sec=-20%")
[ "$rc" = 0 ] && [ "$(looks wide)" = "3 5" ] &&
	grep -qx 'hackbench.messages_per_sec change >= -20%' "$tmp/out-wide/metrics.bounds" &&
	ktap_is "$tmp/out-wide/verdict.tap" 'ok 1 hackbench' 'no metric worse than its threshold over 5 boots each (1 same)' &&
	grep -qE ' -4\.[0-9]%  .* hackbench\.messages_per_sec  undecided$' "$tmp/out-wide/look-1/hackbench.compare" &&
	grep -qE ' -4\.[0-9]%  .* hackbench\.messages_per_sec  same$' "$tmp/out-wide/look-2/hackbench.compare" ||
	fail "VM_METRICS=hackbench.messages_per_sec=-20%: exit $rc, want 0 at the second look: $(show wide)"
pass "VM_METRICS=hackbench.messages_per_sec=-20%: (c)'s boots shown within -20 % at the second look, bisect exit 0 (good)"

# a program that cannot be compared (no thresholds for its workload):
# more boots would not help; nothing judged is not a pass
sed 's/hackbench/pipe/g' "$fix/old" >"$tmp/pipe.results"
rc=$(vmab nojudge "$border" FIXTURE="$tmp/pipe.results")
[ "$rc" = 4 ] && [ "$(sed -n 's/^vmab: look \([0-9]*\) at \([0-9]*\) boots a side: hackbench: cannot compare.*/\2/p' "$tmp/nojudge.log")" = 3 ] &&
	stopped nojudge | grep -q '^vmab: stopped at look 1: nothing judged; 3 boots a side' &&
	ktap_is "$tmp/out-nojudge/verdict.tap" 'ok 1 hackbench # SKIP cannot compare' 'cannot compare: no change thresholds for pipe.*' ||
	fail "nothing comparable: exit $rc: $(show nojudge)"
pass "nothing comparable: stops at the first look, nothing judged, exit 4"

# a failure of vmab's own (the engine cannot write a look's table: the
# look's directory is a file) is not "regressed" nor a bisect's "bad": 2,
# and 128 when bisecting
for bisect in 0 1; do
	want=$((bisect ? 128 : 2))
	rc=$(vmab broken$bisect "$border" BREAK_LOOK=1 VM_BISECT=$bisect)
	[ "$rc" = "$want" ] && grep -q "^sched_perf_vmab: cannot write .*/look-1/hackbench.compare: Not a directory" "$tmp/broken$bisect.log" &&
		grep -q "^vmab: the sequential engine failed, exit 2" "$tmp/broken$bisect.log" ||
		fail "VM_BISECT=$bisect, a look's table not written: exit $rc, want $want: $(show broken$bisect)"
	pass "VM_BISECT=$bisect, a failure of vmab's own: exit $want, $(grep -m1 '^sched_perf_vmab: ' "$tmp/broken$bisect.log")"
done

# a bisect step that stays open is skipped (125)
rc=$(vmab bisect "$border" VM_BISECT=1 VM_MAX_BOOTS=5)
[ "$rc" = 125 ] && [ "$(looks bisect)" = "3 5" ] && grep -q '^vmab: bisect: exit 125 (skip)' "$tmp/bisect.log" ||
	fail "VM_BISECT=1, open at VM_MAX_BOOTS=5: exit $rc, want 125: $(show bisect)"
pass "VM_BISECT=1, open at VM_MAX_BOOTS=5: exit 125 after looks at $(looks bisect)"
# two programs in step: hackbench open (-4 %, boots 2-6 % apart), hb2
# -30 %: hb2 regresses at the first look, no boot is added, and
# hackbench takes its last look at the 3 boots a side made (its own gate
# alone would have gone on to 9)
rc=$(TABLE2="A 1.000 1.001 0.999 1 1 1 1 1 1
B 0.700 0.701 0.699 0.7 0.7 0.7 0.7 0.7 0.7" vmab two "$border")
[ "$rc" = 1 ] && [ "$(boot_order two)" = "$(interleaved 3)" ] &&
	stopped two | grep -q '^vmab: stopped at look 1: a program regressed; 3 boots a side' &&
	grep -q '^vmab: look 1 at 3 boots a side: hackbench: open' "$tmp/two.log" &&
	grep -q '^vmab: look 1 at 3 boots a side: hb2: regressed' "$tmp/two.log" &&
	grep -qx 'ok 1 hackbench # SKIP not shown within its thresholds' "$tmp/out-two/verdict.tap" &&
	grep -qx 'not ok 2 hb2' "$tmp/out-two/verdict.tap" ||
	fail "two programs, one -30 %: exit $rc, boots $(boot_order two): $(show two)"
pass "two programs in step: hb2 -30 % regressed at 3 boots a side, hackbench's last look there too, exit 1"

# the engine alone: bad input in one line, exit 2, nothing booted; a
# step that fails is 2 (never 1, "regressed"), 128 passed on for a bisect
eng=$intree/sched_perf_vmab
mkdir "$tmp/e"
want="--step CMD is required" expect_refused 2 "engine without --step" "$eng" "$tmp/e"
want="no DIR" expect_refused 2 "engine without DIR" "$eng" --step true
want="--max-boots 3: want at least --first (5)" \
	expect_refused 2 "engine --max-boots below --first" "$eng" --step true --first 5 --max-boots 3 "$tmp/e"
want="--metric hackbench: want PROG.METRIC" \
	expect_refused 2 "engine --metric without a program" "$eng" --step true --metric hackbench "$tmp/e"
want="--catch and --no-catch: choose one" \
	expect_refused 2 "engine --catch with --no-catch" "$eng" --step true --catch 3 --no-catch "$tmp/e"
want="--first: " expect_refused 2 "engine --first 1" "$eng" --step true --first 1 "$tmp/e"
stdout=any want="boot 1 (A): the step failed (exit 1)" \
	expect_refused 2 "engine, a step that fails with 1" "$eng" --step false "$tmp/e" hackbench
stdout=any want="the step failed" \
	expect_refused 128 "engine, a step that exits 128" "$eng" --step "exit 128 #" "$tmp/e" hackbench
want="the step left no seconds in $tmp/e/boot-1-A.secs" \
	expect_refused 2 "engine, a step that leaves no seconds" "$eng" --step true "$tmp/e" hackbench
pass "sched_perf_vmab: bad input and failed steps: exit 2 (128 passed on), one line, nothing judged"
done_ok
