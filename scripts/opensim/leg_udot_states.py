"""OpenSim's own u̇ of the leg at states along its RK-Merson run and between them: the fixture
of `planar_xy::tests::the_leg_repeats_simbodys_arithmetic_bit_for_bit`
(testdata/opensim/osim_leg_hc_udot.txt; one state per line: t, q (6), u (6), u̇ (6), each
printed as the shortest decimal that reads back to the same double).

Needs `pip install opensim` (4.6). Usage, from the repository root:
    python3 scripts/opensim/leg_udot_states.py > testdata/opensim/osim_leg_hc_udot.txt
"""

import random

import opensim as osim


def main():
    osim.Logger.setLevelString("error")
    model = osim.Model("testdata/opensim/osim_leg_hc.osim")
    state = model.initSystem()
    manager = osim.Manager(model)
    manager.setIntegratorMethod(osim.Manager.IntegratorMethod_RungeKuttaMerson)
    manager.setIntegratorAccuracy(1e-6)
    manager.initialize(state)
    stops = []
    for i in range(201):
        if i > 0:
            state = manager.integrate(round(i * 0.005, 10))
        stops.append((state.getTime(), [state.getQ().get(k) for k in range(6)],
                      [state.getU().get(k) for k in range(6)]))
    probe = osim.Model("testdata/opensim/osim_leg_hc.osim")
    s = probe.initSystem()
    rng = random.Random(3)
    rows = []
    # Every second stop (free fall, impacts, stance, lift-off), and states between stops.
    for i, (t, q, u) in enumerate(stops):
        if i % 2 == 0:
            rows.append((t, q, u))
        if i + 1 < len(stops) and i % 2 == 1:
            lam = rng.random()
            q1, u1 = stops[i + 1][1], stops[i + 1][2]
            rows.append((t, [a + lam * (b - a) for a, b in zip(q, q1)],
                         [a + lam * (b - a) for a, b in zip(u, u1)]))
    for t, q, u in rows:
        for k in range(6):
            s.updQ().set(k, q[k])
            s.updU().set(k, u[k])
        s.setTime(t)
        probe.realizeAcceleration(s)
        udot = [s.getUDot().get(k) for k in range(6)]
        print(" ".join(repr(x) for x in [t] + q + u + udot))


if __name__ == "__main__":
    main()
