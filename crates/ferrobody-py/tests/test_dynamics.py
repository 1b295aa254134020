"""ferrobody.Dynamics: forward and inverse dynamics, the mass matrix and the Jacobians of
forward dynamics, checked against Pinocchio's stored results (UR5, fixed base: the same
coordinates as Pinocchio's) and against finite differences."""

import json
import pathlib

import numpy as np
import pytest

import ferrobody

ROOT = pathlib.Path(__file__).resolve().parents[3]
UR5 = ROOT / "testdata" / "urdf" / "ur5.urdf"


@pytest.fixture(scope="module")
def ur5():
    model = ferrobody.load(UR5)
    reference = json.loads(UR5.with_suffix(".json").read_text())
    return model, reference


def relative(a, b):
    return np.max(np.abs(np.asarray(a) - np.asarray(b))) / max(np.max(np.abs(b)), 1.0)


def test_forward_inverse_dynamics_and_mass_matrix_match_pinocchio(ur5):
    model, reference = ur5
    dyn = ferrobody.Dynamics(model)
    for s in reference["states"]:
        q, v = np.array(s["q"]), np.array(s["v"])
        # Same tolerance as the Rust test (tests/urdf_robots.rs): 1e-10 relative.
        assert relative(dyn.forward_dynamics(q, v, np.array(s["tau"])), s["aba"]) < 1e-10
        assert relative(dyn.inverse_dynamics(q, v, np.array(s["a"])), s["rnea"]) < 1e-10
        assert relative(dyn.mass_matrix(q), np.array(s["M"])) < 1e-10


def test_jacobians_match_central_differences(ur5):
    model, reference = ur5
    dyn = ferrobody.Dynamics(model)
    s = reference["states"][0]
    q, u, tau = np.array(s["q"]), np.array(s["v"]), np.array(s["tau"])
    udot, dq, du, dtau = dyn.forward_dynamics_derivatives(q, u, tau)
    assert dq.shape == (model.nu, model.nq) and du.shape == dtau.shape == (model.nu, model.nu)
    assert np.allclose(udot, dyn.forward_dynamics(q, u, tau), rtol=1e-14, atol=1e-12)
    for x, jacobian, h in [(q, dq, 1e-6), (u, du, 1e-6), (tau, dtau, 1.0)]:
        fd = np.empty_like(jacobian)
        for i in range(len(x)):
            plus, minus = x.copy(), x.copy()
            plus[i] += h
            minus[i] -= h
            args = [(plus if x is y else y) for y in (q, u, tau)], [(minus if x is y else y) for y in (q, u, tau)]
            fd[:, i] = (dyn.forward_dynamics(*args[0]) - dyn.forward_dynamics(*args[1])) / (2 * h)
        # Central differences: O(h²) + O(ε/h), about 1e-9 relative here; the API is exact.
        assert relative(jacobian, fd) < 1e-6
    assert relative(dtau @ dyn.mass_matrix(q), np.eye(model.nu)) < 1e-12


def test_the_model_forces_count(ur5):
    # Gravity is a force of the model: at rest without torques the arm falls, and the
    # torques that hold it still are the gravity torques, RNEA at zero acceleration.
    model, _ = ur5
    dyn = ferrobody.Dynamics(model)
    q, zero = np.full(model.nq, 0.3), np.zeros(model.nu)
    hold = dyn.inverse_dynamics(q, zero, zero)
    assert np.max(np.abs(dyn.forward_dynamics(q, zero))) > 1.0
    assert np.max(np.abs(dyn.forward_dynamics(q, zero, hold))) < 1e-12


def test_bad_arrays_raise_value_errors(ur5):
    model, _ = ur5
    dyn = ferrobody.Dynamics(model)
    q, u = np.zeros(model.nq), np.zeros(model.nu)
    with pytest.raises(ValueError, match="q: expected length 6, got 5"):
        dyn.forward_dynamics(np.zeros(5), u)
    with pytest.raises(ValueError, match=r"u\[2\] is NaN: must be finite"):
        bad = u.copy()
        bad[2] = np.nan
        dyn.forward_dynamics(q, bad)
    with pytest.raises(ValueError, match="tau: expected a 1-D float64 numpy array of length 6"):
        dyn.forward_dynamics(q, u, np.zeros(6, dtype=np.int64))
    with pytest.raises(ValueError, match="udot: expected a 1-D float64 numpy array of length 6"):
        dyn.inverse_dynamics(q, u, np.zeros((6, 1)))
    assert repr(dyn) == "ferrobody.Dynamics(nq=6, nu=6)"


def test_step_jacobian_matches_central_differences():
    # The s1 ball pressed 5 mm into the ground and sliding: contact and friction act in the step.
    model = ferrobody.load(ROOT / "examples" / "scenes" / "s1_hc_ball.toml")
    state = model.default_state()
    state.q[:] = [1.0, 0.0, 0.0, 0.0, 0.0, 0.095, 0.0]
    state.u[:] = [0.0, 0.0, 1.0, 1.0, -0.5, 0.0]
    h, pairs = 1e-3, [("contact", "stiffness"), ("contact", "dissipation")]
    x, dx, dp, dc = ferrobody.step_jacobian(model, state, h, pairs, integrator="rk4")
    assert dc.shape == (len(x), 0), "no actuators, no control columns"
    ny = model.nq + model.nu + model.nz
    assert x.shape == (ny,) and dx.shape == (ny, ny) and dp.shape == (ny, 2)

    def step(s, m=model):
        sim = ferrobody.Simulation(m, s, integrator="rk4", fixed_step=h)
        sim.advance_to(h)
        end = sim.state
        return np.concatenate([end.q, end.u, end.z])

    assert np.allclose(x, step(state), rtol=1e-13, atol=1e-15)
    for i in range(model.nq + model.nu):
        plus, minus = state.copy(), state.copy()
        arrays = (plus.q, minus.q) if i < model.nq else (plus.u, minus.u)
        k = i if i < model.nq else i - model.nq
        eps = 1e-7
        arrays[0][k] += eps
        arrays[1][k] -= eps
        fd = (step(plus) - step(minus)) / (2 * eps)
        # Central differences: O(eps²) + O(1e-16/eps); relative to the column's scale.
        assert np.max(np.abs(dx[:, i] - fd)) <= 1e-6 * max(np.max(np.abs(fd)), 1.0), i
    for j, (force, parameter) in enumerate(pairs):
        value = model.parameter(force, parameter)
        eps = 1e-6 * value
        fd = (step(state, model.with_parameter(force, parameter, value + eps))
              - step(state, model.with_parameter(force, parameter, value - eps))) / (2 * eps)
        assert np.max(np.abs(dp[:, j] - fd)) <= 1e-6 * max(np.max(np.abs(fd)), 1e-12), parameter
    assert np.max(np.abs(dp[:, 0])) > 0.0
    with pytest.raises(ValueError, match="no force named 'floor'"):
        ferrobody.step_jacobian(model, state, h, [("floor", "stiffness")])
    with pytest.raises(ValueError, match="step size must be positive and finite"):
        ferrobody.step_jacobian(model, state, -1.0)
