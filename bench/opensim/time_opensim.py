"""Times OpenSim's Manager.integrate(T) on an .osim model, the way an OpenSim user runs it:
RK-Merson at the given accuracy, one integrate(T) call from the default state (muscles
equilibrated), no sampling.
Prints one JSON line (median, min and max of RUNS runs), like `ferrobody bench`.

Usage: python3 bench/opensim/time_opensim.py MODEL.osim T ACCURACY [RUNS]
Needs `pip install opensim` (4.6).
"""

import json
import statistics
import sys
import time

import opensim as osim


def main():
    path, final_time, accuracy = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    osim.Logger.setLevelString("error")
    model = osim.Model(path)
    state = model.initSystem()
    # As ferrobody loads a muscle-driven model (a no-op without muscles).
    model.equilibrateMuscles(state)
    walls = []
    for _ in range(runs):
        s = osim.State(state)
        manager = osim.Manager(model)
        manager.setIntegratorMethod(osim.Manager.IntegratorMethod_RungeKuttaMerson)
        manager.setIntegratorAccuracy(accuracy)
        manager.initialize(s)
        start = time.perf_counter()
        manager.integrate(final_time)
        walls.append(time.perf_counter() - start)
    print(json.dumps({"model": path, "runs": runs, "wall_median_s": statistics.median(walls),
                      "wall_min_s": min(walls), "wall_max_s": max(walls)}))


if __name__ == "__main__":
    main()
