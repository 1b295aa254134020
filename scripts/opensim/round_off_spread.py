"""OpenSim against itself: runs a model as the references were run (RK-Merson, accuracy 1e-6,
one Manager.integrate(t) per 0.01 s row) with one coordinate moved by 0, +1e-15, -1e-15 and
+1e-14, and prints how far the first body's origin strays from the unmoved run (to 0.8 s and
over the whole run): the reference's own round-off spread (docs/models/elastic-foundation.md).

Needs `pip install opensim` (4.6). Usage, in testdata/opensim:
    python3 ../../scripts/opensim/round_off_spread.py osim_box_mesh_ef.osim free_coord_4 1.0
"""

import sys

import opensim as osim


def run(path, coord, dy, T):
    m = osim.Model(path); s = m.initSystem()
    c = m.getCoordinateSet().get(coord); c.setValue(s, c.getValue(s) + dy)
    man = osim.Manager(m); man.setIntegratorMethod(osim.Manager.IntegratorMethod_RungeKuttaMerson); man.setIntegratorAccuracy(1e-6)
    man.initialize(s)
    b = m.getBodySet().get(0)
    out = []
    for i in range(1, int(round(T/0.01))+1):
        s = man.integrate(round(i*0.01, 10))
        m.realizePosition(s)
        p = b.getTransformInGround(s).p()
        out.append((s.getTime(), p.get(0), p.get(1), p.get(2)))
    return out
path, coord, T = sys.argv[1], sys.argv[2], float(sys.argv[3])
base = run(path, coord, 0.0, T)
for dy in (1e-15, -1e-15, 1e-14):
    o = run(path, coord, dy, T)
    worst = max((max(abs(a[k]-b[k]) for k in (1,2,3)), a[0]) for a, b in zip(o, base))
    early = max(max(abs(a[k]-b[k]) for k in (1,2,3)) for a, b in zip(o, base) if a[0] <= 0.8 + 1e-9)
    print(f"{path} dy={dy:g}: to 0.8 s {early:.3e}, whole {worst[0]:.3e} at t={worst[1]:.2f}")
