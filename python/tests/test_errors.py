"""Errors: gauss::Error arrives as gauss.Error (a ValueError) with the message the command line
prints, and the location (file, line, element, attribute) as attributes."""
import subprocess

import pytest

import gauss

BAD_AXIS = """<mujoco model="bad">
  <worldbody>
    <body name="b">
      <joint type="hinge" axis="0 1"/>
      <geom type="sphere" size="0.1"/>
    </body>
  </worldbody>
</mujoco>
"""


def cli_error(gauss_cli, *args):
    """The error message `gauss run` prints for these arguments (status 1)."""
    run = subprocess.run([gauss_cli, "run", *args, "--steps", "1"], capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    prefix = "gauss run: error: "
    assert run.stderr.startswith(prefix), run.stderr
    return run.stderr[len(prefix):].rstrip("\n")


def test_model_error_from_a_file_matches_the_cli(tmp_path, gauss_cli):
    path = tmp_path / "bad.xml"
    path.write_text(BAD_AXIS)
    with pytest.raises(gauss.Error) as caught:
        gauss.load_model(str(path))
    e = caught.value
    assert isinstance(e, ValueError)
    assert (e.file, e.line, e.element, e.attribute) == (str(path), 4, "joint", "axis")
    assert str(e) == cli_error(gauss_cli, str(path))
    assert "expected 3 values, found 2" in str(e)


def test_model_error_from_a_string_names_the_line():
    with pytest.raises(gauss.Error) as caught:
        gauss.load_model(BAD_AXIS)
    assert (caught.value.file, caught.value.line, caught.value.element) == ("<string>", 4, "joint")
    assert str(caught.value).startswith("<string>:4: element 'joint', attribute 'axis'")


def test_malformed_xml_and_missing_file():
    with pytest.raises(gauss.Error, match="<string>"):
        gauss.load_model("<mujoco><worldbody></mujoco>")
    with pytest.raises(gauss.Error, match="no_such_model.xml"):
        gauss.load_model("no_such_model.xml")


def test_config_file_error_matches_the_cli(tmp_path, models, gauss_cli):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("solver:\n  name: pgs\n  iters: 3\n")
    model = gauss.load_model(models / "pendulum.xml")
    with pytest.raises(gauss.Error) as caught:
        gauss.Engine(model, str(cfg))
    assert (caught.value.file, caught.value.line) == (str(cfg), 3)
    assert str(caught.value) == cli_error(gauss_cli, str(models / "pendulum.xml"), "--config", str(cfg))


def test_config_dict_and_set_key_errors(models):
    model = gauss.load_model(models / "pendulum.xml")
    with pytest.raises(gauss.Error, match="element 'solver.iters': unknown key; valid keys in 'solver'"):
        gauss.Engine(model, {"solver": {"name": "pgs", "iters": 3}})
    with pytest.raises(gauss.Error, match="expected a number, got 'abc'"):
        gauss.Engine(model, timestep="abc")
    with pytest.raises(gauss.Error, match="cone"):
        gauss.Engine(model, cone="round")


def test_unknown_plugin_matches_the_cli(models, gauss_cli):
    model = gauss.load_model(models / "pendulum.xml")
    with pytest.raises(gauss.Error) as caught:
        gauss.Engine(model, solver="nosuch")
    expected = cli_error(gauss_cli, str(models / "pendulum.xml"), "--set", "solver=nosuch")
    assert str(caught.value) == expected
    assert str(caught.value).startswith("no solver plugin named 'nosuch'")


def test_bad_arguments_are_python_errors(models):
    model = gauss.load_model(models / "cartpole.xml")
    engine = gauss.Engine(model)
    d = engine.make_data()
    with pytest.raises(ValueError, match="n must be >= 0"):
        engine.step(d, -1)
    with pytest.raises(KeyError, match="no keyframe named 'upright'.*tilted"):
        engine.reset_to_keyframe(d, "upright")
    with pytest.raises(IndexError, match="keyframe 3 out of range"):
        engine.reset_to_keyframe(d, 3)
    with pytest.raises(TypeError):
        engine.step("not a data")
    with pytest.raises(TypeError, match="gauss.load_model"):
        gauss.Engine(str(model.source_file))
