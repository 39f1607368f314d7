#!/usr/bin/env python3
"""Contact force against distance for several central-path parameters kappa of the ip solver
(Fig. 4 of the Dojo paper; issue 13): a 1 kg box (models/ip/drop_box.xml, h = 0.01 s) held at
rest at height d above the plane, one forward evaluation per (kappa, d) with `gauss run
--steps 1 --contacts`, kappa pinned by solver.params.kappa_floor. Beside the curves, the exact
hard-contact force m max(0, g - d / h^2): the force that makes d + h v+ = 0.

  /usr/bin/python3 scripts/ip_kappa_sweep.py --out docs/experiments/ip_kappa_sweep.svg

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

KAPPAS = [1e-8, 1e-6, 1e-4, 1e-2]
MODEL = "models/ip/drop_box.xml"
HALF_SIZE, MASS, G, H = 0.1, 1.0, 9.81, 0.01


def normal_force(gauss, kappa, distance, scratch):
    """Sum of the contact normal forces (N) of the box at rest, `distance` above the plane."""
    init = os.path.join(scratch, "init.csv")
    with open(init, "w") as f:
        f.write("qpos2\n%.17g\n" % (HALF_SIZE + distance))
    out = os.path.join(scratch, "run.csv")
    subprocess.run([gauss, "run", MODEL, "--steps", "1", "--initial", init, "--out", out,
                    "--contacts", "--set", "solver=ip",
                    "--set", "solver.params.kappa_floor=%g" % kappa,
                    "--set", "solver.params.kappa_tol=%g" % (2 * kappa),
                    "--set", "solver.params.r_tol=1e-10"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out + ".contacts.csv") as f:
        return sum(float(r["force_normal"]) for r in csv.DictReader(f) if r["row"] == "0")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/experiments/ip_kappa_sweep.svg")
    parser.add_argument("--gauss", default="build/bin/gauss")
    args = parser.parse_args()
    distances = [0.0005 * i for i in range(41)]  # 0 .. 2 cm
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for kappa in KAPPAS:
            for d in distances:
                rows.append((kappa, d, normal_force(args.gauss, kappa, d, scratch)))
    with open(os.path.splitext(args.out)[0] + ".csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kappa", "distance", "normal_force"])
        w.writerows(rows)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for kappa in KAPPAS:
        pts = [(d, f) for k, d, f in rows if k == kappa]
        ax.semilogy([p[0] for p in pts], [max(p[1], 1e-12) for p in pts],
                    label="ip, kappa = %g N m/s" % kappa)
    exact = [MASS * max(0.0, G - d / H ** 2) for d in distances]
    ax.semilogy([d for d, f in zip(distances, exact) if f > 0], [f for f in exact if f > 0],
                "k--", label="hard contact (kappa = 0)")
    ax.set_xlabel("distance of the box above the plane d (m)")
    ax.set_ylabel("total contact normal force (N)")
    ax.set_title("ip: contact force vs distance (box at rest, h = 0.01 s)")
    ax.set_ylim(1e-12, 100)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
