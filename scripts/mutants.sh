#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh: each test that asserts an outcome is run once against a
# deliberately broken copy of what it guards, and must fail there; a
# test that passes on its mutant could not have failed.  The copies are
# made beside the originals and removed: the repository's files and the
# suite in the kernel tree are left as they are.
#
#   scripts/mutants.sh [KSRC]       (default the Makefile's)
#   make check-mutants
#
# A mutant is "TEST@@FILE@@OLD@@NEW": in FILE (a path in the repository),
# the first OLD replaced by NEW (both Python string literals, so that
# tabs and newlines are exact), in a clone of HEAD; a mutant of a suite
# source (.c, .h) is built in a copy of the suite beside it in the
# kernel tree, where ../lib.mk resolves.  Prints one line per mutant with the
# assertion that caught it.  Exit 0 every mutant caught, 1 one survived,
# 2 bad input (no kernel tree, no built suite, a replacement that does
# not apply).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/programs.sh"
ksrc=${1:-$(sched_perf_ksrc "$top/build")}
selftests=$ksrc/tools/testing/selftests
intree=$selftests/sched_perf
die() { echo "mutants: $*" >&2; exit 2; }
[ -x "$intree/sched_perf_unit" ] || die "no built suite in $intree (make build)"
command -v python3 >/dev/null || die "no python3"

S=tools/testing/selftests/sched_perf
MUTANTS=(
	"unit_runner@@$S/sched_perf_unit.c@@'#include \"unit_tracesum.c\"\n'@@''"
	"unit@@$S/sysinfo.c@@'h *= 0x100000001b3ULL;\n\t\t}'@@'h *= 0x100000001b5ULL;\n\t\t}'"
	"compare@@$S/sched_perf_compare.c@@'WORD(\"why\", r->why),'@@''"
	"compare@@$S/sched_perf_compare.c@@'return r->change < r->threshold;'@@'return r->change > r->threshold;'"
	"compare@@$S/sched_perf_compare.c@@'open ? EXIT_OPEN : 0;'@@'0;'"
	"report@@scripts/report.sh@@'\"\$compare\" --tsv \${bounds:+--bounds \"\$bounds\"} \"\$base\" \"\$res\"'@@'\"\$compare\" --tsv \${bounds:+--bounds \"\$bounds\"} \"\$res\" \"\$base\"'"
	"window@@$S/tasks.c@@'\tif (!status)\n\t\tfinish_in_window();\n\tif (task_test_exit_delay_ms)\n\t\tusleep(task_test_exit_delay_ms * 1000);\n'@@'\tif (task_test_exit_delay_ms)\n\t\tusleep(task_test_exit_delay_ms * 1000);\n\tif (!status)\n\t\tfinish_in_window();\n'"
	"program_list@@$S/.gitignore@@'!/Makefile\n'@@''"
	"bad_input@@$S/cli.c@@'--no-counters and --counters: give one'@@'--no-counters and --counters: pick one'"
	"unit@@$S/compare.c@@'double ps = p->primary_share > 0 ? p->primary_share : CMP_PRIMARY_SHARE;'@@'double ps = 1.0 / nr;'"
	"unit@@$S/verdict.c@@'code = nr_open ? KSFT_SKIP : ksft_code();'@@'code = ksft_code();'"
	"unit@@$S/compare.c@@'if (cmp_min_p(p, n_old ? n_old : n, n) < alpha * (by - spent))\n\t\t\tspent = by;'@@'spent = by;'"
	"verdicts@@$S/compare.c@@'return rule->change * (share > 0 ? share : CMP_ALARM_SHARE);'@@'return rule->change;'"
	"unit@@$S/verdict.c@@'\tresult(KSFT_SKIP, name, NULL);\n\treturn true;'@@'\tresult(KSFT_SKIP, name, \"machine busy with other work\");\n\treturn true;'"
	"unit@@$S/verdict.c@@'if (verdict_has_figure(buf) || !*buf)'@@'if (!*buf)'"
	"unit@@$S/verdict.c@@'\tif (*detail)\n\t\tdetail_note(name, detail);\n'@@''"
	"bpf_source@@$S/src_bpf.c@@'J_IMM(BPF_JEQ, BPF_REG_0, getpid(), L_ADD);'@@'J_IMM(BPF_JGE, BPF_REG_0, 0, L_ADD);'"
	"bpf_source@@$S/src_bpf.c@@'LABEL(L_PREV);\n\tcount(a, C_PLACED_PREV);'@@'LABEL(L_PREV);\n\tcount(a, C_PLACED_OTHER);'"
)

tmp=$(mktemp -d)
mut=$selftests/sched_perf_mutant.$$
trap 'rm -rf "$tmp" "$mut"' EXIT

# HEAD, cloned: the tests find their scripts beside themselves, and
# tests/program_list.sh asks git.
clean=$tmp/clean
git clone -q "$top" "$clean" || die "cannot clone $top"

replace() {	# FILE OLD NEW (Python literals): 0, or 1 when OLD is not there
	python3 - "$1" "$2" "$3" <<'PY'
import ast, sys
path, old, new = sys.argv[1], ast.literal_eval(sys.argv[2]), ast.literal_eval(sys.argv[3])
text = open(path).read()
if old not in text:
    sys.exit(1)
open(path, "w").write(text.replace(old, new, 1))
PY
}

survived=0 n=0
for m in "${MUTANTS[@]}"; do
	IFS=$'\t' read -r test file old new <<<"${m//@@/$'\t'}"
	n=$((n + 1))
	rm -rf "$tmp/repo" "$mut"
	cp -a "$clean" "$tmp/repo"
	suite=$intree
	case $file in
	$S/*.c|$S/*.h)
		# a suite source: built in a copy beside the suite
		cp -a "$intree" "$mut"
		replace "$mut/${file#"$S/"}" "$old" "$new" || die "mutant $n ($test): $old not in $file"
		make -s -C "$mut" OUTPUT="$mut" >"$tmp/build.log" 2>&1 ||
			die "mutant $n ($test): does not build: $(tail -n3 "$tmp/build.log")"
		suite=$mut
		;;
	*)
		replace "$tmp/repo/$file" "$old" "$new" || die "mutant $n ($test): $old not in $file"
		;;
	esac
	# the clone's runner, on the mutant's suite: its test's output nested under "# "
	rc=0
	INTREE=$suite KSRC=$ksrc BUILD=$top/build "$tmp/repo/tests/run.sh" "$test" >"$tmp/out" 2>&1 || rc=$?
	caught=$(sed -n -E '/^# (FAIL|not ok)/{s/^# //p;q}' "$tmp/out")
	if [ "$rc" = 1 ] && [ -n "$caught" ]; then
		printf 'caught   %-13s %s: %s\n' "$test" "$file" "${caught:0:160}"
	else
		printf 'SURVIVED %-13s %s: exit %s, %s\n' "$test" "$file" "$rc" "$(tail -n1 "$tmp/out")"
		survived=$((survived + 1))
	fi
done
echo "mutants: $((n - survived)) of $n caught"
[ "$survived" = 0 ]
