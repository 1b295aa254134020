"""Prints OpenSim's step counts for a reference run: loads MODEL.osim, runs OpenSim's Manager
with each METHOD (Manager.IntegratorMethod_METHOD, accuracy 1e-6, one integrate(t) per 0.01 s
row, as the references were made) and prints the last "number of steps taken / attempted" line
of the Manager's log (Simbody's getNumStepsTaken / getNumStepsAttempted), for
crates/ferrobody/tests/opensim_models.rs::step_counts_match_opensims_manager.

Needs `pip install opensim` (4.6). Usage, in testdata/opensim:
    python3 ../../scripts/opensim/manager_step_counts.py osim_leg_hc.osim 1 RungeKuttaMerson Verlet
"""

import os
import re
import subprocess
import sys

RUN = """
import opensim as osim, sys
path, T, name = sys.argv[1], float(sys.argv[2]), sys.argv[3]
m = osim.Model(path); s = m.initSystem()
man = osim.Manager(m)
man.setIntegratorMethod(getattr(osim.Manager, "IntegratorMethod_" + name))
man.setIntegratorAccuracy(1e-6)
man.initialize(s)
for i in range(1, int(round(T / 0.01)) + 1):
    s = man.integrate(i * 0.01)
"""


def main():
    path, duration, methods = sys.argv[1], sys.argv[2], sys.argv[3:]
    for name in methods:
        # OpenSim logs from C++; a child process lets us read its output.
        out = subprocess.run([sys.executable, "-c", RUN, path, duration, name],
                             capture_output=True, text=True, env=os.environ).stdout
        counts = re.findall(r"steps taken / attempted: (\d+) / (\d+)", out)
        print(name, "taken %s attempted %s" % counts[-1])


if __name__ == "__main__":
    main()
