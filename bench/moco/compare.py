#!/usr/bin/env python3
"""Moco 4.6 (MocoCasADiSolver: CasADi + IPOPT, one thread) beside `ferrobody optimize` on the
same problems, alternated round by round; prints each run and the medians and their ratio.

Usage (from the repository root, after `cargo build --release`):
    PYTHON=/path/to/python-with-opensim python3 bench/moco/compare.py ROUNDS [PROBLEM ...]
PROBLEM: sliding_mass, double_pendulum_swingup (default: both), gait2d_tracking. Moco's side is
`make_moco_refs.py` from the shared Moco references (MOCO_REFS overrides its path), or for
gait2d_tracking `bench/moco/gait_tracking.py` (example2DWalking's MocoTrack problem); its time
is the wall time around `study.solve()` (CasADi problem building included). ferrobody's is
`solver_duration_s` of summary.json (transcription and IPOPT) and the whole process.
"""
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MOCO = os.environ.get(
    "MOCO_REFS", os.path.join(ROOT, "..", "shared", "reference", "moco", "make_moco_refs.py"))
PYTHON = os.environ.get("PYTHON", "python3")
FERROBODY = os.path.join(ROOT, "target", "release", "ferrobody")


TRACKING = os.path.join(ROOT, "bench", "moco", "gait_tracking.py")


def moco(problem, out):
    if problem == "gait2d_tracking":
        if os.path.exists(os.path.join(out, "results.csv")):
            os.remove(os.path.join(out, "results.csv"))
        subprocess.run([PYTHON, TRACKING, out, "tracking"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        results, name = "results.csv", "tracking"
    else:
        subprocess.run([PYTHON, MOCO, out, problem], check=True, stdout=subprocess.DEVNULL)
        results, name = "moco_results.csv", problem
    with open(os.path.join(out, results)) as f:
        row = next(r for r in csv.DictReader(f) if r["problem"] == name)
    return float(row["solve_wall_time_s"]), int(row["iterations"]), float(row["objective"])


def ferrobody(problem, out):
    toml = os.path.join(ROOT, "examples", "optimal-control", problem + ".toml")
    start = time.perf_counter()
    subprocess.run([FERROBODY, "optimize", toml, "--quiet", "--out", out], check=True,
                   stdout=subprocess.DEVNULL)
    process = time.perf_counter() - start
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    return s["solver_duration_s"], s["iterations"], s["objective"], process


def main(argv):
    rounds = int(argv[1]) if len(argv) > 1 else 3
    problems = argv[2:] or ["sliding_mass", "double_pendulum_swingup"]
    tmp = tempfile.mkdtemp(prefix="moco-compare-")
    for problem in problems:
        m_times, f_times, f_process = [], [], []
        for r in range(rounds):
            mt, mi, mo = moco(problem, os.path.join(tmp, "moco"))
            ft, fi, fo, fp = ferrobody(problem, os.path.join(tmp, "fb-" + problem))
            m_times.append(mt)
            f_times.append(ft)
            f_process.append(fp)
            print(f"{problem} round {r + 1}: Moco {mt:.3f} s ({mi} iterations, objective {mo:.10g}); "
                  f"ferrobody {ft:.4f} s ({fi} iterations, objective {fo:.10g}), process {fp:.3f} s",
                  flush=True)
        mm, fm, pm = (statistics.median(x) for x in (m_times, f_times, f_process))
        print(f"{problem}: median Moco {mm:.3f} s, ferrobody {fm:.4f} s (process {pm:.3f} s): "
              f"{mm / fm:.1f}x ({mm / pm:.1f}x counting ferrobody's whole process)")


if __name__ == "__main__":
    main(sys.argv)
