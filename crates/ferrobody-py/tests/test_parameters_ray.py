"""Parameters by force name on model copies, and the Ray sweep example on a local Ray."""

import pathlib
import pickle
import runpy

import numpy as np
import pytest

import ferrobody


def test_with_parameter_changes_a_copy(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    assert m.force_names[-1] == "contact"
    stiff = m.with_parameter("contact", "stiffness", 1e7)
    assert stiff.parameter("contact", "stiffness") == 1e7
    assert m.parameter("contact", "stiffness") == 1e6, "the original is unchanged"
    a = ferrobody.simulate(m, duration=0.5)["ball.py"]
    b = ferrobody.simulate(stiff, duration=0.5)["ball.py"]
    assert not np.array_equal(a, b)
    # Pickling keeps the change.
    again = pickle.loads(pickle.dumps(stiff))
    assert again.parameter("contact", "stiffness") == 1e7
    assert np.array_equal(ferrobody.simulate(again, duration=0.5)["ball.py"], b)


def test_bad_parameters_raise_value_errors(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    with pytest.raises(ValueError, match="no force named 'nope'"):
        m.with_parameter("nope", "stiffness", 1.0)
    with pytest.raises(ValueError, match="no such parameter"):
        m.with_parameter("contact", "mass", 1.0)
    with pytest.raises(ValueError, match="must be finite"):
        m.with_parameter("contact", "stiffness", float("inf"))
    with pytest.raises(ValueError, match="transition_velocity: must be positive"):
        m.with_parameter("contact", "transition_velocity", 0.0)


def test_ray_sweep_example_on_a_local_ray_with_2_cpus():
    pytest.importorskip("ray")
    example = pathlib.Path(__file__).resolve().parents[3] / "examples" / "python" / "sweep_ray.py"
    module = runpy.run_path(str(example))
    table = module["main"](["--cpus", "2", "--tasks", "4", "--duration", "0.3"])
    assert len(table) == len(module["STIFFNESSES"]) * len(module["FRICTIONS"])
    model = ferrobody.load(module["SCENE"])
    for (k, c), x in list(table.items())[:3]:
        local = module["run_pair"](model, k, c, 0.3)
        assert np.array_equal(x, local), "a Ray task gives what a local call gives, bit for bit"
    spins_differ = [not np.allclose(x[0], x[-1]) for x in table.values()]
    assert any(spins_differ), "spin and friction move the ball: the sweep measures something"
