"""gauss.Model: loading from a file or from text, sizes, names <-> ids, read-only array views."""
import re

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
    assert list(m.sensor_datatype) == [0] * 5 and m.sensor_plugin_configs == [{}] * 5  # real


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


# Model fields reached under another Python name (lists of strings and the options).
_RENAMED = {"name": "name", "source_file": "source_file", "opt": "opt",
            "sensor_type": "sensor_types", "actuator_plugin": "actuator_plugins",
            "sensor_plugin": "sensor_plugins", "sensor_plugin_config": "sensor_plugin_configs",
            "mat_name": "material_names", "cam_name": "camera_names",
            "jnt_name": "joint_names"}


def test_every_model_field_is_reachable(repo):
    # The field list the ABI fingerprint is built from (scripts/gen_abi_fields.py): a field
    # added to gauss::Model without a binding fails here.
    text = (repo / "core" / "include" / "gauss" / "abi_fields.h").read_text()
    block = re.search(r"#define GAUSS_ABI_FIELDS_Model\(X\)(.*?)\n\n", text, re.S).group(1)
    fields = re.findall(r"X\(Model, (\w+)\)", block)
    assert len(fields) > 200
    m = gauss.load_model(repo / "tests" / "models" / "compile_skin.xml")
    missing = []
    for f in fields:
        name = _RENAMED.get(f) or (f[:-len("_name")] + "_names" if f.endswith("_name") else f)
        if not hasattr(m, name):
            missing.append(f)
    assert missing == []


def test_material_and_skin_arrays_and_names(repo):
    m = gauss.load_model(repo / "tests" / "models" / "compile_skin.xml")
    assert (m.nmat, m.nskin) == (3, 3)
    assert m.material_names == ["sleeve_red", "blue", "yellow"]
    assert m.skin_names == ["sleeve", "tag", "knob"]
    assert m.skin("knob").id == 2 and m.material("yellow").id == 2
    np.testing.assert_array_equal(m.mat_rgba[0], [0.9, 0.1, 0.1, 1])  # from its default class
    assert list(m.geom_matid) == [1, 2, 1, 0]
    assert list(m.site_matid) == [2, -1]
    assert list(m.skin_matid) == [0, -1, -1]
    assert list(m.skin_vertnum) == [12, 4, 4] and list(m.skin_facenum) == [20, 4, 4]
    assert m.skin_vert.shape == (m.nskinvert, 3) and m.skin_face.shape == (m.nskinface, 3)
    np.testing.assert_allclose(m.skin_vert[0], [0, -0.08, 0.92], rtol=1e-7)  # float, as MuJoCo
    assert abs(m.skin_inflate[0] - 0.01) < 1e-9
    assert list(m.skin_bonenum) == [2, 1, 1]
    # the sleeve's bones: upper (id 1) then lower (id 2), 8 vertices each
    assert list(m.skin_bonebodyid[:2]) == [1, 2] and list(m.skin_bonevertnum[:2]) == [8, 8]
    # the knob's bind orientation is normalized by the compiler (stored as float, as MuJoCo)
    q = m.skin_bonebindquat[m.skin_boneadr[2]]
    np.testing.assert_allclose(q, np.array([1.8, 0.2, 0.6, 0.4]) / np.sqrt(3.8), rtol=1e-7)


def test_actuator_groups_and_disabled_groups(repo):
    # MuJoCo 3.x option actuatorgroupdisable="3 1 30": one bit per disabled group
    m = gauss.load_model(repo / "tests" / "models" / "mjcf3" / "actgroup.xml")
    assert list(m.actuator_group) == [0, 1, 3, 31, -1, 2, 3, 2, 30, 0]
    assert m.opt["disableactuator"] == (1 << 1) | (1 << 3) | (1 << 30)
