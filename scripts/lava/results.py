#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""LAVA's test cases of a lava-run log, checked against the KTAP in it.

    results.py LOG [PROGRAM...]

LOG is lava-run's log (its stderr: one YAML mapping a line).  Prints the
test definition's cases, a line each (case, result, measurement, units),
then checks that LAVA recorded what the guest's KTAP (the console lines
of the same log) says:

  - the job finished ("job" pass: LAVA itself did not fail);
  - every program the runner reported is a case, and every check of a
    program (ok/not ok, SKIP) is a case with the same result;
  - every check named as a metric its program printed before it ("# #
    NAME: VALUE[ UNIT]", a number) carries VALUE as its measurement, with
    a unit;
  - ktap_complete passed, and no case is there that the KTAP lacks;
  - each PROGRAM named is a case (the suite's list: none was left out).

Exit: 0 all there, every case passed or skipped; 1 all there, a case
failed (the suite's verdict); 2 LAVA's results are not the KTAP's (each
difference named on stderr), the job did not finish, or bad usage.
"""

import math
import re
import sys

import yaml

try:
    Loader = yaml.CSafeLoader
except AttributeError:
    Loader = yaml.SafeLoader

RUNNER = re.compile(r"^(not )?ok \d+ selftests: [^:]+: (\S+)")
CHECK = re.compile(r"^# (not )?ok \d+ (.*)$")
NOTE = re.compile(r"^# # ([A-Za-z0-9_@-]+(?:\.[A-Za-z0-9_]+)+): (\S+)(?: (\S+))?$")
NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def check_name(text):
    """The case name and result of a check's text after "ok N "."""
    skip = False
    if text.startswith("# SKIP "):          # older form: "# SKIP name: why"
        name = re.split(r"[: ]", text[len("# SKIP "):], maxsplit=1)[0]
        skip = True
    else:
        name, _, directive = text.partition(" # ")
        skip = directive.split(" ", 1)[0].upper() == "SKIP"
        name = name.split(" ", 1)[0]      # older form: figures after a space
    return re.sub(r"[^A-Za-z0-9._-]", "_", name), skip


def read_log(path):
    """(job result, its error, the target's lines, the definition's cases)"""
    job, error, target, cases = None, "", [], {}
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("{"):
                continue
            try:
                entry = yaml.load(line, Loader=Loader)
            except yaml.YAMLError:
                continue
            lvl, msg = entry.get("lvl"), entry.get("msg")
            if lvl == "target":
                target.append(str(msg))
            elif lvl == "results" and isinstance(msg, dict):
                if msg.get("definition") == "lava":
                    if msg.get("case") == "job":
                        job = msg.get("result")
                        error = msg.get("error_msg", "")
                else:
                    cases[str(msg.get("case"))] = msg
    return job, error, target, cases


def expected(target):
    """The cases the KTAP gives, {name: result}, and the metrics, {name: value}"""
    want, values = {}, {}
    for line in target:
        m = RUNNER.match(line)
        if m:
            want[m.group(2)] = "skip" if " # SKIP" in line else (
                "fail" if m.group(1) else "pass")
            continue
        m = NOTE.match(line)
        if m:
            if NUMBER.match(m.group(2)):
                values[m.group(1)] = float(m.group(2))
            continue
        m = CHECK.match(line)
        if m:
            name, skip = check_name(m.group(2))
            want[name] = "skip" if skip else ("fail" if m.group(1) else "pass")
    return want, values


def main(argv):
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    job, error, target, cases = read_log(argv[1])
    want, values = expected(target)
    bad = []

    for name, c in cases.items():
        m = c.get("measurement")
        print("%-44s %-5s %s" % (name, c.get("result"),
                                 "" if m is None else "%s %s" % (m, c.get("units", ""))))
    if job != "pass":
        bad.append("the LAVA job did not finish: %s %s" % (job, error))
    if not want:
        bad.append("no KTAP result in the guest's console")
    for name, result in want.items():
        c = cases.get(name)
        if c is None:
            bad.append("no test case %s (KTAP: %s)" % (name, result))
            continue
        if c.get("result") != result:
            bad.append("test case %s is %s, the KTAP says %s" % (name, c.get("result"), result))
        if name in values:
            m = c.get("measurement")
            if m is None or not c.get("units"):
                bad.append("test case %s has no measurement with units (KTAP: %g)" %
                           (name, values[name]))
            elif not math.isclose(float(m), values[name], rel_tol=1e-9, abs_tol=1e-12):
                bad.append("test case %s measured %s, the KTAP says %g" % (name, m, values[name]))
    for name in cases:
        if name not in want and name != "ktap_complete":
            bad.append("test case %s is not in the KTAP" % name)
    if cases.get("ktap_complete", {}).get("result") != "pass":
        bad.append("ktap_complete is not pass: the run was cut short or its plan not met")
    for prog in argv[2:]:
        if prog not in cases:
            bad.append("program %s has no test case" % prog)

    measured = sum(1 for c in cases.values() if c.get("measurement") is not None)
    failed = sorted(n for n, c in cases.items() if c.get("result") == "fail")
    print("lava results: job %s; %d test cases, %d with a measurement, %d failed%s" %
          (job, len(cases), measured, len(failed), ": " + " ".join(failed) if failed else ""))
    for b in bad:
        print("lava results: %s" % b, file=sys.stderr)
    if bad:
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
