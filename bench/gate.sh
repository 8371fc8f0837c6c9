#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Does the gate keep its promises on this machine?  Per program, pools of
# timed iterations are saved (--save): pool0 (the kernel as it is) and
# pool5 / pool10 (a kernel made 5 % / 10 % slower on purpose with the
# test-only SCHED_PERF_TEST_WORK_NS), each of several runs, interleaved
# (pool0, pool5, pool10, pool0, ...) so that slow drift of the host hits
# all pools alike.  From the pools, comparisons of GATE_N iterations per
# side are drawn by random disjoint splits and judged by sched_perf_compare
# as the gate judges a run against its baseline:
#  1. A/A: two disjoint draws from pool0; exit 1 is a false positive
#  2. detection: a draw from pool0 against one from pool5 / pool10; exit 1
#     is a detection
#  3. one default gate run per program (--baseline a pool0 run), timed
# The draws of a program share its pools: they measure the gate on these
# pools, they are not independent repetitions of the experiment.
#
# The busy work per operation is N ns, chosen from pool0's first run: X %
# of the median CPU time per op (task_clock_us_per_op) for the programs
# that keep the CPUs busy (hackbench, the request-response tests), X % of
# the median wall time per op (1 / bogo_ops_per_sec) for dirdeep (one
# instance, asleep in sync most of the time).
#
# Usage: bench/gate.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]
#   (default: hackbench tcp_rr udp_rr sctp_rr dirdeep; a SKIP is reported)
# Environment (default):
#   GATE_K0 (24)        iterations in pool0
#   GATE_K1 (16)        iterations in pool5 and in pool10
#   GATE_ITER_SEC       seconds per iteration (the default gate's: 20 s / 8 =
#                       2.5, dirdeep 30 s / 8 = 3.75)
#   GATE_RUN (8)        iterations per run that goes into a pool
#   GATE_N (8)          iterations per side of a comparison
#   GATE_DRAWS (200)    comparisons per program, per kind (A/A, 5 %, 10 %)
#   GATE_SEED (random)  seed of the draws (printed)
#   GATE_KEEP           a directory to copy the pools and draws' tallies to
set -eu
dir=${1:?usage: bench/gate.sh DIR_WITH_OUR_PROGRAMS [PROGRAM...]}
shift
progs=${*:-hackbench tcp_rr udp_rr sctp_rr dirdeep}
k0=${GATE_K0:-24}
k1=${GATE_K1:-16}
per_run=${GATE_RUN:-8}
n=${GATE_N:-8}
draws=${GATE_DRAWS:-200}
seed=${GATE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
slowdowns="5 10"
py=/usr/bin/python3
[ -x "$py" ] || { echo "gate: $py not found" >&2; exit 2; }
[ -x "$dir/sched_perf_compare" ] || { echo "gate: no $dir/sched_perf_compare (make build)" >&2; exit 2; }
[ "$k0" -ge $((2 * n)) ] || { echo "gate: GATE_K0=$k0 is too small for two disjoint draws of GATE_N=$n" >&2; exit 2; }
[ "$k1" -ge "$n" ] || { echo "gate: GATE_K1=$k1 is smaller than GATE_N=$n" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Our own copy of the programs: a rebuild (make sync) empties $dir.
# sched_perf_compare and the programs read 'bounds' beside themselves.
mkdir -p "$tmp/bin" "$tmp/results"
for f in $progs sched_perf_compare bounds; do
	cp "$dir/$f" "$tmp/bin/" || { echo "gate: no $dir/$f" >&2; exit 2; }
done
bin=$tmp/bin

cat >"$tmp/gate.py" <<'EOF'
# The pools, the draws and the tally: bench/gate.sh's helper.
import json, os, random, subprocess, sys

THROUGHPUT = {"hackbench": "messages_per_sec", "tcp_rr": "transactions_per_sec",
	      "udp_rr": "transactions_per_sec", "sctp_rr": "transactions_per_sec",
	      "dirdeep": "bogo_ops_per_sec"}
CPU = "task_clock_us_per_op"
GOAL_FP = 1.0
GOAL_DET = 95.0
GOAL_X = {"hackbench": 5, "dirdeep": 5, "tcp_rr": 10, "udp_rr": 10, "sctp_rr": 10}


def die(msg):
	print("gate: " + msg, file=sys.stderr)
	sys.exit(2)


def load(path):
	"""A results file: (meta lines as written, workload, {metric: [values as written]})."""
	meta, runs, workload = [], {}, None
	with open(path) as f:
		for line in f:
			line = line.rstrip("\n")
			if not line.strip() or line.lstrip().startswith("#") or ":" not in line:
				continue
			key, value = (x.strip() for x in line.split(":", 1))
			if key.startswith("meta."):
				meta.append(line)
				if key == "meta.workload":
					workload = value
			elif ".runs." in key:
				wl, metric = key.split(".runs.", 1)
				runs[metric] = value.split()
	if not workload or not runs:
		die(f"{path}: not a run set")
	return meta, workload, runs


def write(path, meta, workload, runs, idx):
	"""A run set of the iterations @idx: the meta lines, runs.* and runset.end."""
	with open(path, "w") as f:
		for line in meta:
			f.write(line + "\n")
		for metric, values in runs.items():
			f.write(f"{workload}.runs.{metric}: {' '.join(values[i] for i in idx)}\n")
		f.write(f"runset.end: {len(runs)}\n")


def median(values):
	v = sorted(float(x) for x in values)
	return (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2


def size(runs):
	return len(next(iter(runs.values())))


def cmd_schedule(k0, k1, per_run):
	"""pool0, pool5, pool10 runs spread evenly over the time, pool0 first."""
	k0, k1, per_run = int(k0), int(k1), int(per_run)
	slots = []
	for order, (pool, k) in enumerate((("0", k0), ("5", k1), ("10", k1))):
		chunks = [per_run] * (k // per_run) + ([k % per_run] if k % per_run else [])
		for i, c in enumerate(chunks):
			pos = -1 if pool == "0" and i == 0 else (i + 0.5) / len(chunks)
			slots.append((pos, order, pool, c))
	for _, _, pool, c in sorted(slots):
		print(pool, c)


def cmd_calibrate(prog, first_run, *xs):
	"""N per slowdown X, and what it was taken from."""
	_, _, runs = load(first_run)
	if prog == "dirdeep":
		if THROUGHPUT[prog] not in runs:
			die(f"{first_run}: no {THROUGHPUT[prog]}")
		per_op = 1e9 / median(runs[THROUGHPUT[prog]])
		basis = f"wall time per op 1e9 / median {THROUGHPUT[prog]} = {per_op:.0f} ns"
	else:
		if CPU not in runs:
			die(f"{first_run}: no {CPU} (no perf counters here?)")
		per_op = median(runs[CPU]) * 1000
		basis = f"CPU time per op, median {CPU} x 1000 = {per_op:.0f} ns"
	ns = [max(1, round(per_op * float(x) / 100)) for x in xs]
	print(" ".join(str(v) for v in ns) + f"|{basis}, pool0's first run ({size(runs)} iterations)")


def cmd_merge(label, out, *files):
	"""Concatenate the runs of a pool; metrics missing from any run are dropped."""
	loaded = [load(f) for f in files]
	meta, workload, _ = loaded[0]
	keep = [m for m in loaded[0][2] if all(m in r for _, _, r in loaded)]
	dropped = sorted({m for _, _, r in loaded for m in r} - set(keep))
	if dropped:
		print(f"  {label}: not in every run, left out of the pool: {' '.join(dropped)}")
	runs = {m: [v for _, _, r in loaded for v in r[m]] for m in keep}
	write(out, meta, workload, runs, range(size(runs)))


def judge(cmp, old, new):
	r = subprocess.run([cmp, "--json", old, new], capture_output=True, text=True)
	if r.returncode not in (0, 1):
		die(f"sched_perf_compare exit {r.returncode}: {r.stderr.strip()}")
	verdicts = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
	regressed = [v["metric"].split(".", 1)[1] for v in verdicts if v["verdict"] == "regressed"]
	if bool(regressed) != (r.returncode == 1):
		die(f"sched_perf_compare exit {r.returncode} but regressed metrics: {regressed}")
	unjudged = [v["metric"].split(".", 1)[1] + " " + v["verdict"] for v in verdicts
		    if v["verdict"] in ("noisy", "too-few-runs")]
	missing = any(v["verdict"] == "missing" for v in verdicts)
	return r.returncode == 1, regressed, unjudged, missing


def counts(lists):
	c = {}
	for names in lists:
		for m in names:
			c[m] = c.get(m, 0) + 1
	return ", ".join(f"{m} {k}" for m, k in sorted(c.items(), key=lambda x: -x[1]))


def tally(label, results):
	hits = sum(1 for r in results if r[0])
	top = counts(r[1] for r in results)
	why = counts(r[2] for r in results)
	unjudged = sum(1 for r in results if r[2])
	missing = sum(1 for r in results if r[3])
	print(f"    {label}: exit 1 in {hits} of {len(results)} ({100 * hits / len(results):.1f} %)"
	      f"; a metric noisy/too-few-runs in {unjudged} ({100 * unjudged / len(results):.1f} %)"
	      + (f"; a metric missing in {missing}" if missing else "")
	      + (f"\n      regressed (exit 1): {top}" if top else "")
	      + (f"\n      no verdict: {why}" if why else ""))
	return hits, unjudged, top


def cmd_trials(prog, seed, n, draws, cmp, work, pool0, *pools):
	"""pools: X=FILE ... ; prints the tallies, writes work/prog.summary.json."""
	n, draws = int(n), int(draws)
	meta0, wl, runs0 = load(pool0)
	k0 = size(runs0)
	a, b = os.path.join(work, "old.res"), os.path.join(work, "new.res")
	out = {"prog": prog, "draws": draws, "k0": k0, "det": {}}

	rng = random.Random(f"{seed}:{prog}:A/A")
	results = []
	for _ in range(draws):
		idx = rng.sample(range(k0), 2 * n)
		write(a, meta0, wl, runs0, sorted(idx[:n]))
		write(b, meta0, wl, runs0, sorted(idx[n:]))
		results.append(judge(cmp, a, b))
	out["fp"], out["aa_unjudged"], out["fp_top"] = tally(
		f"A/A, {draws} pairs of disjoint draws of {n} from pool0 ({k0})", results)

	for spec in pools:
		x, path = spec.split("=", 1)
		metax, wlx, runsx = load(path)
		kx = size(runsx)
		rng = random.Random(f"{seed}:{prog}:{x}")
		results = []
		for _ in range(draws):
			write(a, meta0, wl, runs0, sorted(rng.sample(range(k0), n)))
			write(b, metax, wlx, runsx, sorted(rng.sample(range(kx), n)))
			results.append(judge(cmp, a, b))
		hits, unjudged, top = tally(
			f"{x} % slower, {draws} draws of {n} from pool0 ({k0}) vs {n} from pool{x} ({kx})",
			results)
		ach = {}
		for m in (THROUGHPUT.get(prog), CPU):
			if m in runs0 and m in runsx:
				ach[m] = median(runsx[m]) / median(runs0[m]) - 1
		print(f"    pool{x} vs pool0, change of the medians: "
		      + ", ".join(f"{m} {100 * c:+.1f} %" for m, c in ach.items()))
		out["det"][x] = {"hits": hits, "unjudged": unjudged, "top": top, "kx": kx,
				 "tput": ach.get(THROUGHPUT.get(prog)), "cpu": ach.get(CPU)}
	with open(os.path.join(work, prog + ".summary.json"), "w") as f:
		json.dump(out, f)


def pct(a, b):
	return 100 * a / b if b else float("nan")


def cmd_table(work, *progs):
	def ch(v):
		return "    -" if v is None else f"{100 * v:+5.1f}"

	print(f"{'program':9} {'A/A':>4} {'false pos':>11} {'noisy':>6} {'detect 5 %':>13} "
	      f"{'detect 10 %':>13} {'5 %: tput/cpu':>14} {'10 %: tput/cpu':>14} {'time s':>7} "
	      f"{'gate s':>7}")
	total = 0.0
	checks = []
	for p in progs:
		with open(os.path.join(work, p + ".times")) as f:
			spent, gate, rc = f.read().split()
		total += float(gate)
		sj = os.path.join(work, p + ".summary.json")
		if not os.path.exists(sj):
			with open(os.path.join(work, p + ".skip")) as f:
				why = f.read().strip()
			print(f"{p:9} SKIP: {why}{'':>2} {float(spent):7.0f} {float(gate):7.1f}")
			continue
		with open(sj) as f:
			s = json.load(f)
		d, det = s["draws"], s["det"]
		cells = []
		for x in ("5", "10"):
			if x in det:
				cells.append(f"{det[x]['hits']:4} ({pct(det[x]['hits'], d):5.1f}%)")
			else:
				cells.append(f"{'-':>13}")
		ach = [f"{ch(det[x]['tput'])}/{ch(det[x]['cpu'])} %" if x in det else "-"
		       for x in ("5", "10")]
		print(f"{p:9} {d:4} {s['fp']:4} ({pct(s['fp'], d):4.1f}%) {pct(s['aa_unjudged'], d):5.1f}% "
		      f"{cells[0]} {cells[1]} {ach[0]:>14} {ach[1]:>14} {float(spent):7.0f} "
		      f"{float(gate):7.1f}" + ("" if rc in ("0", "1") else f" (gate exit {rc})"))
		fp = pct(s["fp"], d)
		checks.append(f"{p}: false positives {fp:.1f} % {'<=' if fp <= GOAL_FP else '>'} {GOAL_FP:g} %: "
			      f"{'met' if fp <= GOAL_FP else 'MISSED'}")
		x = str(GOAL_X.get(p, 5))
		if x in det:
			dp = pct(det[x]["hits"], d)
			checks[-1] += (f"; detection of {x} % {dp:.1f} % {'>=' if dp >= GOAL_DET else '<'} "
				       f"{GOAL_DET:g} %: {'met' if dp >= GOAL_DET else 'MISSED'}")
	print(f"{'':9} default gate runs, all programs together: {total:.1f} s (goal: all five within 300 s on 2 CPUs)")
	print("goals: false positives <= 1 %; detection >= 95 % of 5 % (hackbench, dirdeep) and of "
	      "10 % (tcp_rr, udp_rr, sctp_rr)")
	for c in checks:
		print("  " + c)


{"schedule": cmd_schedule, "calibrate": cmd_calibrate, "merge": cmd_merge,
 "trials": cmd_trials, "table": cmd_table}[sys.argv[1]](*sys.argv[2:])
EOF
helper() { "$py" "$tmp/gate.py" "$@"; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# One run into a pool: prog pool iterations iter_sec work_ns (empty: none)
# and its number; prints its file (progress on fd 3); returns 4 on SKIP, 1
# when it saved no run set.
pool_run() {
	local p=$1 pool=$2 k=$3 secs=$4 ns=$5 f=$tmp/$1.pool$2.$6.res rc=0 t0
	t0=$(now)
	env ${ns:+SCHED_PERF_TEST_WORK_NS=$ns} "$bin/$p" --iterations "$k" \
		--budget "$(awk -v k="$k" -v s="$secs" 'BEGIN { print k * s }')" \
		--results none --save "$f" >"$f.out" 2>&1 || rc=$?
	[ $rc = 4 ] && { grep -m1 'SKIP' "$f.out" | sed 's/.*# SKIP //' >"$tmp/$p.skip"; return 4; }
	if ! grep -q '^runset.end: ' "$f" 2>/dev/null; then
		echo "gate: $p (pool$pool${ns:+, SCHED_PERF_TEST_WORK_NS=$ns}) saved no run set, exit $rc:" >&2
		tail -n 5 "$f.out" >&2
		return 1
	fi
	printf '  pool%-2s run: %2s iterations of %s s%s: %s s, exit %s\n' "$pool" "$k" "$secs" \
		"${ns:+, SCHED_PERF_TEST_WORK_NS=$ns}" "$(since "$t0")" "$rc" >&3
	echo "$f"
}

exec 3>&1
echo "gate.sh: $(nproc) CPUs, kernel $(uname -r), programs from $dir"
echo "  pools per program: pool0 $k0 iterations, pool5 and pool10 $k1 each, runs of $per_run iterations, interleaved"
echo "  comparisons: $draws per kind, drawn from the pools by random disjoint splits of $n iterations per side, seed $seed"
echo "  (GATE_K0=$k0 GATE_K1=$k1 GATE_RUN=$per_run GATE_N=$n GATE_DRAWS=$draws GATE_SEED=$seed${GATE_ITER_SEC:+ GATE_ITER_SEC=$GATE_ITER_SEC})"
start=$(now)
for p in $progs; do
	t0=$(now)
	case $p in
	dirdeep) secs=${GATE_ITER_SEC:-3.75} ;;
	*) secs=${GATE_ITER_SEC:-2.5} ;;
	esac
	echo
	echo "$p: $secs s per iteration"
	declare -A files=() ns=()
	first=
	skipped=
	run=2
	while read -r pool k; do
		if [ -z "$first" ]; then
			rc=0
			f=$(pool_run "$p" 0 "$k" "$secs" "" 1) || rc=$?
			if [ $rc = 4 ]; then
				skipped=1
				echo "  SKIP: $(cat "$tmp/$p.skip")"
				break
			fi
			[ $rc = 0 ] || exit 1
			first=$f
			IFS='|' read -r values basis <<<"$(helper calibrate "$p" "$first" $slowdowns)"
			set -- $values
			for x in $slowdowns; do
				ns[$x]=$1
				shift
				echo "  SCHED_PERF_TEST_WORK_NS for $x % slower: ${ns[$x]} ns ($x % of the $basis)"
			done
		else
			f=$(pool_run "$p" "$pool" "$k" "$secs" "${ns[$pool]:-}" "$run") || exit 1
		fi
		files[$pool]="${files[$pool]:-} $f"
		run=$((run + 1))
	done < <(helper schedule "$k0" "$k1" "$per_run")
	if [ -n "$skipped" ]; then
		spent=$(since "$t0")
	else
		specs=
		for pool in 0 $slowdowns; do
			helper merge "pool$pool" "$tmp/$p.pool$pool.res" ${files[$pool]}
			[ "$pool" = 0 ] || specs="$specs $pool=$tmp/$p.pool$pool.res"
		done
		helper trials "$p" "$seed" "$n" "$draws" "$bin/sched_perf_compare" "$tmp" \
			"$tmp/$p.pool0.res" $specs
		spent=$(since "$t0")
	fi
	unset files ns

	# the default gate: 8 iterations against a baseline, default budget
	t1=$(now)
	rc=0
	SCHED_PERF_RESULTS_DIR=$tmp/results "$bin/$p" ${first:+--baseline "$first"} \
		>"$tmp/$p.gate.out" 2>&1 || rc=$?
	gate=$(since "$t1")
	echo "  default gate run: $p --baseline <pool0's first run>: $gate s, exit $rc$(
		[ $rc = 4 ] && echo ' (SKIP)'; [ $rc = 1 ] && echo ' (a check failed or a metric regressed:' \
		"$(grep -c '^not ok' "$tmp/$p.gate.out") not ok)")"
	echo "$spent $gate $rc" >"$tmp/$p.times"
done

echo
echo "summary: $(nproc) CPUs, kernel $(uname -r), seed $seed, $(since "$start") s in all"
echo "  comparisons are drawn from one pool of repeated runs per program by random disjoint"
echo "  splits ($n iterations per side): they share their iterations, so the rates below are"
echo "  those of these pools, not of independent experiments (even 0 false positives in"
awk -v d="$draws" 'BEGIN { printf "  %d independent comparisons would bound the rate at %.1f %% only, 95 %% confidence)\n", d, 100 * (1 - 0.05 ^ (1 / d)) }'
echo "  noisy = a metric noisy or too-few-runs (no verdict) in an A/A comparison;"
echo "  tput/cpu = change of the pool medians of throughput and of task_clock_us_per_op"
echo "  time s = pools and comparisons; gate s = one default gate run (--baseline, 8 iterations)"
echo
helper table "$tmp" $progs
if [ -n "${GATE_KEEP:-}" ]; then
	mkdir -p "$GATE_KEEP"
	cp "$tmp"/*.res "$tmp"/*.out "$tmp"/*.json "$GATE_KEEP"/ 2>/dev/null || true
	echo "pools, run outputs and tallies kept in $GATE_KEEP"
fi
