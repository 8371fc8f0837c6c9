#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Cross-boot A/A: one kernel judged against itself over interleaved boots
# (scripts/vmab.sh with the same tree on both sides, AA_PAIRS boots each,
# A B, B A, ...).  Then, from those boots (bench/gate.py boot_aa):
#  - the CV of each metric within one boot (over its iterations) and
#    across boots (over the boots' medians), side by side;
#  - the independent comparisons: consecutive groups of AA_BOOTS boot
#    pairs, A's boots against B's, as vmab judges them;
#  - AA_SPLITS comparisons drawn from the pool: AA_BOOTS pairs at random,
#    each pair's two boots given to the sides at random (random disjoint
#    splits: they share boots, so they are not independent);
# and every metric verdict counted: a regressed one is a false alarm, with
# its count and 95 % upper bound per 100 metric comparisons.
#
# Usage: bench/boot_aa.sh KSRC
# Environment (default): AA_PAIRS (20), AA_BOOTS (3, boots a side in one
# comparison, vmab's default), AA_SPLITS (300), AA_SEED (random),
# AA_QEMU ("": the host's clock; "-icount shift=0,sleep=off" for
# deterministic guest time), VM_PROGS (hackbench tcp_rr), VM_ARGS (each:
# 5 iterations in 10 s), VM_OUT (kept there).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ksrc=$(realpath "${1:?usage: bench/boot_aa.sh KSRC}")
pairs=${AA_PAIRS:-20}
per_side=${AA_BOOTS:-3}
splits=${AA_SPLITS:-300}
seed=${AA_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
out=${VM_OUT:-$(mktemp -d)}
. "$top/scripts/programs.sh"
cmp=$(sched_perf_compare_bin "$top")
[[ $pairs =~ ^[0-9]+$ ]] && [[ $per_side =~ ^[0-9]+$ ]] && [ "$per_side" -ge 2 ] &&
	[ "$pairs" -ge "$per_side" ] ||
	{ echo "boot_aa: want AA_PAIRS ($pairs) >= AA_BOOTS ($per_side) >= 2" >&2; exit 2; }
export VM_BOOTS=$pairs VM_CHECKS=0 VM_PROGS=${VM_PROGS:-hackbench tcp_rr}
export VM_ARGS=${VM_ARGS:-"KSELFTEST_HACKBENCH_ARGS=--iterations 5 --budget 10
KSELFTEST_TCP_RR_ARGS=--iterations 5 --budget 10"}
export VM_QEMU_ARGS=${AA_QEMU:-}

t0=$(date +%s)
echo "boot_aa: $(nproc) CPUs, $pairs boot pairs, programs: $VM_PROGS, qemu: ${VM_QEMU_ARGS:-host clock}, seed $seed"
rc=0
VM_OUT=$out "$top/scripts/vmab.sh" "$ksrc" "$ksrc" >"$out/vmab.log" 2>&1 || rc=$?
echo "boot_aa: $((2 * pairs)) boots in $(($(date +%s) - t0)) s; vmab on all of them: exit $rc"
sed -n 's/^\(not \)\{0,1\}ok /  &/p' "$out/verdict.tap" 2>/dev/null
[ "$rc" = 0 ] || [ "$rc" = 1 ] || [ "$rc" = 4 ] ||
	{ tail -5 "$out/vmab.log" >&2; exit 2; }
python3 "$top/bench/gate.py" boot_aa "$cmp" "$out" "$pairs" "$per_side" "$splits" "$seed"
