# SPDX-License-Identifier: GPL-2.0
# Helpers for the repository's shell tests.  Each test prints one line per
# assertion and exits 1 at the first one that does not hold.

. "$(dirname "${BASH_SOURCE[0]}")/../scripts/programs.sh"

name=$(basename "$0" .sh)
nr_ok=0

pass() { nr_ok=$((nr_ok + 1)); echo "ok: $name: $*"; }
fail() { echo "FAIL: $name: $*" >&2; exit 1; }
done_ok() { echo "$name: $nr_ok assertions held"; }
# This test cannot run here: its reason, exit 4 (tests/run.sh: a SKIP)
skip() { echo "$name: not run: $*"; exit 4; }

# Value of KEY in a results file ("key: value" lines).
result() { sed -n "s/^$2: //p" "$1" | head -n1; }

# |a - b| <= rel * b + abs  (floating point, via awk)
within() {
	awk -v a="$1" -v b="$2" -v rel="$3" -v abs="$4" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= rel * b + abs) }'
}

# The runner's verdict for PROG in OUT, and the completeness of its nested
# KTAP: plan == number of results, totals line present, no failure, and a
# reason on every SKIP.
check_ktap() {
	local out=$1 prog=$2 plan results bad

	grep -q "^ok [0-9]* selftests: sched_perf: $prog\$" "$1" ||
		fail "runner did not report $prog as ok: $(grep "selftests: sched_perf: $prog" "$out")"
	out=$(mktemp)
	# this program's block: from its "# selftests:" line to its verdict
	sed -n "/^# selftests: sched_perf: $prog\$/,/selftests: sched_perf: $prog/p" "$1" >"$out"
	plan=$(sed -n "s/^# 1\.\.\([0-9]*\)$/\1/p" "$out" | head -n1)
	results=$(grep -cE "^# (not )?ok [0-9]+ $prog\." "$out")
	[ -n "$plan" ] && [ "$plan" = "$results" ] ||
		fail "$prog: plan $plan but $results results (incomplete KTAP)"
	grep -q "^# # Totals: pass:[0-9]* fail:0 " "$out" || fail "$prog: no totals line or a failure"
	! grep -qE "^# not ok [0-9]+ $prog\." "$out" || fail "$prog: a check failed"
	! grep -qE "^# ok [0-9]+ # SKIP" "$out" || fail "$prog: a SKIP without a name"
	# a SKIP's reason follows it, or (a busy machine's) is the note before
	bad=$(awk -v p="$prog" '$0 ~ "^# ok [0-9]+ " p "\\.[a-z0-9_.]* # SKIP *$" {
		name = $4; if (index(prev, "# # " name ": ") != 1) print } { prev = $0 }' "$out")
	[ -z "$bad" ] || fail "$prog: a SKIP without reason: $bad"
	pass "$prog: runner ok, $results of $plan planned results, $(grep -cE "^# ok [0-9]+ $prog\.[a-z0-9_.]* # SKIP" "$out") skipped with reasons"
	rm -f "$out"
}

# ktap_is FILE RESULT NOTE: FILE holds the result line RESULT ("ok 1
# hackbench", "ok 1 hackbench # SKIP why") with "# NAME: NOTE" on the line
# before it (NOTE a basic regular expression, matched whole), NAME the text
# of RESULT after "ok N " and before " # ": the figures of a result go
# there, never on the result line.
ktap_is() {
	local f=$1 res=$2 note=$3 name
	name=$(sed -E 's/^(not )?ok [0-9]+ //; s/ # .*$//' <<<"$res")
	grep -qxF -- "$res" "$f" &&
		grep -xF -B1 -- "$res" "$f" | head -n1 | grep -qx -- "# $name: $note"
}

# PROG skipped as a whole (exit 4), with its reason in its KTAP.
check_skipped() {
	local out=$1 prog=$2 why
	grep -q "^ok [0-9]* selftests: sched_perf: $prog # SKIP\$" "$out" ||
		fail "runner did not report $prog as SKIP"
	why=$(grep -A3 "^# selftests: sched_perf: $prog\$" "$out" | sed -n 's/^# 1\.\.0 # SKIP //p')
	[ -n "$why" ] || fail "$prog: SKIP without a reason"
	pass "$prog: SKIP, reason: $why"
}

# Wait for PID to exit; its exit status, or a failure when it is still
# running after SECONDS (a hang).
wait_exit() {
	local pid=$1 secs=$2 what=$3
	poll "$secs" exited "$pid" || fail "still running $secs s after $what (hang)"
	wait "$pid"
}
exited() { ! kill -0 "$1" 2>/dev/null; }

# Until CMD ARGS... holds, every 0.1 s for up to SECS seconds; 1 when it
# never did.
poll() {
	local secs=$1 i
	shift
	for i in $(seq $((secs * 10))); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# The worker processes of controller PID in creation order: its children
# but the guardian (guard.c), which is named sched_perf-grd.
workers_of() {
	local c
	for c in $(pgrep -P "$1" | sort -n); do
		[ "$(cat "/proc/$c/comm" 2>/dev/null)" = sched_perf-grd ] || echo "$c"
	done
}

# PID has N workers or more: processes, or threads of a threaded run
# (the controller's own thread besides them)
has_workers() {	# pid n
	[ "$(workers_of "$1" | wc -l)" -ge "$2" ] ||
		[ "$(awk '/^Threads:/ { print $2 }' "/proc/$1/status" 2>/dev/null)" -gt "$2" ] 2>/dev/null
}

# Whether LeakSanitizer runs here: it stops the process's threads with
# ptrace-like means that some containers forbid ("LeakSanitizer has
# encountered a fatal error").  Builds a program that leaks with CC and
# looks for the report.
lsan_works() {
	local cc=$1 d ok=1
	d=$(mktemp -d)
	printf '#include <stdlib.h>\nint main(void)\n{\n\tvoid *volatile p = malloc(7);\n\n\tp = 0;\n\treturn p != 0;\n}\n' >"$d/leak.c"
	if $cc -fsanitize=address -g "$d/leak.c" -o "$d/leak" 2>/dev/null; then
		ASAN_OPTIONS=detect_leaks=1 "$d/leak" 2>"$d/err"
		grep -q 'ERROR: LeakSanitizer: detected memory leaks' "$d/err" && ok=0
	fi
	rm -rf "$d"
	return $ok
}

# Bad input is refused the same way everywhere: expect_refused CODE WHAT
# COMMAND... runs COMMAND (under timeout 5: a read that never ends is a
# failure, not a hang) and fails unless it exits CODE with exactly one
# line on stderr and nothing on stdout.  Optional, set for the call:
#   want=TEXT       stderr must contain TEXT
#   within_ms=N     it must exit within N ms
#   absent="P..."   none of these paths may exist afterwards
#   stdout=any      stdout need not be empty
# Leaves the message in $refused_err and the time in $refused_ms.
expect_refused() {
	local code=$1 what=$2 out err rc t0 p
	shift 2
	out=$(mktemp) err=$(mktemp)
	t0=$(date +%s%N)
	timeout 5 "$@" >"$out" 2>"$err"
	rc=$?
	refused_ms=$((($(date +%s%N) - t0) / 1000000))
	refused_err=$(cat "$err")
	[ "$rc" = "$code" ] || fail "$what: exit $rc, want $code: $(head -c 300 "$err")"
	[ "$(wc -l <"$err")" = 1 ] || fail "$what: stderr is not one line: $refused_err"
	[ "${stdout:-}" = any ] || [ ! -s "$out" ] || fail "$what: printed on stdout: $(head -c 300 "$out")"
	rm -f "$out" "$err"
	[ -z "${want:-}" ] || grep -q -- "$want" <<<"$refused_err" ||
		fail "$what: stderr does not say '$want': $refused_err"
	[ -z "${within_ms:-}" ] || [ "$refused_ms" -lt "$within_ms" ] ||
		fail "$what: exit $code after $refused_ms ms, want within $within_ms ms"
	for p in ${absent:-}; do
		[ ! -e "$p" ] || fail "$what: $p was written"
	done
}

# fuzz_corpus FIXTURES TARGET DEST: the seed corpus of one fuzz target in
# DEST: the files of FIXTURES/fuzz/TARGET, and the unit fixtures its SEEDS
# file names ("NAME PATH" lines, PATH under FIXTURES), each kept once.
fuzz_corpus() {
	local fix=$1 t=$2 dest=$3 f name path
	mkdir -p "$dest" || fail "cannot make $dest"
	for f in "$fix/fuzz/$t"/*; do
		[ "$(basename "$f")" = SEEDS ] || cp "$f" "$dest/" || fail "cannot copy $f"
	done
	[ -f "$fix/fuzz/$t/SEEDS" ] || return 0
	while read -r name path; do
		case $name in '' | '#'*) continue ;; esac
		[ -f "$fix/$path" ] || fail "$fix/fuzz/$t/SEEDS: no fixture $path"
		cp "$fix/$path" "$dest/$name" || fail "cannot copy $fix/$path"
	done <"$fix/fuzz/$t/SEEDS"
}
