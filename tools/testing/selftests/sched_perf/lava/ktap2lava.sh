#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ktap2lava.sh [-n] [KTAP-FILE]
#
# Report the KTAP of run_kselftest.sh (or of make run_tests) as LAVA test
# cases: one per program (the runner's "ok N selftests: COLL: PROG") and
# one per check of a program ("# ok 3 hackbench.migrations_per_1k_ops",
# "# ok 8 hackbench.x # SKIP reason", "# not ok 5 ...").  ok is pass, not
# ok is fail, a SKIP directive is skip.  Older forms of a check ("# ok 3
# hackbench.x # 0.3 <= 50", "# ok 3 hackbench.x 0.3 <= 50", "# ok 8 #
# SKIP hackbench.x: reason") map the same.  A check's name keeps its
# program prefix and drops any figures after it; a check of another
# suite, named otherwise, is PROG.<its whole description>.  Names: LAVA's
# safe characters [A-Za-z0-9._-] (others become _).  One more case,
# ktap_complete, fails when the runner's plan (1..N) is missing or was not
# met: a run that died or was cut short.
#
# A check named as a metric the program printed before it ("# # NAME:
# VALUE[ UNIT]", a finite number) carries that value as its measurement,
# for LKFT/SQUAD to follow across builds: --measurement VALUE --units
# UNIT.  UNIT is the printed one ("us", "KB/s"; "/s" gets the operations
# of its name: messages_per_sec is messages/s), else one read from the
# name: NAME_per_X is /X (/op, /1k_ops, /wakeup), NAME_share and NAME_cv
# are fraction, anything else none.
#
# Each case is sent with "lava-test-case NAME --result RESULT
# [--measurement VALUE --units UNIT]"; without lava-test-case on PATH, or
# with -n, "NAME RESULT [VALUE UNIT]" lines are printed.  POSIX sh and awk
# only (busybox is enough).  Reads stdin without a file or with "-".
#
# Exit: 0 every case passed or skipped, 1 a case failed, 2 no KTAP result
# found or bad usage.

usage() {
	sed -n '4,34s/^# \{0,1\}//p' "$0"
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
# The unit of metric @name printed as @u ("" for none)
function units(name, u,    m) {
	m = name
	sub(/^[^.]*\./, "", m)
	if (u ~ /^\// && m ~ /_per_sec/) {
		sub(/_per_sec.*$/, "", m)
		u = m u
	} else if (u == "" && m ~ /_per_[a-z0-9]+(_[a-z0-9]+)*$/) {
		sub(/^.*_per_/, "", m)
		u = "/" m
	} else if (u == "" && m ~ /_(share|cv)$/) {
		u = "fraction"
	} else if (u == "") {
		u = "none"
	}
	gsub(/[^A-Za-z0-9._\/%-]/, "_", u)
	return u
}
function report(name, res,    args) {
	n[res]++
	args = ""
	if (name in value) {
		args = " --measurement " value[name] " --units " unit[name]
		nr_measured++
	}
	if (cmd == "") {
		print name " " res (args == "" ? "" : " " value[name] " " unit[name])
	} else {
		fflush()
		# name, res, value and unit hold only [A-Za-z0-9._/%+-]:
		# nothing for a shell
		if (system(cmd " " name " --result " res args) != 0)
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
	# a metric: "hackbench.messages_per_sec: 1.8e+06 /s"
	if (depth >= 1 && line ~ /^[A-Za-z0-9_@-]+(\.[A-Za-z0-9_]+)+: /) {
		p = index(line, ": ")
		v = substr(line, p + 2)
		u = ""
		if ((q = index(v, " ")) > 0) {
			u = substr(v, q + 1)
			v = substr(v, 1, q - 1)
		}
		if (v ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ && u !~ / /) {
			name = clean(substr(line, 1, p - 1))
			value[name] = v
			unit[name] = units(name, u)
		}
		next
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
	printf("ktap2lava.sh: %d cases: %d pass, %d fail, %d skip, %d with a measurement (runner: %d of %s planned)\n",
	       total, n["pass"], n["fail"], n["skip"], nr_measured, nr_top, planned) > "/dev/stderr"
	if (bad_cmd)
		printf("ktap2lava.sh: %s failed %d times\n", cmd, bad_cmd) > "/dev/stderr"
	exit (n["fail"] > 0 || bad_cmd > 0) ? 1 : 0
}' "$in"
