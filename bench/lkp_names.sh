#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The test names 0-day files the suite's results under, by 0-day's own
# parser: lkp-tests' programs/kselftests/parse (Ruby, with
# ruby-activesupport), run from an lkp-tests checkout at LKP_SRC and never
# copied here.  The suite runs as a user runs it, make run_tests with each
# program's defaults, twice: on a quiet machine, then beside two busy
# loops (which turn the bounds on rates and placement into SKIPs).
#
# Prints per run the parser's names (its "NAME.RESULT: 1" lines without
# the result), then:
#   names          how many, in either run
#   differing      names in one run and not in the other
#   with a figure  names holding a number ("0.82", "2_of_2") or a bound
#                  (">=", "<=", "#")
#   checks         the same, each name with the SKIP reason set aside (the
#                  logs parsed again with every "# SKIP reason" cut to "#
#                  SKIP"): the one test per check that a result line names
#   changed        checks judged in one run and skipped in the other
# The logs and the parser's output stay in OUT; an OUT that holds both
# logs is parsed again without new runs.
# Usage: bench/lkp_names.sh SELFTESTS LKP_SRC [OUT]
set -eu
selftests=${1:?usage: lkp_names.sh SELFTESTS LKP_SRC [OUT]}
lkp=${2:?usage: lkp_names.sh SELFTESTS LKP_SRC [OUT]}
out=${3:-$(mktemp -d)}
parse=$lkp/programs/kselftests/parse
[ -f "$parse" ] || { echo "lkp_names: no $parse (git clone https://github.com/intel/lkp-tests)" >&2; exit 2; }
command -v ruby >/dev/null || { echo "lkp_names: no ruby (scripts/deps.sh install bench)" >&2; exit 2; }
. "$(dirname "$0")/../scripts/programs.sh"
mkdir -p "$out/results"
trap busy_stop EXIT

make_run() {	# label
	echo "lkp_names: make run_tests ($1) ..." >&2
	SCHED_PERF_RESULTS_DIR=$out/results make -s -C "$selftests" TARGETS=sched_perf run_tests \
		>"$out/$1.log" 2>&1 || true
}

# The parser's names of a log, one a line, sorted, without the result
lkp_names() {	# log
	LKP_SRC=$lkp ruby "$parse" <"$1" | sed -E 's/\.(pass|fail|skip): [0-9]+$//' | sort -u
}

if [ -s "$out/quiet.log" ] && [ -s "$out/busy.log" ]; then
	echo "lkp_names: the runs of $out again (remove its *.log to run anew)" >&2
else
	make_run quiet
	busy_start 2
	make_run busy
	busy_stop
fi

for run in quiet busy; do
	lkp_names "$out/$run.log" >"$out/$run.names"
	sed -E 's/( # SKIP)( .*)?$/\1/' "$out/$run.log" >"$out/$run.cut.log"
	lkp_names "$out/$run.cut.log" >"$out/$run.checks"
	LKP_SRC=$lkp ruby "$parse" <"$out/$run.cut.log" | sort >"$out/$run.results"
	echo "== $run: $(wc -l <"$out/$run.names") names"
	cat "$out/$run.names"
done

figure() { grep -cE '(^|[._])[0-9][0-9.e+-]*([._]|$)|>=|<=|#' "$@" || true; }
echo
printf '%-40s %8s %8s\n' "" names checks
printf '%-40s %8s %8s\n' "in either run" "$(sort -u "$out"/*.names | wc -l)" "$(sort -u "$out"/*.checks | wc -l)"
printf '%-40s %8s %8s\n' "differing between the runs" \
	"$(sort "$out/quiet.names" "$out/busy.names" | uniq -u | wc -l)" \
	"$(sort "$out/quiet.checks" "$out/busy.checks" | uniq -u | wc -l)"
printf '%-40s %8s %8s\n' "with a figure or a bound" \
	"$(sort -u "$out"/*.names | figure)" "$(sort -u "$out"/*.checks | figure)"
printf '%-40s %8s\n' "checks judged in one run, skipped in the other" \
	"$(sort "$out/quiet.results" "$out/busy.results" | uniq -u | sed -E 's/\.(pass|fail|skip): [0-9]+$//' | sort | uniq -d | wc -l)"
echo "differing names:"
sort "$out/quiet.names" "$out/busy.names" | uniq -u | sed 's/^/  /'
echo "logs and names in $out"
