"""OpenSim against ferrobody, one evaluation at a time: steps OpenSim's own RK-Merson run of a
model (accuracy 1e-6, one Manager.integrate(t) per interval), and at each stop evaluates u̇
in both programs at OpenSim's state, printing how many units in the last place each u̇ entry
differs (0 everywhere means the same arithmetic). `Dynamics.forward_dynamics` runs the general
(three-dimensional) pipeline, whose round-off is not Simbody's: for the leg it differs already
in free fall (OpenSim's pelvis falls at −9.809999999999999, it at −9.81) and by 1–8000 ulps in
contact. The integrators' planar-xy path, which repeats Simbody's arithmetic, equals OpenSim's
at every state (`planar_xy::tests::the_leg_repeats_simbodys_arithmetic_bit_for_bit`, fixture
from `leg_udot_states.py`); docs/integrators.md tells how.

Needs `pip install opensim` (4.6) and the Python package built
(`bash scripts/test-python.sh`). Usage, from the repository root:
    PYTHONPATH=crates/ferrobody-py/python python3 scripts/opensim/udot_ulps.py \
        testdata/opensim/osim_leg_hc.osim 0.15 0.005
"""

import struct
import sys

import numpy as np
import opensim as osim

import ferrobody


def ulps(a, b):
    """Signed distance of two doubles of the same sign in units in the last place."""
    ia = struct.unpack("<q", struct.pack("<d", a))[0]
    ib = struct.unpack("<q", struct.pack("<d", b))[0]
    return ia - ib


def main(path, duration, interval):
    osim.Logger.setLevelString("error")
    model = osim.Model(path)
    state = model.initSystem()
    ours = ferrobody.Dynamics(ferrobody.load(path))
    manager = osim.Manager(model)
    manager.setIntegratorMethod(osim.Manager.IntegratorMethod_RungeKuttaMerson)
    manager.setIntegratorAccuracy(1e-6)
    manager.initialize(state)
    for i in range(int(round(duration / interval)) + 1):
        t = round(i * interval, 10)
        if t > 0:
            state = manager.integrate(t)
        model.realizeAcceleration(state)
        q = np.array([state.getQ().get(k) for k in range(state.getNQ())])
        u = np.array([state.getU().get(k) for k in range(state.getNU())])
        theirs = [state.getUDot().get(k) for k in range(state.getNU())]
        mine = ours.forward_dynamics(q, u, t=t)
        # Round-off near zero (free fall) is shown as the two values, ours/OpenSim's.
        gaps = " ".join(f"{ulps(a, b):+d}" if a * b > 0 and abs(b) > 1e-9 else f"{a:+.2g}/{b:+.2g}"
                        for a, b in zip(mine, theirs))
        print(f"t = {t:.3f}: {gaps}")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))
