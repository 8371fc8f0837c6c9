#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ktap2lava.sh [-n] [KTAP-FILE]
#
# Report the KTAP of run_kselftest.sh (or of make run_tests) as LAVA test
# cases: one per program (the runner's "ok N selftests: COLL: PROG") and
# one per check of a program ("# ok 3 hackbench.migrations_per_1k_ops #
# 0.39 <= 50", "# ok 8 hackbench.x # SKIP reason", "# not ok 5 ...").  ok
# is pass, not ok is fail, a SKIP directive is skip.  A case is named by
# the description before " # ", the same on every run; what follows (this
# run's figures, a SKIP's reason) is not part of it.  A check of another
# suite, named otherwise, is PROG.<its description>; kselftest.h's own
# "ok N # SKIP name: reason" is PROG.name.  Older sched_perf put figures
# after the name without " # ": dropped too.  Names are reduced to LAVA's
# safe characters [A-Za-z0-9._-] (others become _).
# One more case, ktap_complete, fails when the runner's plan (1..N) is
# missing or was not met: a run that died or was cut short.
#
# Each case is sent with "lava-test-case NAME --result RESULT"; without
# lava-test-case on PATH, or with -n, "NAME RESULT" lines are printed.
# POSIX sh and awk only (busybox is enough).  Reads stdin without a file
# or with "-".
#
# Exit: 0 every case passed or skipped, 1 a case failed, 2 no KTAP result
# found or bad usage.

usage() {
	sed -n '4,26s/^# \{0,1\}//p' "$0"
}

print=
while [ $# -gt 0 ]; do
	case $1 in
	-n) print=1; shift ;;
	-h|--help) usage; exit 0 ;;
	--) shift; break ;;
	-?*) echo "ktap2lava.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || { usage >&2; exit 2; }
in=${1:--}
[ "$in" = - ] || [ -r "$in" ] || { echo "ktap2lava.sh: cannot read $in" >&2; exit 2; }

cmd=
[ -n "$print" ] || ! command -v lava-test-case >/dev/null 2>&1 || cmd=lava-test-case

awk -v cmd="$cmd" '
function clean(s) {
	gsub(/[^A-Za-z0-9._-]/, "_", s)
	return s
}
function report(name, res) {
	n[res]++
	if (cmd == "") {
		print name " " res
	} else {
		fflush()
		# name and res hold only [A-Za-z0-9._-]: nothing for a shell
		if (system(cmd " " name " --result " res) != 0)
			bad_cmd++
	}
}
# "ok N name # DIRECTIVE text" or "not ok N ..." without the "# " prefixes
function result(s, depth,    ok, num, rest, name, dir, kw, p, res) {
	ok = (s !~ /^not /)
	num = s
	sub(/^(not )?ok /, "", num)
	sub(/[^0-9].*$/, "", num)
	rest = s
	sub(/^(not )?ok [0-9]+ */, "", rest)
	name = rest
	dir = ""
	if (substr(rest, 1, 1) == "#") {
		name = ""
		dir = substr(rest, 2)
	} else if ((p = index(rest, " # ")) > 0) {
		name = substr(rest, 1, p - 1)
		dir = substr(rest, p + 3)
	}
	sub(/^ +/, "", dir)
	kw = dir
	sub(/[ :].*$/, "", kw)
	kw = toupper(kw)
	if (name == "" && dir != "") {
		# kselftest.h: "ok N # SKIP name: reason", "ok N # XFAIL name: ..."
		name = dir
		sub(/^[^ ]+ */, "", name)
		sub(/[: ].*$/, "", name)
	}
	sub(/ +$/, "", name)
	res = ok ? "pass" : "fail"
	if (kw == "SKIP")
		res = "skip"
	if (depth == 0) {
		# the runner: "selftests: COLL: PROG"
		if (name ~ /^selftests: [^:]+: /) {
			sub(/^selftests: [^:]+: /, "", name)
			prog = name
		}
		if (name == "")
			name = "test_" num
		nr_top++
	} else {
		if (name == "")
			name = "test_" num
		if (prog != "" && index(name, prog ".") == 1)
			sub(/ .*$/, "", name)	# older "hackbench.x 0.39 <= 50"
		else if (prog != "")
			name = prog "." name
	}
	report(clean(name), res)
}
{
	line = $0
	sub(/\r$/, "", line)
	depth = 0
	while (substr(line, 1, 2) == "# ") {
		depth++
		line = substr(line, 3)
	}
	if (depth == 1 && line ~ /^selftests: [^:]+: [^ ]+$/) {
		prog = line
		sub(/^selftests: [^:]+: /, "", prog)
		next
	}
	if (depth == 0 && line ~ /^1\.\.[0-9]+/) {
		p = line
		sub(/^1\.\./, "", p)
		sub(/[^0-9].*$/, "", p)
		plan += p
		has_plan = 1
		next
	}
	if (depth <= 1 && line ~ /^(not )?ok [0-9]+( |$)/)
		result(line, depth)
}
END {
	if (nr_top == 0 && n["pass"] + n["fail"] + n["skip"] == 0) {
		print "ktap2lava.sh: no KTAP result in the input" > "/dev/stderr"
		report("ktap_complete", "fail")
		exit 2
	}
	report("ktap_complete", (has_plan && nr_top == plan) ? "pass" : "fail")
	planned = has_plan ? plan : "none"
	total = n["pass"] + n["fail"] + n["skip"]
	printf("ktap2lava.sh: %d cases: %d pass, %d fail, %d skip (runner: %d of %s planned)\n",
	       total, n["pass"], n["fail"], n["skip"], nr_top, planned) > "/dev/stderr"
	if (bad_cmd)
		printf("ktap2lava.sh: %s failed %d times\n", cmd, bad_cmd) > "/dev/stderr"
	exit (n["fail"] > 0 || bad_cmd > 0) ? 1 : 0
}' "$in"
