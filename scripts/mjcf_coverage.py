#!/usr/bin/env python3
"""Which MJCF files Gauss loads and simulates, and why it refuses the others.

usage: scripts/mjcf_coverage.py DIR [--gauss build/bin/gauss] [--mjref3 PATH] [--steps N]

Runs `gauss run FILE --steps N` (default 200) on every *.xml under DIR (files that other
files include, i.e. whose root is not <mujoco> or that MuJoCo itself cannot load alone, are
reported apart when --mjref3 is given: MuJoCo 3.12's verdict decides what counts as a model).
Each file lands in one class:
  simulates         loaded and ran N steps
  refused: <what>   "not supported yet: <what>" (the feature Gauss lacks)
  unknown: <name>   an element or attribute outside Gauss's schema
  error: <text>     any other error (first line)
and the script prints one line per file, then a table of the classes by count (the docs'
coverage table in docs/mjcf.md comes from it). Exit status 0.
"""
import argparse
import collections
import os
import re
import subprocess
import sys


def classify(message):
    """The coverage class of a gauss error message."""
    m = re.search(r"not supported yet: ([^(\n;]*)", message)
    if m:
        return "refused: " + m.group(1).strip()
    m = re.search(r"element '([^']+)', attribute '([^']+)': unknown attribute", message)
    if m:
        return "unknown: %s/%s" % (m.group(1), m.group(2))
    m = re.search(r"unknown element <([^>]+)>", message)
    if m:
        return "unknown: <%s>" % m.group(1)
    first = message.strip().splitlines()[-1] if message.strip() else "no output"
    first = re.sub(r"^.*?error: ", "", first)
    first = re.sub(r"^[^ ]*\.xml:\d+: ", "", first)
    return "error: " + first[:90]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--gauss", default="build/bin/gauss")
    ap.add_argument("--mjref3", default="")
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args()

    files = sorted(os.path.join(root, f) for root, _, names in os.walk(args.dir)
                   for f in names if f.endswith(".xml"))
    classes = collections.Counter()
    for path in files:
        rel = os.path.relpath(path, args.dir)
        if args.mjref3:
            mj = subprocess.run([args.mjref3, "info", path], capture_output=True, text=True)
            if mj.returncode != 0:
                classes["not a model for MuJoCo 3.12 (include part, or refused by it)"] += 1
                print("%-45s not a model for MuJoCo 3.12" % rel)
                continue
        run = subprocess.run([args.gauss, "run", path, "--steps", str(args.steps)],
                             capture_output=True, text=True)
        verdict = "simulates" if run.returncode == 0 else classify(run.stderr + run.stdout)
        classes[verdict] += 1
        print("%-45s %s" % (rel, verdict))
    print()
    print("| files | class |")
    print("|---:|---|")
    for verdict, n in sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])):
        print("| %d | %s |" % (n, verdict))
    print("| %d | total |" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
