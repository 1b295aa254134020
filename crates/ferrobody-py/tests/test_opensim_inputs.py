"""The OpenSim forward tool's other inputs from Python: `load(path, controls=FILE,
external_loads=FILE)` reads a controls file and an ExternalLoads file as `ferrobody run
--controls FILE --external-loads FILE` does, keeps them through pickling, and refuses bad ones
with the command line's one-line messages."""

import csv
import pickle

import ferrobody
import numpy as np
import pytest

CONTROLS = (
    "controls\nversion=1\nnRows=5\nnColumns=2\ninDegrees=no\nendheader\n"
    "time\t/forceset/left\n0\t0.1\n0.5\t0.6\n1\t0.2\n1.5\t0.4\n2\t0.1\n"
)


def right_only_tug_of_war(root, tmp_path):
    """The tug of war with its left muscle's PiecewiseLinear controller taken out."""
    text = (root / "testdata/opensim/muscles/mus_tug_of_war.osim").read_text()
    text = text.replace(
        "<socket_actuators>/forceset/left /forceset/right</socket_actuators>",
        "<socket_actuators>/forceset/right</socket_actuators>",
    ).replace(
        "<PiecewiseLinearFunction>\n\t\t\t\t\t\t\t\t<x> 0 0.5 1 1.5 2</x>\n"
        "\t\t\t\t\t\t\t\t<y> 0.1 0.6 0.2 0.4 0.1</y>\n\t\t\t\t\t\t\t</PiecewiseLinearFunction>",
        "",
    )
    assert "PiecewiseLinearFunction" not in text
    edited = tmp_path / "tug_right_only.osim"
    edited.write_text(text)
    return edited


def test_a_controls_file_drives_a_muscle_as_the_controller_it_replaces(root, tmp_path):
    original = ferrobody.load(root / "testdata/opensim/muscles/mus_tug_of_war.osim")
    edited = right_only_tug_of_war(root, tmp_path)
    controls = tmp_path / "controls.sto"
    controls.write_text(CONTROLS)
    driven = ferrobody.load(edited, controls=controls)
    a = ferrobody.simulate(original, duration=0.6, report_interval=0.01)
    b = ferrobody.simulate(driven, duration=0.6, report_interval=0.01)
    for column in ["/forceset/left/activation", "/forceset/left/fiber_length", "q:block_x"]:
        # The file's knots are the controller's: the same excitations, so the same run.
        assert np.array_equal(a[column], b[column]), column
    # Without the file the left muscle has no controller (zero excitation): another run.
    undriven = ferrobody.simulate(
        ferrobody.load(edited), duration=0.6, report_interval=0.01
    )
    assert not np.array_equal(a["/forceset/left/activation"], undriven["/forceset/left/activation"])
    # The file is read again when the model is unpickled.
    copy = pickle.loads(pickle.dumps(driven))
    c = ferrobody.simulate(copy, duration=0.6, report_interval=0.01)
    assert np.array_equal(b["/forceset/left/activation"], c["/forceset/left/activation"])


def test_bad_controls_files_are_one_line_errors(root, tmp_path):
    edited = right_only_tug_of_war(root, tmp_path)
    controls = tmp_path / "controls.sto"
    for body, expected in [
        ("time\tnobody\n0\t1\n", "controls.sto:1: column 'nobody' names no simulated muscle"),
        ("time\tleft\n0\t0.1\n1\tnan\n", "controls.sto:3: column 'left' is NaN"),
    ]:
        controls.write_text(body)
        with pytest.raises(ValueError) as error:
            ferrobody.load(edited, controls=controls)
        assert expected in str(error.value)
        assert "\n" not in str(error.value).strip()
    with pytest.raises(FileNotFoundError):
        ferrobody.load(edited, controls=tmp_path / "missing.sto")
    with pytest.raises(ValueError, match="for .osim models"):
        ferrobody.load(root / "examples/scenes/s1_hc_ball.toml", controls=controls)


def test_external_loads_match_opensim(root):
    """gait10dof18musc under its pipeline's ground reaction forces (the Rust test
    `external_loads_match_opensim` holds the whole 0.2 s): every coordinate, speed and body origin within
    1e-5 of OpenSim 4.6 to 0.03 s, where round-off has not yet grown (ferrobody's worst there
    is 2.4e-6); without the loads the model stands still instead."""
    folder = root / "testdata/opensim/models"
    loads = folder / "gait10dof18musc_grf_loads.xml"
    model = ferrobody.load(folder / "gait10dof18musc.osim", external_loads=loads)
    run = ferrobody.simulate(model, duration=0.03, report_interval=0.01, accuracy=1e-6)
    with open(folder / "gait10dof18musc_grf.csv") as f:
        rows = list(csv.DictReader(f))[:4]
    names = [n for n in rows[0] if n != "t" and "." not in n]
    assert len(names) == 10
    worst = 0.0
    for name in names:
        theirs = np.array([float(r[name]) for r in rows])
        speeds = np.array([float(r[name + ".u"]) for r in rows])
        worst = max(worst, np.abs(run["q:" + name] - theirs).max())
        worst = max(worst, np.abs(run["u:" + name + "/speed"] - speeds).max())
    origins = [n for n in rows[0] if n.endswith((".px", ".py", ".pz"))]
    assert len(origins) == 3 * 12
    for name in origins:
        theirs = np.array([float(r[name]) for r in rows])
        worst = max(worst, np.abs(run[name] - theirs).max())
    assert worst < 1e-5, worst
    plain = ferrobody.simulate(
        ferrobody.load(folder / "gait10dof18musc.osim"),
        duration=0.03,
        report_interval=0.01,
        accuracy=1e-6,
    )
    theirs = np.array([float(r["pelvis_tilt.u"]) for r in rows])
    assert np.abs(plain["u:pelvis_tilt/speed"] - theirs).max() > 1e-3
    copy = pickle.loads(pickle.dumps(model))
    again = ferrobody.simulate(copy, duration=0.03, report_interval=0.01, accuracy=1e-6)
    assert np.array_equal(run["q:pelvis_tx"], again["q:pelvis_tx"])
