"""The bindings simulate bit-identically to the command line: `gauss run ... --out` and the same
loop in Python (same model, configuration and controls) give equal trajectories, every number
compared exactly (the CSV is written with %.17g, which reads back to the same double)."""
import subprocess

import numpy as np
import pytest

import gauss


def cli_trajectory(gauss_cli, tmp_path, model, steps, controls=None, config=None, sets=()):
    out = tmp_path / "traj.csv"
    args = [gauss_cli, "run", str(model), "--steps", str(steps), "--out", str(out)]
    if controls is not None:
        ctrl_csv = tmp_path / "ctrl.csv"
        header = ",".join(f"ctrl{j}" for j in range(controls.shape[1]))
        np.savetxt(ctrl_csv, controls, delimiter=",", header=header, comments="", fmt="%.17g")
        args += ["--controls", str(ctrl_csv)]
    if config is not None:
        args += ["--config", str(config)]
    for s in sets:
        args += ["--set", s]
    run = subprocess.run(args, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with open(out) as f:
        header = f.readline().strip().split(",")
    return header, np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)


def python_trajectory(engine, steps, controls=None):
    """The loop of `gauss run`: row i is the state before step i with the sensors that step
    computes; the final state gets its sensors from one forward evaluation."""
    d = engine.make_data()

    def apply(i):
        if controls is not None:
            d.ctrl[:] = controls[min(i, len(controls) - 1)]

    rows = []
    for i in range(steps):
        apply(i)
        state = np.concatenate([[d.time], d.qpos, d.qvel, d.act])
        engine.step(d)
        rows.append(np.concatenate([state, d.sensordata, [0]]))  # reset: no divergence reset
    apply(steps)
    engine.forward(d)
    rows.append(np.concatenate([[d.time], d.qpos, d.qvel, d.act, d.sensordata, [0]]))
    return np.array(rows)


def expected_header(m):
    cols = ["time"]
    for prefix, n in (("qpos", m.nq), ("qvel", m.nv), ("act", m.na), ("sensordata", m.nsensordata)):
        cols += [f"{prefix}{i}" for i in range(n)]
    return cols + ["reset"]  # divergence resets since the previous row (docs/cli.md)


@pytest.mark.parametrize("integrator", ["euler", "rk4", "implicit"])
def test_cartpole_with_controls(gauss_cli, tmp_path, models, integrator):
    model_path = models / "cartpole.xml"
    rng = np.random.default_rng(20)
    controls = rng.uniform(-1.3, 1.3, size=(150, 1))  # beyond ctrlrange: clamping included
    header, cli = cli_trajectory(gauss_cli, tmp_path, model_path, 200, controls,
                                 sets=[f"integrator={integrator}", "timestep=0.005"])
    engine = gauss.Engine(gauss.load_model(model_path), integrator=integrator, timestep=0.005)
    py = python_trajectory(engine, 200, controls)
    assert header == expected_header(engine.model)
    assert cli.shape == py.shape == (201, len(header))
    assert np.array_equal(cli, py), np.abs(cli - py).max()
    assert np.abs(py[:, 1]).max() > 0.05  # the cart moved


@pytest.mark.parametrize("solver", ["newton", "pgs", "cg"])
def test_contacts_with_a_yaml_config(gauss_cli, tmp_path, models, solver):
    model_path = models / "pile.xml"
    cfg = tmp_path / "run.yaml"
    cfg.write_text("cone: elliptic\nsolver:\n  iterations: 30\n")
    header, cli = cli_trajectory(gauss_cli, tmp_path, model_path, 300, config=cfg,
                                 sets=[f"solver={solver}"])
    engine = gauss.Engine(gauss.load_model(str(model_path)), str(cfg), solver=solver)
    py = python_trajectory(engine, 300)
    assert header == expected_header(engine.model)
    assert np.array_equal(cli, py), np.abs(cli - py).max()
    d = engine.make_data()
    engine.step(d, 300)
    assert d.ncon > 0  # contacts were part of the comparison
