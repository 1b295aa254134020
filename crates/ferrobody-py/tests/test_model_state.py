"""Model and State: loading, names, sizes, arrays that write through, copies, pickling."""

import pickle
import subprocess
import sys

import numpy as np
import pytest

import ferrobody


def test_scene_model_names_and_sizes(scenes):
    m = ferrobody.load(scenes / "s6_chain_contact.toml")
    assert m.body_names[0] == "ground" and len(m.body_names) == 6
    assert (m.nq, m.nu, m.nz, m.nbodies) == (5, 5, 0, 6)
    assert m.coordinate_names[0] == "link1.rz" and m.speed_names[4] == "link5.wz"
    assert m.integrator == "rk-merson" and m.duration > 0 and m.report_interval > 0


def test_osim_model_uses_opensim_coordinate_names(root):
    m = ferrobody.load(root / "testdata" / "opensim" / "osim_leg_hc.osim")
    assert "hip_flexion" in " ".join(m.coordinate_names) or len(m.coordinate_names) == m.nq
    assert all("/speed" in n for n in m.speed_names if n in {c + "/speed" for c in m.coordinate_names})
    run = ferrobody.simulate(m, duration=0.05)
    assert run["t"][-1] == pytest.approx(0.05)


def test_osim_model_with_latin1_bytes_loads_as_opensim_reads_it(root, tmp_path):
    # OpenSim keeps a file's bytes: a re-saved 3.x model may declare UTF-8 and hold Latin-1.
    text = (root / "testdata" / "opensim" / "models" / "double_pendulum.osim").read_text()
    path = tmp_path / "latin1.osim"
    path.write_bytes(text.replace("rod1", "rod1_\u00e9").encode("latin-1"))
    m = ferrobody.load(path)
    assert "rod1_\u00e9" in m.body_names
    run = ferrobody.simulate(m, duration=0.02)
    assert run["t"][-1] == pytest.approx(0.02)


def test_a_scene_file_must_be_utf8(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "b\u00e9"\n'.encode("latin-1"))
    with pytest.raises(ValueError, match="cannot read the file"):
        ferrobody.load(path)


def test_state_arrays_are_the_states_own(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    s = m.default_state()
    assert s.q.dtype == np.float64 and s.q.shape == (7,) and s.u.shape == (6,) and s.z.shape == (0,)
    s.q[5] = 0.9
    assert s.q[5] == 0.9, "a write into state.q changes the state"
    s.u = np.arange(6, dtype=float)
    assert list(s.u) == [0, 1, 2, 3, 4, 5]
    s.t = 0.25
    c = s.copy()
    c.q[5] = 0.1
    assert s.q[5] == 0.9, "a copy is independent"
    assert m.default_state().q[5] == 0.5, "default_state is a new state each time"


def test_writes_change_the_simulation(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    s = m.default_state()
    high = ferrobody.simulate(m, s, duration=0.1)
    s.q[5] = 2.0
    higher = ferrobody.simulate(m, s, duration=0.1)
    assert higher["ball.py"][0] == 2.0 and high["ball.py"][0] == 0.5


def test_pickling_models_and_states(scenes):
    m = ferrobody.load(scenes / "e1_es_slide.toml")
    s = m.default_state()
    s.q[-1] += 0.01
    m2 = pickle.loads(pickle.dumps(m))
    s2 = pickle.loads(pickle.dumps(s))
    assert np.array_equal(s2.q, s.q) and s2.t == s.t
    a = ferrobody.simulate(m, s, duration=0.2)
    b = ferrobody.simulate(m2, s2, duration=0.2)
    for key in a:
        assert np.array_equal(a[key], b[key]), key


CHILD = """
import pickle, sys
import ferrobody
m, s = pickle.loads(sys.stdin.buffer.read())
run = ferrobody.simulate(m, s, duration=0.2)
sys.stdout.write(repr(float(run["ball.py"][-1])))
"""


def test_a_pickled_model_runs_in_a_subprocess(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    s = m.default_state()
    here = ferrobody.simulate(m, s, duration=0.2)["ball.py"][-1]
    out = subprocess.run(
        [sys.executable, "-c", CHILD], input=pickle.dumps((m, s)), capture_output=True, check=True
    )
    assert float(out.stdout) == here


def test_model_copy(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    c = m.copy()
    assert c is not m and c.nq == m.nq and c.body_names == m.body_names
