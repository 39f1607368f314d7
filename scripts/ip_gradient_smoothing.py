#!/usr/bin/env python3
"""Implicit gradients of the ip step smooth a contact event that finite differences see as a
jump (after Fig. 4 of the Dojo paper; issue 14). A 1 kg box resting on the ground
(models/ip/lift_box.xml, h = 0.01 s, mu = 0.5) is pushed for one step by a force u along z
(lift-off at the weight, 9.81 N) or along x (sliding at mu m g = 4.9 N). For each u, the
derivative of the next position with respect to u, dz'/du_z and dx'/du_x (entries of B), by
`gauss derivatives`: finite differences of the ip step (tight tolerances: the hard contact,
a step function) and --method implicit at several central-path parameters kappa (pinned by
solver.params.kappa_floor). Free motion gives h^2/m = 1e-4 m/N; held by the contact, 0.

  /usr/bin/python3 scripts/ip_gradient_smoothing.py --out docs/experiments/ip_gradient_smoothing.svg

Reads: build/bin/gauss (run from the repository root). Writes: the plot and its numbers
(<out>.csv)."""
import argparse
import csv
import os
import subprocess
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODEL = "models/ip/lift_box.xml"
KAPPAS = [1e-1, 1e-2, 1e-3]
NX = 6  # 2 nv


def b_entries(gauss, method, kappa, controls, axis, scratch):
    """B[axis][axis] (d position'/d u along axis) at each control value, box at rest."""
    states = os.path.join(scratch, "states.csv")
    with open(states, "w") as f:
        f.write("qpos0,qpos1,qpos2,ctrl0,ctrl1,ctrl2\n")
        for u in controls:
            ctrl = [0.0, 0.0, 0.0]
            ctrl[axis] = u
            f.write("0,0,0,%.17g,%.17g,%.17g\n" % tuple(ctrl))  # resting: joints at 0
    out = os.path.join(scratch, "jac.csv")
    sets = ["solver=ip", "integrator=euler", "solver.params.r_tol=1e-12",
            "solver.params.max_iterations=200", "solver.iterations=200"]
    if kappa is None:  # the hard contact: ip's default tolerances, tightened
        sets += ["solver.params.kappa_tol=1e-10"]
    else:
        sets += ["solver.params.kappa_floor=%.17g" % kappa,
                 "solver.params.kappa_tol=%.17g" % (kappa * (1 + 1e-9))]
    cmd = [gauss, "derivatives", MODEL, "--states", states, "--out", out, "--centered",
           "--eps", "1e-6", "--method", method]
    for s in sets:
        cmd += ["--set", s]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    column = "B_%d_%d" % (axis, axis)
    with open(out) as f:
        return [float(r[column]) for r in csv.DictReader(f)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/experiments/ip_gradient_smoothing.svg")
    parser.add_argument("--gauss", default="build/bin/gauss")
    parser.add_argument("--points", type=int, default=61)
    args = parser.parse_args()
    cases = [(2, "lift: dz'/du_z", 5.0, 15.0), (0, "push: dx'/du_x", 0.0, 10.0)]
    rows = []
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    with tempfile.TemporaryDirectory() as scratch:
        for ax, (axis, title, lo, hi) in zip(axes, cases):
            controls = [lo + (hi - lo) * i / (args.points - 1) for i in range(args.points)]
            curves = [("finite differences (hard contact)", "fd", None)]
            curves += [("implicit, kappa = %g" % k, "implicit", k) for k in KAPPAS]
            for label, method, kappa in curves:
                values = b_entries(args.gauss, method, kappa, controls, axis, scratch)
                rows += [(title, method, kappa if kappa else 0, u, v)
                         for u, v in zip(controls, values)]
                style = {"color": "k", "lw": 2.5, "alpha": 0.5} if method == "fd" else {}
                ax.plot(controls, [1e4 * v for v in values], label=label, **style)
            ax.set_title(title)
            ax.set_xlabel("force u (N)")
            ax.set_ylabel("derivative (1e-4 m/N = h^2/m)")
            ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out)
    with open(os.path.splitext(args.out)[0] + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "method", "kappa", "force", "derivative"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
