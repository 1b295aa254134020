"""simulate: the s1 scene against Simbody's reference, as the Rust tests compare it; columns
that pandas takes; contacts."""

import csv

import numpy as np
import pytest

import ferrobody


def reference(root, name):
    with open(root / "testdata" / "simbody37" / name) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def test_s1_matches_simbody_like_the_rust_tests(root, scenes):
    # Same limits as crates/ferrobody/tests/contact_scenes.rs: positions within 1e-5 m and
    # velocities within 3e-4 m/s or rad/s at every report time (the scene amplifies a one-ulp
    # change of its initial spin to 1.8e-4 m/s: s1_amplifies_a_one_ulp_change_of_the_spin_to_1e_4).
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    run = ferrobody.simulate(m)
    ref = reference(root, "s1_hc_ball.csv")
    assert np.array_equal(run["t"], ref["t"])
    for ours, theirs in [("ball.px", "x"), ("ball.py", "y"), ("ball.pz", "z")]:
        assert np.max(np.abs(run[ours] - ref[theirs])) < 1e-5, ours
    for ours, theirs in [("ball.vx", "vx"), ("ball.vy", "vy"), ("ball.vz", "vz"),
                         ("ball.wx", "wx"), ("ball.wy", "wy"), ("ball.wz", "wz")]:
        assert np.max(np.abs(run[ours] - ref[theirs])) < 3e-4, ours


def test_columns_make_a_dataframe(scenes):
    pd = pytest.importorskip("pandas")
    m = ferrobody.load(scenes / "s6_chain_contact.toml")
    run = ferrobody.simulate(m, duration=0.5, report_interval=0.05)
    frame = pd.DataFrame(run)
    assert frame.shape[0] == 11
    for column in ["t", "link1.px", "link5.qw", "link3.wz", "ke", "pe", "energy", "q:link1.rz", "u:link5.wz"]:
        assert column in frame.columns
    assert np.allclose(frame["energy"], frame["ke"] + frame["pe"])


def test_contacts_are_the_rows_of_contacts_csv(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    run = ferrobody.simulate(m, duration=1.0, contacts=True)
    contacts = run.contacts
    assert set(contacts) >= {"t", "element", "body1", "body2", "px", "py", "pz", "nx", "ny", "nz",
                             "depth", "fx", "fy", "fz", "normal_force", "friction_force", "slip_speed"}
    assert len(contacts["t"]) > 0 and set(contacts["t"]) <= set(run["t"])
    assert set(contacts["element"]) == {"contact"} and set(contacts["body2"]) == {"ball"}
    assert np.all(contacts["depth"] > 0) and np.all(contacts["normal_force"] >= 0)


def test_a_failed_run_raises_runtime_error_with_the_cli_message(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    with pytest.raises(RuntimeError, match="step size fell below|step limit"):
        ferrobody.simulate(m, duration=1.0, accuracy=1e-300)


def test_simulate_has_one_shape_whatever_the_flags(scenes):
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    plain = ferrobody.simulate(m, duration=1.0)
    with_contacts = ferrobody.simulate(m, duration=1.0, contacts=True)
    for run in (plain, with_contacts):
        assert isinstance(run, ferrobody.Run) and isinstance(run, dict)
        assert "t" in run and "ball.py" in run
    assert plain.contacts == {}
    assert len(with_contacts.contacts["t"]) > 0
    assert np.array_equal(plain["ball.py"], with_contacts["ball.py"])


def test_python_results_use_trajectory_csv_names_and_orders(scenes, tmp_path):
    # simulate's columns are trajectory.csv's header, in its order; rollouts' arrays use the
    # same names (t, ke, pe, energy), the same velocity order (vx vy vz wx wy wz) and the
    # bodies of Model.body_names, Ground first.
    import csv
    import subprocess
    m = ferrobody.load(scenes / "s1_hc_ball.toml")
    run = ferrobody.simulate(m, duration=0.2, report_interval=0.05)
    header = []
    for name in run:
        header.append(name)
    assert header[0] == "t" and header.index("ke") < header.index("pe") < header.index("energy")
    out = ferrobody.rollouts(m, [m.default_state()], duration=0.2, report_interval=0.05)
    for key in ["t", "ke", "pe", "energy"]:
        assert np.array_equal(out[key][0], run[key]), key
    ball = m.body_index("ball")
    assert m.body_index(m.body_names[0]) == 0 and m.body_names[ball] == "ball"
    assert out["position"].shape[2] == len(m.body_names)
    assert np.all(out["position"][0, :, 0, :] == 0.0), "Ground's origin"
    assert np.all(out["quaternion"][0, :, 0, :] == [1.0, 0.0, 0.0, 0.0])
    for k, c in enumerate(["px", "py", "pz"]):
        assert np.array_equal(out["position"][0, :, ball, k], run[f"ball.{c}"])
    for k, c in enumerate(["vx", "vy", "vz", "wx", "wy", "wz"]):
        assert np.array_equal(out["velocity"][0, :, ball, k], run[f"ball.{c}"]), c
    with pytest.raises(KeyError, match="no body named 'nope'"):
        m.body_index("nope")
