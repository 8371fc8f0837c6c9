#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The one runner of the repository's tests, in categories (the style of
# the kernel's mm/run_vmtests.sh): make check runs every category, make
# test-NAME one test or one category.
#
#   tests/run.sh [-t "CATEGORY ..."] [-l] [-c] [-h] [NAME ...]
#
#   -t CATEGORIES  run the tests of these categories (default: all)
#   -l             list the tests, a line each: name, category, command
#   -c             list the categories, in the order they run, on one line
#   -h             this help
#   NAME           a test or a category by name (as -t)
#
# Environment: KSRC (the kernel tree the suite is synced into, default
# the Makefile's, under BUILD), BUILD (default build), MAKE (default make),
# INTREE (the built suite the tests take, default KSRC's; scripts/mutants.sh
# gives a broken copy).
# Each test prints its own assertions, nested under "# "; a test that
# cannot run here exits 4 after its reason (a SKIP).  The runner prints a
# TAP line per test after its time, then a summary, and exits 1 when any
# test failed, 2 on a bad argument.  The plan is counted from the table, never typed.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/programs.sh"
BUILD=${BUILD:-$top/build}
KSRC=${KSRC:-$(sched_perf_ksrc "$BUILD")}
MAKE=${MAKE:-make}
SELFTESTS=$KSRC/tools/testing/selftests
INTREE=${INTREE:-$SELFTESTS/sched_perf}

# name  category  command (run from the top of the repository; @KSRC@,
# @SELFTESTS@, @INTREE@, @BUILD@ and @MAKE@ stand for those paths, each
# argument a word of its own whatever spaces the path holds)
# categories, in the order they run: input (bad input refused), tools
# (the offline tools and the repository's own checks), cleanup (nothing
# left behind), integration (real runs through the suite and the kselftest
# runner), vm (a guest: the suite in it, and LAVA's job on it).
TESTS=(
	"deps		input		tests/deps.sh"
	"bad_input	input		tests/bad_input.sh @INTREE@"
	"malformed	input		tests/malformed.sh @INTREE@"
	"unprivileged	input		tests/unprivileged.sh @INTREE@"
	"rr_errors	input		tests/rr_errors.sh @INTREE@"
	"unit		tools		@INTREE@/sched_perf_unit"
	"unit_runner	tools		tests/unit_runner.sh @INTREE@"
	"compare	tools		tests/compare.sh @INTREE@"
	"verdicts	tools		tests/verdicts.sh @INTREE@"
	"report		tools		tests/report.sh @INTREE@"
	"evidence	tools		tests/evidence.sh @INTREE@"
	"patches	tools		tests/patches.sh @KSRC@"
	"vmab		tools		tests/vmab.sh @KSRC@"
	"vmab_seq	tools		tests/vmab_seq.sh @INTREE@"
	"vm_args		tools		tests/vm_args.sh @KSRC@"
	"vm_int3		tools		tests/vm_int3.sh @KSRC@"
	"bpf_count	tools		tests/bpf_count.sh"
	"program_list	tools		tests/program_list.sh"
	"commits		tools		tests/commits.sh"
	"kernel_power	tools		tests/kernel_power.sh @INTREE@ @KSRC@"
	"docs		tools		tests/docs.sh"
	"sanitize	tools		tests/sanitize.sh @INTREE@ @BUILD@/asan @MAKE@"
	"no_hang	cleanup		tests/no_hang.sh @INTREE@"
	"dirdeep_cleanup cleanup	tests/dirdeep_cleanup.sh @INTREE@ @SELFTESTS@"
	"kill_anywhere	cleanup		tests/kill_anywhere.sh @INTREE@ 16"
	"side_by_side	cleanup		tests/side_by_side.sh @INTREE@"
	"no_space	cleanup		tests/no_space.sh @INTREE@"
	"perf_agreement	integration	tests/perf_agreement.sh @INTREE@"
	"window		integration	tests/window.sh @INTREE@"
	"bpf_source	integration	tests/bpf_source.sh @INTREE@"
	"gate		integration	tests/gate.sh @INTREE@"
	"ktap_names	integration	tests/ktap_names.sh @INTREE@ @MAKE@ @SELFTESTS@"
	"suite		integration	tests/suite.sh @MAKE@ @SELFTESTS@"
	"install	integration	tests/install.sh @MAKE@ @SELFTESTS@"
	"gen_tar	integration	tests/gen_tar.sh @MAKE@ @SELFTESTS@"
	"vm		vm		tests/vm.sh @KSRC@"
	"lava		vm		tests/lava.sh @KSRC@"
)
usage() { sed -n '3,19s/^# \{0,1\}//p' "$0"; }
field() { echo "$1" | awk -v n="$2" '{ print $n }'; }
# the categories, in the order their tests run: the table's, as they come
CATEGORIES=$(for t in "${TESTS[@]}"; do field "$t" 2; done | awk '!seen[$0]++' | paste -sd' ')
command_of() { echo "$1" | awk '{ $1 = ""; $2 = ""; sub(/^ +/, ""); print }'; }

run_test() {	# command with @PATH@ words
	local words=() w
	for w in $1; do
		w=${w//@KSRC@/$KSRC} w=${w//@SELFTESTS@/$SELFTESTS}
		w=${w//@INTREE@/$INTREE} w=${w//@BUILD@/$BUILD} w=${w//@MAKE@/$MAKE}
		words+=("$w")
	done
	# its output nested in the runner's TAP, as the kselftest runner does
	(cd "$top" && exec "${words[@]}") 2>&1 | sed -u 's/^/# /' | tee "$last_out"
	return "${PIPESTATUS[0]}"
}

list() {
	local t
	for t in "${TESTS[@]}"; do
		printf '%-16s %-12s %s\n' "$(field "$t" 1)" "$(field "$t" 2)" "$(command_of "$t")"
	done
}

wanted=""
while getopts ":t:lch" o; do
	case $o in
	t) wanted="$wanted $OPTARG" ;;
	l) list; exit 0 ;;
	c) echo $CATEGORIES; exit 0 ;;
	h) usage; exit 0 ;;
	*) echo "run.sh: usage: tests/run.sh [-t \"CATEGORY ...\"] [-l] [-c] [-h] [NAME ...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
wanted="$wanted $*"

# every word must name a test or a category
known=" $CATEGORIES $(for t in "${TESTS[@]}"; do field "$t" 1; done | tr '\n' ' ') "
for w in $wanted; do
	case $known in
	*" $w "*) ;;
	*) echo "run.sh: '$w' is neither a test nor a category (tests/run.sh -l lists them)" >&2; exit 2 ;;
	esac
done

selected() {	# name category
	[ -z "${wanted// /}" ] && return 0
	case " $wanted " in *" $1 "* | *" $2 "*) return 0 ;; esac
	return 1
}

plan=()
for t in "${TESTS[@]}"; do
	selected "$(field "$t" 1)" "$(field "$t" 2)" && plan+=("$t")
done

# The guest's kernel takes minutes to build on 2 CPUs (the cold part of
# make check).  When a vm test is planned last, after others, the kernel is
# built beside the input, tools and cleanup tests, which judge no timing,
# at the lowest CPU priority, and the runner waits for it before the first
# test that measures (integration); vm.sh then finds it in vmtest's cache
# (or builds it, and says why, if this build failed).
kernel_pid=""
kernel_log=$BUILD/vm-kernel.log
build_kernel_beside() {
	mkdir -p "$BUILD"
	setsid nice -n 19 "$top/scripts/vmtest.sh" "$KSRC" kernel >"$kernel_log" 2>&1 &
	kernel_pid=$!
	echo "# building the guest's kernel beside the tests (pid $kernel_pid, log $kernel_log)"
}
wait_kernel() {
	local t0 rc
	[ -n "$kernel_pid" ] || return 0
	t0=$(date +%s)
	wait "$kernel_pid"
	rc=$?
	kernel_pid=""
	echo "# the guest's kernel, built beside: exit $rc after waiting $(($(date +%s) - t0)) s: $(tail -n1 "$kernel_log")"
}
measures() { case $1 in input | tools | cleanup) return 1 ;; esac; }

echo "TAP version 13"
echo "1..${#plan[@]}"
n=0 failed=0 skipped=0 summary=""
# a failed test's FAIL lines again at the end: CI often keeps only the tail
last_out=$(mktemp) why=$(mktemp)
trap 'rm -f "$last_out" "$why"; [ -n "$kernel_pid" ] && kill -- -"$kernel_pid" 2>/dev/null' EXIT
[ ${#plan[@]} -gt 1 ] && [ "$(field "${plan[-1]}" 2)" = vm ] && build_kernel_beside
for t in "${plan[@]}"; do
	n=$((n + 1))
	name=$(field "$t" 1) cat=$(field "$t" 2)
	measures "$cat" && wait_kernel
	echo "# $name ($cat): $(command_of "$t")"
	start=$(date +%s)
	run_test "$(command_of "$t")"
	rc=$?
	secs=$(($(date +%s) - start))
	# the suite's own rule (sched-perf.rst, KTAP output): the figures on
	# the line before, the result line a name and a fixed SKIP reason
	echo "# $name: $cat, $secs s$(case $rc in 0) ;; 4) echo ", not run here (above)" ;; *) echo ", exit $rc" ;; esac)"
	if [ $rc = 0 ]; then
		echo "ok $n $name"
	elif [ $rc = 4 ]; then
		echo "ok $n $name # SKIP not run here"
		skipped=$((skipped + 1))
	else
		echo "not ok $n $name"
		failed=$((failed + 1))
		grep -m3 '^# FAIL' "$last_out" >>"$why" || tail -n3 "$last_out" >>"$why"
	fi
	summary="$summary$(printf '#   %-16s %-12s %5d s  %s' "$name" "$cat" "$secs" "$(case $rc in 0) echo passed ;; 4) echo "not run" ;; *) echo failed ;; esac)")\n"
done
printf '# time per test:\n%b' "$summary"
[ -s "$why" ] && echo "# why the failed ones failed:" && cat "$why"
echo "# $n tests: $((n - failed - skipped)) passed, $skipped skipped (not run here), $failed failed"
[ $failed = 0 ]
