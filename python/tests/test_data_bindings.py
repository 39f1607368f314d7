"""gauss.Data: the arrays are NumPy views of the C++ buffers (writes in Python are read by the
kernel, writes of the kernel show in views taken earlier), contacts as a structured view."""
import gc

import numpy as np
import pytest

import gauss


@pytest.fixture
def cartpole(models):
    engine = gauss.Engine(gauss.load_model(models / "cartpole.xml"))
    return engine, engine.make_data()


def address(a):
    return a.__array_interface__["data"][0]


def test_python_writes_are_read_by_the_kernel(cartpole):
    engine, d = cartpole
    d.qpos[:] = [0.3, 0.4]
    engine.forward(d)
    tip = np.array([0.3 + 0.6 * np.sin(0.4), 0.0, 0.6 * np.cos(0.4)])
    np.testing.assert_allclose(d.site_xpos[0], tip, rtol=0, atol=1e-14)
    np.testing.assert_allclose(d.sensordata[4:7], tip, rtol=0, atol=1e-14)
    assert d.sensordata[0] == 0.3 and d.sensordata[1] == 0.4  # jointpos sensors


def test_ctrl_drives_the_simulation(cartpole):
    engine, d = cartpole
    d.ctrl[0] = 0.5
    engine.forward(d)
    assert d.actuator_force[0] == 0.5            # motor: force = ctrl
    assert d.qfrc_actuator[0] == 5.0 and d.qfrc_actuator[1] == 0.0  # gear 10
    d.ctrl[0] = 3.0                              # clamped to ctrlrange [-1, 1]
    engine.forward(d)
    assert d.actuator_force[0] == 1.0 and d.qfrc_actuator[0] == 10.0
    x0 = d.qpos[0]
    engine.step(d, 20)
    assert d.qpos[0] > x0 + 0.01                 # pushed to +x


def test_kernel_writes_show_in_views_taken_before(cartpole):
    engine, d = cartpole
    qpos, time_before = d.qpos, d.time
    assert address(qpos) == address(d.qpos) and qpos is d.qpos
    d.qpos[1] = 0.1
    engine.step(d, 10)
    assert d.time > time_before
    assert qpos[1] != 0.1 and np.array_equal(qpos, d.qpos)
    assert not qpos.flags.owndata and qpos.flags.writeable


def test_attribute_assignment_copies_into_the_buffer(cartpole):
    engine, d = cartpole
    view = d.qvel
    d.qvel = [1.0, -2.0]
    assert view.tolist() == [1.0, -2.0] and address(d.qvel) == address(view)
    d.xfrc_applied = 0.0
    with pytest.raises(ValueError):
        d.qvel = [1.0, 2.0, 3.0]


def test_views_keep_the_data_alive(cartpole):
    engine, d = cartpole
    d.qpos[:] = [0.25, 0.5]
    q, x = d.qpos, d.xpos
    del d
    gc.collect()
    assert q.tolist() == [0.25, 0.5] and x.shape == (3, 3)


def test_data_and_views_are_collected(cartpole):
    import weakref
    engine, _ = cartpole
    d = engine.make_data()
    views = (d.qpos, d.xpos, d.ctrl)  # cached in the Data object
    ref = weakref.ref(d)
    del d
    gc.collect()
    assert ref() is None  # the views do not keep the Data object (only its buffers) alive
    assert views[0].shape == (2,)
    del views
    gc.collect()
    assert ref() is None


def test_contacts_and_constraint_rows(models):
    engine = gauss.Engine(gauss.load_model(models / "pile.xml"), jacobian="dense")
    d = engine.make_data()
    engine.step(d, 300)
    engine.forward(d)
    m = engine.model
    assert d.ncon > 0
    c = d.contact
    assert c.shape == (d.ncon,)
    assert {"dist", "pos", "frame", "geom1", "geom2", "dim", "efc_address"} <= set(c.dtype.names)
    normals = c["frame"][:, :3]
    np.testing.assert_allclose(np.linalg.norm(normals, axis=1), 1.0, atol=1e-12)
    assert np.all((c["geom1"] >= 0) & (c["geom1"] < m.ngeom) & (c["geom2"] < m.ngeom))
    assert np.all(np.isin(c["dim"], [1, 3, 4, 6]))
    assert d.efc_force.shape == (d.nefc,) and d.efc_KBIP.shape == (d.nefc, 4)
    # qfrc_constraint = J' f, computed here from the views of the kernel's buffers
    J = d.efc_J[: d.nefc * m.nv].reshape(d.nefc, m.nv)
    np.testing.assert_allclose(J.T @ d.efc_force, d.qfrc_constraint, rtol=0,
                               atol=1e-9 * max(1.0, np.abs(d.qfrc_constraint).max()))
    assert np.abs(d.qfrc_constraint).max() > 0.1  # the pile rests on its contacts
    assert address(d.contact) == address(d.contact)


def test_data_of_another_engine_is_refused(models):
    m = gauss.load_model(models / "cartpole.xml")
    e1, e2 = gauss.Engine(m), gauss.Engine(m)
    d = e1.make_data()
    with pytest.raises(ValueError, match="made by another Engine"):
        e2.step(d)


def test_copy_is_independent(cartpole):
    engine, d = cartpole
    d.qpos[1] = 0.1
    c = d.copy()
    engine.step(c, 5)
    assert d.time == 0.0 and d.qpos[1] == 0.1 and c.time > 0.0
    assert address(c.qpos) != address(d.qpos)


CAMERAS = """
<mujoco>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 1 0 0" size="0.05"/>
      <camera name="eye" pos="1 0 0" xyaxes="0 1 0 0 0 1" fovy="60" resolution="640 480"/>
      <camera name="follow" pos="1 0 0.5" mode="track"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_camera_poses_follow_their_mode():
    model = gauss.load_model(CAMERAS)
    assert model.ncam == 2 and model.camera_names == ["eye", "follow"]
    assert model.camera("follow").id == 1
    assert model.cam_fovy[0] == 60 and list(model.cam_resolution[0]) == [640, 480]
    assert list(model.cam_mode) == [0, 1]  # fixed, track
    engine = gauss.Engine(model)
    d = engine.make_data()
    d.qpos[0] = np.pi / 2
    engine.forward(d)
    # the fixed camera turns with the arm: at (0, 1, 1), its z axis (x_cam cross y_cam, along
    # the arm at qpos 0) now along +y, so it looks back at the hinge along -z_cam
    np.testing.assert_allclose(d.cam_xpos[0], [0, 1, 1], rtol=0, atol=1e-15)
    xmat = d.cam_xmat[0].reshape(3, 3)
    np.testing.assert_allclose(xmat[:, 2], [0, 1, 0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(xmat[:, 0], [-1, 0, 0], rtol=0, atol=1e-15)
    # the track camera keeps its qpos0 offset and orientation: (1, 0, 1.5), identity
    np.testing.assert_allclose(d.cam_xpos[1], [1, 0, 1.5], rtol=0, atol=1e-15)
    np.testing.assert_allclose(d.cam_xmat[1], np.eye(3).ravel(), rtol=0, atol=1e-15)
