"""ferrobody.optimize: Moco's problems from Python, as a file and as a dict (issue 40)."""

import pathlib
import tomllib

import numpy as np
import pytest

import ferrobody

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "examples" / "optimal-control"


def test_sliding_mass_from_its_file():
    s = ferrobody.optimize(EXAMPLES / "sliding_mass.toml")
    assert s.success and s.status == "Solve_Succeeded"
    # Moco 4.6 on the same mesh: 0.4001073436 s (../shared/reference/moco).
    assert abs(s.objective - 0.4001073436) < 1e-3 * 0.4
    assert s.states.shape == (101, 2) and s.controls.shape == (101, 1)
    assert s.column("/slider/position/value")[-1] == 1.0
    assert s.final_time == pytest.approx(s.objective)


def test_double_pendulum_from_a_dict_with_changed_mesh():
    with open(EXAMPLES / "double_pendulum_swingup.toml", "rb") as f:
        problem = tomllib.load(f)
    problem["solver"]["mesh_intervals"] = 20
    problem["solver"]["transcription"] = "trapezoidal"
    s = ferrobody.optimize(problem, base=EXAMPLES)
    assert s.success
    assert s.time.shape == (21,)
    # A coarser mesh and another quadrature move the optimum a little from Moco's 0.0607.
    assert 0.05 < s.objective < 0.07
    np.testing.assert_allclose(s.column("/jointset/j0/q0/value")[[0, -1]], [-np.pi / 2, np.pi / 2])


def test_errors_map_to_python_exceptions():
    with open(EXAMPLES / "double_pendulum_swingup.toml", "rb") as f:
        problem = tomllib.load(f)
    bad = dict(problem, control=[{"name": "/tau9", "bounds": [-1.0, 1.0]}])
    with pytest.raises(ValueError, match="'/tau9' is not a state or control"):
        ferrobody.optimize(bad, base=EXAMPLES)
    with pytest.raises(FileNotFoundError):
        ferrobody.optimize(EXAMPLES / "no_such_problem.toml")
    few = dict(problem, solver=dict(problem["solver"], max_iterations=2))
    with pytest.raises(RuntimeError, match="Maximum_Iterations_Exceeded"):
        ferrobody.optimize(few, base=EXAMPLES)


def test_predictive_walking_states_stages_and_their_errors():
    with open(EXAMPLES / "gait2d_predictive.toml", "rb") as f:
        problem = tomllib.load(f)
    # The muscle-driven problem's continuation stages pass through a dict as they are; a stage
    # that names a parameter no force element has is an error naming it.
    assert [s["hertz_smoothing"] for s in problem["solver"]["homotopy"]] == [10.0, 30.0, 100.0]
    bad = dict(problem, solver=dict(problem["solver"], homotopy=[{"stiffnes": 1.0}]))
    with pytest.raises(RuntimeError, match="'stiffnes'"):
        ferrobody.optimize(bad, base=EXAMPLES)
    # Three iterations on a coarse mesh: muscle activations and excitations are states and
    # controls by Moco's names (the solve stops there, unconverged, with IPOPT's status).
    few = dict(problem, solver=dict(problem["solver"], mesh_intervals=3, max_iterations=3,
                                    homotopy=[]))
    with pytest.raises(RuntimeError, match="Maximum_Iterations_Exceeded"):
        ferrobody.optimize(few, base=EXAMPLES)


def test_path_constraint_from_a_dict():
    with open(EXAMPLES / "sliding_mass.toml", "rb") as f:
        problem = tomllib.load(f)
    # Moco's MocoControlBoundConstraint |F| <= 25 N on the 2 kg mass: bang-bang at 12.5 m/s²,
    # t_f = 2/sqrt(12.5) s (1e-3: the switch falls inside a mesh interval).
    problem["path_constraint"] = [
        {"kind": "control_bound", "controls": ["/actuator"], "lower": -25.0, "upper": 25.0}
    ]
    s = ferrobody.optimize(problem, base=EXAMPLES)
    assert s.final_time == pytest.approx(2 / np.sqrt(12.5), rel=1e-3)
    problem["path_constraint"][0]["kind"] = "speed_bound"
    with pytest.raises(ValueError, match="unknown path constraint kind 'speed_bound'"):
        ferrobody.optimize(problem, base=EXAMPLES)


def test_tracking_walking_goals_from_a_dict():
    with open(EXAMPLES / "gait2d_tracking.toml", "rb") as f:
        problem = tomllib.load(f)
    contact = next(g for g in problem["goal"] if g["kind"] == "contact_tracking")
    assert [g["external_force"] for g in contact["contact_groups"]] == ["Right_GRF", "Left_GRF"]
    # Two iterations on a coarse mesh run the contact-tracking goal from Python.
    few = dict(problem, solver=dict(problem["solver"], mesh_intervals=4, max_iterations=2))
    with pytest.raises(RuntimeError, match="Maximum_Iterations_Exceeded"):
        ferrobody.optimize(few, base=EXAMPLES)
    contact["contact_groups"][0]["external_force"] = "Right_Foot"
    with pytest.raises(ValueError, match="external force 'Right_Foot' not found"):
        ferrobody.optimize(problem, base=EXAMPLES)
