"""gauss.Model: loading from a file or from text, sizes, names <-> ids, read-only array views."""
import numpy as np
import pytest

import gauss


def test_file_and_string_compile_to_the_same_model(models):
    path = models / "cartpole.xml"
    from_file = gauss.load_model(str(path))
    from_text = gauss.load_model(path.read_text())
    from_pathlike = gauss.load_model(path)
    assert from_file.source_file == str(path)
    assert from_text.source_file == ""
    for name in ("body_pos", "body_mass", "jnt_range", "actuator_gear", "dof_damping",
                 "sensor_adr", "key_qpos", "qpos0"):
        np.testing.assert_array_equal(getattr(from_file, name), getattr(from_text, name))
        np.testing.assert_array_equal(getattr(from_file, name), getattr(from_pathlike, name))


def test_sizes_shapes_and_values(models):
    m = gauss.load_model(models / "cartpole.xml")
    assert (m.nq, m.nv, m.nu, m.nbody, m.njnt, m.nsensor, m.nsensordata, m.nkey) == (2, 2, 1, 3, 2, 5, 7, 1)
    assert m.body_pos.shape == (3, 3)
    assert m.jnt_range.shape == (2, 2)
    assert m.actuator_gear.shape == (1, 6)
    assert m.key_qpos.shape == (1, 2)
    np.testing.assert_array_equal(m.jnt_range[0], [-1.4, 1.4])
    assert m.actuator_gear[0, 0] == 10.0
    np.testing.assert_array_equal(m.key_qpos[0], [0.0, 0.2])
    assert m.body_mass[1] == 1.0
    assert m.jnt_type.dtype == np.int32 and list(m.jnt_type) == [2, 3]  # slide, hinge
    assert m.opt["integrator"] == "rk4" and m.opt["timestep"] == 0.01
    assert m.sensor_types == ["jointpos", "jointpos", "jointvel", "jointvel", "framepos"]


def test_arrays_are_read_only_views_of_one_buffer(models):
    m = gauss.load_model(models / "cartpole.xml")
    a, b = m.body_pos, m.body_pos
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    assert not a.flags.writeable and not a.flags.owndata
    with pytest.raises(ValueError):
        a[0, 0] = 1.0
    del m  # the view keeps the model alive
    assert a.shape == (3, 3) and a[1].tolist() == [0.0, 0.0, 0.0]


def test_names_and_ids(models):
    m = gauss.load_model(models / "cartpole.xml")
    assert m.body_names == ["world", "cart", "pole"]
    assert m.joint_names == ["slider", "hinge"]
    assert m.body("pole").id == 2
    assert m.joint("hinge") == gauss.Element("joint", 1, "hinge")
    assert m.actuator("push").id == 0
    assert m.sensor("tip_pos").id == 4
    assert m.site(0).name == "tip"
    assert m.key("tilted").id == 0
    assert m.jnt_qposadr[m.joint("hinge").id] == 1
    with pytest.raises(KeyError, match="no body named 'torso'.*world, cart, pole"):
        m.body("torso")
    with pytest.raises(IndexError, match="joint id 5 out of range"):
        m.joint(5)


def test_engine_model_has_the_configuration_applied(models):
    m = gauss.load_model(models / "cartpole.xml")
    e = gauss.Engine(m, integrator="euler", timestep=0.002, solver="pgs")
    assert e.model.opt["integrator"] == "euler"
    assert e.model.opt["timestep"] == 0.002
    assert e.model.opt["solver"] == "pgs"
    assert m.opt["integrator"] == "rk4"  # the loaded model is unchanged


def test_height_field_arrays_and_names(repo):
    m = gauss.load_model(repo / "tests" / "models" / "hfield_inline.xml")
    assert (m.nhfield, m.nhfielddata) == (2, 5 * 6 + 15 * 21)
    assert m.hfield_names == ["steps", "rgb"]
    assert m.hfield("rgb").id == 1
    assert m.hfield_size.shape == (2, 4)
    np.testing.assert_array_equal(m.hfield_size[0], [1, 0.8, 0.3, 0.1])
    assert list(m.hfield_nrow) == [5, 15] and list(m.hfield_ncol) == [6, 21]
    # inline elevations: the first written row "0 1 2 3 4 5" is the last grid row, scaled by 6
    steps = m.hfield_data[m.hfield_adr[0]:m.hfield_adr[0] + 30].reshape(5, 6)
    np.testing.assert_allclose(steps[4], np.array([0, 1, 2, 3, 4, 5]) / 6, rtol=1e-7)
    assert steps.min() == 0 and steps.max() == 1
