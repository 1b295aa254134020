"""Locked coordinates of OpenSim models from Python (issue 39): a coordinate the file locks
stays where it is, and unlocking it in a state lets it move; locking holds it again."""

import ferrobody
import pytest


def test_locked_coordinates_can_be_unlocked_and_locked(root):
    model = ferrobody.load(root / "testdata" / "opensim" / "models" / "leg39.osim")
    assert "pelvis_tilt" in model.lockable_coordinates
    state = model.default_state()
    assert model.is_locked(state, "pelvis_tilt")
    held = ferrobody.simulate(model, state, duration=0.1, report_interval=0.05)
    assert max(abs(x - held["q:pelvis_tilt"][0]) for x in held["q:pelvis_tilt"]) < 1e-9

    model.unlock(state, "pelvis_tilt")
    assert not model.is_locked(state, "pelvis_tilt")
    free = ferrobody.simulate(model, state, duration=0.1, report_interval=0.05)
    assert abs(free["q:pelvis_tilt"][-1] - free["q:pelvis_tilt"][0]) > 1e-4

    model.lock(state, "pelvis_tilt")
    assert model.is_locked(state, "pelvis_tilt")

    with pytest.raises(KeyError, match="no lockable coordinate named 'knee_angle_r'"):
        model.lock(state, "knee_angle_r")
