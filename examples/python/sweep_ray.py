"""A friction x stiffness sweep of the s1 ball (a spinning ball dropped on the ground) on Ray.

The same script runs on a laptop and on a cluster:

    python examples/python/sweep_ray.py                     # local: ray.init() on this machine
    python examples/python/sweep_ray.py --address auto      # the Ray cluster this node is in
    python examples/python/sweep_ray.py --address ray://head:10001

Each Ray task takes a slice of the (stiffness, friction) grid; for each pair it makes a model
copy with those parameters and calls ferrobody.rollouts on a few starting spins, on the cores
the task was given. The model travels to the workers pickled (its source and its changes).
"""

import argparse
import itertools
import pathlib

import numpy as np
import ray

import ferrobody

SCENE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "scenes" / "s1_hc_ball.toml"
STIFFNESSES = [3e5, 1e6, 3e6, 1e7]
FRICTIONS = [0.2, 0.4, 0.6, 0.8]
SPINS = [0.0, 5.0, 10.0]  # rad/s about z (the ball.s speed ball.wz)


def run_pair(model, stiffness, friction, duration, threads=1):
    """Final x position of the ball for each starting spin, with these contact parameters."""
    m = model.with_parameter("contact", "stiffness", stiffness)
    # Dynamic first: it may never exceed static (the scene's static friction is 0.8).
    m = m.with_parameter("contact", "dynamic_friction", friction)
    m = m.with_parameter("contact", "static_friction", friction)
    starts = []
    for spin in SPINS:
        s = m.default_state()
        s.u[m.u_index("ball.wz")] = spin
        starts.append(s)
    out = ferrobody.rollouts(m, starts, duration=duration, report_interval=duration, threads=threads)
    if not out["ok"].all():
        raise RuntimeError("; ".join(e for e in out["error"] if e))
    return out["position"][:, -1, m.body_index("ball"), 0]


@ray.remote
def sweep_slice(model, pairs, duration):
    """One task: its slice of the grid, each pair a rollout over the spins."""
    return [(k, c, run_pair(model, k, c, duration)) for k, c in pairs]


def sweep(model, duration, tasks):
    pairs = list(itertools.product(STIFFNESSES, FRICTIONS))
    slices = [pairs[i::tasks] for i in range(tasks)]
    model_ref = ray.put(model)
    results = ray.get([sweep_slice.remote(model_ref, s, duration) for s in slices if s])
    return {(k, c): x for part in results for k, c, x in part}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", help="Ray cluster address (default: start Ray locally)")
    parser.add_argument("--cpus", type=int, help="CPUs of a local Ray (default: all)")
    parser.add_argument("--tasks", type=int, default=8, help="Ray tasks (grid slices)")
    parser.add_argument("--duration", type=float, default=1.0, help="simulated time (s)")
    args = parser.parse_args(argv)
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.cpus)
    try:
        model = ferrobody.load(SCENE)
        table = sweep(model, args.duration, args.tasks)
    finally:
        ray.shutdown()
    print("stiffness  friction  final x for spins " + ", ".join(f"{s:g}" for s in SPINS) + " rad/s")
    for (k, c), x in sorted(table.items()):
        print(f"{k:9.0e}  {c:8.2f}  " + "  ".join(f"{v:8.4f}" for v in x))
    return table


if __name__ == "__main__":
    main()
