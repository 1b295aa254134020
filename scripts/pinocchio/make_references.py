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


def free_fall(model, data, duration=0.5, interval=0.05, h=1e-4):
    """The neutral configuration released at rest: RK4 on Pinocchio's ABA with h = 1e-4 s
    (configuration updates through pin.integrate), every link frame's origin in the world
    every `interval` s. RK4's error at this step is far below the 1e-6 m compared."""
    q, v = pin.neutral(model), np.zeros(model.nv)
    zero = np.zeros(model.nv)
    acc = lambda q, v: pin.aba(model, data, q, v, zero)
    frames = [f for f in model.frames if f.type == pin.FrameType.BODY]
    times, origins = [], {f.name: [] for f in frames}
    steps, every = int(round(duration / h)), int(round(interval / h))
    for k in range(steps + 1):
        if k % every == 0:
            pin.forwardKinematics(model, data, q)
            pin.updateFramePlacements(model, data)
            times.append(k * h)
            for f in frames:
                origins[f.name].append(data.oMf[model.getFrameId(f.name)].translation.tolist())
        if k == steps:
            break
        k1v, k1a = v, acc(q, v)
        q2, v2 = pin.integrate(model, q, k1v * h / 2), v + k1a * h / 2
        k2v, k2a = v2, acc(q2, v2)
        q3, v3 = pin.integrate(model, q, k2v * h / 2), v + k2a * h / 2
        k3v, k3a = v3, acc(q3, v3)
        q4, v4 = pin.integrate(model, q, k3v * h), v + k3a * h
        k4v, k4a = v4, acc(q4, v4)
        q = pin.integrate(model, q, (k1v + 2 * k2v + 2 * k3v + k4v) * h / 6)
        v = v + (k1a + 2 * k2a + 2 * k3a + k4a) * h / 6
    return {"times": times, "links": origins, "method": f"RK4, h = {h} s, pin.integrate"}


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
        doc_fall = free_fall(model, data)
        doc = {"free_fall": doc_fall, "robot": name, "urdf": f"{name}.urdf", "source": f"example-robot-data: robots/{rel}",
               "floating_base": floating, "pinocchio": pin.__version__, "nq": model.nq, "nv": model.nv,
               "gravity": model.gravity.linear.tolist(), "joints": joints, "states": states}
        (OUT / f"{name}.json").write_text(json.dumps(doc, indent=1))
        print(name, model.nq, model.nv)


if __name__ == "__main__":
    main()
