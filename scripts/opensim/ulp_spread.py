"""OpenSim 4.6's own spread on a muscle model: runs it as make_muscle_references.py does, then
again with one state variable moved by one ulp after equilibration, and prints the largest
change per column group (lengths/coordinates, tendon forces) against the unperturbed run.

Usage: python ulp_spread.py MODEL.osim DURATION STATE_VARIABLE_PATH [STATE_VARIABLE_PATH ...]
(needs `pip install opensim`; a path is OpenSim's, e.g. /jointset/slider/block_x/value or
/forceset/left/fiber_length). The name `accuracy` moves the integrator's accuracy by one ulp
instead: a perturbation of every step's size at round-off level, for models whose state
variables start at zero, where a one-ulp nudge is a denormal that changes nothing. A name ending in `-` moves it one ulp
down instead of up. With the environment variable EXTERNAL_LOADS naming an ExternalLoads file,
it is added to the model as the forward tool adds it; the largest change of a body origin (m)
is printed too.
"""
import os
import math
import sys

import opensim as osim


def run(path, duration, nudge=None):
    model = osim.Model(path)
    if os.environ.get("EXTERNAL_LOADS"):
        model.addModelComponent(osim.ExternalLoads(os.environ["EXTERNAL_LOADS"], True))
    state = model.initSystem()
    model.equilibrateMuscles(state)
    accuracy = 1e-6
    direction = math.inf
    if nudge is not None and nudge.endswith("-"):
        nudge, direction = nudge[:-1], -math.inf
    if nudge == "accuracy":
        accuracy = math.nextafter(accuracy, direction)
    elif nudge is not None:
        v = model.getStateVariableValue(state, nudge)
        model.setStateVariableValue(state, nudge, math.nextafter(v, direction))
    muscles = [model.getMuscles().get(i) for i in range(model.getMuscles().getSize())]
    coords = [model.getCoordinateSet().get(i) for i in range(model.getCoordinateSet().getSize())]
    manager = osim.Manager(model)
    manager.setIntegratorMethod(osim.Manager.IntegratorMethod_RungeKuttaMerson)
    manager.setIntegratorAccuracy(accuracy)
    state.setTime(0.0)
    manager.initialize(state)
    rows = []
    for i in range(1, int(round(duration / 0.01)) + 1):
        s = osim.State(manager.integrate(0.01 * i))
        model.realizeDynamics(s)
        lengths = [c.getValue(s) for c in coords] + [c.getSpeedValue(s) for c in coords]
        lengths += [m.getFiberLength(s) for m in muscles] + [m.getActivation(s) for m in muscles]
        bodies = model.getBodySet()
        origins = [bodies.get(b).getPositionInGround(s).get(k)
                   for b in range(bodies.getSize()) for k in range(3)]
        rows.append((s.getTime(), lengths, [m.getTendonForce(s) for m in muscles], origins))
    return rows


def main():
    path, duration = sys.argv[1], float(sys.argv[2])
    base = run(path, duration)
    for nudge in sys.argv[3:]:
        moved = run(path, duration, nudge)
        dl = max((abs(a - b), t) for (t, la, _, _), (_, lb, _, _) in zip(base, moved)
                 for a, b in zip(la, lb))
        df = max(((abs(a - b), t) for (t, _, fa, _), (_, _, fb, _) in zip(base, moved)
                  for a, b in zip(fa, fb)), default=(0.0, 0.0))  # a model without muscles
        do = max((abs(a - b), t) for (t, _, _, oa), (_, _, _, ob) in zip(base, moved)
                 for a, b in zip(oa, ob))
        sign = "-" if nudge.endswith("-") else "+"
        print(f"{nudge.rstrip('-')} {sign} 1 ulp: coordinates/speeds/fibre lengths/activations "
              f"{dl[0]:.3e} (t = {dl[1]:.2f}), tendon forces {df[0]:.3e} N (t = {df[1]:.2f}), "
              f"body origins {do[0]:.3e} m (t = {do[1]:.2f})")
        per_row = [f"{t:.2f}: {max(abs(a - b) for a, b in zip(la, lb)):.2e}"
                   for (t, la, _, _), (_, lb, _, _) in zip(base, moved)]
        print("  per row:", ", ".join(per_row))


if __name__ == "__main__":
    main()
