#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Malformed files, garbage rather than mistakes (bad_input.sh, gate.sh and
# compare.sh have the mistakes: a bad operator, a truncated or other run):
# empty, binary, random bytes, NULs, control characters, huge lines, huge
# numbers, wrong versions, a directory, and the refused inputs of the fuzz
# corpora (fixtures/fuzz/{bounds,runset}/bad-*), into every file input:
# hackbench --bounds FILE and --baseline FILE, sched_perf_compare OLD NEW,
# --dump RUNSET, --merge OUT GOOD RUNSET and --bounds FILE.  Each is exit
# 2 with one clear line on stderr that names the file, nothing on stdout,
# no file written.  The corpora's good-* run sets are accepted.
#
#   tests/malformed.sh DIR      (DIR: hackbench, sched_perf_compare, bounds)
set -u
. "$(dirname "$0")/lib.sh"
export LC_ALL=C		# [[:print:]] is ASCII
dir=$1
fixtures=$(cd "$(dirname "$0")/.." && pwd)/tools/testing/selftests/sched_perf/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in" "$tmp/results"
corpus=$tmp/corpus
fuzz_corpus "$fixtures" bounds "$corpus/bounds"
fuzz_corpus "$fixtures" runset "$corpus/runset"
good=$corpus/runset/good-old

[ -x "$dir/hackbench" ] && [ -x "$dir/sched_perf_compare" ] || fail "no programs in $dir"
[ -f "$good" ] || fail "no corpus in $corpus"

# Garbage, for either kind of file.
: >"$tmp/in/empty"
printf '\n\n   \n\t\n' >"$tmp/in/blank-lines"
head -c 3000 "$dir/hackbench" >"$tmp/in/binary-elf"
# bytes 1..255 in a fixed pseudo-random order: no NUL, every control byte
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", 1 + int(rand() * 255) }' \
	>"$tmp/in/random-bytes"
esc=$'\033' cr=$'\r'
printf 'hackbench.messages_per_sec\0>= 1\n' >"$tmp/in/nul-inside"
printf '%s\n' "${esc}[2J${esc}[H${cr}${cr}hackbench.messages_per_sec >= 1${esc}[0m =" >"$tmp/in/escapes"
# a 1 MiB line, no newline at its end
head -c 1048576 /dev/zero | tr '\0' 'x' >"$tmp/in/huge-line"

# Bounds files that are no bounds file.
printf 'hackbench.messages_per_sec >= 1%0200000d\n' 0 | tr 0 9 >"$tmp/in/bounds-huge-number"
printf 'hackbench.messages_per_sec >= 1e999\n' >"$tmp/in/bounds-overflow"
printf 'hackbench.messages_per_sec change >= -nan%%\n' >"$tmp/in/bounds-nan-change"
printf 'hackbench.messages_per_sec >=' >"$tmp/in/bounds-cut"
# control characters where a message quotes the file
printf '%s\r\n' "hackbench_messages_per_sec >= 1" >"$tmp/in/bounds-crlf-no-dot"
printf '%s\n' "${esc}[31mhackbench >= 1" >"$tmp/in/bounds-escape-no-dot"
printf '%s\n' "hackbench.messages_per_sec ${esc}[2J 1" >"$tmp/in/bounds-escape-operator"
printf '%s\n' "hackbench.messages_per_sec >= 1${esc}[2J" >"$tmp/in/bounds-escape-number"
printf '%s\n' "hackbench.messages${esc}[2J >= 1" >"$tmp/in/bounds-escape-metric"
printf '%s\n' "hackbench@pipe${cr}${esc}[2J.messages_per_sec >= 1" >"$tmp/in/bounds-escape-variant"
for i in $(seq 130); do echo "w$i.m >= 1"; done >"$tmp/in/bounds-too-many"

# Run sets that are no run set (a good one with one thing broken).
sed 's/^meta.runset_version: 2$/meta.runset_version: 3/' "$good" >"$tmp/in/runset-version-3"
sed 's/^meta.runset_version: 2$/meta.runset_version: two/' "$good" >"$tmp/in/runset-version-word"
sed 's/^meta.runset_version: 2$/meta.runset_version: 18446744073709551618/' "$good" \
	>"$tmp/in/runset-version-huge"
head -c 300 "$good" >"$tmp/in/runset-cut-in-a-line"
sed 's/^\(hackbench.runs.messages_per_sec: \).*/\1'"$(seq -s ' ' 1001)"'/' "$good" \
	>"$tmp/in/runset-too-many-runs"
sed 's/^\(hackbench.runs.messages_per_sec: \)1000000 /\11e999 /' "$good" >"$tmp/in/runset-inf"
sed 's/^\(hackbench.runs.messages_per_sec: \)1000000 /\1nan /' "$good" >"$tmp/in/runset-nan"
sed 's/^meta.nr_cpus: 4$/meta.nr_cpus: -4/' "$good" >"$tmp/in/runset-cpus-negative"
sed "s/^\(hackbench.runs.migrations_per_1k_ops: 0.31\) /\1 ${esc}[31m /" "$good" \
	>"$tmp/in/runset-escape-value"
sed "s/^meta.workload: hackbench\$/meta.workload: hack${esc}[2Jbench/" "$good" \
	>"$tmp/in/runset-escape-workload"
sed "s/^meta.options: .*/meta.options: ${esc}[2J/" "$good" >"$tmp/in/incompatible-escape-options"
awk '{ printf "%s\r\n", $0 }' "$good" >"$tmp/in/runset-crlf"
sed 's/^hackbench.runs.messages_per_sec:/hackbench.runs.messages.runs.per_sec:/' "$good" \
	>"$tmp/in/runset-runs-in-name"
{ cat "$good"; printf 'hackbench.runs.x: %0100000d\n' 1; } >"$tmp/in/runset-huge-line"
tr '\n' '\r' <"$good" >"$tmp/in/runset-cr-only"

# $tmp/out and $tmp/err: one invocation's; nothing may appear in
# $tmp/results nor as $tmp/save.res.  Shell builtins only: 200 runs.
check() {
	local what=$1 file=$2 rc=$3 line rest
	[ "$rc" = 2 ] || fail "$what: exit $rc, want 2: $(head -c 600 "$tmp/err")"
	{ IFS= read -r line && ! IFS= read -r rest; } <"$tmp/err" ||
		fail "$what: stderr is not one line: $(head -c 600 "$tmp/err" | cat -v)"
	[[ "$line" != *[![:print:]]* ]] || fail "$what: a control character on stderr: $(cat -v "$tmp/err")"
	[[ "$line" == *"$file"* ]] || fail "$what: the message does not name $file: $line"
	[ ! -s "$tmp/out" ] || fail "$what: printed on stdout: $(head -c 300 "$tmp/out")"
	! compgen -G "$tmp/results/*" >/dev/null && [ ! -e "$tmp/save.res" ] ||
		fail "$what: a file was written: $(ls "$tmp/results") $(ls "$tmp"/save.res* 2>/dev/null)"
	nr=$((nr + 1))
}

hackbench() {
	# short, should it run after all
	SCHED_PERF_RESULTS_DIR=$tmp/results "$dir/hackbench" --iterations 1 --budget 1 \
		--save "$tmp/save.res" "$@" >"$tmp/out" 2>"$tmp/err"
}

compare() {
	"$dir/sched_perf_compare" "$@" >"$tmp/out" 2>"$tmp/err"
}

bounds_file() {
	local f=$1 what=${1#"$tmp"/in/}
	hackbench --bounds "$f"; check "hackbench --bounds $what" "$f" $?
	compare --bounds "$f" "$good" "$good"; check "compare --bounds $what" "$f" $?
}

runset_file() {
	local f=$1 what=${1#"$tmp"/in/}
	hackbench --baseline "$f"; check "hackbench --baseline $what" "$f" $?
	compare_only "$f"
	compare --dump "$f"; check "compare --dump $what" "$f" $?
}

# A run set that loads but cannot be compared: sched_perf_compare names
# both files; hackbench's --baseline message (driver.c) names neither.
compare_only() {
	local f=$1 what=${1#"$tmp"/in/}
	compare "$f" "$good"; check "compare $what OLD" "$f" $?
	compare "$good" "$f"; check "compare NEW $what" "$f" $?
	compare --merge "$tmp/save.res" "$good" "$f"; check "compare --merge $what" "$f" $?
}

nr=0
# (empty and blank are bounds files without bounds: valid)
for f in "$tmp"/in/{binary-elf,random-bytes,nul-inside,escapes,huge-line} \
	 "$tmp"/in/bounds-* "$corpus"/bounds/bad-*; do
	bounds_file "$f"
done
bounds_file "$tmp/in"		# a directory
pass "$nr malformed bounds files: exit 2, one clear line naming the file, nothing written"

nr=0
for f in "$tmp"/in/{empty,blank-lines,binary-elf,random-bytes,nul-inside,escapes,huge-line} \
	 "$tmp"/in/runset-* "$corpus"/runset/bad-*; do
	runset_file "$f"
done
runset_file "$tmp/in"
compare_only "$tmp/in/incompatible-escape-options"
pass "$nr malformed run sets: exit 2, one clear line naming the file, nothing written"

# The corpus' good run sets are run sets.
for f in "$corpus"/runset/good-*; do
	compare --bounds "$corpus/bounds/good-runset" "$f" "$f"
	rc=$?
	# 0, or 4 where its few or noisy runs cannot show "same"; never 1 or 2
	{ [ "$rc" = 0 ] || [ "$rc" = 4 ]; } || fail "corpus $f against itself: exit $rc: $(cat "$tmp/err")"
done
pass "$(ls "$corpus"/runset/good-* | wc -l) good run sets of the corpus compare with themselves: exit 0 or 4"
done_ok
