#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# The pools, the draws and the tally: bench/gate.sh's helper.  Run sets
# are read with sched_perf_compare --dump and written with its --merge
# [--runs]: the C code is the one reader and writer of the format.
import json, math, os, random, re, statistics, subprocess, sys

sys.dont_write_bytecode = True	# no __pycache__ beside the sources
from runsets import cv, die, dump, throughput

CPU = "task_clock_us_per_op"
GOAL_FP = 1.0
GOAL_DET = 95.0
# The slowdown each program must be caught at (the 0-day reports: the
# request-response ones regressed by tens of per cent); 5 % for any other.
GOAL_X = {"tcp_rr": 10, "udp_rr": 10, "sctp_rr": 10}


def pick(cmp, out, paths, idx=None):
	"""Write run set @out with sched_perf_compare --merge (the one writer
	of the format): the runs of @paths one after another, or of those
	the iterations @idx (from 0, in this order).  Returns the metrics
	left out, not in every one of @paths."""
	argv = [cmp, "--merge", out]
	if idx is not None:
		argv += ["--runs", ",".join(str(i + 1) for i in idx)]
	r = subprocess.run(argv + list(paths), capture_output=True, text=True)
	if r.returncode:
		die(r.stderr.strip() or f"{cmp} --merge {out}: exit {r.returncode}")
	return [line.split("\t", 1)[1] for line in r.stdout.splitlines()
		if line.startswith("dropped\t")]


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


def cmd_calibrate(cmp, prog, first_run, *xs):
	"""N per slowdown X, and what it was taken from."""
	runs = dump(cmp, first_run)
	if prog == "dirdeep":
		rate = throughput(runs)
		if not rate:
			die(f"{first_run}: no one <ops>_per_sec metric")
		per_op = 1e9 / median(runs[rate])
		basis = f"wall time per op 1e9 / median {rate} = {per_op:.0f} ns"
	else:
		if CPU not in runs:
			die(f"{first_run}: no {CPU} (no perf counters here?)")
		per_op = median(runs[CPU]) * 1000
		basis = f"CPU time per op, median {CPU} x 1000 = {per_op:.0f} ns"
	ns = [max(1, round(per_op * float(x) / 100)) for x in xs]
	print(" ".join(str(v) for v in ns) + f"|{basis}, pool0's first run ({size(runs)} iterations)")


def cmd_calibrate_effect(cmp, prog, trial_ns, first_run, trial_run, *xs):
	"""N per slowdown X from what a trial amount did to throughput.

	Busy work W per op adds to the CPU time of every op, and throughput
	is inversely proportional to it, so 1 / ratio - 1 = W / t is linear
	in W: one measured ratio fixes t.  The ratio is the median of the
	per-block B / A ratios when the trial was an A/B run (FILE.a beside
	it), else its median over pool0's first run's."""
	trial_ns = float(trial_ns)
	paired = os.path.exists(trial_run + ".a")
	against = trial_run + ".a" if paired else first_run
	b = dump(cmp, trial_run)
	a = dump(cmp, against)
	m = throughput(b)
	if not m or m not in a:
		die(f"{trial_run} or {against}: no {m}")
	if paired:
		ratio = median([float(y) / float(x) for x, y in zip(a[m], b[m]) if float(x)])
		how = f"median of {min(len(a[m]), len(b[m]))} per-block B/A ratios"
	else:
		ratio = median(b[m]) / median(a[m])
		how = f"median of {len(b[m])} iterations over pool0's first run's"
	if not 0 < ratio < 1:
		die(f"{prog}: {trial_ns:.0f} ns per op did not slow {m} (ratio {ratio:.4f}): cannot calibrate")
	per_ns = (1 / ratio - 1) / trial_ns
	ns = [max(1, round((1 / (1 - float(x) / 100) - 1) / per_ns)) for x in xs]
	print(" ".join(str(v) for v in ns)
	      + f"|effect of a trial: {trial_ns:.0f} ns per op moved {m} by "
	      f"{100 * (ratio - 1):+.1f} % ({how})")


def cmd_merge(cmp, label, out, *files):
	"""Concatenate the runs of a pool; metrics missing from any run are dropped."""
	dropped = sorted(pick(cmp, out, files))
	if dropped:
		print(f"  {label}: not in every run, left out of the pool: {' '.join(dropped)}")


def run_compare(argv):
	"""sched_perf_compare --json with these arguments (argv[0] the
	program): its exit status (0, 1 or 4, else we die) and its rows."""
	r = subprocess.run([argv[0], "--json"] + list(argv[1:]), capture_output=True, text=True)
	if r.returncode not in (0, 1, 4):
		die(f"sched_perf_compare exit {r.returncode}: {r.stderr.strip()}")
	return r.returncode, [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def judge(cmp, old, new):
	rc, verdicts = run_compare([cmp, old, new])
	regressed = [v["metric"].split(".", 1)[1] for v in verdicts if v["verdict"] == "regressed"]
	if bool(regressed) != (rc == 1):
		die(f"sched_perf_compare exit {rc} but regressed metrics: {regressed}")
	unjudged = [v["metric"].split(".", 1)[1] + " " + v["verdict"] for v in verdicts
		    if v["verdict"] in ("noisy", "too-few-runs")]
	missing = any(v["verdict"] == "missing" for v in verdicts)
	return rc == 1, regressed, unjudged, missing


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
	runs0 = dump(cmp, pool0)
	k0 = size(runs0)
	a, b = os.path.join(work, "old.res"), os.path.join(work, "new.res")
	out = {"prog": prog, "draws": draws, "k0": k0, "det": {}}

	rng = random.Random(f"{seed}:{prog}:A/A")
	results = []
	for _ in range(draws):
		idx = rng.sample(range(k0), 2 * n)
		pick(cmp, a, [pool0], sorted(idx[:n]))
		pick(cmp, b, [pool0], sorted(idx[n:]))
		results.append(judge(cmp, a, b))
	out["fp"], out["aa_unjudged"], out["fp_top"] = tally(
		f"A/A, {draws} pairs of disjoint draws of {n} from pool0 ({k0})", results)

	for spec in pools:
		x, path = spec.split("=", 1)
		runsx = dump(cmp, path)
		kx = size(runsx)
		rng = random.Random(f"{seed}:{prog}:{x}")
		results = []
		for _ in range(draws):
			pick(cmp, a, [pool0], sorted(rng.sample(range(k0), n)))
			pick(cmp, b, [path], sorted(rng.sample(range(kx), n)))
			results.append(judge(cmp, a, b))
		hits, unjudged, top = tally(
			f"{x} % slower, {draws} draws of {n} from pool0 ({k0}) vs {n} from pool{x} ({kx})",
			results)
		ach = {}
		for m in (throughput(runs0), CPU):
			if m in runs0 and m in runsx:
				ach[m] = median(runsx[m]) / median(runs0[m]) - 1
		print(f"    pool{x} vs pool0, change of the medians: "
		      + ", ".join(f"{m} {100 * c:+.1f} %" for m, c in ach.items()))
		out["det"][x] = {"hits": hits, "unjudged": unjudged, "top": top, "kx": kx,
				 "tput": ach.get(throughput(runs0)), "cpu": ach.get(CPU)}
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
	print(f"{'':9} default gate runs, all programs together: {total:.1f} s "
	      f"(goal: all {len(progs)} within 300 s on 2 CPUs)")
	by_x = {}
	for p in progs:
		by_x.setdefault(GOAL_X.get(p, 5), []).append(p)
	print(f"goals: false positives <= {GOAL_FP:g} %; detection >= {GOAL_DET:g} % of "
	      + " and of ".join(f"{x} % ({', '.join(ps)})" for x, ps in sorted(by_x.items())))
	for c in checks:
		print("  " + c)



# --- the paired design (bench/gate_ab.sh) ------------------------------------

def looks(cmp, runs, max_runs):
	"""The planned sizes of a sequential gate: sched_perf_compare --plan."""
	r = subprocess.run([cmp, "--plan", f"{runs}/{max_runs}"], capture_output=True, text=True)
	if r.returncode:
		die(r.stderr.strip() or f"{cmp} --plan {runs}/{max_runs}: exit {r.returncode}")
	return [int(n) for n in r.stdout.split()]


def cmd_looks(cmp, runs, max_runs):
	print(", ".join(str(n) for n in looks(cmp, runs, max_runs)))


def upper95(k, n):
	"""Clopper-Pearson one-sided 95 % upper bound of a rate seen k times in n."""
	if k >= n:
		return 1.0
	lo, hi = k / n, 1.0
	for _ in range(60):
		mid = (lo + hi) / 2
		cdf = sum(math.comb(n, i) * mid ** i * (1 - mid) ** (n - i) for i in range(k + 1))
		lo, hi = (mid, hi) if cdf > 0.05 else (lo, mid)
	return hi


def bounds_args():
	"""GATE_BOUNDS: bounds files separated by ':', each read over the ones
	before (--bounds given again); unset or empty: compare's own."""
	files = os.environ.get("GATE_BOUNDS", "").split(":")
	return [arg for f in files if f for arg in ("--bounds", f)]


def sequential(cmp, a, b, path_a, path_b, idx, sizes):
	"""One gate: look at each planned size; (outcome, blocks, regressed metrics)."""
	argv = [cmp, "--paired", "--looks", str(len(sizes))] + bounds_args() + [a, b]
	for n in sizes:
		pick(cmp, a, [path_a], idx[:n])
		pick(cmp, b, [path_b], idx[:n])
		_, v = run_compare(argv)
		bad = [x["metric"].split(".", 1)[1] for x in v if x["verdict"] == "regressed"]
		if bad:
			return "regressed", n, bad
		judged = [x for x in v if x["verdict"] != "missing"]
		if judged and all(x["verdict"] in ("same", "improved") for x in judged):
			return "same", n, []
	return "undecided", sizes[-1], []


def blocks_needed(cv, delta, alpha, power):
	"""Blocks for a one-sided test at alpha to see a mean move of delta
	with this power, the per-block ratios spread with this cv (normal
	approximation: n = ((z(1 - alpha) + z(power)) cv / delta)^2)."""
	z = statistics.NormalDist().inv_cdf
	return math.ceil(((z(1 - alpha) + z(power)) * cv / delta) ** 2)


def what_it_takes(cmp, a, b, looks_n, slowdown):
	"""At the spread of the whole A/A pool (per metric, as the gate
	measures it): the blocks a gate would need to prove SAME in 80 % of
	A/A gates (every metric's two one-sided tests at alpha / looks, at a
	true change of 0: power z(0.9) each), and to catch a slowdown of this
	size in 90 % by throughput or CPU time per op (two-sided at
	alpha / looks / metrics, Bonferroni: Holm's worst case)."""
	r = subprocess.run([cmp, "--json", "--paired", "--looks", str(looks_n)]
			   + bounds_args() + [a, b],
			   capture_output=True, text=True)
	rows = [json.loads(line) for line in r.stdout.splitlines() if line.strip()]
	rows = [x for x in rows if x["cv_block"] is not None and x["threshold"]]
	if not rows:
		return "no metric with a block spread"
	alpha = rows[0]["level"]	# compare's: alpha spent over the looks
	same = max((blocks_needed(x["cv_block"], abs(x["threshold"]), alpha, 0.9), x["metric"])
		   for x in rows)
	seen = [(blocks_needed(x["cv_block"], slowdown, alpha / 2 / len(rows), 0.9), x["metric"])
		for x in rows if x["metric"].split(".", 1)[1] == CPU
		or x["metric"].endswith("_per_sec")]
	out = f"SAME in 80 % of A/A gates: {same[0]} blocks (limited by {same[1].split('.', 1)[1]})"
	if seen:
		best = min(seen)
		out += (f"; {100 * slowdown:.0f} % caught in 90 %: {best[0]} blocks "
			f"(by {best[1].split('.', 1)[1]})")
	return out


def draw(rng, k, n):
	"""n blocks of k: at random (GATE_DRAW=random), or n in a row from a
	random start, wrapping (consecutive: as a live gate takes them, A B
	and B A blocks alternating)."""
	if os.environ.get("GATE_DRAW", "random") == "consecutive":
		start = rng.randrange(k)
		return [(start + i) % k for i in range(n)]
	return rng.sample(range(k), n)


def cmd_paired_trials(prog, seed, runs, max_runs, draws, cmp, work, pool0, *pools):
	"""pools: X=FILE (B side; FILE.a the A side); prints the tallies."""
	runs, max_runs, draws = int(runs), int(max_runs), int(draws)
	sizes = looks(cmp, runs, max_runs)
	a, b = os.path.join(work, "a.res"), os.path.join(work, "b.res")
	out = {"prog": prog, "draws": draws, "sizes": sizes, "kinds": {}}
	for spec in ["0=" + pool0] + list(pools):
		x, path = spec.split("=", 1)
		runs_b = dump(cmp, path)
		runs_a = dump(cmp, path + ".a")
		k = min(size(runs_a), size(runs_b))
		if k < max_runs:
			die(f"{path}: {k} blocks, fewer than the {max_runs} a gate may take")
		rng = random.Random(f"{seed}:{prog}:{x}")
		res = [sequential(cmp, a, b, path + ".a", path, draw(rng, k, max_runs), sizes)
		       for _ in range(draws)]
		kinds = {o: sum(1 for r in res if r[0] == o) for o in ("regressed", "same", "undecided")}
		used = sorted(r[1] for r in res)
		dist = ", ".join(f"{n}: {sum(1 for u in used if u == n)}" for n in sizes)
		what = "A/A (B = A)" if x == "0" else f"B {x} % slower"
		print(f"    {what}, {draws} gates of {runs}..{max_runs} blocks drawn "
		      f"({os.environ.get('GATE_DRAW', 'random')}) from {k}: "
		      f"regressed {kinds['regressed']} ({pct(kinds['regressed'], draws):.1f} %"
		      + (f", 95 % upper bound {100 * upper95(kinds['regressed'], draws):.1f} %"
			 if x == "0" else "")
		      + f"), same {kinds['same']} ({pct(kinds['same'], draws):.1f} %), "
		      f"undecided {kinds['undecided']} ({pct(kinds['undecided'], draws):.1f} %)")
		print(f"      blocks used per side: median {used[len(used) // 2]}; at each look {dist}")
		flagged = counts(r[2] for r in res)
		if flagged:
			print(f"      flagged: {flagged}")
		noise = []
		for m in (throughput(runs_a), CPU):
			if m in runs_a and m in runs_b:
				ratio = [float(q) / float(p) for p, q in zip(runs_a[m][:k], runs_b[m][:k])
					 if float(p)]
				noise.append(f"{m}: cv per iteration A {cv(runs_a[m][:k]):.3f} B "
					     f"{cv(runs_b[m][:k]):.3f}, per block B/A {cv(ratio):.3f}, "
					     f"median B/A - 1 {100 * (median(ratio) - 1):+.1f} %")
		for line in noise:
			print("      " + line)
		if x == "0":
			pick(cmp, a, [path + ".a"], list(range(k)))
			pick(cmp, b, [path], list(range(k)))
			print("      what it would take, at this pool's spread (normal approximation): "
			      + what_it_takes(cmp, a, b, len(sizes), 0.05))
		out["kinds"][x] = dict(kinds, median_blocks=used[len(used) // 2],
				       fp_upper=upper95(kinds["regressed"], draws))
	with open(os.path.join(work, prog + ".paired.json"), "w") as f:
		json.dump(out, f)


def compare_json(cmp, *argv):
	"""sched_perf_compare --json ARGV: {metric: row}."""
	return {r["metric"]: r for r in run_compare([cmp] + list(argv))[1]}


def boot_files(out, pairs, prog):
	"""[(first, second)] of each boot pair's results files, boots in order."""
	found = {}
	for name in os.listdir(out):
		m = re.fullmatch(r"boot-(\d+)-[AB]", name)
		if m:
			found[int(m.group(1))] = os.path.join(out, name, "results", prog + ".results")
	if any(not os.path.isfile(found.get(n, "")) for n in range(1, 2 * pairs + 1)):
		die(f"{out}: want {2 * pairs} boots with {prog}.results")
	return [(found[2 * p + 1], found[2 * p + 2]) for p in range(pairs)]


def rel_sd(row, side):
	m = row[side + "_median"]
	return row[side + "_stddev"] / abs(m) if m and row[side + "_stddev"] is not None else float("nan")


def cmd_boot_aa(cmp, out, pairs, per_side, splits, seed):
	"""Cross-boot A/A (bench/boot_aa.sh): CVs within and across boots,
	verdicts of independent and of drawn comparisons."""
	pairs, per_side, splits = int(pairs), int(per_side), int(splits)
	rng = random.Random(int(seed))
	progs = sorted(f[:-len(".results")] for f in os.listdir(os.path.join(out, "boot-1-A", "results"))
		       if f.endswith(".results"))
	total = {"independent": [0, 0], "drawn": [0, 0]}
	for prog in progs:
		boots = boot_files(out, pairs, prog)
		flat = [f for pair in boots for f in pair]
		within = {}
		for f in flat:
			for name, row in compare_json(cmp, f, f).items():
				within.setdefault(name, []).append(rel_sd(row, "old"))
		across = compare_json(cmp, "--boots", ",".join(flat[0::2]), ",".join(flat[1::2]))
		print(f"{prog}: CV within a boot (median over {len(flat)} boots) and across boots (first / second boot of each pair)")
		for name, row in across.items():
			print(f"  {name:40s} {statistics.median(within.get(name, [float('nan')])):7.3f}"
			      f"   {rel_sd(row, 'old'):7.3f} / {rel_sd(row, 'new'):7.3f}")

		def judge(groups):
			"""{verdict: [metric...]}, and how many comparisons had an alarm."""
			verdicts, alarmed = {}, 0
			for olds, news in groups:
				rows = compare_json(cmp, "--boots", ",".join(olds), ",".join(news))
				for name, row in rows.items():
					verdicts.setdefault(row["verdict"], []).append(name)
				alarmed += any(r["verdict"] == "regressed" for r in rows.values())
			return verdicts, alarmed
		indep = [([a for a, _ in boots[i:i + per_side]], [b for _, b in boots[i:i + per_side]])
			 for i in range(0, pairs - per_side + 1, per_side)]
		drawn = []
		for _ in range(splits):
			chosen = [list(boots[i]) for i in rng.sample(range(pairs), per_side)]
			for pair in chosen:
				rng.shuffle(pair)
			drawn.append(([p[0] for p in chosen], [p[1] for p in chosen]))
		for label, groups in (("independent", indep), ("drawn", drawn)):
			verdicts, alarmed = judge(groups)
			n = sum(len(v) for v in verdicts.values())
			alarms = verdicts.get("regressed", [])
			total[label][0] += len(alarms)
			total[label][1] += n
			kinds = ", ".join(f"{len(v)} {k}" for k, v in sorted(verdicts.items()))
			print(f"  {label}: {len(groups)} comparisons of {per_side} boots a side, {n} metric verdicts: {kinds}"
			      + (f"; false alarms on {', '.join(sorted(set(alarms)))}" if alarms else "")
			      + f"; comparisons with a false alarm {alarmed} of {len(groups)}")
	for label, (k, n) in total.items():
		if n:
			print(f"boot_aa: {label}: {k} false alarms in {n} metric comparisons: "
			      f"{100 * k / n:.2f} per 100, 95 % upper bound {100 * upper95(k, n):.2f}")


{"schedule": cmd_schedule, "calibrate": cmd_calibrate,
 "calibrate_effect": cmd_calibrate_effect, "merge": cmd_merge,
 "trials": cmd_trials, "table": cmd_table, "paired_trials": cmd_paired_trials,
 "looks": cmd_looks, "boot_aa": cmd_boot_aa}[sys.argv[1]](*sys.argv[2:])
