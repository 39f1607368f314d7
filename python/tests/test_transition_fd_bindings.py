"""gauss.TransitionFD: the Jacobians of one step against finite differences computed in Python
with engine.step on copies of the Data (cartpole: slide + hinge joints, so the position tangent
is the plain qpos difference; joint limits and 7 sensors)."""
import numpy as np
import pytest

import gauss


def python_fd(engine, d, eps, centered):
    """(A, B, C, D) by perturbing copies of d in Python: x = (qpos, qvel, act), u = ctrl."""
    m = engine.model
    nv, na, nu, ns = m.nv, m.na, m.nu, m.nsensordata

    def step_from(perturb):
        c = d.copy()
        perturb(c)
        engine.step(c)
        return np.concatenate([c.qpos, c.qvel, c.act]), c.sensordata.copy()

    def column(field, index):
        def moved(delta):
            def perturb(c):
                getattr(c, field)[index] += delta
            return step_from(perturb)
        if centered:
            (xp, sp), (xm, sm) = moved(eps), moved(-eps)
            return (xp - xm) / (2 * eps), (sp - sm) / (2 * eps)
        (xp, sp), (x0, s0) = moved(eps), step_from(lambda c: None)
        return (xp - x0) / eps, (sp - s0) / eps

    nx = 2 * nv + na
    A, B = np.zeros((nx, nx)), np.zeros((nx, nu))
    C, D = np.zeros((ns, nx)), np.zeros((ns, nu))
    inputs = [("qpos", j) for j in range(nv)] + [("qvel", j) for j in range(nv)] + \
             [("act", j) for j in range(na)]
    for col, (field, j) in enumerate(inputs):
        A[:, col], C[:, col] = column(field, j)
    for j in range(nu):
        B[:, j], D[:, j] = column("ctrl", j)
    return A, B, C, D


def nominal_data(engine):
    d = engine.make_data()
    d.qpos[:] = [0.2, 0.4]
    d.qvel[:] = [-0.3, 1.1]
    d.ctrl[:] = [0.3]
    return d


@pytest.mark.parametrize("integrator", ["euler", "implicitfast", "rk4"])
@pytest.mark.parametrize("centered", [False, True])
def test_matches_python_finite_differences(models, integrator, centered):
    engine = gauss.Engine(gauss.load_model(str(models / "cartpole.xml")), integrator=integrator)
    d = nominal_data(engine)
    before = engine.get_state(d)
    fd = gauss.TransitionFD(engine, eps=1e-6, centered=centered)
    A, B, C, D = fd.compute(d)
    m = engine.model
    nx = 2 * m.nv + m.na
    assert A.shape == (nx, nx) and B.shape == (nx, m.nu)
    assert C.shape == (m.nsensordata, nx) and D.shape == (m.nsensordata, m.nu)
    assert np.array_equal(engine.get_state(d), before)  # d is only read
    for got, want in zip((A, B, C, D), python_fd(engine, d, 1e-6, centered)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6 * np.abs(want).max())
    # the dynamics are not trivial: the pole couples to the cart, the motor drives it
    assert abs(A[nx - 1, 1]) > 0 and abs(B[m.nv, 0]) > 0


def test_threads_give_the_serial_matrices(models):
    engine = gauss.Engine(gauss.load_model(str(models / "cartpole.xml")))
    d = nominal_data(engine)
    serial = gauss.TransitionFD(engine, threads=1).compute(d)
    parallel = gauss.TransitionFD(engine, threads=2).compute(d)
    for a, b in zip(serial, parallel):
        assert np.array_equal(a, b)


def test_rejects_a_data_of_another_engine_and_bad_eps(models):
    model = gauss.load_model(str(models / "cartpole.xml"))
    engine, other = gauss.Engine(model), gauss.Engine(model)
    with pytest.raises(ValueError, match="made by another Engine"):
        gauss.TransitionFD(engine).compute(other.make_data())
    with pytest.raises(ValueError, match="eps must be > 0"):
        gauss.TransitionFD(engine, eps=0.0)
