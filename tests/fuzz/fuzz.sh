#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make fuzz: every parser of the suite under a fuzzer for SECONDS each,
# with AddressSanitizer, LeakSanitizer and UBSan; the harnesses
# (tests/fuzz/fuzz_*.c) also check each parser's contract (an error is
# one clear line, a failure leaves nothing allocated).
#
#   tests/fuzz/fuzz.sh SUITE_DIR OUT_DIR [SECONDS] [TARGET...]
#
# SUITE_DIR is the suite inside a kernel tree (verdict.c includes
# ../kselftest.h); the seeds are SUITE_DIR/fixtures/fuzz/<target>/ and the
# unit fixtures its SEEDS file names (tests/lib.sh fuzz_corpus), the
# corpus each run adds to is OUT_DIR/<target>/corpus, what fails goes to
# OUT_DIR/<target>/artifacts.  Per target: execs, seconds, crashes, leaks;
# exit 1 on any crash or leak.
#
# The engine is libFuzzer (clang-14 -fsanitize=fuzzer; on Debian 12 the
# packages clang-14 and libclang-rt-14-dev: scripts/deps.sh install fuzz),
# else tests/fuzz/mutate.c, a mutation loop of our own.
# FUZZ_ENGINE=libfuzzer|mutate forces one; FUZZ_CC the compiler.
set -u
. "$(dirname "$0")/../lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
suite=$(cd "${1:?usage: $0 SUITE_DIR OUT_DIR [SECONDS] [TARGET...]}" && pwd)
out=${2:?usage: $0 SUITE_DIR OUT_DIR [SECONDS] [TARGET...]}
secs=${3:-30}
shift $(($# < 3 ? $# : 3))
targets=${*:-schedstat task_sched bounds results runset}
engine=${FUZZ_ENGINE:-auto}
# each parser file, and what the harnesses' extra checks call besides
parsers="schedstat.c fileio.c bounds.c verdict.c results.c runset.c compare.c shift.c trend.c outfile.c stats.c metric_rows.c metrics.c guard.c"

mkdir -p "$out" && out=$(cd "$out" && pwd)
[[ "$secs" =~ ^[0-9]+$ ]] && [ "$secs" -gt 0 ] || fail "SECONDS '$secs' is not a whole number above 0"

probe=$out/probe.c
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{\n\treturn 0;\n}\n' >"$probe"
libfuzzer_links() {
	${FUZZ_CC:-clang-14} -fsanitize=fuzzer,address,undefined "$probe" -o "$out/probe" \
		>/dev/null 2>&1
}

if [ "$engine" != mutate ] && ! libfuzzer_links; then
	if ! libfuzzer_links; then
		[ "$engine" = libfuzzer ] &&
			fail "libFuzzer does not link with ${FUZZ_CC:-clang-14} (scripts/deps.sh install fuzz)"
		echo "fuzz: no libFuzzer (clang-14 + libclang-rt-14-dev): our own mutation loop"
		engine=mutate
	fi
fi
[ "$engine" = auto ] && engine=libfuzzer
if [ "$engine" = libfuzzer ]; then
	cc=${FUZZ_CC:-clang-14}
	san_obj="-fsanitize=fuzzer-no-link,address,undefined"
	san_link="-fsanitize=fuzzer,address,undefined"
else
	cc=${FUZZ_CC:-$(command -v gcc || echo cc)}
	san_obj="-fsanitize=address,undefined"
	san_link=$san_obj
fi
cflags="-g -O1 -fno-omit-frame-pointer -fno-sanitize-recover=undefined -std=gnu11 \
	-D_GNU_SOURCE -Wall -Wno-unused-parameter -Wno-unused-function -I$suite"

if lsan_works "$cc"; then
	leaks=1
else
	# LeakSanitizer cannot stop the world here (ptrace forbidden?)
	echo "fuzz: LeakSanitizer does not run here: leaks are not looked for"
	leaks=0
fi
export ASAN_OPTIONS="detect_leaks=$leaks:handle_abort=1:abort_on_error=0:symbolize=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"

# The parsers, built once; a target is its harness + them.
mkdir -p "$out/obj"
build_log=$out/build.log
: >"$build_log"
objs=()
printf '%s\n' $parsers | xargs -P "$(nproc)" -I{} sh -c \
	'exec '"$cc $cflags $san_obj"' -c "$1/$2" -o "$3/obj/$(basename "$2" .c).o"' \
	_ "$suite" {} "$out" >>"$build_log" 2>&1 ||
	fail "building the parsers with $cc failed: $(cat "$build_log")"
for src in $parsers; do objs+=("$out/obj/${src%.c}.o"); done
if [ "$engine" = mutate ]; then
	$cc $cflags $san_obj -c "$here/mutate.c" -o "$out/obj/mutate.o" >>"$build_log" 2>&1 ||
		fail "building mutate.c failed: $(cat "$build_log")"
	objs+=("$out/obj/mutate.o")
fi

echo "fuzz: $engine, $cc, $secs s per target, leaks $([ $leaks = 1 ] && echo checked || echo 'not checked')"
bad=0
for t in $targets; do
	h=$here/fuzz_$t.c dir=$out/$t seeds=$out/$t/seeds
	[ -f "$h" ] || fail "no harness $h"
	[ -d "$suite/fixtures/fuzz/$t" ] || fail "no seed corpus $suite/fixtures/fuzz/$t"
	rm -rf "$seeds"
	fuzz_corpus "$suite/fixtures" "$t" "$seeds"
	mkdir -p "$dir/corpus" "$dir/tmp"
	rm -rf "$dir/artifacts" && mkdir -p "$dir/artifacts"
	$cc $cflags $san_link "$h" "${objs[@]}" -lm -lpthread -o "$dir/fuzz_$t" \
		>>"$build_log" 2>&1 || fail "$t: build failed: $(tail -20 "$build_log")"
	start=$(date +%s.%N)
	if [ "$engine" = libfuzzer ]; then
		TMPDIR=$dir/tmp nice -n 19 "$dir/fuzz_$t" -max_total_time="$secs" \
			-print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
			-detect_leaks=$leaks -artifact_prefix="$dir/artifacts/" \
			"$dir/corpus" "$seeds" >"$dir/log" 2>&1
	else
		TMPDIR=$dir/tmp nice -n 19 "$dir/fuzz_$t" -t "$secs" -m 16384 \
			-a "$dir/artifacts/" "$seeds" "$dir/corpus" >"$dir/log" 2>&1
	fi
	rc=$?
	wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
	rm -rf "$dir/tmp"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\)[[:space:]].*/\1/p' "$dir/log" | tail -n1)
	# libFuzzer: one file per finding; mutate.c: a directory of candidates per leak
	crashes=$(find "$dir/artifacts" -mindepth 1 -maxdepth 1 \( -name 'crash-*' -o \
		-name 'timeout-*' -o -name 'oom-*' \) | wc -l)
	nleaks=$(find "$dir/artifacts" -mindepth 1 -maxdepth 1 -name 'leak-*' | wc -l)
	# died without leaving an input behind: still a crash
	[ "$rc" != 0 ] && [ "$crashes" = 0 ] && [ "$nleaks" = 0 ] && crashes=1
	printf 'fuzz: %-11s %10s execs %6s s %3d crashes %3d leaks  (corpus %d inputs)\n' \
		"$t" "${execs:-?}" "$wall" "$crashes" "$nleaks" \
		"$(find "$dir/corpus" -type f | wc -l)"
	if [ "$crashes" != 0 ] || [ "$nleaks" != 0 ]; then
		bad=1
		grep -a -m3 -E 'SUMMARY|contract broken|runtime error|ERROR: ' "$dir/log" |
			sed 's/^/    /'
		find "$dir/artifacts" -mindepth 1 -maxdepth 1 | sed 's/^/    input: /'
		echo "    log: $dir/log"
	fi
done
rm -f "$probe" "$out/probe"
[ "$bad" = 0 ] || fail "a target crashed or leaked (inputs above; replay: fuzz_TARGET FILE)"
echo "fuzz: no crash, no leak"
