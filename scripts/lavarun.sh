#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The suite's LAVA test definition (lava/sched_perf.yaml), run by LAVA:
# lava-run (lava-dispatcher, no lava-server) on a qemu device that boots
# vmtest's kernel and initramfs, the results read back as LAVA test cases.
#
#   1. scripts/vmtest.sh KSRC image: the kernel (built or cached) and the
#      initramfs with busybox and the suite linked statically in
#      /kselftest, as make vmtest boots them;
#   2. a git repository of the suite's directory (the definition and
#      ktap2lava.sh as they are in this tree, committed or not);
#   3. the job, scripts/lava/job.yaml: deploy to tmpfs (kernel and
#      ramdisk by file:// URL; LAVA appends its overlay to the ramdisk),
#      boot method qemu with "sched_perf.shell" (the guest's /init gives
#      a shell on the console), a test action with the definition from
#      that repository, KSELFTEST_PATH=/kselftest and one
#      KSELFTEST_<PROG>_ARGS per program of the suite's Makefile;
#   4. lava-run with the device dictionary scripts/lava/qemu.yaml and the
#      dispatcher configuration scripts/lava/dispatcher.yaml; its log (a
#      YAML mapping a line) is LAVA_OUT/lava.log;
#   5. scripts/lava/results.py: LAVA's test cases printed with their
#      measurements and checked against the KTAP of the same log.
#
# Usage: scripts/lavarun.sh KSRC
# Environment (and vmtest.sh's for the image: VM_KERNEL, VM_PATCHES,
# SCHED_PERF_CACHE...):
#   LAVA_RUN_ARGS="--iterations 2 --budget 2"  every program's arguments
#                   (KSELFTEST_<PROG>_ARGS; default: none, the suite's own)
#   LAVA_OUT=DIR    job.yaml, lava.log and results.txt (default: a temp
#                   dir, kept)
#   LAVA_TIMEOUT=35 minutes for the test action (the job gets 10 more)
# Exit: 0 LAVA has every program and check as the KTAP says, none
# failed; 1 the same, a test case failed (the suite's verdict); 2 bad
# usage, missing tools, no image, or LAVA's results are not the KTAP's
# (job not finished, a case or a measurement missing: named); 4 this
# machine cannot run lava-run here (not root).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/programs.sh"
lava=$top/scripts/lava
suite=$top/tools/testing/selftests/sched_perf
run_args=${LAVA_RUN_ARGS:-}
timeout=${LAVA_TIMEOUT:-35}
lava_pid=

say() { echo "lavarun: $*"; }
die() { echo "lavarun: $1" >&2; exit "${2:-2}"; }

# lava-run cancelled (SIGTERM) stops qemu and removes its own tmp files
on_exit() {
	[ -n "$lava_pid" ] && kill "$lava_pid" 2>/dev/null && wait "$lava_pid"
	[ -n "${out:-}" ] && rm -rf "$out/image" "$out/repo" "$out/params"
}
trap on_exit EXIT
trap 'exit 130' INT TERM

[ $# = 1 ] || die "usage: $0 KSRC"
ksrc=$1
case $run_args in
*[\'\"\$\`\\]*) die "LAVA_RUN_ARGS: no quotes, \$, \` or \\ (words and options only)" ;;
esac
case $timeout in
'' | *[!0-9]* | 0) die "LAVA_TIMEOUT=$timeout: want minutes, a positive integer" ;;
esac
"$top/scripts/deps.sh" verify vmtest lava || die "missing tools (above)"
# lava-run keeps a job's files in /var/lib/lava/dispatcher/tmp
lava_tmp=/var/lib/lava/dispatcher/tmp
mkdir -p "$lava_tmp" 2>/dev/null && [ -w "$lava_tmp" ] ||
	die "cannot write $lava_tmp (lava-run's job files): run as root" 4

out=${LAVA_OUT:-$(mktemp -d)}
mkdir -p "$out" && out=$(cd "$out" && pwd) || die "cannot make LAVA_OUT=$out"
# it goes into the job's YAML and file:// URLs as it is
case $out in
*[!A-Za-z0-9._/+-]*) die "LAVA_OUT=$out: only letters, digits and ._/+- in its path" ;;
esac
t0=$(date +%s)

# 1. the image, through vmtest's cache
VM_OUT=$out/image "$top/scripts/vmtest.sh" "$ksrc" image ||
	die "no kernel and initramfs from scripts/vmtest.sh (above)"

# 2. the definition's repository: this tree's suite directory
rm -rf "$out/repo" && cp -a "$suite" "$out/repo" &&
	git -C "$out/repo" init -q &&
	git -C "$out/repo" add -A &&
	git -C "$out/repo" -c user.name=lavarun -c user.email=lavarun@localhost \
		-c commit.gpgsign=false commit -q -m "sched_perf suite for lava-run" ||
	die "cannot make a git repository of $suite in $out/repo"

# 3. the job: one KSELFTEST_<PROG>_ARGS per program when arguments are given
progs=$(sched_perf_programs "$suite")
[ -n "$progs" ] || die "no program in $suite/Makefile (TEST_GEN_PROGS)"
params=$out/params
: >"$params"
if [ -n "$run_args" ]; then
	for prog in $progs; do
		printf "        KSELFTEST_%s_ARGS: '%s'\n" "$(echo "$prog" | tr a-z- A-Z_)" \
			"$run_args" >>"$params"
	done
fi
sed -e "s|@KERNEL@|$out/image/bzImage|" -e "s|@RAMDISK@|$out/image/initrd.gz|" \
	-e "s|@REPO@|$out/repo|" -e "s|@TEST_MINUTES@|$timeout|" \
	-e "s|@JOB_MINUTES@|$((timeout + 10))|" "$lava/job.yaml" |
	awk -v params="$params" '
		/^@PARAMETERS@$/ { while ((getline l < params) > 0) print l; next }
		{ print }' >"$out/job.yaml" || die "cannot write $out/job.yaml"

# 4. lava-run: a job id of this process's, so that two runs do not meet
say "lava-run: job $$, ${progs// /, }${run_args:+ with $run_args}; log $out/lava.log"
t1=$(date +%s)
lava-run --job-id "$$" --output-dir "$out/lava" --device "$lava/qemu.yaml" \
	--dispatcher "$lava/dispatcher.yaml" "$out/job.yaml" >"$out/lava.log" 2>&1 &
lava_pid=$!
wait "$lava_pid"
rc=$?
lava_pid=
say "lava-run exit $rc after $(($(date +%s) - t1)) s"

# 5. LAVA's test cases against the KTAP
/usr/bin/python3 "$lava/results.py" "$out/lava.log" $progs >"$out/results.txt" 2>&1
rc=$?
cat "$out/results.txt"
say "$(($(date +%s) - t0)) s in all; job, log and results in $out"
exit $rc
