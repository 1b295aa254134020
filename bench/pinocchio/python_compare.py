"""ferrobody.Dynamics against Pinocchio's Python bindings, call for call, on the testdata robots.

    PYTHONPATH=crates/ferrobody-py/python /tmp/pinenv/bin/python bench/pinocchio/python_compare.py [ROUNDS] [CALLS] [ALGORITHMS...]

(after `bash scripts/test-python.sh`, which builds the extension into crates/ferrobody-py/python,
and `pip install pin` into /tmp/pinenv: see README.md). For each round, robot and algorithm the
two run alternately, each timing CALLS calls (CALLS/20 for the derivatives) over 64 random
states, median of 7 batches; printed: the median over rounds (µs per call) and the ratio.

| ferrobody | Pinocchio |
|---|---|
| `dyn.forward_dynamics(q, u, tau)` | `pin.aba(model, data, q, v, tau)` |
| `dyn.inverse_dynamics(q, u, a)` | `pin.rnea(model, data, q, v, a)` |
| `dyn.mass_matrix(q)` | `pin.crba(model, data, q)` |
| `dyn.forward_dynamics_derivatives(q, u, tau)` | `pin.computeABADerivatives(model, data, q, v, tau)` |
"""

import json
import pathlib
import statistics
import sys
import time

import numpy as np
import pinocchio as pin

import ferrobody

ROOT = pathlib.Path(__file__).resolve().parents[2]
ROBOTS = ["panda", "ur5", "solo12", "anymal", "talos_reduced", "g1", "human"]
ALGORITHMS = ["aba", "rnea", "crba", "aba-derivatives"]


def batches(call, inputs, calls):
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        for i in range(calls):
            call(*inputs[i & 63])
        times.append((time.perf_counter() - t0) / calls)
    return statistics.median(times)


def setup(robot):
    urdf = ROOT / "testdata" / "urdf" / f"{robot}.urdf"
    floating = json.loads(urdf.with_suffix(".json").read_text())["floating_base"]
    ours = ferrobody.load(urdf, floating_base=floating)
    theirs = pin.buildModelFromUrdf(str(urdf), pin.JointModelFreeFlyer()) if floating else pin.buildModelFromUrdf(str(urdf))
    data = theirs.createData()
    dyn = ferrobody.Dynamics(ours)
    rng = np.random.default_rng(1)
    our_inputs, their_inputs = [], []
    for _ in range(64):
        q = rng.uniform(-1, 1, ours.nq)
        if floating:
            q[:4] /= np.linalg.norm(q[:4])
        our_inputs.append((q, rng.uniform(-1, 1, ours.nu), rng.uniform(-1, 1, ours.nu)))
        qp = pin.randomConfiguration(theirs, -np.ones(theirs.nq), np.ones(theirs.nq))
        their_inputs.append((qp, rng.uniform(-1, 1, theirs.nv), rng.uniform(-1, 1, theirs.nv)))
    calls = {
        "aba": (dyn.forward_dynamics, lambda q, v, x: pin.aba(theirs, data, q, v, x)),
        "rnea": (dyn.inverse_dynamics, lambda q, v, x: pin.rnea(theirs, data, q, v, x)),
        "crba": (lambda q, u, x: dyn.mass_matrix(q), lambda q, v, x: pin.crba(theirs, data, q)),
        "aba-derivatives": (
            dyn.forward_dynamics_derivatives,
            lambda q, v, x: pin.computeABADerivatives(theirs, data, q, v, x),
        ),
    }
    return calls, our_inputs, their_inputs


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    algorithms = sys.argv[3:] or ALGORITHMS
    robots = {r: setup(r) for r in ROBOTS}
    results = {(a, r): ([], []) for a in algorithms for r in ROBOTS}
    for _ in range(rounds):
        for algorithm in algorithms:
            n = calls // 20 if algorithm == "aba-derivatives" else calls
            for robot in ROBOTS:
                table, ours_in, theirs_in = robots[robot]
                ours, theirs = table[algorithm]
                results[algorithm, robot][0].append(batches(ours, ours_in, n))
                results[algorithm, robot][1].append(batches(theirs, theirs_in, n))
    print(f"pinocchio {pin.__version__}, ferrobody {ferrobody.__version__}")
    for algorithm in algorithms:
        print(f"\n{algorithm}\n\n| robot | ferrobody (µs) | Pinocchio Python (µs) | Pinocchio / ferrobody |\n|---|---:|---:|---:|")
        for robot in ROBOTS:
            a, b = (statistics.median(x) * 1e6 for x in results[algorithm, robot])
            print(f"| {robot} | {a:.2f} | {b:.2f} | {b / a:.2f} |")


if __name__ == "__main__":
    main()
