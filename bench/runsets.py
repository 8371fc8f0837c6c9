# SPDX-License-Identifier: GPL-2.0
# Run sets for the bench helpers (bench/gate.py, bench/kernel_power.py),
# read through sched_perf_compare --dump, the one reader of the format.
import os, subprocess, sys


def die(msg):
	"""One line on stderr, named after the helper running, and exit 2."""
	print(f"{os.path.basename(sys.argv[0]).removesuffix('.py')}: {msg}", file=sys.stderr)
	sys.exit(2)


def dump(cmp, path):
	"""A run set, read by sched_perf_compare --dump: {metric: [its
	values, as printed]}."""
	r = subprocess.run([cmp, "--dump", path], capture_output=True, text=True)
	if r.returncode:
		die(r.stderr.strip() or f"{cmp} --dump {path}: exit {r.returncode}")
	runs = {}
	for line in r.stdout.splitlines():
		kind, key, value = (line.split("\t") + ["", ""])[:3]
		if kind == "runs":
			runs[key] = value.split()
	return runs


def rates(runs):
	"""The <ops>_per_sec metrics of a run set: every workload has one,
	per iteration (messages_per_sec, bogo_ops_per_sec)."""
	return [m for m in runs if m.endswith("_per_sec")]


def throughput(runs):
	"""The run set's throughput metric, or None when it has not one."""
	found = rates(runs)
	return found[0] if len(found) == 1 else None


def cv(values):
	"""The coefficient of variation of a metric's values (numbers, or as
	printed): NaN for fewer than 2 or a mean of 0."""
	v = [float(x) for x in values]
	if len(v) < 2:
		return float("nan")
	m = sum(v) / len(v)
	return (sum((x - m) ** 2 for x in v) / (len(v) - 1)) ** 0.5 / abs(m) if m else float("nan")
