#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# bench/kernel_power.sh's helper: the pools of boots per cost, the
# calibration (the throughput each cost takes) and the comparisons drawn
# from the pools, judged with sched_perf_compare --boots as scripts/vmab.sh
# judges them.  Results files are read with sched_perf_compare --dump, the
# one reader of the format.
#
# Usage: kernel_power.py CMP OUT PER_SIDE DRAWS SEED COST...
import itertools, json, math, os, random, re, statistics, subprocess, sys


def die(msg):
	print("kernel_power: " + msg, file=sys.stderr)
	sys.exit(2)


def dump(cmp, path):
	"""{metric: [values]} of a results file (sched_perf_compare --dump)."""
	r = subprocess.run([cmp, "--dump", path], capture_output=True, text=True)
	if r.returncode:
		die(r.stderr.strip() or f"{cmp} --dump {path}: exit {r.returncode}")
	runs = {}
	for line in r.stdout.splitlines():
		kind, key, value = (line.split("\t") + ["", ""])[:3]
		if kind == "runs":
			runs[key] = [float(x) for x in value.split()]
	return runs


def throughput(runs, path):
	"""The one <ops>_per_sec metric every workload has."""
	rates = [m for m in runs if m.endswith("_per_sec")]
	if len(rates) != 1:
		die(f"{path}: want one *_per_sec metric, found {rates or 'none'}")
	return rates[0]


def cv(values):
	if len(values) < 2:
		return float("nan")
	m = statistics.mean(values)
	return statistics.stdev(values) / abs(m) if m else float("nan")


def wilson(k, n, z=1.959964):
	"""95 % Wilson score interval of a rate seen k times in n, in %."""
	if n == 0:
		return float("nan"), float("nan")
	p = k / n
	d = 1 + z * z / n
	c = (p + z * z / (2 * n)) / d
	h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
	return 100 * max(0.0, c - h), 100 * min(1.0, c + h)


def pools(out, costs, progs):
	"""{cost: [boot dir...]}: the boots with every program's results."""
	found = {}
	for c in costs:
		d = os.path.join(out, f"cost-{c}")
		boots = []
		for name in os.listdir(d) if os.path.isdir(d) else []:
			m = re.fullmatch(r"boot-(\d+)", name)
			b = os.path.join(d, name)
			if m and os.path.isfile(os.path.join(b, "boot")) and \
			   all(os.path.isfile(os.path.join(b, "results", p + ".results")) for p in progs):
				boots.append((int(m.group(1)), b))
		found[c] = [b for _, b in sorted(boots)]
	return found


def seconds(boot):
	with open(os.path.join(boot, "boot")) as f:
		for line in f:
			k, _, v = line.partition(" ")
			if k == "seconds":
				return int(v)
	die(f"{boot}/boot: no seconds")


def calibrate(cmp, progs, pool):
	"""Per program: the throughput metric and {cost: [boot medians]}."""
	medians = {}
	for prog in progs:
		first = os.path.join(pool[0][0], "results", prog + ".results")
		metric = throughput(dump(cmp, first), first)
		medians[prog] = (metric, {})
		for c, boots in pool.items():
			vals = []
			for b in boots:
				f = os.path.join(b, "results", prog + ".results")
				runs = dump(cmp, f)
				if metric not in runs or not runs[metric]:
					die(f"{f}: no {metric}")
				vals.append(statistics.median(runs[metric]))
			medians[prog][1][c] = vals
	return medians


def cost_for(points, target):
	"""The cost that loses @target % of throughput, linear between the
	points measured ((cost, change %), cost 0 among them): None beyond
	them, or where the losses do not grow with the cost."""
	pts = sorted(points)
	for (c0, d0), (c1, d1) in zip(pts, pts[1:]):
		l0, l1 = -d0, -d1
		if l0 < target <= l1:
			return c0 + (c1 - c0) * (target - l0) / (l1 - l0)
	return None


def print_calibration(medians, pool):
	print("calibration: per program and cost (ns per fair wakeup), the median of the boots'")
	print("throughput medians, its change against cost 0, the CV across boots, host s per boot")
	for prog, (metric, by_cost) in medians.items():
		base = statistics.median(by_cost[0])
		print(f"  {prog} ({metric}):")
		points = []
		for c, vals in by_cost.items():
			med = statistics.median(vals)
			chg = 100 * (med / base - 1) if base else float("nan")
			points.append((c, chg))
			secs = [seconds(b) for b in pool[c]]
			print(f"    cost {c:>6} ns: {len(vals):3} boots, median {med:12.1f}, change {chg:+7.2f} %,"
			      f" CV across boots {cv(vals):6.3f}, {statistics.median(secs):5.0f} s a boot")
		want = []
		for target in (2, 5, 10):
			x = cost_for(points, target)
			want.append(f"{target} %: " + (f"{x:.0f} ns" if x is not None else "not within the costs measured"))
		print(f"    cost for a loss of {'; '.join(want)} (interpolated)")


def judge(cmp, extra, olds, news):
	"""sched_perf_compare --boots OLD NEW as vmab calls it: its exit
	status, and from --json the metrics it called regressed."""
	argv = [cmp] + extra + ["--boots", ",".join(olds), ",".join(news)]
	rc = subprocess.run(argv, capture_output=True, text=True).returncode
	r = subprocess.run([cmp, "--json"] + argv[1:], capture_output=True, text=True)
	if r.returncode != rc:
		die(f"sched_perf_compare: exit {rc}, with --json {r.returncode}: {r.stderr.strip()}")
	rows = [json.loads(x) for x in r.stdout.splitlines() if x.strip()] if rc in (0, 1, 4) else []
	bad = [x["metric"] for x in rows if x["verdict"] == "regressed"]
	if rc in (0, 1, 4) and bool(bad) != (rc == 1):
		die(f"sched_perf_compare exit {rc} but regressed metrics: {bad}")
	return rc, bad


def comparisons(rng, a_pool, b_pool, k, draws, same):
	"""Up to @draws distinct (A boots, B boots) of @k boots a side, each
	side's boots disjoint (from one pool when @same): all of them when
	there are no more, else drawn at random.  Returns them and how many
	distinct ones exist."""
	if same:
		total = math.comb(len(a_pool), k) * math.comb(len(a_pool) - k, k)
	else:
		total = math.comb(len(a_pool), k) * math.comb(len(b_pool), k)
	if total <= draws:
		out = []
		for a in itertools.combinations(a_pool, k):
			rest = [b for b in (a_pool if same else b_pool) if b not in a]
			out += [(list(a), list(b)) for b in itertools.combinations(rest, k)]
		return out, total
	seen, out = set(), []
	while len(out) < draws:
		a = tuple(sorted(rng.sample(a_pool, k)))
		rest = [b for b in (a_pool if same else b_pool) if b not in a]
		b = tuple(sorted(rng.sample(rest, k)))
		if (a, b) not in seen:
			seen.add((a, b))
			out.append((list(a), list(b)))
	return out, total


def rate(label, k, n):
	lo, hi = wilson(k, n)
	return f"{label} {k}/{n} = {100 * k / n:.1f} % [95 % Wilson {lo:.1f}-{hi:.1f}]" if n else f"{label}: none"


def drawn(cmp, progs, medians, pool, per_side, draws, seed):
	extra = os.environ.get("KP_COMPARE_ARGS", "").split()
	rng = random.Random(seed)
	print(f"comparisons: drawn from the pools (seed {seed}), {per_side} boots a side, each side's boots")
	print("disjoint, judged with sched_perf_compare --boots as vmab judges them"
	      + (f" (with {' '.join(extra)})" if extra else ""))
	print("(comparisons share boots: the intervals treat them as independent and are optimistic)")
	# HOOK(issue 29, sequential vmab): a fixed number of boots a side today;
	# the sequential form adds boots while a metric is undecided, with the
	# looks' alpha spending in sched_perf_compare (KP_COMPARE_ARGS), and
	# its boots used go in "used" below.
	for c in pool:
		same = c == 0
		need = 2 * per_side if same else per_side
		if len(pool[0]) < need or len(pool[c]) < per_side:
			if same:
				print(f"  A/A: cost 0 has {len(pool[0])} boots, want {need} (2 x {per_side} a side)")
			else:
				print(f"  cost {c} ns: {len(pool[0])} boots of cost 0 and {len(pool[c])} of cost {c}, want {per_side} of each")
			continue
		groups, total = comparisons(rng, pool[0], pool[c], per_side, draws, same)
		hits = {p: 0 for p in progs}
		tput = {p: 0 for p in progs}
		opened = {p: 0 for p in progs}
		errors, anyhit, used, mins = 0, 0, [], []
		for a, b in groups:
			hit = False
			for prog in progs:
				rc, bad = judge(cmp, extra, [os.path.join(x, "results", prog + ".results") for x in a],
						[os.path.join(x, "results", prog + ".results") for x in b])
				if rc not in (0, 1, 4):
					errors += 1
				hits[prog] += rc == 1
				opened[prog] += rc == 4
				tput[prog] += medians[prog][0] in [m.split(".", 1)[-1] for m in bad] or \
					f"{prog}.{medians[prog][0]}" in bad
				hit = hit or rc == 1
			anyhit += hit
			used.append(len(a) + len(b))
			mins.append(sum(seconds(x) for x in a + b) / 60)
		n = len(groups)
		kind = "all" if n == total else "drawn at random"
		disjoint = len(pool[0]) // (2 * per_side) if same else min(len(pool[0]), len(pool[c])) // per_side
		what = "A/A, false alarms" if same else "detected"
		print(f"  cost {c} ns {'(A/A: cost 0 against cost 0)' if same else 'against cost 0'}: "
		      f"{n} of the {total} distinct comparisons ({kind}), {disjoint} disjoint")
		for prog in progs:
			print(f"    {prog}: {rate(what, hits[prog], n)}; throughput flagged {tput[prog]}, "
			      f"not shown within thresholds (exit 4) {opened[prog]}")
		print(f"    any program (vmab's exit 1): {rate(what, anyhit, n)}")
		print(f"    boots used per gate: {dict(sorted({u: used.count(u) for u in used}.items()))}, "
		      f"host minutes per gate: median {statistics.median(mins):.1f}"
		      + (f"; {errors} comparisons could not be judged" if errors else ""))


def main():
	if len(sys.argv) < 7:
		die("usage: kernel_power.py CMP OUT PER_SIDE DRAWS SEED COST...")
	cmp, out = sys.argv[1], sys.argv[2]
	per_side, draws, seed = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
	costs = [int(c) for c in sys.argv[6:]]
	progs = None
	with open(os.path.join(out, "setting")) as f:
		for line in f:
			k, _, v = line.rstrip("\n").partition(" ")
			if k == "programs":
				progs = v.split()
	if not progs:
		die(f"{out}/setting: no programs")
	pool = pools(out, costs, progs)
	print("pools: " + ", ".join(f"cost {c} ns {len(b)} boots" for c, b in pool.items()))
	if any(len(b) < 2 for b in pool.values()):
		die("want 2 boots or more of every cost (KP_BOOTS)")
	medians = calibrate(cmp, progs, pool)
	print_calibration(medians, pool)
	drawn(cmp, progs, medians, pool, per_side, draws, seed)


main()
