#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The suite built with AddressSanitizer and UBSan (and LeakSanitizer where
# it runs): the parser unit tests and one short run of every program, no
# report.  Then the malformed inputs of tests/malformed.sh against this
# build: their error paths leak nothing either.
#
#   tests/sanitize.sh SUITE_DIR OUT_DIR [MAKE]
#
# SUITE_DIR is the suite inside a kernel tree (as make sync leaves it; its
# normal build is not touched).  The suite's own Makefile builds it into
# OUT_DIR with its own flags plus -O1 -g -fsanitize=address,undefined
# -fno-omit-frame-pointer: the same core library and the same programs.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
suite=$(cd "${1:?usage: $0 SUITE_DIR OUT_DIR [MAKE]}" && pwd)
out=${2:?usage: $0 SUITE_DIR OUT_DIR [MAKE]}
make=${3:-make}
progs="$(sched_perf_programs "$top/tools/testing/selftests/sched_perf") $(sched_perf_programs "$top/tools/testing/selftests/sched_perf" TEST_GEN_PROGS_EXTENDED)"
start=$(date +%s)

mkdir -p "$out" && out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The suite's own flags (its Makefile and lib.mk: -std, -D_GNU_SOURCE,
# the kernel headers), then the sanitizers; -O1 as the ASan documentation
# advises (the later -O wins).  CFLAGS given to make replaces the
# Makefile's, so it is read first and given whole.
mkvar() {
	$make -s --no-print-directory -C "$suite" OUTPUT="$out" \
		--eval 'sanitize-print-%: ; @echo $($*)' "sanitize-print-$1"
}
cc=$(mkvar CC) && cflags=$(mkvar CFLAGS) && [ -n "$cc" ] && [ -n "$cflags" ] ||
	fail "cannot read CC and CFLAGS from $suite/Makefile"
san="-fsanitize=address,undefined -fno-omit-frame-pointer -g"
cflags="$cflags $san -O1"

# make rebuilds what a source or header changed; other flags, everything.
[ "$(cat "$out/flags" 2>/dev/null)" = "$cflags" ] ||
	(cd "$out" && rm -rf core $progs)
echo "$cflags" >"$out/flags"
nice -n 19 $make -s --no-print-directory -j"$(nproc)" -C "$suite" OUTPUT="$out" \
	CFLAGS="$cflags" $(printf "$out/%s " $progs) >"$tmp/build" 2>&1 ||
	fail "build with -fsanitize failed: $(tail -n 20 "$tmp/build")"
for p in $progs; do
	[ -x "$out/$p" ] || fail "$p was not built"
done
# The programs' default bounds, beside them: the change thresholds only.
# An absolute bound is a performance check that a build 2-3 times slower
# on a busy machine may miss; what is judged here is the sanitizers'.
grep -E '^[^#]*[[:space:]]change[[:space:]]' "$suite/bounds" >"$out/bounds" ||
	fail "no change thresholds in $suite/bounds"
pass "built $(echo $progs | wc -w) programs with the suite's Makefile and $san in $(($(date +%s) - start)) s"

# LeakSanitizer stops the world with ptrace-like means; where that is
# forbidden (some containers) it cannot run and leaks go unchecked, said
# in a note.  It runs in the Debian 12 container this was written in.
if lsan_works "$cc"; then
	leaks=1
else
	leaks=0
	echo "note: $name: LeakSanitizer does not run here: leaks are not checked"
fi
# Any report ends the process with 99; its text is looked for as well,
# since a worker's report reaches only the output its controller shares.
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:exitcode=99:detect_leaks=$leaks:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:exitcode=99"
export SCHED_PERF_RESULTS_DIR=$tmp/results
mkdir -p "$SCHED_PERF_RESULTS_DIR"

# run WANT_RC... -- PROG ARGS: one run, its exit status among WANT_RC, no
# sanitizer report in what it printed.
run() {
	local want=() rc log=$tmp/log t0=$(date +%s.%N)
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	timeout -k 5 120 nice -n 19 "$out/$1" "${@:2}" >"$log" 2>&1
	rc=$?
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer' "$log"; then
		grep -m1 -B2 -A30 -E 'ERROR: |runtime error:' "$log" >&2
		fail "$*: sanitizer report (exit $rc)"
	fi
	[[ " ${want[*]} " == *" $rc "* ]] || fail "$*: exit $rc, want ${want[*]}: $(tail -5 "$log")"
	pass "$*: exit $rc, no report ($(awk -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s)"
}

SCHED_PERF_UNIT_FIXTURES=$suite/fixtures run 0 -- sched_perf_unit
grep -q '^# Totals: pass:[0-9]* fail:0 ' "$tmp/log" || fail "sched_perf_unit: $(grep Totals "$tmp/log")"
short=(--iterations 2 --budget 2)
run 0 -- hackbench "${short[@]}" --save "$tmp/a.res"
# the baseline read back and compared (2 runs a side cannot judge: open,
# exit 4; --max-runs 2 holds the new side there, as without it the gate
# may add runs until a quiet machine judges every metric the same)
run 4 -- hackbench "${short[@]}" --max-runs 2 --baseline "$tmp/a.res" --save "$tmp/b.res"
run 0 -- hackbench "${short[@]}" --threads --socket
run 0 -- tcp_rr "${short[@]}" --pairs 2
run 0 -- udp_rr "${short[@]}" --pairs 2
# SKIP (4) where the kernel has no SCTP, as here
run 0 4 -- sctp_rr "${short[@]}" --pairs 2
# syncfs: the global sync of a busy machine can take seconds
run 0 -- dirdeep --iterations 2 --budget 1 --sync syncfs --instances 1 --workdir "$tmp"
run 0 -- pipe "${short[@]}" --pairs 2
run 0 -- pipe --threaded -l 20000
# 2 runs a side cannot show a metric within its threshold: exit 4
run 0 1 4 -- sched_perf_compare "$tmp/a.res" "$tmp/b.res"
run 0 1 4 -- sched_perf_compare --json "$tmp/a.res" "$tmp/b.res"
[ -s "$tmp/log" ] || fail "sched_perf_compare --json printed nothing"
# the simulation drives the gate and the shift tests through every path:
# paired with values missing, unpaired with drift, boots
run 0 -- sched_perf_sim --gates 30 --seed 1 --mode paired --missing 0.1 --shift -0.05
run 0 -- sched_perf_sim --gates 30 --seed 1 --mode unpaired --drift 0.01
run 0 -- sched_perf_sim --gates 30 --seed 1 --mode boots --missing 0.1
# vmab's engine over stand-in boots (a step that copies the two saved
# run sets in: A's boots a.res, B's b.res): its looks, tables and KTAP
mkdir -p "$tmp/vmab"
printf '#!/bin/sh\nd=%s/vmab/boot-$2-$1\nmkdir -p "$d/results" && cp %s/$(echo $1 | tr AB ab).res "$d/results/hackbench.results" && echo 10 >"$d.secs"\n' \
	"$tmp" "$tmp" >"$tmp/step"
chmod +x "$tmp/step"
run 0 1 4 -- sched_perf_vmab --step "$tmp/step" --first 2 --max-boots 3 "$tmp/vmab"
grep -q '^vmab: look 1 at 2 boots a side: hackbench: ' "$tmp/log" ||
	fail "sched_perf_vmab over stand-in boots: no look: $(tail -3 "$tmp/log")"

# Every malformed input of tests/malformed.sh through this build: exit 2,
# one line, and no report on the way out.
"$top/tests/malformed.sh" "$out" >"$tmp/malformed" 2>&1 ||
	fail "malformed inputs under the sanitizers: $(tail -5 "$tmp/malformed")"
pass "malformed inputs under the sanitizers: $(sed -n 's/^ok: malformed: \([0-9]* malformed [a-z ]*\):.*/\1/p' \
	"$tmp/malformed" | paste -sd, -), exit 2, one line, no report"
echo "$name: $(($(date +%s) - start)) s"
done_ok
