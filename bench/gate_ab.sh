#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The paired, sequential gate (--ab blocks A B, B A, ...; the signed-rank
# test; SAME by equivalence; looks at planned sizes with alpha spent over
# them) measured on this machine, per program:
#  1. pools of blocks from --ab runs on a knob that changes nothing
#     (GATE_KNOB, default kernel.printk_ratelimit one above its value):
#     pool0 with B = A, pool5 / pool10 with the B side made 5 % / 10 %
#     slower on purpose (SCHED_PERF_TEST_WORK_NS with
#     SCHED_PERF_TEST_WORK_SIDE=b; the amount from pool0's first run, as
#     bench/gate.sh takes it), in runs of GATE_RUN blocks, interleaved;
#  2. from each pool, GATE_DRAWS gates: GATE_MAX blocks drawn at random,
#     judged by sched_perf_compare --paired --looks L at the planned sizes
#     (GATE_N, then about 1.5 times as many, up to GATE_MAX) until every
#     metric is decided; the outcome (DIFFERENT, SAME, undecided) and the
#     blocks it took.
# The gates of a program share its pools: the rates are those of these
# pools, not of independent experiments.
#
# Usage: bench/gate_ab.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]
#   (default: hackbench tcp_rr udp_rr dirdeep)
# Environment (default): GATE_BLOCKS (32) blocks per pool, GATE_RUN (8)
# blocks per run, GATE_ITER_SEC (1; dirdeep 2) seconds per iteration,
# GATE_N (8) and GATE_MAX (18) blocks of a gate, GATE_DRAWS (300),
# GATE_SEED (random), GATE_KNOB.
set -eu
dir=${1:?usage: bench/gate_ab.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]}
shift
progs=${*:-hackbench tcp_rr udp_rr dirdeep}
blocks=${GATE_BLOCKS:-32}
per_run=${GATE_RUN:-8}
n=${GATE_N:-8}
max=${GATE_MAX:-18}
draws=${GATE_DRAWS:-300}
seed=${GATE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
rl=/proc/sys/kernel/printk_ratelimit
knob=${GATE_KNOB:-$rl=$(($(cat $rl 2>/dev/null || echo 5) + 1))}
py=/usr/bin/python3
gate_py=$(cd "$(dirname "$0")" && pwd)/gate.py
[ -x "$py" ] || { echo "gate_ab: $py not found" >&2; exit 2; }
[ -x "$dir/sched_perf_compare" ] || { echo "gate_ab: no $dir/sched_perf_compare (make build)" >&2; exit 2; }
[ "$blocks" -ge "$max" ] && [ "$max" -ge "$n" ] ||
	{ echo "gate_ab: want GATE_BLOCKS ($blocks) >= GATE_MAX ($max) >= GATE_N ($n)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin"
for f in $progs sched_perf_compare bounds; do
	cp "$dir/$f" "$tmp/bin/" || { echo "gate_ab: no $dir/$f" >&2; exit 2; }
done
bin=$tmp/bin
helper() { "$py" "$gate_py" "$@"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# prog pool blocks secs work_ns number: one --ab run into a pool; prints
# its B side's file (the A side is FILE.a); 4 on SKIP, 1 on no run set.
pool_run() {
	local p=$1 pool=$2 k=$3 secs=$4 ns=$5 f=$tmp/$1.pool$2.$6.res rc=0 t0
	t0=$(now)
	env ${ns:+SCHED_PERF_TEST_WORK_NS=$ns SCHED_PERF_TEST_WORK_SIDE=b} "$bin/$p" \
		--ab "$knob" --iterations "$k" --max-runs "$k" \
		--budget "$(awk -v k="$k" -v s="$secs" 'BEGIN { print k * s }')" \
		--results none --save "$f" >"$f.out" 2>&1 || rc=$?
	[ $rc = 4 ] && { grep -m1 'SKIP' "$f.out" | sed 's/.*# SKIP //' >"$tmp/$p.skip"; return 4; }
	if ! grep -q '^runset.end: ' "$f" 2>/dev/null || ! grep -q '^runset.end: ' "$f.a"; then
		echo "gate_ab: $p (pool$pool) saved no run sets, exit $rc:" >&2
		tail -n 5 "$f.out" >&2
		return 1
	fi
	printf '  pool%-2s run: %2s blocks of 2 x %s s%s: %s s, exit %s\n' "$pool" "$k" "$secs" \
		"${ns:+, B side +$ns ns per op}" "$(since "$t0")" "$rc" >&3
	echo "$f"
}

exec 3>&1
echo "gate_ab.sh: $(nproc) CPUs, kernel $(uname -r), programs from $dir, knob $knob"
echo "  pools: $blocks blocks each (runs of $per_run, interleaved); gates of $n..$max blocks" \
	"(looks at $(helper looks "$n" "$max")), $draws per pool, seed $seed"
start=$(now)
for p in $progs; do
	t0=$(now)
	case $p in
	dirdeep) secs=${GATE_ITER_SEC:-2} ;;
	*) secs=${GATE_ITER_SEC:-1} ;;
	esac
	echo
	echo "$p: $secs s per iteration"
	declare -A files=() ns=()
	first=
	run=2
	skipped=
	while read -r pool k; do
		if [ -z "$first" ]; then
			rc=0
			f=$(pool_run "$p" 0 "$k" "$secs" "" 1) || rc=$?
			[ $rc = 4 ] && { skipped=1; echo "  SKIP: $(cat "$tmp/$p.skip")"; break; }
			[ $rc = 0 ] || exit 1
			first=$f
			IFS='|' read -r values basis <<<"$(helper calibrate "$p" "$first.a" 5 10)"
			set -- $values
			ns[5]=$1
			ns[10]=$2
			echo "  B side slower by 5 %: ${ns[5]} ns, 10 %: ${ns[10]} ns per op ($basis)"
		else
			f=$(pool_run "$p" "$pool" "$k" "$secs" "${ns[$pool]:-}" "$run") || exit 1
		fi
		files[$pool]="${files[$pool]:-} $f"
		run=$((run + 1))
	done < <(helper schedule "$blocks" "$blocks" "$per_run")
	if [ -z "$skipped" ]; then
		for pool in 0 5 10; do
			a_files=
			for f in ${files[$pool]}; do
				a_files="$a_files $f.a"
			done
			helper merge "pool$pool" "$tmp/$p.pool$pool.res" ${files[$pool]}
			helper merge "pool$pool A" "$tmp/$p.pool$pool.res.a" $a_files
		done
		helper paired_trials "$p" "$seed" "$n" "$max" "$draws" "$bin/sched_perf_compare" \
			"$tmp" "$tmp/$p.pool0.res" "5=$tmp/$p.pool5.res" "10=$tmp/$p.pool10.res"
	fi
	echo "  $p: $(since "$t0") s"
	unset files ns
done
echo
echo "gate_ab.sh: $(since "$start") s in all, seed $seed"
if [ -n "${GATE_KEEP:-}" ]; then
	mkdir -p "$GATE_KEEP"
	cp "$tmp"/*.res "$tmp"/*.res.a "$tmp"/*.out "$tmp"/*.json "$GATE_KEEP"/ 2>/dev/null || true
	echo "pools, run outputs and tallies kept in $GATE_KEEP"
fi
