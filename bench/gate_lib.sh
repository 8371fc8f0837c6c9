# SPDX-License-Identifier: GPL-2.0
# Shared by bench/gate.sh and bench/gate_ab.sh: a private copy of the
# programs, the helper (bench/gate.py), a clock, and one run into a pool.
# Before sourcing: dir (the programs), progs, me (for messages); after:
# py, bin, tmp (removed on exit); pool_knob set to a --ab knob makes
# pool_run an A/B run whose B side alone gets the slowdown.

py=/usr/bin/python3
[ -x "$py" ] || { echo "$me: $py not found" >&2; exit 2; }
[ -x "$dir/sched_perf_compare" ] || { echo "$me: no $dir/sched_perf_compare (make build)" >&2; exit 2; }
gate_py=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/gate.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Our own copy of the programs: a rebuild (make sync) empties $dir.
# sched_perf_compare and the programs read 'bounds' beside themselves.
mkdir -p "$tmp/bin" "$tmp/results"
for f in $progs sched_perf_compare bounds; do
	cp "$dir/$f" "$tmp/bin/" || { echo "$me: no $dir/$f" >&2; exit 2; }
done
bin=$tmp/bin
pool_knob=

helper() { "$py" "$gate_py" "$@"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# One run into a pool: prog pool iterations iter_sec slowdown (empty: none,
# else SCHED_PERF_TEST_WORK_NS=N or SCHED_PERF_TEST_STRETCH_PCT=P) and its
# number; prints its file (progress on fd 3); returns 4 on SKIP, 1
# when it saved no run set.  With pool_knob: that many A/B blocks, the B
# side in the file and the A side in FILE.a.
pool_run() {
	local p=$1 pool=$2 k=$3 secs=$4 work=$5 f=$tmp/$1.pool$2.$6.res rc=0 t0 ab=() unit=iterations
	if [ -n "$pool_knob" ]; then
		ab=(--ab "$pool_knob" --max-runs "$k")
		work=${work:+$work SCHED_PERF_TEST_WORK_SIDE=b}
		unit="blocks"
	fi
	t0=$(now)
	# shellcheck disable=SC2086
	env $work "$bin/$p" "${ab[@]}" --iterations "$k" \
		--budget "$(awk -v k="$k" -v s="$secs" 'BEGIN { print k * s }')" \
		--results none --save "$f" >"$f.out" 2>&1 || rc=$?
	[ $rc = 4 ] && { grep -m1 'SKIP' "$f.out" | sed 's/.*# SKIP //' >"$tmp/$p.skip"; return 4; }
	# a whole run set: sched_perf_compare reads it
	if ! "$bin/sched_perf_compare" --dump "$f" >/dev/null 2>&1 ||
	   { [ -n "$pool_knob" ] && ! "$bin/sched_perf_compare" --dump "$f.a" >/dev/null 2>&1; }; then
		echo "$me: $p (pool$pool${work:+, $work}) saved no run set, exit $rc:" >&2
		tail -n 5 "$f.out" >&2
		return 1
	fi
	printf '  pool%-2s run: %2s %s of %s s%s: %s s, exit %s\n' "$pool" "$k" "$unit" "$secs" \
		"${work:+, $work}" "$(since "$t0")" "$rc" >&3
	echo "$f"
}

# The knob is set by its effect, not by a guess: a first amount, cal_pct
# of pool0's first run's time per op, runs once (cal_runs iterations or
# blocks); what it did to throughput gives an amount per slowdown
# (bench/gate.py calibrate_effect: 1 / ratio - 1 taken as linear in the
# work).  The effect is not linear everywhere (hackbench: 57 ns per
# message moved it 12 %, 281 ns 21 %: a little work between two writes
# already changes how the receivers batch), so each amount then runs a
# trial of its own, and its effect corrects it the same way, from close
# by.  Sets values (one amount per slowdown) and basis (how they were
# found).
cal_pct=${GATE_CAL_PCT:-20}
cal_runs=${GATE_CAL_RUNS:-8}
calibrate() {	# prog secs
	local guess f x one estimates i=0
	declare -gA cal_how=()
	IFS='|' read -r guess basis <<<"$(helper calibrate "$bin/sched_perf_compare" "$1" "$first${pool_knob:+.a}" "$cal_pct")"
	echo "  trial for the knob: $guess ns per op ($cal_pct % of the $basis)"
	f=$(pool_run "$1" cal "$cal_runs" "$2" "SCHED_PERF_TEST_WORK_NS=$guess" 1) || exit 1
	IFS='|' read -r estimates basis <<<"$(helper calibrate_effect "$bin/sched_perf_compare" "$1" "$guess" "$first" "$f" $slowdowns)"
	echo "  first estimate: $estimates ns for $slowdowns % (from the $basis)"
	read -ra estimates <<<"$estimates"
	values=
	for x in $slowdowns; do
		f=$(pool_run "$1" "cal$x" "$cal_runs" "$2" "SCHED_PERF_TEST_WORK_NS=${estimates[i]}" 1) || exit 1
		IFS='|' read -r one cal_how[$x] <<<"$(helper calibrate_effect "$bin/sched_perf_compare" "$1" "${estimates[i]}" "$first" "$f" "$x")"
		values="$values $one"
		i=$((i + 1))
	done
}

# prog secs k0 k1: pool0 (k0 iterations or blocks) and one pool per
# slowdown (k1 each), from runs of per_run, interleaved over time (pool0
# first; the slowdowns calibrated by their effect: calibrate, except for
# the programs in GATE_STRETCH, default dirdeep, whose operations are
# stretched by the nominal amount: there busy work overlaps the I/O the
# program waits for, and 41 us per op moved it by +2.9 %).  Sets
# first (that run's file), skipped (the program cannot run here: the
# reason was printed) and pool_files[POOL] (the runs of a pool).
slowdowns="5 10"
stretched=" ${GATE_STRETCH-dirdeep} "
build_pools() {
	local p=$1 secs=$2 run=2 pool k rc f values basis x
	first= skipped=
	declare -gA pool_files=() pool_work=()
	while read -r pool k; do
		if [ -z "$first" ]; then
			rc=0
			f=$(pool_run "$p" 0 "$k" "$secs" "" 1) || rc=$?
			if [ $rc = 4 ]; then
				skipped=1
				echo "  SKIP: $(cat "$tmp/$p.skip")"
				return 0
			fi
			[ $rc = 0 ] || exit 1
			first=$f
			if [[ $stretched == *" $p "* ]]; then
				for x in $slowdowns; do
					pool_work[$x]=SCHED_PERF_TEST_STRETCH_PCT=$x
					echo "  $x % slower${pool_knob:+ (B side)}: ${pool_work[$x]} (nominal)"
				done
			else
				calibrate "$p" "$secs"
				set -- $values
				for x in $slowdowns; do
					pool_work[$x]=SCHED_PERF_TEST_WORK_NS=$1
					shift
					echo "  SCHED_PERF_TEST_WORK_NS for $x % slower${pool_knob:+ (B side)}: ${pool_work[$x]#*=} ns (from the ${cal_how[$x]})"
				done
			fi
		else
			f=$(pool_run "$p" "$pool" "$k" "$secs" "${pool_work[$pool]:-}" "$run") || exit 1
		fi
		pool_files[$pool]="${pool_files[$pool]:-} $f"
		run=$((run + 1))
	done < <(helper schedule "$3" "$4" "$per_run")
}
