#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Each commit of the seed series (kernel/seed, scripts/seed-tree.sh)
# judged against its parent over interleaved boots (scripts/vmab.sh):
# the three seed classes should be flagged through their mechanism, the
# neutral commits not at all.  One line per commit: its subject, the
# verdict, the metrics flagged and the wall time (build and boots).
#
# Usage: bench/seed_classes.sh KSRC [N...]   (N: commits of the series to
#   judge, 1-10; default 3 4 7 9: a neutral one and the three classes)
# Environment: SEED_TREE (a tree scripts/seed-tree.sh made; default one is
# made in a temporary directory), VM_BOOTS (3), VM_PROGS (hackbench),
# VM_ARGS (hackbench: 5 iterations in 10 s), VM_OUT (kept there).
set -eu
ksrc=$(realpath "${1:?usage: bench/seed_classes.sh KSRC [N...]}")
shift
which=${*:-3 4 7 9}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${VM_OUT:-$(mktemp -d)}
mkdir -p "$out" || { echo "seed_classes: cannot make $out" >&2; exit 2; }
tree=${SEED_TREE:-$out/seed}
export VM_PATCHES=0 VM_CHECKS=0 VM_BOOTS=${VM_BOOTS:-3} VM_PROGS=${VM_PROGS:-hackbench}
export VM_ARGS=${VM_ARGS:-KSELFTEST_HACKBENCH_ARGS=--iterations 5 --budget 10}
now() { date +%s; }

[ -d "$tree/.git" ] || "$top/scripts/seed-tree.sh" "$ksrc" "$tree" >/dev/null
mapfile -t commits < <(git -C "$tree" rev-list --reverse sched_perf-counters..seed)
echo "seed_classes.sh: $(nproc) CPUs, $VM_BOOTS boots a side, programs: $VM_PROGS"
for n in $which; do
	[[ $n =~ ^[1-9][0-9]*$ ]] && [ "$n" -le ${#commits[@]} ] ||
		{ echo "seed_classes: no commit $n in the series (1-${#commits[@]})" >&2; exit 2; }
	b=${commits[n - 1]}
	a=$(git -C "$tree" rev-parse "$b^")
	t0=$(now)
	rc=0
	VM_OUT=$out/$n "$top/scripts/vmab.sh" "$tree@$a" "$tree@$b" >"$out/$n.log" 2>&1 || rc=$?
	flagged=$(sed -n 's/^# \([a-z_]*\): regressed: /\1: /p' "$out/$n/verdict.tap" 2>/dev/null | paste -sd';')
	printf '  %s %-60s exit %s, %s s: %s\n' "$n" "$(git -C "$tree" log -1 --format=%s "$b" | cut -c1-60)" \
		"$rc" "$(($(now) - t0))" "${flagged:-nothing flagged}"
done
