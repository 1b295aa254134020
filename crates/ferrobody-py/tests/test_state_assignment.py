"""Simulation.state (issue 42): `sim.state = s` restarts from s; a write through the snapshot
`sim.state` raises instead of being silently lost."""

import numpy as np
import pytest

import ferrobody


@pytest.fixture
def s1(scenes):
    return ferrobody.load(scenes / "s1_hc_ball.toml")


def test_writes_through_the_snapshot_raise(s1):
    sim = ferrobody.Simulation(s1)
    with pytest.raises(ValueError, match="read-only"):
        sim.state.q[5] = 2.0
    with pytest.raises(AttributeError, match=r"sim.state = s"):
        sim.state.t = 1.0
    with pytest.raises(AttributeError, match=r"sim.state = s"):
        sim.state.u = np.zeros(6)
    assert sim.state.q[5] == s1.default_state().q[5]
    # A copy is the user's own: writable.
    s = sim.state.copy()
    s.q[5] = 2.0
    assert s.q[5] == 2.0


def test_assigning_a_state_restarts_from_it(s1):
    sim = ferrobody.Simulation(s1)
    sim.advance_to(0.1)
    s = sim.state.copy()
    s.q[5] = 2.0  # the ball 2 m up, at rest: a free fall from t = 0.1
    s.u[:] = 0.0
    sim.state = s
    assert sim.t == pytest.approx(0.1) and sim.state.q[5] == 2.0
    sim.advance_to(0.3)
    fall = 0.5 * 9.81 * 0.2**2
    assert sim.state.q[5] == pytest.approx(2.0 - fall, rel=1e-6)
    # The same as a fresh simulation from that state.
    fresh = ferrobody.Simulation(s1, state=s)
    fresh.advance_to(0.3)
    assert sim.state.q[5] == pytest.approx(fresh.state.q[5], rel=1e-9)


def test_assigning_a_bad_state_raises_and_keeps_the_old_one(s1):
    sim = ferrobody.Simulation(s1)
    s = sim.state.copy()
    s.q[3] = np.nan
    with pytest.raises(ValueError, match="finite"):
        sim.state = s
    assert np.isfinite(sim.state.q).all()
