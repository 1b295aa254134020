"""OpenSim muscles from Python (issue 37): their states are columns of `simulate` under
OpenSim's state-variable paths, and they match OpenSim 4.6's own run."""

import csv
import json
import os
import subprocess
import sys

import ferrobody
import numpy as np


def test_muscle_states_are_named_columns_matching_opensim(root):
    folder = root / "testdata" / "opensim" / "muscles"
    model = ferrobody.load(folder / "mus_pendulum_wrap.osim")
    assert model.auxiliary_names == [
        "/forceset/lifter/activation",
        "/forceset/lifter/normalized_tendon_force",
    ]
    run = ferrobody.simulate(model, duration=0.5, report_interval=0.01)
    with open(folder / "mus_pendulum_wrap.csv") as f:
        rows = list(csv.DictReader(f))[:51]
    reference = np.array([float(r["lifter.activation"]) for r in rows])
    # The .osim run settings are RK-Merson at 1e-5 here (OpenSim's forward-tool default) where
    # the reference used 1e-6: 1e-4 holds both integrators' error.
    assert np.abs(run["/forceset/lifter/activation"] - reference).max() < 1e-4
    tendon = np.array([float(r["lifter.tendon_force"]) for r in rows]) / 100.0
    assert np.abs(run["/forceset/lifter/normalized_tendon_force"] - tendon).max() < 1e-3
    assert abs(run["q:swing"][0] - (-0.5)) == 0.0


def test_simulate_returns_muscles_csv_columns_matching_opensim(root):
    folder = root / "testdata" / "opensim" / "muscles"
    model = ferrobody.load(folder / "mus_tug_of_war.osim")
    run = ferrobody.simulate(model, duration=0.3, report_interval=0.01, accuracy=1e-6)
    with open(folder / "mus_tug_of_war.csv") as f:
        rows = list(csv.DictReader(f))[:31]
    for muscle in ["left", "right"]:
        for column in ["excitation", "activation", "fiber_length", "fiber_velocity",
                       "tendon_force", "length"]:
            key = f"{muscle}.{column}"
            reference = np.array([float(r[key]) for r in rows])
            # Same integrator and accuracy as the reference: round-off over 0.3 s (the run
            # stays below t = 0.65 s, where it becomes sensitive; tests/opensim_muscles.rs).
            assert np.abs(run[key] - reference).max() < 1e-6 * (1 + np.abs(reference).max()), key
        assert run[f"{muscle}.lengthening_speed"].shape == run["t"].shape


def test_moment_arms_match_opensim(root):
    folder = root / "testdata" / "opensim" / "models"
    model = ferrobody.load(folder / "gait10dof18musc.osim")
    arms = model.moment_arms()
    assert arms.shape == (18, model.nq)
    assert model.muscle_names[0] == "hamstrings_r"
    with open(folder / "gait10dof18musc_moment_arms.csv") as f:
        rows = [r for r in csv.DictReader(f) if r["pose"] == "0"]
    for r in rows:
        ours = arms[model.muscle_names.index(r["muscle"]), model.q_index(r["coordinate"])]
        # Both exact (dual numbers here; OpenSim's unit-tension solve): round-off.
        assert abs(ours - float(r["moment_arm"])) < 1e-12, (r["muscle"], r["coordinate"])


def test_uncontrolled_muscles_take_their_excitations_from_the_control_vector(root):
    model = ferrobody.load(root / "testdata" / "opensim" / "models" / "arm26.osim")
    assert model.control_names == ["TRIlong", "TRIlat", "TRImed", "BIClong", "BICshort", "BRA"]
    biceps = model.ctrl_index("BIClong")
    controls = np.zeros((10, model.nctrl))
    controls[:, biceps] = 1.0
    passive = ferrobody.simulate(model, duration=0.1, report_interval=0.01)
    driven = ferrobody.simulate(model, duration=0.1, report_interval=0.01, controls=controls)
    # Without a controller the excitation is zero (OpenSim's default); the held control is
    # BIClong's excitation (each row reports the interval that ends there: zero at t = 0): its
    # activation rises toward 1 and flexes the elbow.
    assert np.all(passive["BIClong.excitation"] == 0.0)
    assert driven["BIClong.excitation"][0] == 0.0
    assert np.all(driven["BIClong.excitation"][1:] == 1.0)
    assert driven["BIClong.activation"][-1] > 0.9 > passive["BIClong.activation"][-1]
    assert driven["q:r_elbow_flex"][-1] > passive["q:r_elbow_flex"][-1] + 0.01


def test_simulate_evaluates_many_muscles_on_threads_with_one_thread_results(root):
    # gait2392's 92 Thelen muscles run on two of rayon's threads in `simulate` (the run is
    # put on a pool thread); a batch of one run through `rollouts` evaluates them on one.
    # The results must agree to the bit, and RAYON_NUM_THREADS=1 must give them too.
    path = root / "testdata" / "opensim" / "models" / "gait2392_thelen.osim"
    model = ferrobody.load(path)
    run = ferrobody.simulate(model, duration=0.02, report_interval=0.01)
    batch = ferrobody.rollouts(
        model, [model.default_state()], duration=0.02, report_interval=0.01, threads=1
    )
    z_names = [n for n in run if n.startswith("/forceset/")]
    assert len(z_names) == 2 * 92
    z = np.stack([run[n] for n in z_names], axis=1)
    assert np.array_equal(run["t"], batch["t"][0])
    assert np.array_equal(z, batch["z"][0])
    script = (
        "import ferrobody, json, sys; m = ferrobody.load(sys.argv[1]);"
        "r = ferrobody.simulate(m, duration=0.02, report_interval=0.01);"
        "print(json.dumps([r[n].tolist() for n in r if n.startswith('/forceset/')]))"
    )
    one_thread = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        env={**os.environ, "RAYON_NUM_THREADS": "1"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert np.array_equal(np.array(json.loads(one_thread)).T, z)


def test_an_opensim_1_9_model_with_schutte_muscles_matches_opensim(root):
    # wrist_mass as written (document version 10905), upgraded as OpenSim 4.6 upgrades it; its
    # 26 Schutte1993Muscle_Deprecated muscles' columns against OpenSim's own run.
    folder = root / "testdata" / "opensim" / "models"
    model = ferrobody.load(folder / "wrist_mass_schutte_v10905.osim")
    assert len(model.muscle_names) == 26
    run = ferrobody.simulate(model, duration=0.1, report_interval=0.01, accuracy=1e-6)
    with open(folder / "wrist_mass_schutte_v10905.csv") as f:
        rows = list(csv.DictReader(f))[: len(run["t"])]
    for muscle in ["FCR", "APL"]:
        for column in ["activation", "fiber_length"]:
            key = f"{muscle}.{column}"
            reference = np.array([float(r[key]) for r in rows])
            # ferrobody's Rust test holds these to 1e-10 (tests/opensim_schutte.rs)
            assert np.abs(run[key] - reference).max() < 1e-9, key
