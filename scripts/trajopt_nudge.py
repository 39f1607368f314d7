#!/usr/bin/env python3
"""Is the end state of an optimized rollout a smooth function of its controls? Replays the
controls of a `gauss trajopt` run with `gauss run --controls`, nudges them along one random
direction by +-eps for eps = 1e-2 ... 1e-8, and prints the central difference of the terminal
qpos for each eps (docs/derivatives.md, "Dojo's own goal"). Where the dynamics are smooth the
differences settle as eps shrinks; a jump in the step makes them grow as 1/eps.

  /usr/bin/python3 scripts/trajopt_nudge.py --model models/trajopt/raibert_hopper.xml \
      --run results/trajopt/raibert_hop --set timestep=0.01 --set solver=newton

Reads: RUN/trajectory.csv (time, qpos*, qvel*, ctrl*); the start is the model's reference pose,
as in `gauss trajopt` without a `start` key. Writes scratch files under --scratch."""
import argparse
import csv
import os
import random
import subprocess


def read_rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--run", required=True, help="directory written by gauss trajopt --out")
    parser.add_argument("--set", action="append", default=[], help="engine setting, as in the problem")
    parser.add_argument("--gauss", default="build/bin/gauss")
    parser.add_argument("--scratch", default="results/trajopt_nudge")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rows = read_rows(os.path.join(args.run, "trajectory.csv"))
    horizon = len(rows) - 1  # the last row is the terminal state (its controls are not applied)
    nu = sum(1 for k in rows[0] if k.startswith("ctrl"))
    nq = sum(1 for k in rows[0] if k.startswith("qpos"))
    controls = [[float(r["ctrl%d" % a]) for a in range(nu)] for r in rows[:horizon]]
    rng = random.Random(args.seed)
    direction = [[rng.gauss(0, 1) for _ in range(nu)] for _ in range(horizon)]
    os.makedirs(args.scratch, exist_ok=True)

    def terminal_qpos(eps, tag):
        ctrl_file = os.path.join(args.scratch, "ctrl_%s.csv" % tag)
        with open(ctrl_file, "w") as f:
            f.write(",".join("ctrl%d" % a for a in range(nu)) + "\n")
            for u, d in zip(controls, direction):
                f.write(",".join(repr(ui + eps * di) for ui, di in zip(u, d)) + "\n")
        out = os.path.join(args.scratch, "rollout_%s.csv" % tag)
        command = [args.gauss, "run", args.model, "--steps", str(horizon), "--controls", ctrl_file,
                   "--out", out]
        for s in args.set:
            command += ["--set", s]
        subprocess.run(command, check=True, capture_output=True)
        last = read_rows(out)[-1]
        return [float(last["qpos%d" % i]) for i in range(nq)]

    nominal = terminal_qpos(0.0, "nominal")
    replay = max(abs(a - float(rows[-1]["qpos%d" % i])) for i, a in enumerate(nominal))
    print("replay: max |qpos_T - the run's| = %.3g" % replay)
    print("eps      central difference of qpos_T along the direction")
    for k in range(2, 9):
        eps = 10.0 ** -k
        plus, minus = terminal_qpos(eps, "plus"), terminal_qpos(-eps, "minus")
        print("%-8.0e %s" % (eps, " ".join("%10.4g" % ((p - m) / (2 * eps)) for p, m in zip(plus, minus))))


if __name__ == "__main__":
    main()
