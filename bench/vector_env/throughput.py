"""Steps per second of a batch of Panda simulations: ferrobody's VectorSimulation on 1 thread
and on all cores, and MuJoCo's `rollout` on the same robot and the same threads, alternated
round by round; medians and ratios are printed (docs/performance.md, "Vector environments").

Both run the Panda of example-robot-data (testdata/urdf/panda.urdf) with a joint motor on
each of its nine joints (ferrobody: `actuators="motors"`, `<limit effort>` as force range;
MuJoCo: the same URDF without its visual and collision meshes, a `motor` per joint with the
same `forcerange`, joint damping and friction removed, contact, joint limits and the fingers'
mimic equality off, as ferrobody runs it), classical RK4 at a fixed 1 ms step, from the
neutral pose, each run holding its own constant random torques for 200 steps. A "step" is one
RK4 step of one robot. Like for like: the script first checks that both give the same
trajectory (0.1 s of one run; they agree to about 1e-14 rad).

    python bench/vector_env/throughput.py --envs 64 --rounds 5

Needs `pip install mujoco` (not needed by the tests).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import statistics
import time

import numpy as np

import ferrobody

ROOT = pathlib.Path(__file__).resolve().parents[2]
URDF = ROOT / "testdata" / "urdf" / "panda.urdf"
STEPS = 200
H = 1e-3


def torques(envs: int) -> np.ndarray:
    return np.random.default_rng(0).uniform(-5.0, 5.0, size=(envs, 9))


def ferrobody_rate(envs: int, threads: int) -> float:
    model = ferrobody.load(URDF, actuators="motors")
    batch = ferrobody.VectorSimulation(model, envs, integrator="rk4", fixed_step=H, threads=threads)
    controls = torques(envs)
    start = time.perf_counter()
    for _ in range(STEPS // 10):
        batch.step(controls, 10 * H)
    elapsed = time.perf_counter() - start
    assert np.isfinite(batch.q).all()
    return envs * STEPS / elapsed


def mujoco_model():
    import mujoco

    text = URDF.read_text()
    text = re.sub(r"<visual>.*?</visual>", "", text, flags=re.S)
    text = re.sub(r"<collision>.*?</collision>", "", text, flags=re.S)
    spec = mujoco.MjSpec.from_string(text)
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_RK4
    spec.option.timestep = H
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT | mujoco.mjtDisableBit.mjDSBL_LIMIT | mujoco.mjtDisableBit.mjDSBL_EQUALITY
    spec.option.gravity = [0.0, 0.0, -9.81]
    for joint in spec.joints:
        joint.damping = [0.0, 0.0, 0.0]
        joint.frictionloss = 0.0
        joint.armature = 0.0
    efforts = dict(re.findall(r'<joint name="([^"]+)"[^>]*>.*?<limit effort="([^"]+)"', text, flags=re.S))
    for joint in spec.joints:
        motor = spec.add_actuator()
        motor.trntype = mujoco.mjtTrn.mjTRN_JOINT
        motor.target = joint.name
        effort = float(efforts.get(joint.name, 0.0))
        if effort > 0.0:
            motor.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
            motor.forcerange = [-effort, effort]
    return spec.compile()


def mujoco_rate(envs: int, threads: int) -> float:
    import mujoco
    from mujoco import rollout

    model = mujoco_model()
    datas = [mujoco.MjData(model) for _ in range(threads)]
    size = mujoco.mj_stateSize(model, mujoco.mjtState.mjSTATE_FULLPHYSICS)
    initial = np.zeros((envs, size))
    mujoco.mj_getState(model, datas[0], initial[0], mujoco.mjtState.mjSTATE_FULLPHYSICS)
    initial[:] = initial[0]
    control = np.repeat(torques(envs)[:, None, :], STEPS, axis=1)
    start = time.perf_counter()
    state, _ = rollout.rollout(model, datas, initial, control, nstep=STEPS)
    elapsed = time.perf_counter() - start
    assert np.isfinite(state).all()
    return envs * STEPS / elapsed


def same_physics() -> float:
    """The largest difference of q after 0.1 s of one run, MuJoCo against ferrobody."""
    import mujoco

    model = mujoco_model()
    data = mujoco.MjData(model)
    data.ctrl[:] = torques(1)[0]
    for _ in range(100):
        mujoco.mj_step(model, data)
    sim = ferrobody.Simulation(
        ferrobody.load(URDF, actuators="motors"), integrator="rk4", fixed_step=H
    )
    sim.controls = torques(1)[0]
    sim.advance_to(0.1)
    return float(np.abs(data.qpos - sim.state.q).max())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-mujoco", action="store_true")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    if not args.no_mujoco:
        gap = same_physics()
        print(f"same physics: q after 0.1 s differs by {gap:.1e} rad")
        assert gap < 1e-9, "the two models differ"

    runs = {"ferrobody 1 thread": lambda: ferrobody_rate(args.envs, 1),
            f"ferrobody {cores} threads": lambda: ferrobody_rate(args.envs, cores)}
    if not args.no_mujoco:
        runs["mujoco 1 thread"] = lambda: mujoco_rate(args.envs, 1)
        runs[f"mujoco {cores} threads"] = lambda: mujoco_rate(args.envs, cores)
    rates = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            rates[name].append(run())
    medians = {name: statistics.median(r) for name, r in rates.items()}
    for name, m in medians.items():
        print(f"{name:24s} {m / 1e6:8.3f} M steps/s   (rounds: {', '.join(f'{r / 1e6:.3f}' for r in rates[name])})")
    one, all_ = medians["ferrobody 1 thread"], medians[f"ferrobody {cores} threads"]
    print(f"ferrobody {cores} threads / 1 thread: {all_ / one:.2f}x")
    if not args.no_mujoco:
        print(f"ferrobody / mujoco, 1 thread: {one / medians['mujoco 1 thread']:.2f}x")
        print(f"ferrobody / mujoco, {cores} threads: {all_ / medians[f'mujoco {cores} threads']:.2f}x")


if __name__ == "__main__":
    main()
