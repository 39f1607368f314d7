"""Compare the constraint solvers on one contact scene from Python and plot the result.

Runs models/pile.xml (boxes, capsules, spheres falling onto a ramp) with each solver plugin and
records, per step: the total energy, the solver iterations, the deepest penetration and the wall
time. Writes a PNG with matplotlib and prints a summary table.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/compare_solvers.py --out compare_solvers.png
"""
import argparse
import os
import time

import matplotlib

matplotlib.use("Agg")  # files only, no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import gauss  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def simulate(model, solver, steps, iterations):
    """(model, solver name) => dict of per-step arrays: time, energy, iterations, penetration,
    wall seconds."""
    engine = gauss.Engine(model, solver=solver, **{"solver.iterations": iterations,
                                                    "flags.energy": True})
    d = engine.make_data()
    out = {k: np.zeros(steps) for k in ("time", "energy", "iterations", "penetration", "wall")}
    for i in range(steps):
        t0 = time.perf_counter()
        engine.step(d)
        out["wall"][i] = time.perf_counter() - t0
        out["time"][i] = d.time
        out["energy"][i] = d.energy.sum()  # of the state the step started from
        out["iterations"][i] = d.solver_iter
        out["penetration"][i] = max(0.0, -d.contact["dist"].min()) if d.ncon else np.nan
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=os.path.join(REPO, "models", "pile.xml"))
    parser.add_argument("--solvers", default="newton,cg,pgs")
    parser.add_argument("--steps", type=int, default=1500)
    parser.add_argument("--iterations", type=int, default=100, help="solver.iterations")
    parser.add_argument("--out", default="compare_solvers.png")
    args = parser.parse_args()

    model = gauss.load_model(args.model)
    results = {s: simulate(model, s, args.steps, args.iterations) for s in args.solvers.split(",")}

    fig, axes = plt.subplots(3, 1, figsize=(8, 9), sharex=True)
    for solver, r in results.items():
        axes[0].plot(r["time"], r["energy"], label=solver)
        axes[1].plot(r["time"], r["iterations"], label=solver, lw=0.8)
        axes[2].semilogy(r["time"], np.maximum(r["penetration"], 1e-9), label=solver, lw=0.8)
        # (no contact yet: NaN, not drawn)
    axes[0].set_ylabel("total energy (J)")
    axes[1].set_ylabel("solver iterations")
    axes[2].set_ylabel("deepest penetration (m)")
    axes[2].set_xlabel("simulated time (s)")
    axes[0].set_title(f"{model.name}: solvers compared (iterations <= {args.iterations})")
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)

    print(f"{'solver':8} {'mean iter':>9} {'max iter':>8} {'final energy':>13} "
          f"{'max penetration':>16} {'us/step':>8}")
    for solver, r in results.items():
        print(f"{solver:8} {r['iterations'].mean():9.2f} {int(r['iterations'].max()):8d} "
              f"{r['energy'][-1]:13.6f} {np.nanmax(r['penetration']):16.3e} "
              f"{1e6 * np.median(r['wall']):8.1f}")
    print(f"plot: {args.out}")


if __name__ == "__main__":
    main()
