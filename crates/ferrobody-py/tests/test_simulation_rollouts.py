"""Simulation stepping and rollouts: same results as simulate, serial = parallel bit for bit."""

import numpy as np
import pytest

import ferrobody


@pytest.fixture
def s1(scenes):
    return ferrobody.load(scenes / "s1_hc_ball.toml")


def test_advance_in_pieces_follows_one_long_run(s1):
    whole = ferrobody.simulate(s1, duration=0.5, report_interval=0.5)
    sim = ferrobody.Simulation(s1)
    for k in range(1, 51):
        sim.advance_to(0.01 * k)
    # Reports are interpolated between steps while advance_to ends on a step: compare at the
    # integrator's accuracy (1e-6 relative in s1), not bit for bit.
    assert sim.t == 0.5
    assert abs(sim.state.q[5] - whole["ball.py"][-1]) < 1e-5
    stats = sim.stats
    assert stats["steps_taken"] > 0 and stats["realizations"] > stats["steps_taken"]
    assert stats["jacobians"] == 0 and stats["newton_matrices"] == 0


def test_the_implicit_method_counts_its_jacobians(s1):
    sim = ferrobody.Simulation(s1, integrator="implicit")
    sim.advance_to(0.2)
    stats = sim.stats
    assert stats["jacobians"] >= 1
    assert stats["newton_matrices"] >= stats["jacobians"]


def test_simulation_options_and_errors(s1):
    sim = ferrobody.Simulation(s1, s1.default_state(), integrator="rk4", fixed_step=1e-4)
    sim.advance_to(0.01)
    assert sim.stats["steps_taken"] == 100
    sim.step(1.0)
    assert sim.t == pytest.approx(0.0101)
    with pytest.raises(ValueError, match="unknown method"):
        ferrobody.Simulation(s1, integrator="nope")
    with pytest.raises(RuntimeError, match="not after the current time"):
        sim.step(0.0)


def starts(model, n):
    states = []
    for k in range(n):
        s = model.default_state()
        s.q[5] += 0.002 * k
        s.u[3] = 0.1 * k
        states.append(s)
    return states


def test_rollouts_equal_serial_runs_bitwise(s1):
    states = starts(s1, 64)
    parallel = ferrobody.rollouts(s1, states, duration=0.4, report_interval=0.02, threads=2)
    assert parallel["q"].shape == (64, 21, 7) and parallel["position"].shape == (64, 21, 2, 3)
    assert parallel["ok"].all() and all(e is None for e in parallel["error"])
    serial = ferrobody.rollouts(s1, states, duration=0.4, report_interval=0.02, threads=1)
    for key in ["t", "q", "u", "position", "quaternion", "velocity", "ke", "pe", "energy"]:
        assert np.array_equal(parallel[key], serial[key]), key
    for k in [0, 17, 63]:
        alone = ferrobody.simulate(s1, states[k], duration=0.4, report_interval=0.02)
        assert np.array_equal(alone["ball.py"], parallel["position"][k, :, s1.body_index("ball"), 1])
        assert np.array_equal(alone["u:ball.vx"], parallel["u"][k, :, 3])


def test_rollouts_report_failures_per_run(s1):
    states = starts(s1, 3)
    out = ferrobody.rollouts(s1, states, duration=1.0, accuracy=1e-300)
    assert not out["ok"].any()
    assert all("step" in e for e in out["error"])
    assert np.isnan(out["q"][:, -1]).all(), "rows after a failure are NaN"


def test_bad_input_raises_clear_exceptions(s1, scenes, tmp_path):
    s = s1.default_state()
    with pytest.raises(ValueError, match=r"state.q: expected length 7, got 3"):
        s.q = np.zeros(3)
    with pytest.raises(ValueError, match="float64"):
        s.q = np.zeros(7, dtype=np.int64)
    with pytest.raises(ValueError, match=r"state.t is NaN"):
        s.t = float("nan")
    s.q[2] = np.nan
    with pytest.raises(ValueError, match=r"state.q\[2\] is NaN"):
        ferrobody.simulate(s1, s)
    with pytest.raises(ValueError, match=r"states\[1\]"):
        ferrobody.rollouts(s1, [s1.default_state(), s], duration=0.1)
    with pytest.raises(ValueError, match="expected a ferrobody.State"):
        ferrobody.rollouts(s1, [1, 2], duration=0.1)
    with pytest.raises(FileNotFoundError, match="no_such.toml"):
        ferrobody.load(tmp_path / "no_such.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[simulation]\nduration = -1\n")
    with pytest.raises(ValueError, match="bad.toml: simulation.duration"):
        ferrobody.load(bad)
    other = ferrobody.load(scenes / "s6_chain_contact.toml")
    with pytest.raises(ValueError, match="made for a model with nq=7"):
        ferrobody.simulate(other, s1.default_state())
    with pytest.raises(ValueError, match="report_interval"):
        ferrobody.simulate(s1, duration=1.0, report_interval=-1.0)


def test_mesh_against_mesh_rollouts_equal_serial_runs(scenes):
    # The ball mesh on the slab mesh: each worker thread keeps its own mesh-contact scratch
    # (face classes, flood stack), so parallel runs are the serial ones bit for bit, and a
    # pickled model (meshes included) runs the same.
    import pickle

    model = ferrobody.load(scenes / "ball_on_slab_meshes.toml")
    states = []
    for k in range(4):
        s = model.default_state()
        s.u[3] = 0.3 + 0.1 * k
        states.append(s)
    parallel = ferrobody.rollouts(model, states, duration=0.15, report_interval=0.05, threads=2)
    serial = ferrobody.rollouts(model, states, duration=0.15, report_interval=0.05, threads=1)
    assert parallel["ok"].all()
    assert np.array_equal(parallel["q"], serial["q"])
    assert not np.array_equal(parallel["q"][0], parallel["q"][3]), "the starts differ"
    again = pickle.loads(pickle.dumps(model))
    alone = ferrobody.simulate(again, states[2], duration=0.15, report_interval=0.05)
    assert np.array_equal(alone["ball.py"], parallel["position"][2, :, model.body_index("ball"), 1])
