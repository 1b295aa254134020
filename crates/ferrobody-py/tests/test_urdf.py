"""URDF robots from Python: joint names as coordinate names, a floating base, pickling."""

import pickle

import numpy as np

import ferrobody


def test_a_fixed_base_arm(root):
    m = ferrobody.load(root / "testdata" / "urdf" / "panda.urdf")
    assert m.nq == 9 and m.coordinate_names[0] == "panda_joint1"
    assert m.speed_names[0] == "panda_joint1/speed"
    run = ferrobody.simulate(m, duration=0.1, report_interval=0.05)
    assert len(run["t"]) == 3 and "panda_link7.pz" in run
    assert np.allclose(run["energy"], run["energy"][0], rtol=1e-6), "no dissipation"


def test_a_floating_base_robot_keeps_its_option_through_pickling(root):
    m = ferrobody.load(root / "testdata" / "urdf" / "solo12.urdf", floating_base=True)
    assert (m.nq, m.nu) == (19, 18)
    assert m.coordinate_names[:2] == ["root_joint.qw", "root_joint.qx"]
    assert m.speed_names[:6] == ["root_joint." + c for c in ["wx", "wy", "wz", "vx", "vy", "vz"]]
    again = pickle.loads(pickle.dumps(m))
    assert (again.nq, again.nu) == (19, 18)
    run = ferrobody.simulate(again, duration=0.2, report_interval=0.1)
    # Free fall: the base drops by g t^2 / 2.
    assert abs(run["q:root_joint.pz"][-1] - (-0.5 * 9.81 * 0.04)) < 1e-9
