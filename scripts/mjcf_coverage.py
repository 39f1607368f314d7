#!/usr/bin/env python3
"""Which MJCF files Gauss loads and simulates, and why it refuses the others.

usage: scripts/mjcf_coverage.py DIR [--gauss build/bin/gauss] [--mjref3 PATH] [--steps N]
                                   [--compare]

Runs `gauss run FILE --steps N` (default 200) on every *.xml under DIR (files that other
files include, i.e. whose root is not <mujoco> or that MuJoCo itself cannot load alone, are
reported apart when --mjref3 is given: MuJoCo 3.12's verdict decides what counts as a model).
Each file lands in one class:
  simulates         loaded and ran N steps
  assets unavailable  a mesh, texture or height-field file it needs is missing (binary assets
                    that were not fetched with the XML); MuJoCo's verdict too when --mjref3
  refused: <what>   "not supported yet: <what>" (the feature Gauss lacks)
  unknown: <name>   an element or attribute outside Gauss's schema
  error: <text>     any other error (first line)
  diverges in MuJoCo 3.12 too  an error in Gauss's run on a file whose own MuJoCo 3.12 run gives
                    NaN (with --mjref3: e.g. a singular mass matrix in a compiler test file)
With --compare (needs --mjref3), a file that simulates is also run by MuJoCo 3.12 (`mjref3 run`,
zero controls; with `--no-island` when Gauss's run had islands off, i.e. for a file that uses
no MuJoCo 3.x feature: docs/islands.md) and the largest relative difference of qpos and qvel over the N
steps, |a - b| / max(1, |b|), splits the class into "agrees to 1e-6" and "parts". The
script prints one line per file, then a table of the classes by count (the docs'
coverage table in docs/mjcf.md comes from it). Exit status 0.
"""
import argparse
import collections
import csv
import os
import re
import subprocess
import sys
import tempfile


ASSET_MISSING = re.compile(r"(mesh|texture|hfield|skin)? ?file '[^']*' not found|"
                           r"Error opening file|could not open file|resource not found", re.I)


def classify(message):
    """The coverage class of a gauss error message."""
    if ASSET_MISSING.search(message):
        return "assets unavailable"
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


def trajectory_difference(gauss, mjref3, path, steps, scratch):
    """Largest |a - b| / max(1, |b|) of qpos and qvel between Gauss and MuJoCo 3.12 runs."""
    ours, theirs = scratch + ".gauss.csv", scratch + ".mujoco.csv"
    subprocess.run([gauss, "run", path, "--steps", str(steps), "--out", ours],
                   capture_output=True, text=True, check=True)
    # islands as in Gauss's run: its resolved configuration says whether it used them
    with open(ours + ".config.yaml") as resolved:
        islands = any(line.strip() == "island: true" for line in resolved)
    subprocess.run([mjref3, "run", path, "--steps", str(steps), "--out", theirs] +
                   ([] if islands else ["--no-island"]),
                   capture_output=True, text=True, check=True)
    with open(ours) as a, open(theirs) as b:
        rows_a, rows_b = list(csv.DictReader(a)), list(csv.DictReader(b))
    worst = 0.0
    for ra, rb in zip(rows_a, rows_b):
        for key, value in rb.items():
            if key.startswith(("qpos", "qvel")) and key in ra:
                worst = max(worst, abs(float(ra[key]) - float(value)) / max(1.0, abs(float(value))))
    return worst if len(rows_a) == len(rows_b) else float("inf")


def mujoco_diverges(mjref3, path, steps, scratch):
    """Whether MuJoCo 3.12's own run of the file reaches NaN within the N steps."""
    out = scratch + ".mujoco.csv"
    run = subprocess.run([mjref3, "run", path, "--steps", str(steps), "--out", out],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return False
    with open(out) as f:
        return any("nan" in line.lower() for line in f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--gauss", default="build/bin/gauss")
    ap.add_argument("--mjref3", default="")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--compare", action="store_true")
    args = ap.parse_args()

    files = sorted(os.path.join(root, f) for root, _, names in os.walk(args.dir)
                   for f in names if f.endswith(".xml"))
    classes = collections.Counter()
    for path in files:
        rel = os.path.relpath(path, args.dir)
        if args.mjref3:
            mj = subprocess.run([args.mjref3, "info", path], capture_output=True, text=True)
            if mj.returncode != 0 and ASSET_MISSING.search(mj.stderr + mj.stdout):
                classes["assets unavailable"] += 1
                print("%-45s assets unavailable (MuJoCo 3.12 cannot load it either)" % rel)
                continue
            if mj.returncode != 0:
                classes["not a model for MuJoCo 3.12 (include part, or refused by it)"] += 1
                print("%-45s not a model for MuJoCo 3.12" % rel)
                continue
        run = subprocess.run([args.gauss, "run", path, "--steps", str(args.steps)],
                             capture_output=True, text=True)
        verdict = "simulates" if run.returncode == 0 else classify(run.stderr + run.stdout)
        if verdict.startswith("error: ") and args.mjref3 and mujoco_diverges(
                args.mjref3, path, args.steps,
                os.path.join(tempfile.gettempdir(), "mjcf_coverage")):
            verdict = "diverges in MuJoCo 3.12 too (NaN in its own run)"
        detail = ""
        if verdict == "simulates" and args.compare and args.mjref3:
            diff = trajectory_difference(args.gauss, args.mjref3, path, args.steps,
                                         os.path.join(tempfile.gettempdir(), "mjcf_coverage"))
            verdict += ", agrees with MuJoCo 3.12 to 1e-6" if diff <= 1e-6 else ", parts from MuJoCo 3.12"
            detail = " (max rel. difference %.1e)" % diff
        classes[verdict] += 1
        print("%-45s %s%s" % (rel, verdict, detail))
    print()
    print("| files | class |")
    print("|---:|---|")
    for verdict, n in sorted(classes.items(), key=lambda kv: (-kv[1], kv[0])):
        print("| %d | %s |" % (n, verdict))
    print("| %d | total |" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
