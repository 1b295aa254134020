"""Driving a model from Python: sim.controls (MuJoCo's data.ctrl), controls in simulate and
rollouts, control derivatives, and bad controls refused."""

import numpy as np
import pytest

import ferrobody


@pytest.fixture
def panda(root):
    return ferrobody.load(root / "testdata" / "urdf" / "panda.urdf", actuators="motors")


def test_panda_motors_hold_the_neutral_pose_with_gravity_compensation(panda):
    assert panda.nctrl == 9 and panda.actuator_names[0] == "panda_joint1"
    assert panda.ctrl_index("panda_joint4") == 3
    dyn = ferrobody.Dynamics(panda)
    sim = ferrobody.Simulation(panda)
    q0 = sim.state.q.copy()
    zero = np.zeros(panda.nu)
    for k in range(1, 1001):
        sim.controls[:] = dyn.inverse_dynamics(sim.state.q, zero, zero)
        sim.advance_to(k * 1e-3)
    assert np.abs(sim.state.q - q0).max() < 1e-6
    falling = ferrobody.Simulation(panda)
    falling.advance_to(1.0)
    assert np.abs(falling.state.q - q0).max() > 0.1


def test_controls_are_held_between_calls_and_assignable(panda):
    sim = ferrobody.Simulation(panda)
    assert sim.controls.dtype == np.float64 and sim.controls.shape == (9,)
    sim.controls = np.full(9, 2.0)
    sim.advance_to(0.01)
    assert np.array_equal(sim.controls, np.full(9, 2.0))
    moved = sim.state.u.copy()
    again = ferrobody.Simulation(panda)
    again.controls[:] = 2.0
    for k in range(1, 11):
        again.advance_to(k * 1e-3)
    # The same held torques: the same motion, to the integrator's accuracy.
    assert np.allclose(again.state.u, moved, atol=1e-6)


def test_bad_controls_raise_value_errors_naming_the_problem(panda):
    sim = ferrobody.Simulation(panda)
    with pytest.raises(ValueError, match="controls: expected length 9, got 3"):
        sim.controls = np.zeros(3)
    with pytest.raises(ValueError, match="controls: expected a 1-D float64 numpy array"):
        sim.controls = np.zeros(9, dtype=np.int64)
    with pytest.raises(ValueError, match=r"controls\[2\] is NaN"):
        sim.controls = np.array([0, 0, np.nan, 0, 0, 0, 0, 0, 0], dtype=float)
    sim.controls[4] = np.inf
    with pytest.raises(ValueError, match=r"controls\[4\] is inf: controls must be finite"):
        sim.advance_to(0.01)
    with pytest.raises(ValueError, match="actuators: expected"):
        ferrobody.load(panda_file(), actuators="muscles")


def panda_file():
    import pathlib

    return pathlib.Path(__file__).resolve().parents[3] / "testdata" / "urdf" / "panda.urdf"


def test_simulate_takes_a_schedule_or_a_policy(panda):
    dyn = ferrobody.Dynamics(panda)
    zero = np.zeros(panda.nu)
    state = panda.default_state()
    hold = dyn.inverse_dynamics(state.q, zero, zero)
    schedule = np.tile(hold, (10, 1))
    run = ferrobody.simulate(panda, duration=0.1, report_interval=0.01, controls=schedule)
    assert abs(run["q:panda_joint2"][-1] - state.q[1]) < 1e-6
    calls = []

    def policy(s):
        calls.append(s.t)
        return dyn.inverse_dynamics(s.q, zero, zero)

    closed = ferrobody.simulate(panda, duration=0.1, report_interval=0.01, controls=policy)
    assert len(calls) == 10 and calls[0] == 0.0
    assert abs(closed["q:panda_joint2"][-1] - state.q[1]) < 1e-6
    with pytest.raises(ValueError, match="10 rows needed"):
        ferrobody.simulate(panda, duration=0.1, report_interval=0.01, controls=schedule[:4])

    def broken(s):
        raise KeyError("from the policy")

    with pytest.raises(KeyError, match="from the policy"):
        ferrobody.simulate(panda, duration=0.1, report_interval=0.01, controls=broken)


def test_rollouts_with_control_sequences_equal_single_runs(panda):
    rng = np.random.default_rng(3)
    controls = rng.uniform(-5.0, 5.0, size=(3, 5, 9))
    states = [panda.default_state() for _ in range(3)]
    runs = ferrobody.rollouts(panda, states, duration=0.05, report_interval=0.01, controls=controls)
    for i in range(3):
        one = ferrobody.simulate(panda, duration=0.05, report_interval=0.01, controls=controls[i])
        assert np.array_equal(runs["q"][i, :, 0], one["q:panda_joint1"])
    with pytest.raises(ValueError, match="expected shape"):
        ferrobody.rollouts(panda, states, duration=0.05, report_interval=0.01, controls=controls[:2])


def test_control_derivatives_match_central_differences(panda):
    dyn = ferrobody.Dynamics(panda)
    q = np.linspace(-0.3, 0.3, panda.nq)
    u = np.linspace(0.2, -0.2, panda.nu)
    ctrl = np.linspace(-3.0, 3.0, panda.nctrl)
    exact = dyn.control_derivatives(q, u, ctrl)
    h = 1e-6
    for k in range(panda.nctrl):
        up, down = ctrl.copy(), ctrl.copy()
        up[k] += h
        down[k] -= h
        fd = (dyn.forward_dynamics(q, u, ctrl=up) - dyn.forward_dynamics(q, u, ctrl=down)) / (2 * h)
        assert np.allclose(exact[:, k], fd, atol=1e-6 * max(1.0, np.abs(fd).max()))
    state = panda.default_state()
    x, dx, dp, dc = ferrobody.step_jacobian(panda, state, 1e-3, integrator="rk4", controls=ctrl)
    assert dc.shape == (panda.nq + panda.nu, 9)

    def step(c):
        sim = ferrobody.Simulation(panda, state, integrator="rk4", fixed_step=1e-3)
        sim.controls = c
        sim.advance_to(1e-3)
        s = sim.state
        return np.concatenate([s.q, s.u])

    for k in (0, 6):
        up, down = ctrl.copy(), ctrl.copy()
        up[k] += h
        down[k] -= h
        fd = (step(up) - step(down)) / (2 * h)
        assert np.allclose(dc[:, k], fd, atol=1e-8)


def test_the_controls_example_of_docs_python_md_runs(root, monkeypatch):
    text = (root / "docs" / "python.md").read_text()
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    (example,) = [b for b in blocks if 'actuators="motors"' in b]
    monkeypatch.chdir(root)
    scope = {"ferrobody": ferrobody}
    exec(compile(example, "docs/python.md", "exec"), scope)
    assert abs(scope["sim"].state.q[3]) < 1e-6
    assert scope["dx_dctrl"].shape == (18, 9)
