#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel/sched patches: git format-patch files with a changelog and a
# Signed-off-by, checkpatch clean, and applying in order with git apply
# --check to the kernel source (KSRC, the Debian 6.12 source by default).
# The same for kernel/test (test-only patches for benchmarks), which
# apply to the source alone and after kernel/sched.
set -u
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=$(realpath "$1")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# checkpatch as a maintainer runs it: from the top of the kernel tree,
# --strict (its CHECKs are printed, not counted).  The directory matters:
# checkpatch looks for .git there, and in a git tree (this repository's
# top, say) it takes a cited id it cannot find for no commit at all and
# lets its citation's form pass; without one it checks every citation's
# form: 'commit 0123456789ab ("subject")'.  The cited upstream commits
# are not in KSRC (a tarball without history): UNKNOWN_COMMIT_ID ignored.
checkpatch_run() {	# patch: checkpatch's terse output, its exit status
	(cd "$ksrc" && unset GIT_DIR GIT_WORK_TREE &&
		./scripts/checkpatch.pl --strict --terse --ignore UNKNOWN_COMMIT_ID "$1" 2>&1)
}
# checkpatch clean (no error, no warning), or fail naming LABEL; its
# CHECKs (the DECLARE_TRACE() style of include/trace/events/sched.h)
# counted in $checks
checkpatch_clean() {	# label patch
	local out
	out=$(checkpatch_run "$2")
	[ -z "$out" ] || grep -q "^total: 0 errors, 0 warnings, " <<<"$out" ||
		fail "$1: checkpatch: $out"
	checks=$(sed -n 's/^total: .* \([0-9]*\) checks, .*/\1/p' <<<"$out")
	checks=${checks:-0}
}

# Apply PATCH... in order in the current directory: 0, or 1 with the
# name of the first one refused on stdout (git's message in $scratch/err).
first_refused() {	# patch...
	local p
	for p in "$@"; do
		git apply "$p" 2>"$scratch/err" || { basename "$p"; return 1; }
	done
}

# The files PATCH... touch (their "+++ b/" lines), one a line.
touched_files() {	# patch...
	sed -n 's|^+++ b/||p' "$@" | sort -u
}
# Into DIR, the files PATCH... touch, as SRC has them (one a patch makes
# is not there yet): a tree to apply them to, outside any git tree.
copy_touched() {	# src dir patch...
	local src=$1 dir=$2 f
	shift 2
	for f in $(touched_files "$@"); do
		mkdir -p "$dir/$(dirname "$f")" || return 1
		[ ! -f "$src/$f" ] || cp "$src/$f" "$dir/$f" || return 1
	done
}
# Bare tracepoints, nothing else: PATCH... leave struct rq (sched.h) and
# debugfs (debug.c) alone, or fail naming LABEL.
rq_and_debugfs_untouched() {	# label patch...
	local touched
	touched=$(touched_files "${@:2}" | grep -E '^kernel/sched/(sched\.h|debug\.c)$' || true)
	[ -z "$touched" ] || fail "$1 touches $touched: counters in struct rq or debugfs again?"
}

mapfile -t patches < <(ls "$top"/kernel/sched/*.patch 2>/dev/null | sort)
[ ${#patches[@]} -gt 0 ] || fail "no kernel/sched/*.patch"
# the seed series (scripts/seed-tree.sh), on top of the counters
mapfile -t seeds < <(ls "$top"/kernel/seed/*.patch 2>/dev/null | sort)
[ ${#seeds[@]} -ge 10 ] || fail "kernel/seed: ${#seeds[@]} patches, want at least 10"
# test-only patches for benchmarks (make bench-kernel-power)
mapfile -t tests < <(ls "$top"/kernel/test/*.patch 2>/dev/null | sort)
[ ${#tests[@]} -ge 1 ] || fail "no kernel/test/*.patch"

for p in "${patches[@]}" "${seeds[@]}" "${tests[@]}"; do
	n=$(basename "$p")
	head -n1 "$p" | grep -qE '^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$' ||
		fail "$n: not git format-patch output"
	# a lone test patch is "[PATCH]"; a series' are "[PATCH n/m]"
	subject='^Subject: \[PATCH [0-9]+/[0-9]+\] sched/'
	[ "$(dirname "$p")" != "$top/kernel/test" ] || subject='^Subject: \[PATCH( [0-9]+/[0-9]+)?\] sched/'
	grep -qE "$subject" "$p" || fail "$n: no '[PATCH n/m] sched/...' subject"
	grep -qE '^Signed-off-by: .+ <.+@.+>$' "$p" || fail "$n: no Signed-off-by"
	# the changelog: the lines between the headers and the '---' line
	words=$(awk '/^---$/ { exit } body && !/^Signed-off-by:/ { print } /^$/ { body = 1 }' "$p" | wc -w)
	[ "$words" -ge 60 ] || fail "$n: changelog of $words words"
	checkpatch_clean "$n" "$p"
	pass "$n: format-patch, Signed-off-by, $words-word changelog, checkpatch --strict clean ($checks checks)"
done
# The check can fail: a commit cited without its subject is refused.
sed 's/^trade on that commit as /trade on commit 63304558ba5d as /' "${seeds[6]}" >"$scratch/untitled.patch"
cmp -s "${seeds[6]}" "$scratch/untitled.patch" && fail "$(basename "${seeds[6]}"): no line to cite a commit on"
out=$(checkpatch_run "$scratch/untitled.patch") &&
	fail "a commit cited without its subject passed checkpatch: $out"
grep -q 'GIT_COMMIT_ID' <<<"$out" || grep -q 'git commit description style' <<<"$out" ||
	fail "a commit cited without its subject: checkpatch failed, but not on it: $out"
pass "a commit cited without its subject fails checkpatch run from $ksrc"

# Apply them in order to a copy of the files they touch.  A git tree
# around KSRC would make git apply skip every path: work outside it.
copy_touched "$ksrc" "$scratch/tree" "${patches[@]}" "${seeds[@]}" && cd "$scratch/tree" ||
	fail "no scratch tree"
export GIT_CEILING_DIRECTORIES=$scratch
for p in "${patches[@]}"; do
	git apply --check "$p" 2>"$scratch/err" ||
		fail "$(basename "$p") does not apply to $ksrc: $(head -n3 "$scratch/err" | tr '\n' ' ')"
	git apply "$p" || fail "$(basename "$p"): git apply failed after --check passed"
done
pass "${#patches[@]} patches apply in order with git apply --check to $(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$ksrc/Makefile" | paste -sd.)"
# Bare tracepoints, nothing else: declared, exported for modules, fired
# from fair.c; no field in struct rq, no debugfs file; and their reasons
# in the order the suite reads them (sched_tp_sis.h, sched_tp_wp.h), so that a reason's
# value means the same to the kernel and to the programs.
tracepoints_ok() {	# tree label [mainline]
	local tree=$1 label=$2 tp declared
	for tp in sched_select_idle_sibling_tp sched_wakeup_preempt_tp; do
		# mainline's DECLARE_TRACE(name) declares name_tp, 6.12's names it
		declared=$tp
		[ "${3-}" = mainline ] && declared=${tp%_tp}
		grep -q "^DECLARE_TRACE($declared,\$" "$tree/include/trace/events/sched.h" &&
			grep -q "^EXPORT_TRACEPOINT_SYMBOL_GPL($tp);\$" "$tree/kernel/sched/core.c" &&
			grep -q "trace_$tp(" "$tree/kernel/sched/fair.c" ||
			fail "$label: $tp not declared with DECLARE_TRACE, exported and fired from fair.c"
	done
	same_reasons "$tree" "$label" sched_sis_reason SIS_ SIS_REASON sched_tp_sis.h
	same_reasons "$tree" "$label" sched_wakeup_preempt_reason WAKEUP_ WP_REASON sched_tp_wp.h
}
same_reasons() {	# tree label enum prefix macro file
	local kernel suite
	kernel=$(sed -n "/^enum $3 {\$/,/^};/s/^\t$4\([A-Z_]*\),.*/\1/p" "$1/include/trace/events/sched.h" | paste -sd' ')
	suite=$(sed -n "s/^$5(\([A-Z_]*\))\$/\1/p" "$top/tools/testing/selftests/sched_perf/$6" | paste -sd' ')
	[ -n "$kernel" ] && [ "$kernel" = "$suite" ] ||
		fail "$2: enum $3 is '$kernel', the suite's $5 '$suite'"
}
tracepoints_ok . "6.12 series"
rq_and_debugfs_untouched "the series" "${patches[@]}"
pass "the patched tree declares, exports and fires sched_select_idle_sibling_tp and sched_wakeup_preempt_tp, their reasons as sched_tp_sis.h and sched_tp_wp.h list them; struct rq and debugfs untouched"
# Each class of the seed reports is a commit under test after a parent
# without it, and each commit changes fair.c the way its class says
# (the state after it, by its number; a commit not listed must leave
# these lines as they were):
#   0004 the scan floor (4c77b18cf8b7's direction)
#   0006 the slice shield lifted at every wakeup check (the base for 0007)
#   0007 the curb: only a shorter wakee lifts it (63304558ba5d)
#   0008 the scan from target (the base for 0009)
#   0009 the scan after target (56498cfb045d)
state() {	# floor shield scan_start: what fair.c holds now
	local floor=no shield=curb start=after
	grep -q 'max_t(int, READ_ONCE(sd_share->nr_idle_scan), SIS_MIN_SCAN)' kernel/sched/fair.c && floor=yes
	grep -q 'if (do_preempt_short(cfs_rq, pse, se))' kernel/sched/fair.c || shield=lifted
	# select_idle_capacity() walks from target too: look for the LLC's walk
	grep -q 'for_each_cpu_wrap(cpu, cpus, target + 1) {' kernel/sched/fair.c || start=target
	echo "$floor $shield $start"
}
declare -A want=([0004]="yes curb after" [0006]="yes lifted after" [0007]="yes curb after"
		 [0008]="yes curb target" [0009]="yes curb after")
classes=0
before=$(state)
[ "$before" = "no curb after" ] || fail "fair.c with the counters: '$before', want 'no curb after'"
# select_idle_capacity() walks from target in 6.12 and in every seed
# commit: 56498cfb045d (0009's model) changed select_idle_cpu() only
capacity_start() {
	sed -n '/^select_idle_capacity(/,/^}/s/.*for_each_cpu_wrap(cpu, cpus, \(target[^)]*\)).*/\1/p' kernel/sched/fair.c
}
for p in "${seeds[@]}"; do
	n=$(basename "$p" | cut -c1-4)
	git apply --check "$p" 2>"$scratch/err" ||
		fail "kernel/seed/$(basename "$p") does not apply on the counters: $(head -n3 "$scratch/err" | tr '\n' ' ')"
	git apply "$p" || fail "$(basename "$p"): git apply failed after --check passed"
	now=$(state)
	[ "$(capacity_start)" = target ] ||
		fail "kernel/seed/$(basename "$p"): select_idle_capacity() walks from '$(capacity_start)', not target"
	if [ -n "${want[$n]:-}" ]; then
		[ "$now" = "${want[$n]}" ] || fail "kernel/seed/$n: fair.c '$now' after it, want '${want[$n]}'"
		classes=$((classes + 1))
	else
		[ "$now" = "$before" ] || fail "kernel/seed/$n: changed a class's lines ('$before' -> '$now')"
	fi
	before=$now
done
[ "$classes" = ${#want[@]} ] || fail "kernel/seed: $classes of ${#want[@]} class commits found"
pass "kernel/seed: ${#seeds[@]} patches apply in order on the counters; the scan floor (0004), the shield lifted (0006) and curbed again (0007), the scan from target (0008) and after it again (0009), each in its own commit"

# kernel/test: alone on the source, and after kernel/sched as vmtest
# applies them (VM_KERNEL_PATCHES after kernel/sched/*.patch)
test_tree() {	# dir patch...: a copy of the source's files, PATCHes applied
	local dir=$1
	shift
	rm -rf "$dir" && copy_touched "$ksrc" "$dir" "${patches[@]}" "${tests[@]}" && cd "$dir" ||
		fail "no scratch tree $dir"
	first_refused "$@" >/dev/null
}
test_tree "$scratch/test-alone" "${tests[@]}" ||
	fail "kernel/test does not apply to $ksrc: $(head -n3 "$scratch/err" | tr '\n' ' ')"
test_tree "$scratch/test-sched" "${patches[@]}" "${tests[@]}" ||
	fail "kernel/test does not apply after kernel/sched: $(head -n3 "$scratch/err" | tr '\n' ' ')"
pass "kernel/test: ${#tests[@]} patch(es) apply to the source alone and after kernel/sched"
# The wakeup cost: a command-line parameter, charged in try_to_wake_up()
# after ttwu_queue() (the placement and the preemption decision taken)
# and outside p->pi_lock's section; nowhere in fair.c.
core=$scratch/test-sched/kernel/sched/core.c
# a parameter root may write at run time (an in-boot --ab flips it), its
# range checked on every write
grep -q '^module_param_cb(sched_test_cost_ns, &sched_test_cost_ops, &sched_test_cost_ns, 0644);$' "$core" &&
	grep -q '^#define MODULE_PARAM_PREFIX ""$' "$core" ||
	fail "kernel/test applied, but core.c has no writable sched_test_cost_ns parameter"
sed -n '/^static int sched_test_cost_set(/,/^}$/p' "$core" | grep -q 'SCHED_TEST_COST_MAX_NS' ||
	fail "kernel/test: a write to sched_test_cost_ns is not checked against SCHED_TEST_COST_MAX_NS"
where=$(awk '/^int try_to_wake_up\(/ { in_ttwu = 1 }
	in_ttwu && /^\tscoped_guard \(raw_spinlock_irqsave, &p->pi_lock\) \{$/ { locked = NR }
	in_ttwu && locked && !unlocked && /^\t\}$/ { unlocked = NR }
	in_ttwu && /ttwu_queue\(p, cpu, wake_flags\);/ { queued = NR }
	in_ttwu && /sched_test_cost_charge\(p\);/ { charged = NR }
	in_ttwu && /^}$/ { exit }
	END { print locked + 0, queued + 0, unlocked + 0, charged + 0 }' "$core")
read -r locked queued unlocked charged <<<"$where"
[ "$locked" -gt 0 ] && [ "$queued" -gt "$locked" ] && [ "$unlocked" -gt "$queued" ] &&
	[ "$charged" -gt "$unlocked" ] ||
	fail "kernel/test: the cost is not charged after ttwu_queue() and outside p->pi_lock (lines: pi_lock $locked, ttwu_queue $queued, unlock $unlocked, charge $charged)"
# its wait executes no PAUSE: qemu's TCG ends a vCPU's turn on one, and
# under -icount the other vCPUs' turns would end the wait early
spin=$(sed -n '/^static noinline void sched_test_cost_spin(/,/^}$/p' "$core")
[ -n "$spin" ] && ! grep -qE 'cpu_relax|ndelay|udelay|rep_nop' <<<"$spin" ||
	fail "kernel/test: the cost's wait is missing or relaxes the CPU: $spin"
! grep -q sched_test_cost "$scratch/test-sched/kernel/sched/fair.c" 2>/dev/null ||
	fail "kernel/test: fair.c mentions sched_test_cost: the cost would sit before the decisions"
pass "kernel/test: sched_test_cost_ns charged at line $charged of core.c, after ttwu_queue() (line $queued) and p->pi_lock's section (lines $locked-$unlocked), its wait without PAUSE"

# The check can fail: without the first patch, the rest of the series
# does not apply to the source.
if [ ${#patches[@]} -gt 1 ]; then
	rm -rf "$scratch/tree2" && mkdir -p "$scratch/tree2"
	(cd "$scratch/tree" && tar cf - .) | tar -C "$scratch/tree2" -xf -
	copy_touched "$ksrc" "$scratch/tree2" "${patches[@]}" && cd "$scratch/tree2" ||
		fail "no scratch tree"
	refused=$(first_refused "${patches[@]:1}") &&
		fail "the series applies without $(basename "${patches[0]}"): the check proves nothing"
	pass "without $(basename "${patches[0]}"), $refused is refused"
fi

# vmtest applies them, and any other patch patch -p1 accepts, to a tree
# of symlinks (scripts/vmtest/apply-patches.sh): a diff -u patch with
# timestamps after the names, a git one, and a new file all apply, the
# source untouched; a patch that does not apply names itself (exit 1).
apply=$top/scripts/vmtest/apply-patches.sh
mini=$scratch/mini
mkdir -p "$mini/kernel/sched" "$scratch/edit/kernel/sched"
printf 'SCHED_FEAT(WAKEUP_PREEMPTION, true)\n' >"$mini/kernel/sched/features.h"
printf 'int x;\n' >"$mini/kernel/sched/fair.c"
sed 's/true/false/' "$mini/kernel/sched/features.h" >"$scratch/edit/kernel/sched/features.h"
(cd "$scratch" && diff -u mini/kernel/sched/features.h edit/kernel/sched/features.h) >"$scratch/1-diff-u.patch"
grep -q "^+++ edit/kernel/sched/features.h	[0-9]" "$scratch/1-diff-u.patch" ||
	fail "diff -u wrote no timestamp after the name: $(head -n2 "$scratch/1-diff-u.patch")"
cat >"$scratch/2-git.patch" <<'PATCH'
diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c
--- a/kernel/sched/fair.c
+++ b/kernel/sched/fair.c
@@ -1 +1 @@
-int x;
+int x = 1;
diff --git a/kernel/sched/new.c b/kernel/sched/new.c
new file mode 100644
--- /dev/null
+++ b/kernel/sched/new.c
@@ -0,0 +1 @@
+int y;
PATCH
"$apply" "$mini" "$scratch/out" "$scratch/1-diff-u.patch" "$scratch/2-git.patch" 2>"$scratch/err" ||
	fail "apply-patches: exit $?: $(cat "$scratch/err")"
[ "$(cat "$scratch/out/kernel/sched/features.h")" = "SCHED_FEAT(WAKEUP_PREEMPTION, false)" ] &&
	[ ! -L "$scratch/out/kernel/sched/features.h" ] &&
	[ "$(cat "$scratch/out/kernel/sched/fair.c")" = "int x = 1;" ] &&
	[ "$(cat "$scratch/out/kernel/sched/new.c")" = "int y;" ] ||
	fail "apply-patches: the copy is not patched: $(cat "$scratch/out/kernel/sched/"*)"
[ "$(cat "$mini/kernel/sched/features.h")" = "SCHED_FEAT(WAKEUP_PREEMPTION, true)" ] &&
	[ "$(cat "$mini/kernel/sched/fair.c")" = "int x;" ] && [ ! -e "$mini/kernel/sched/new.c" ] ||
	fail "apply-patches: the source tree was changed"
pass "vmtest's patches: diff -u with timestamps, git format and a new file applied to a tree of links, the source untouched"
# Made again over the same tree: brought up to date, not made anew
printf 'int z;\n' >"$mini/kernel/sched/added.c"
"$apply" "$mini" "$scratch/out" "$scratch/2-git.patch" 2>"$scratch/err" ||
	fail "apply-patches, again with one patch: exit $?: $(cat "$scratch/err")"
[ -L "$scratch/out/kernel/sched/features.h" ] &&
	[ "$(cat "$scratch/out/kernel/sched/features.h")" = "SCHED_FEAT(WAKEUP_PREEMPTION, true)" ] &&
	[ "$(cat "$scratch/out/kernel/sched/fair.c")" = "int x = 1;" ] &&
	[ -L "$scratch/out/kernel/sched/added.c" ] || fail "apply-patches, again: not up to date: $(ls -l "$scratch/out/kernel/sched")"
rm "$mini/kernel/sched/added.c"
"$apply" "$mini" "$scratch/out" 2>"$scratch/err" || fail "apply-patches, no patch: exit $?"
[ ! -e "$scratch/out/kernel/sched/new.c" ] && [ ! -L "$scratch/out/kernel/sched/added.c" ] &&
	[ -L "$scratch/out/kernel/sched/fair.c" ] && [ "$(cat "$scratch/out/kernel/sched/fair.c")" = "int x;" ] ||
	fail "apply-patches, no patch: not the source again: $(ls -l "$scratch/out/kernel/sched")"
pass "vmtest's patches: the tree of links brought up to date: unpatched files links again, a file the source gained linked, one it lost gone"
rc=0
"$apply" "$mini" "$scratch/out" "$scratch/2-git.patch" "$scratch/2-git.patch" 2>"$scratch/err" || rc=$?
[ "$rc" = 1 ] && [ "$(wc -l <"$scratch/err")" = 1 ] && grep -q "2-git.patch does not apply" "$scratch/err" ||
	fail "apply-patches, a patch applied twice: exit $rc, want 1 and one line: $(cat "$scratch/err")"
pass "vmtest's patches: one that does not apply: exit 1, $(cut -c1-80 "$scratch/err")"
rc=0
"$apply" "$mini" "$scratch/out" "$scratch/none.patch" 2>"$scratch/err" || rc=$?
[ "$rc" = 2 ] && grep -q "none.patch: no such patch" "$scratch/err" ||
	fail "apply-patches, a missing patch: exit $rc, want 2: $(cat "$scratch/err")"
pass "vmtest's patches: a missing patch file: exit 2"

# The mainline series (kernel/sched/mainline): checkpatch clean; the
# same reasons, word for word, as the 6.12 series (read from the
# patches' own lines, so this holds without a mainline tree); no field
# in struct rq, no debugfs file.  Applying it needs a mainline tree,
# which this project does not copy: given MAINLINE_SRC (a mainline
# checkout or tarball), the series applies in order to it, declares,
# exports and fires the two tracepoints, and is refused without its
# first patch.  Without one, the pass line says only checkpatch ran.
mainline=$top/kernel/sched/mainline
mapfile -t mpatches < <(ls "$mainline"/*.patch 2>/dev/null | sort)
[ ${#mpatches[@]} -ge 3 ] || fail "kernel/sched/mainline: ${#mpatches[@]} patches, want 3"
for p in "${mpatches[@]}"; do
	checkpatch_clean "mainline/$(basename "$p")" "$p"
	pass "mainline/$(basename "$p"): checkpatch --strict clean ($checks checks)"
done
added_enum() {	# enum patch... : the enum as the patches add it
	sed -n "/^+enum $1 {\$/,/^+};/s/^+//p" "${@:2}"
}
for e in sched_sis_reason sched_wakeup_preempt_reason; do
	[ -n "$(added_enum "$e" "${mpatches[@]}")" ] ||
		fail "the mainline series adds no enum $e"
	[ "$(sed -n "/^enum $e {\$/,/^};/p" "$scratch/tree/include/trace/events/sched.h")" = \
	  "$(added_enum "$e" "${mpatches[@]}")" ] ||
		fail "enum $e: the mainline series' is not the 6.12 series'"
done
rq_and_debugfs_untouched "the mainline series" "${mpatches[@]}"
msrc=${MAINLINE_SRC:-}
if [ -z "$msrc" ]; then
	pass "mainline: ${#mpatches[@]} patches checkpatch clean, the same reasons as the 6.12 series, struct rq and debugfs untouched; not applied (checkpatch only: set MAINLINE_SRC to a mainline tree to apply them)"
	done_ok
	exit 0
fi
[ -f "$msrc/kernel/sched/fair.c" ] && [ -f "$msrc/include/trace/events/sched.h" ] ||
	fail "MAINLINE_SRC=$msrc: not a kernel tree (no kernel/sched/fair.c or include/trace/events/sched.h)"
apply_mainline() {	# dir patch... : as first_refused, on a copy of the files the series touches
	local dir=$1
	shift
	rm -rf "$dir" && copy_touched "$msrc" "$dir" "${mpatches[@]}" && cd "$dir" ||
		fail "no scratch tree $dir"
	first_refused "$@"
}
refused=$(apply_mainline "$scratch/ml" "${mpatches[@]}") ||
	fail "mainline/$refused does not apply to $msrc: $(head -n2 "$scratch/err" | tr '\n' ' ')"
tracepoints_ok "$scratch/ml" "mainline series" mainline
pass "mainline: ${#mpatches[@]} patches apply in order to $msrc and declare, export and fire the two tracepoints, their reasons as the suite lists them"
refused=$(apply_mainline "$scratch/ml2" "${mpatches[@]:1}") &&
	fail "the mainline series applies without $(basename "${mpatches[0]}"): the check proves nothing"
pass "mainline: without $(basename "${mpatches[0]}"), $refused is refused"
done_ok
