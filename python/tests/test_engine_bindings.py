"""gauss.Engine: configuration (dict, YAML file, --set keys), stepping, reset, keyframes,
forward and inverse dynamics, plugins."""
import numpy as np
import pytest

import gauss


@pytest.fixture
def cartpole_model(models):
    return gauss.load_model(models / "cartpole.xml")


def state(d):
    return np.concatenate([[d.time], d.qpos, d.qvel, d.act, d.qacc_warmstart])


def test_step_n_equals_n_single_steps(cartpole_model):
    engine = gauss.Engine(cartpole_model)
    a, b = engine.make_data(), engine.make_data()
    for d in (a, b):
        d.qpos[1] = 0.3
        d.ctrl[0] = 0.2
    engine.step(a, 250)
    for _ in range(250):
        engine.step(b)
    assert np.array_equal(state(a), state(b))
    assert a.time == pytest.approx(2.5, abs=1e-12)
    engine.step(a, 0)
    assert np.array_equal(state(a), state(b))


def test_every_call_shape_of_step_agrees(cartpole_model):
    # step(d) and step(d, n) take a fast path; keywords and other integer types the checked one
    engine = gauss.Engine(cartpole_model)
    datas = [engine.make_data() for _ in range(5)]
    for d in datas:
        d.qpos[1] = 0.3
    engine.step(datas[0], 6)
    engine.step(datas[1], n=6)
    engine.step(data=datas[2], n=6)
    engine.step(datas[3], np.int64(6))
    for _ in range(6):
        engine.step(datas[4])
    for d in datas[1:]:
        assert np.array_equal(state(d), state(datas[0]))
    with pytest.raises(TypeError):
        engine.step(datas[0], 1.5)
    with pytest.raises(TypeError):
        engine.step(datas[0], 1, 2)
    with pytest.raises(TypeError):
        engine.step()


def test_reset_and_keyframes(cartpole_model):
    engine = gauss.Engine(cartpole_model)
    d = engine.make_data()
    d.ctrl[0] = 1.0
    engine.step(d, 50)
    engine.reset(d)
    assert d.time == 0.0 and d.qpos.tolist() == [0.0, 0.0] and d.qvel.tolist() == [0.0, 0.0]
    assert d.ctrl[0] == 0.0
    engine.reset_to_keyframe(d, "tilted")
    assert d.qpos.tolist() == [0.0, 0.2]
    engine.reset(d)
    engine.reset_to_keyframe(d, 0)
    assert d.qpos.tolist() == [0.0, 0.2]


def test_config_dict_yaml_file_and_set_keys_agree(cartpole_model, tmp_path):
    yaml = tmp_path / "run.yaml"
    yaml.write_text("integrator: euler\ntimestep: 0.004\nsolver:\n  name: pgs\n  iterations: 7\n"
                    "flags: {energy: true}\n")
    from_file = gauss.Engine(cartpole_model, str(yaml))
    from_dict = gauss.Engine(cartpole_model, {"integrator": "euler", "timestep": 0.004,
                                              "solver": {"name": "pgs", "iterations": 7},
                                              "flags": {"energy": True}})
    from_keys = gauss.Engine(cartpole_model, integrator="euler", timestep=0.004, solver="pgs",
                             **{"solver.iterations": 7, "flags__energy": True})
    for e in (from_file, from_dict, from_keys):
        o = e.model.opt
        assert (o["integrator"], o["timestep"], o["solver"], o["iterations"]) == ("euler", 0.004, "pgs", 7)
        assert o["flags"]["energy"] is True
    # set keys override the config (the --set > YAML precedence)
    over = gauss.Engine(cartpole_model, str(yaml), timestep=0.001, gravity=(0, 0, -1.62))
    assert over.model.opt["timestep"] == 0.001 and over.model.opt["integrator"] == "euler"
    assert over.model.opt["gravity"] == (0.0, 0.0, -1.62)
    assert "timestep: 0.001" in over.resolved_config


def test_plugins_in_use_follow_the_configuration(cartpole_model):
    engine = gauss.Engine(cartpole_model, integrator="euler", solver="cg")
    used = {(p["kind"], p["name"]) for p in engine.plugins_in_use()}
    assert ("integrator", "euler") in used and ("solver", "cg") in used
    assert all(p["version"] and p["file"].endswith(".so") for p in engine.plugins_in_use())


def test_plugin_registry_lists_every_kind():
    found = gauss.plugins()
    by_kind = {}
    for p in found:
        by_kind.setdefault(p["kind"], set()).add(p["name"])
    assert {"newton", "cg", "pgs"} <= by_kind["solver"]
    assert {"euler", "rk4", "implicit", "implicitfast"} <= by_kind["integrator"]
    assert {"primitive"} <= by_kind["collider"]
    assert "actuator" in by_kind and "sensor" in by_kind
    assert len(gauss.plugin_search_paths()) >= 1


def test_inverse_dynamics_recovers_the_applied_forces(cartpole_model):
    # no contacts, limits inactive: forward then inverse gives back actuator + applied forces
    engine = gauss.Engine(cartpole_model)
    d = engine.make_data()
    d.qpos[:] = [0.2, 0.7]
    d.qvel[:] = [-0.3, 1.1]
    d.ctrl[0] = 0.4
    d.qfrc_applied[1] = 0.05
    engine.forward(d)
    engine.inverse(d)
    np.testing.assert_allclose(d.qfrc_inverse, d.qfrc_actuator + d.qfrc_applied, rtol=0, atol=1e-12)


def test_energy_flag_conserves_energy_without_damping(models):
    # the undamped pendulum (energy flag on in the model) with rk4 at a small step
    engine = gauss.Engine(gauss.load_model(models / "pendulum.xml"), integrator="rk4", timestep=0.0005)
    d = engine.make_data()
    engine.forward(d)
    e0 = d.energy.sum()
    engine.step(d, 2000)
    engine.forward(d)
    assert abs(d.energy.sum() - e0) < 1e-7 * max(1.0, abs(e0))
    assert d.energy[1] > 0.1  # it is swinging


def test_plugins_list_declared_parameters_and_capabilities():
    by_name = {(p["kind"], p["name"]): p for p in gauss.plugins()}
    pgs = by_name[("solver", "pgs")]
    assert {"name": "exact_blocks", "type": "bool", "default": "false"}.items() <= \
        {k: v for k, v in pgs["params"][0].items()}.items()
    assert pgs["params"][0]["description"]
    assert "elliptic cone" in pgs["capabilities"] and pgs["usable"] is True
    euler = by_name[("integrator", "euler")]
    assert [p["name"] for p in euler["params"]] == ["implicit_damping"]
    assert euler["params"][0]["default"] == "true"
    assert by_name[("integrator", "rk4")]["capabilities"] == []
