#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# bench/kernel_power.sh's helper: the pools of boots per cost, the
# calibration (the throughput each cost takes) and the comparisons drawn
# from the pools, judged with sched_perf_compare --boots as scripts/vmab.sh
# judges them.  Results files are read with sched_perf_compare --dump, the
# one reader of the format.
#
# Usage: kernel_power.py TOP KSRC CMP OUT FIRST MOST DRAWS SEED JOBS COST...
import concurrent.futures, math, os, random, re, statistics, subprocess, sys, tempfile

sys.dont_write_bytecode = True	# no __pycache__ beside the sources
from runsets import cv, die, dump, rates, throughput


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
		runs = dump(cmp, first)
		metric = throughput(runs)
		if not metric:
			die(f"{first}: want one *_per_sec metric, found {rates(runs) or 'none'}")
		medians[prog] = (metric, {})
		for c, boots in pool.items():
			vals = []
			for b in boots:
				f = os.path.join(b, "results", prog + ".results")
				runs = dump(cmp, f)
				if metric not in runs or not runs[metric]:
					die(f"{f}: no {metric}")
				vals.append(statistics.median(float(x) for x in runs[metric]))
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


def replay(top, ksrc, cmp, plan, a, b, first, most):
	"""scripts/vmab.sh A B over the boots @a and @b (in that order, the
	stand-in bench/pool_vmtest.sh handing them out): its exit status,
	the programs it called regressed, those it passed (ok, no SKIP) and
	the boots it used."""
	os.makedirs(plan)
	for side, boots in (("A", a), ("B", b)):
		with open(os.path.join(plan, side), "w") as f:
			f.write("".join(x + "\n" for x in boots))
	open(os.path.join(plan, "B.patch"), "w").close()
	env = dict(os.environ, SCHED_PERF_VMTEST=os.path.join(top, "bench", "pool_vmtest.sh"),
		   KP_PLAN=plan, VM_B_PATCHES=os.path.join(plan, "B.patch"),
		   VM_BOOTS=str(first), VM_MAX_BOOTS=str(most), VM_OUT=os.path.join(plan, "out"),
		   SCHED_PERF_COMPARE=cmp, SCHED_PERF_CACHE=os.path.join(plan, "cache"))
	for k in ("VM_BUDGET", "VM_BISECT", "VM_A_PATCHES", "VM_BOUNDS"):
		env.pop(k, None)
	if os.environ.get("KP_JUDGE"):
		env["VM_PROGS"] = os.environ["KP_JUDGE"]
	r = subprocess.run([os.path.join(top, "scripts", "vmab.sh"), ksrc, ksrc], env=env,
			   capture_output=True, text=True)
	if r.returncode not in (0, 1, 4):
		die(f"vmab.sh over {plan}: exit {r.returncode}: {r.stderr.strip() or r.stdout[-300:]}")
	bad, good = [], []
	with open(os.path.join(plan, "out", "verdict")) as f:
		for line in f:
			m = re.match(r"not ok \d+ (\S+)", line)
			if m:
				bad.append(m.group(1))
			m = re.fullmatch(r"ok \d+ (\S+)\n?", line)
			if m:
				good.append(m.group(1))
	if bool(bad) != (r.returncode == 1):
		die(f"vmab.sh over {plan}: exit {r.returncode} but KTAP regressed: {bad}")
	used = []
	for side in ("A", "B"):
		with open(os.path.join(plan, "used-" + side)) as f:
			used += [x.strip() for x in f if x.strip()]
	return r.returncode, bad, used, good


def rate(label, k, n):
	lo, hi = wilson(k, n)
	return f"{label} {k}/{n} = {100 * k / n:.1f} % [95 % Wilson {lo:.1f}-{hi:.1f}]" if n else f"{label}: none"


def draw(rng, pool, c, most):
	"""One comparison's boots in the order vmab boots them: @most of cost
	0 for A, @most of cost @c for B (for cost 0, disjoint from A's)."""
	if c == 0:
		boots = rng.sample(pool[0], 2 * most)
		return boots[:most], boots[most:]
	return rng.sample(pool[0], most), rng.sample(pool[c], most)


def drawn(top, ksrc, cmp, progs, pool, first, most, draws, seed, jobs, tmp):
	rng = random.Random(seed)
	print(f"comparisons: {draws} per cost drawn from the pools (seed {seed}) and replayed through")
	print(f"scripts/vmab.sh (bench/pool_vmtest.sh hands out the boots): {first} boots a side at the")
	catch = os.environ.get("VM_CATCH") or "each program's change line"
	plan = "no plan, fixed looks (VM_CATCH=0)" if catch == "0" else f"the plan to catch {catch}"
	print(f"first look, up to {most} ({plan}), each side's boots disjoint; the draws share boots, so the")
	print("intervals, which treat them as independent, are optimistic")
	for c in pool:
		m = min(most, len(pool[0]) // 2 if c == 0 else min(len(pool[0]), len(pool[c])))
		if m < first:
			print(f"  cost {c} ns: too few boots for {first} a side (cost 0: {len(pool[0])}, cost {c}: {len(pool[c])})")
			continue
		plans = [(os.path.join(tmp, f"cost-{c}-{i}"),) + draw(rng, pool, c, m) for i in range(draws)]
		with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
			got = list(ex.map(lambda p: replay(top, ksrc, cmp, p[0], p[1], p[2], first, m), plans))
		n = len(got)
		exits = {rc: sum(1 for g in got if g[0] == rc) for rc in (0, 1, 4)}
		sides = [len(g[2]) // 2 for g in got]
		mins = sorted(sum(seconds(x) for x in g[2]) / 60 for g in got)
		what = "A/A, false alarms" if c == 0 else "detected"
		print(f"  cost {c} ns {'(A/A: cost 0 against cost 0)' if c == 0 else 'against cost 0'}, up to {m} boots a side:")
		print(f"    vmab exit 1 (regressed): {rate(what, exits[1], n)}; exit 0 {exits[0]}, exit 4 {exits[4]}")
		for prog in os.environ.get("KP_JUDGE", "").split() or progs:
			k = sum(1 for g in got if prog in g[1])
			ok = sum(1 for g in got if prog in g[3])
			print(f"    {prog} regressed: {k}/{n}, passed (shown within its thresholds): {ok}/{n}")
		print(f"    boots a side at the stop: {dict(sorted({u: sides.count(u) for u in sides}.items()))}")
		print(f"    host minutes per gate (the boots' own seconds): median {statistics.median(mins):.1f},"
		      f" 90th percentile {mins[int(0.9 * (n - 1))]:.1f}, most {mins[-1]:.1f}")


def main():
	if len(sys.argv) < 11:
		die("usage: kernel_power.py TOP KSRC CMP OUT FIRST MOST DRAWS SEED JOBS COST...")
	top, ksrc, cmp, out = sys.argv[1:5]
	first, most, draws, seed, jobs = (int(x) for x in sys.argv[5:10])
	costs = [int(c) for c in sys.argv[10:]]
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
	with tempfile.TemporaryDirectory(prefix="kernel_power.") as tmp:
		drawn(top, ksrc, cmp, progs, pool, first, most, draws, seed, jobs, tmp)


main()
