"""Builds .osim models with OpenSim's API, runs them with OpenSim's Manager and writes the
reference trajectories that crates/ferrobody/tests/opensim_models.rs compares against.

Needs `pip install opensim` (4.6; not needed by CI, which reads the stored CSV files).
Usage: python3 scripts/opensim/make_references.py testdata/opensim

Each run follows shared/reference/opensim/README.md: RK-Merson, accuracy 1e-6, one
Manager.integrate(t) per 0.01 s row, columns t, coordinates, speeds (NAME.u), then each body's
origin (px, py, pz) and rotation (qw, qx, qy, qz, qw >= 0), numbers in %.17g.
"""

import math
import os
import sys

import opensim as osim


def vec3(x, y, z):
    return osim.Vec3(x, y, z)


def body(model, name, mass, com, inertia):
    b = osim.Body(name, mass, vec3(*com), osim.Inertia(*inertia))
    model.addBody(b)
    return b


def joint(model, cls, name, parent, p_pos, p_ori, child, c_pos, c_ori):
    j = cls(name, parent, vec3(*p_pos), vec3(*p_ori), child, vec3(*c_pos), vec3(*c_ori))
    model.addJoint(j)
    return j


def set_defaults(j, values, speeds):
    for k, (v, s) in enumerate(zip(values, speeds)):
        c = j.upd_coordinates(k)
        c.setDefaultValue(v)
        c.setDefaultSpeedValue(s)


def joints_model():
    """Every joint type but Planar and Pin-only chains (the leg covers those): Weld, Ball,
    Universal, Gimbal, Slider, Pin and Free, offset frames with rotations, a tilted half space
    under a Hunt-Crossley ball, a point-to-point spring and generalized springs."""
    m = osim.Model()
    m.setName("joints_hc")
    m.setGravity(vec3(0, -9.81, 0))
    g = m.getGround()
    base = body(m, "base", 2.0, (0, 0, 0), (0.02, 0.03, 0.04, 0, 0, 0))
    joint(m, osim.WeldJoint, "weld", g, (0, 1.5, 0), (0.1, 0.2, 0.3), base, (0, 0, 0), (0, 0, 0))
    arm = body(m, "arm", 1.5, (0.1, -0.2, 0.05), (0.05, 0.03, 0.04, 0.001, -0.002, 0.003))
    ball = joint(m, osim.BallJoint, "shoulder", base, (0.1, -0.1, 0), (0.3, 0, 0.2),
                 arm, (0, 0.05, 0), (0, -0.1, 0))
    set_defaults(ball, (0.3, -0.2, 0.4), (1.0, 0.5, -0.3))
    fore = body(m, "forearm", 1.0, (0, -0.15, 0), (0.02, 0.005, 0.02, 0, 0, 0))
    uni = joint(m, osim.UniversalJoint, "elbow", arm, (0.1, -0.4, 0.05), (0, 0.2, 0),
                fore, (0, 0.02, 0), (0.1, 0, 0))
    set_defaults(uni, (0.5, -0.3), (0.2, -0.4))
    hand = body(m, "hand", 1.0, (0.02, -0.05, 0.01), (0.01, 0.008, 0.01, 0, 0, 0))
    gim = joint(m, osim.GimbalJoint, "wrist", fore, (0, -0.3, 0), (0, 0, 0.3),
                hand, (0, 0.01, 0), (0, 0, 0))
    set_defaults(gim, (0.2, 0.3, -0.5), (0.2, -0.1, 0.3))
    sled = body(m, "sled", 1.0, (0, 0, 0), (0.01, 0.01, 0.01, 0, 0, 0))
    sl = joint(m, osim.SliderJoint, "rail", g, (1, 1, 0), (0, 0, -0.4), sled, (0, 0, 0), (0, 0, 0))
    set_defaults(sl, (0.1,), (0.3,))
    pend = body(m, "pendulum", 0.8, (0, -0.25, 0), (0.01, 0.002, 0.01, 0, 0, 0))
    pin = joint(m, osim.PinJoint, "hinge", sled, (0, -0.05, 0), (0.2, 0, 0), pend, (0, 0, 0), (0, 0, 0))
    set_defaults(pin, (0.7,), (-1.0,))
    rock = body(m, "rock", 1.0, (0, 0, 0), (0.004, 0.005, 0.006, 0, 0, 0))
    free = joint(m, osim.FreeJoint, "rock_free", g, (-1, 0, 0), (0, 0, 0), rock, (0, 0, 0), (0, 0, 0))
    set_defaults(free, (0.4, -0.3, 0.2, 0.1, 0.35, -0.2), (2.0, -1.0, 3.0, 0.5, 0.0, 0.3))

    floor = osim.ContactHalfSpace(vec3(0, 0, 0), vec3(0.15, 0, -math.pi / 2 + 0.1), g, "floor")
    m.addContactGeometry(floor)
    s1 = osim.ContactSphere(0.1, vec3(0.02, 0, 0), rock, "rock_sphere")
    m.addContactGeometry(s1)
    hc = osim.HuntCrossleyForce()
    hc.setName("rock_floor")
    hc.addGeometry("rock_sphere")
    hc.addGeometry("floor")
    hc.setStiffness(1e6)
    hc.setDissipation(1.0)
    hc.setStaticFriction(0.8)
    hc.setDynamicFriction(0.5)
    hc.setViscousFriction(0.1)
    hc.setTransitionVelocity(0.1)
    m.addForce(hc)
    spring = osim.PointToPointSpring(hand, vec3(0.01, -0.05, 0), g, vec3(0.3, 0.8, 0.1), 20.0, 0.4)
    spring.setName("hand_spring")
    m.addForce(spring)
    for cname, k, rest, c in [("elbow_coord_0", 20.0, 0.4, 0.5), ("elbow_coord_1", 20.0, -0.2, 0.5),
                              ("wrist_coord_0", 5.0, 0.1, 0.1), ("wrist_coord_1", 5.0, 0.2, 0.1),
                              ("wrist_coord_2", 5.0, -0.3, 0.1), ("shoulder_coord_0", 40.0, 0.3, 1.0),
                              ("shoulder_coord_1", 40.0, -0.2, 1.0), ("shoulder_coord_2", 40.0, 0.4, 1.0),
                              ("rail_coord_0", 50.0, 0.0, 1.0)]:
        f = osim.SpringGeneralizedForce(cname)
        f.setName("spring_" + cname)
        f.setStiffness(k)
        f.setRestLength(rest)
        f.setViscosity(c)
        m.addForce(f)
    return m, 1.0


def run(model, duration, csv_path):
    state = model.initSystem()
    coords = [model.getCoordinateSet().get(i) for i in range(model.getCoordinateSet().getSize())]
    bodies = [model.getBodySet().get(i) for i in range(model.getBodySet().getSize())]
    header = ["t"] + [c.getName() for c in coords] + [c.getName() + ".u" for c in coords]
    for b in bodies:
        header += [b.getName() + "." + k for k in ("px", "py", "pz", "qw", "qx", "qy", "qz")]
    manager = osim.Manager(model)
    manager.setIntegratorMethod(osim.Manager.IntegratorMethod_RungeKuttaMerson)
    manager.setIntegratorAccuracy(1e-6)
    manager.initialize(state)
    rows = []
    n = int(round(duration / 0.01))

    def row(s):
        model.realizePosition(s)
        r = [s.getTime()] + [c.getValue(s) for c in coords] + [c.getSpeedValue(s) for c in coords]
        for b in bodies:
            x = b.getTransformInGround(s)
            p = x.p()
            q = x.R().convertRotationToQuaternion()
            qs = [q.get(0), q.get(1), q.get(2), q.get(3)]
            if qs[0] < 0:
                qs = [-v for v in qs]
            r += [p.get(0), p.get(1), p.get(2)] + qs
        return r

    rows.append(row(state))
    for i in range(1, n + 1):
        state = manager.integrate(round(i * 0.01, 10))
        rows.append(row(state))
    with open(csv_path, "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join("%.17g" % v for v in r) + "\n")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "testdata/opensim"
    for name, make in [("osim_joints_hc", joints_model)]:
        model, duration = make()
        model.finalizeConnections()
        model.printToXML(os.path.join(out, name + ".osim"))
        # Simulate the file as written, as a user would.
        run(osim.Model(os.path.join(out, name + ".osim")), duration, os.path.join(out, name + ".csv"))
        print("wrote", name)


if __name__ == "__main__":
    main()
