#!/usr/bin/env python3
"""Cost and goal violation per iLQR iteration of several `gauss trajopt` runs in one figure
(the Dojo paper's Table III comparison: newton + finite differences at h = 0.01 against ip +
implicit gradients at h = 0.05; docs/derivatives.md). Each run is a directory written by
`gauss trajopt PROBLEM --out DIR` (its cost.csv: iteration, cost, ..., violation, outer).

  /usr/bin/python3 scripts/trajopt_compare.py --out docs/experiments/trajopt_hopper_goal_al.png \
      --run "(a) newton + fd, h = 0.01=results/trajopt/hopper_goal_al" \
      --run "(b) ip + implicit, h = 0.05=results/trajopt/hopper_goal_ip_al"

Reads: DIR/cost.csv of each run. Writes: the figure (cost on the left, violation on the right,
both logarithmic; vertical ticks where an augmented-Lagrangian outer iteration starts)."""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_history(directory):
    """(iterations, costs, violations, outer) from DIR/cost.csv."""
    with open(directory + "/cost.csv") as f:
        rows = list(csv.DictReader(f))
    if not rows or "violation" not in rows[0]:
        raise SystemExit(directory + "/cost.csv: expected the columns iteration, cost, violation, outer")
    return ([int(r["iteration"]) for r in rows], [float(r["cost"]) for r in rows],
            [float(r["violation"]) for r in rows], [int(r["outer"]) for r in rows])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", action="append", required=True, metavar="LABEL=DIR")
    parser.add_argument("--title", default="")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    fig, (ax_cost, ax_vio) = plt.subplots(1, 2, figsize=(10, 4))
    for spec in args.run:
        label, _, directory = spec.rpartition("=")
        it, cost, vio, outer = read_history(directory)
        line, = ax_cost.plot(it, cost, label=label, lw=1.5)
        ax_vio.plot(it, vio, label=label, lw=1.5, color=line.get_color())
        for i in range(1, len(it)):
            if outer[i] != outer[i - 1]:
                ax_vio.axvline(it[i], color=line.get_color(), lw=0.5, ls=":")
    ax_cost.set_yscale("log")
    ax_vio.set_yscale("log")
    ax_cost.set_xlabel("iteration")
    ax_vio.set_xlabel("iteration")
    ax_cost.set_ylabel("cost J")
    ax_vio.set_ylabel("goal violation max |c|")
    ax_vio.set_title("dotted: a new outer iteration", fontsize=8)
    for ax in (ax_cost, ax_vio):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.out, dpi=90)


if __name__ == "__main__":
    main()
