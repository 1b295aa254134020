"""Binding overhead and parallel throughput of the Python package (issue 18's figures).

    cargo build --release && bash scripts/test-python.sh   # builds the package into target/py-venv
    target/py-venv/bin/python bench/python/measure.py [ROUNDS]

1. `ferrobody.simulate` on s1 (whole scene, with its reports turned into columns) against
   `ferrobody bench` on the same scene (the CLI, no reporting), alternated ROUNDS times;
   medians of each program's median and their ratio.
2. `ferrobody.rollouts` of 64 s1 runs on 1 thread and on 2 threads: throughput ratio, and
   whether the results are identical to 64 serial `simulate` calls.
3. Per-call overhead of `sim.advance_to(t + h)`: a loop of N calls against one call covering
   the same N fixed steps (RK4, h = 1e-4 s: both take exactly the same steps); the difference
   divided by N. Also a call that has nothing to do (advance to the current time).
"""

import json
import pathlib
import statistics
import subprocess
import sys
import time

import numpy as np

import ferrobody

ROOT = pathlib.Path(__file__).resolve().parents[2]
S1 = ROOT / "examples" / "scenes" / "s1_hc_ball.toml"
CLI = ROOT / "target" / "release" / "ferrobody"


def cli_median(runs=20):
    out = subprocess.run([str(CLI), "bench", str(S1), "--runs", str(runs)], capture_output=True, check=True, text=True)
    line = [l for l in out.stdout.splitlines() if l.startswith("{")][-1]
    return json.loads(line)["wall_median_s"]


def python_median(model, runs=20):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        ferrobody.simulate(model)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    model = ferrobody.load(S1)
    cli, py = [], []
    for _ in range(rounds):
        cli.append(cli_median())
        py.append(python_median(model))
    c, p = statistics.median(cli), statistics.median(py)
    print(f"s1 whole run: ferrobody bench {c * 1e3:.3f} ms, ferrobody.simulate {p * 1e3:.3f} ms, ratio {p / c:.3f}")

    states = []
    for k in range(64):
        s = model.default_state()
        s.q[model.q_index("ball.py")] += 0.002 * k
        states.append(s)
    one, two = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        r1 = ferrobody.rollouts(model, states, threads=1)
        t1 = time.perf_counter()
        r2 = ferrobody.rollouts(model, states, threads=2)
        t2 = time.perf_counter()
        one.append(t1 - t0)
        two.append(t2 - t1)
    serial = [ferrobody.simulate(model, s)["ball.py"] for s in states]
    same = all(np.array_equal(r2["position"][k, :, model.body_index("ball"), 1], serial[k]) for k in range(64))
    same = same and np.array_equal(r1["q"], r2["q"])
    o, t = statistics.median(one), statistics.median(two)
    print(f"rollouts of 64 s1 runs: 1 thread {o * 1e3:.1f} ms, 2 threads {t * 1e3:.1f} ms, throughput x{o / t:.2f}, identical to serial: {same}")

    n, h = 20000, 1e-4
    per_call, noop = [], []
    for _ in range(rounds):
        sim = ferrobody.Simulation(model, integrator="rk4", fixed_step=h)
        t0 = time.perf_counter()
        for k in range(1, n + 1):
            sim.advance_to(k * h)
        loop = time.perf_counter() - t0
        sim2 = ferrobody.Simulation(model, integrator="rk4", fixed_step=h)
        t0 = time.perf_counter()
        sim2.advance_to(n * h)
        whole = time.perf_counter() - t0
        assert sim.stats["steps_taken"] == sim2.stats["steps_taken"] == n
        per_call.append((loop - whole) / n)
        t0 = time.perf_counter()
        now = sim.t
        for _ in range(n):
            sim.advance_to(now)
        noop.append((time.perf_counter() - t0) / n)
    print(f"advance_to(t + h) per-call overhead: {statistics.median(per_call) * 1e6:.2f} us "
          f"(a call with nothing to do: {statistics.median(noop) * 1e6:.2f} us)")


if __name__ == "__main__":
    main()
