"""gauss.Batch: rollouts on a thread pool, bit-identical to the same rollouts stepped one by one
from Python (Reset + set_state + per step: controls, step), for 1 and 2 threads."""
import numpy as np
import pytest

import gauss


def step_one_by_one(engine, initial_states, controls, horizon):
    """The reference: every rollout stepped serially in Python on one Data."""
    d = engine.make_data()
    nroll = initial_states.shape[0]
    nstate = engine.state_size(gauss.STATE_FULL_PHYSICS)
    state = np.empty((nroll, horizon, nstate))
    sensordata = np.empty((nroll, horizon, engine.model.nsensordata))
    ncon = np.empty((nroll, horizon), dtype=np.int32)
    iters = np.empty((nroll, horizon), dtype=np.int32)
    for i in range(nroll):
        engine.reset(d)
        engine.set_state(d, initial_states[i])
        for t in range(horizon):
            if controls is not None:
                d.ctrl[:] = controls[i, t]
            engine.step(d)
            state[i, t] = engine.get_state(d, gauss.STATE_FULL_PHYSICS)
            sensordata[i, t] = d.sensordata
            ncon[i, t] = d.ncon
            iters[i, t] = d.solver_iter
    return state, sensordata, ncon, iters


def initial_states(engine, nroll, seed):
    """nroll integration states: the reference configuration with random qpos/qvel offsets."""
    rng = np.random.default_rng(seed)
    d = engine.make_data()
    out = []
    for _ in range(nroll):
        engine.reset(d)
        d.qpos[:] += 0.1 * rng.standard_normal(d.qpos.shape)
        d.qvel[:] = rng.standard_normal(d.qvel.shape)
        out.append(engine.get_state(d))
    return np.array(out)


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("model_name", ["cartpole.xml", "box_slide.xml"])
def test_rollout_bit_identical_to_serial_python_steps(models, model_name, threads):
    engine = gauss.Engine(gauss.load_model(str(models / model_name)))
    nroll, horizon = 6, 40
    x0 = initial_states(engine, nroll, seed=threads)
    rng = np.random.default_rng(7)
    controls = rng.uniform(-1, 1, (nroll, horizon, engine.model.nu))
    out = gauss.Batch(engine, threads=threads).rollout(x0, controls, horizon)
    state, sensordata, ncon, iters = step_one_by_one(engine, x0, controls, horizon)
    assert out["state"].shape == (nroll, horizon, engine.state_size(gauss.STATE_FULL_PHYSICS))
    assert np.array_equal(out["state"], state)
    assert np.array_equal(out["sensordata"], sensordata)
    assert np.array_equal(out["ncon"], ncon)
    assert np.array_equal(out["solver_iter"], iters)
    # the rollouts differ from each other (the comparison is not between identical copies)
    assert not np.array_equal(out["state"][0], out["state"][1])
    if model_name == "box_slide.xml":
        assert out["ncon"].max() > 0  # the box touches the floor: contacts are compared too


def test_rollout_without_controls_holds_the_initial_controls(models):
    engine = gauss.Engine(gauss.load_model(str(models / "cartpole.xml")))
    d = engine.make_data()
    d.ctrl[:] = 0.5
    x0 = np.array([engine.get_state(d)] * 2)
    out = gauss.Batch(engine, threads=2).rollout(x0, None, horizon=25)
    held = np.full((2, 25, engine.model.nu), 0.5)
    state, sensordata, _, _ = step_one_by_one(engine, x0, held, 25)
    assert np.array_equal(out["state"], state)
    assert np.array_equal(out["sensordata"], sensordata)


def test_rollout_rejects_bad_shapes_with_a_clear_message(models):
    engine = gauss.Engine(gauss.load_model(str(models / "cartpole.xml")))
    batch = gauss.Batch(engine, threads=1)
    n = engine.state_size()
    with pytest.raises(ValueError, match=r"initial_states must have shape \(2, %d\)" % n):
        batch.rollout(np.zeros((2, n + 1)), None, 3)
    with pytest.raises(ValueError, match=r"controls must have shape \(2, 3, 1\), got \(2, 4, 1\)"):
        batch.rollout(np.zeros((2, n)), np.zeros((2, 4, 1)), 3)
    with pytest.raises(ValueError, match="give the horizon"):
        batch.rollout(np.zeros((2, n)))
