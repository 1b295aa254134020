"""Pinocchio's M(q), ABA and RNEA on random states of the example-robot-data robots, stored as
JSON in testdata/urdf/ for crates/ferrobody/tests/urdf_robots.rs (no Pinocchio in CI).

    python3 -m venv /tmp/pinenv && /tmp/pinenv/bin/pip install pin example-robot-data
    /tmp/pinenv/bin/python scripts/pinocchio/make_references.py

Copies each URDF into testdata/urdf/ too. Pinocchio's conventions are stored as they are
(free-flyer q = [p, quaternion x y z w], v = [v, w] in the base frame); the Rust test maps
them onto ferrobody's (quaternion w x y z then p; w and v in Ground).
"""

import json
import pathlib
import shutil

import numpy as np
import pinocchio as pin

ROBOTS = pathlib.Path(pin.__file__).resolve()
for parent in ROBOTS.parents:
    candidate = parent / "cmeel.prefix" / "share" / "example-robot-data" / "robots"
    if candidate.is_dir():
        ROBOTS = candidate
        break
OUT = pathlib.Path(__file__).resolve().parents[2] / "testdata" / "urdf"

# name, file, floating base
CASES = [
    ("panda", "panda_description/urdf/panda.urdf", False),
    ("ur5", "ur_description/urdf/ur5_robot.urdf", False),
    ("solo12", "solo_description/robots/solo12.urdf", True),
    ("anymal", "anymal_b_simple_description/robots/anymal.urdf", True),
    ("talos_reduced", "talos_data/robots/talos_reduced.urdf", True),
    ("g1", "g1_description/urdf/g1_29dof_rev_1_0.urdf", True),
    ("human", "human_description/robots/human.urdf", True),
]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261125)
    for name, rel, floating in CASES:
        src = ROBOTS / rel
        shutil.copy(src, OUT / f"{name}.urdf")
        model = pin.buildModelFromUrdf(str(src), pin.JointModelFreeFlyer()) if floating else pin.buildModelFromUrdf(str(src))
        data = model.createData()
        joints = []
        for j in range(1, model.njoints):
            joints.append({"name": model.names[j], "idx_q": int(model.idx_qs[j]), "nq": int(model.nqs[j]),
                           "idx_v": int(model.idx_vs[j]), "nv": int(model.nvs[j]), "kind": model.joints[j].shortname()})
        states = []
        for _ in range(3):
            q = pin.randomConfiguration(model, -np.ones(model.nq) * 1.0, np.ones(model.nq) * 1.0)
            v = rng.uniform(-1, 1, model.nv)
            a = rng.uniform(-1, 1, model.nv)
            tau = rng.uniform(-5, 5, model.nv)
            M = pin.crba(model, data, q)
            M = np.triu(M) + np.triu(M, 1).T
            ddq = pin.aba(model, data, q, v, tau)
            rnea = pin.rnea(model, data, q, v, a)
            states.append({"q": q.tolist(), "v": v.tolist(), "a": a.tolist(), "tau": tau.tolist(),
                           "M": M.tolist(), "aba": ddq.tolist(), "rnea": rnea.tolist()})
        doc = {"robot": name, "urdf": f"{name}.urdf", "source": f"example-robot-data: robots/{rel}",
               "floating_base": floating, "pinocchio": pin.__version__, "nq": model.nq, "nv": model.nv,
               "gravity": model.gravity.linear.tolist(), "joints": joints, "states": states}
        (OUT / f"{name}.json").write_text(json.dumps(doc, indent=1))
        print(name, model.nq, model.nv)


if __name__ == "__main__":
    main()
