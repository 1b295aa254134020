"""OpenSim 4.6's GCVSpline evaluated on a few data sets: value, first and second derivative.

Usage: python make_gcv_spline_reference.py OUT_DIR

Writes OUT_DIR/gcv_splines.osim (the splines, as OpenSim serializes them: half_order,
error_variance, x, y) and OUT_DIR/gcv_splines.csv (one row per spline and abscissa: the
spline's index, t, f(t), f'(t), f''(t), printed with 17 significant digits). The abscissae
cover each knot, points between knots and points beyond both ends. Each spline is built from
its XML (OpenSim's `GCVSpline::createSimTKFunction`: Simbody's SplineFitter by the error
variance, or by GCV when it is negative).
"""
import math
import sys

import opensim as osim

out = sys.argv[1]


def data(n, seed):
    """n non-uniform abscissae on [0, 2] and a noisy sine on them (deterministic)."""
    xs, ys = [], []
    x = 0.0
    state = seed
    for i in range(n):
        state = (1103515245 * state + 12345) % 2**31
        jitter = state / 2**31
        x += 0.05 + 0.15 * jitter
        xs.append(round(x, 6))
        ys.append(round(math.sin(3.0 * x) + 0.05 * (jitter - 0.5) + 0.3 * x, 6))
    return xs, ys


# (half order, error variance, number of points, seed)
CASES = [
    (1, 0.0, 12, 1),
    (2, 0.0, 15, 2),
    (3, 0.0, 20, 3),
    (4, 0.0, 24, 4),
    (2, 1e-3, 25, 5),
    (3, 1e-4, 30, 6),
    (2, -1.0, 30, 7),
    (3, -1.0, 25, 8),
]

splines = []
body = []
for k, (m, var, n, seed) in enumerate(CASES):
    xs, ys = data(n, seed)
    body.append(
        f'<GCVSpline name="s{k}"><half_order>{m}</half_order>'
        f"<error_variance>{var!r}</error_variance>"
        f"<x>{' '.join(repr(v) for v in xs)}</x><y>{' '.join(repr(v) for v in ys)}</y>"
        "</GCVSpline>"
    )
doc = '<?xml version="1.0" encoding="UTF-8" ?>\n<OpenSimDocument Version="40600"><FunctionSet name="splines"><objects>\n'
doc += "\n".join(body) + "\n</objects></FunctionSet></OpenSimDocument>\n"
path = f"{out}/gcv_splines.osim"
with open(path, "w") as f:
    f.write(doc)

fs = osim.FunctionSet(path)
rows = ["spline,t,value,d1,d2"]
d1 = osim.StdVectorInt()
d1.append(0)
d2 = osim.StdVectorInt()
d2.append(0)
d2.append(0)
for k, (m, var, n, seed) in enumerate(CASES):
    xs, _ = data(n, seed)
    f = fs.get(k)
    ts = [xs[0] - 0.3, xs[0] - 0.01] + xs
    ts += [(a + b) / 2 for a, b in zip(xs, xs[1:])]
    ts += [xs[-1] + 0.01, xs[-1] + 0.4]
    for t in sorted(ts):
        v = osim.Vector(1, t)
        rows.append(
            f"{k},{t!r},{f.calcValue(v)!r},{f.calcDerivative(d1, v)!r},{f.calcDerivative(d2, v)!r}"
        )
with open(f"{out}/gcv_splines.csv", "w") as f:
    f.write("\n".join(rows) + "\n")
print(path, len(rows) - 1, "rows")
