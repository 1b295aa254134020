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


def axis(st, i, coords, direction, function):
    """Sets TransformAxis i; the axis keeps a copy of `function` (set_function copies, so
    Python's object and OpenSim's never share ownership; setFunction adopts and crashes)."""
    ta = st.updTransformAxis(i)
    names = osim.ArrayStr()
    for c in coords:
        names.append(c)
    ta.setCoordinateNames(names)
    ta.setAxis(vec3(*direction))
    ta.set_function(function)


def spline(xs, ys):
    f = osim.SimmSpline()
    for x, y in zip(xs, ys):
        f.addPoint(x, y)
    return f


def custom_model():
    """CustomJoints as gait models use them: a 3-rotation hip, a knee whose translations
    follow the flexion angle through SimmSplines (coupled translations), a joint mixing
    Polynomial, Multiplier and Constant functions about skew axes."""
    m = osim.Model()
    m.setName("custom_joints")
    m.setGravity(vec3(0, -9.81, 0))
    g = m.getGround()
    thigh = body(m, "thigh", 7.0, (0, -0.2, 0), (0.1, 0.02, 0.1, 0, 0, 0))
    st = osim.SpatialTransform()
    axis(st, 0, ["hip_flexion"], (0, 0, 1), osim.LinearFunction(1, 0))
    axis(st, 1, ["hip_adduction"], (1, 0, 0), osim.LinearFunction(1, 0))
    axis(st, 2, ["hip_rotation"], (0, 1, 0), osim.LinearFunction(1, 0))
    axis(st, 3, [], (1, 0, 0), osim.Constant(0))
    axis(st, 4, [], (0, 1, 0), osim.Constant(0))
    axis(st, 5, [], (0, 0, 1), osim.Constant(0))
    hip = osim.CustomJoint("hip", g, vec3(0, 1.2, 0), vec3(0, 0, 0), thigh, vec3(0, 0, 0), vec3(0, 0, 0), st)
    m.addJoint(hip)
    set_defaults(hip, (0.4, 0.1, -0.2), (0.5, -0.3, 0.8))
    shank = body(m, "shank", 3.0, (0, -0.2, 0), (0.04, 0.005, 0.04, 0, 0, 0))
    st = osim.SpatialTransform()
    knee_x = [-2.0944, -1.74533, -1.39626, -1.0472, -0.698132, -0.349066, -0.174533, 0.197344, 0.337395, 0.490178, 1.52146, 2.0944]
    tx = [-0.0032, 0.00179, 0.00411, 0.0041, 0.00212, -0.001, -0.0031, -0.005227, -0.005435, -0.005574, -0.005435, -0.00525]
    ty = [-0.4226, -0.4082, -0.399, -0.3976, -0.4037, -0.4056, -0.4079, -0.41, -0.4103, -0.4104, -0.4103, -0.4101]
    axis(st, 0, [], (1, 0, 0), osim.Constant(0))
    axis(st, 1, [], (0, 1, 0), osim.Constant(0))
    axis(st, 2, ["knee_angle"], (0, 0, 1), osim.LinearFunction(1, 0))
    axis(st, 3, ["knee_angle"], (1, 0, 0), spline(knee_x, tx))
    axis(st, 4, ["knee_angle"], (0, 1, 0), spline(knee_x, ty))
    axis(st, 5, [], (0, 0, 1), osim.Constant(0))
    knee = osim.CustomJoint("knee", thigh, vec3(0, 0, 0), vec3(0, 0, 0), shank, vec3(0, 0, 0), vec3(0, 0, 0), st)
    m.addJoint(knee)
    set_defaults(knee, (-0.6,), (1.0,))
    foot = body(m, "foot", 1.0, (0.05, -0.03, 0), (0.002, 0.004, 0.004, 0, 0, 0))
    st = osim.SpatialTransform()
    poly = osim.PolynomialFunction(osim.Vector([0.3, -0.2, 1.0, 0.05]))
    inner = spline([-1.0, -0.5, 0.0, 0.5, 1.0], [-0.8, -0.45, 0.0, 0.5, 0.9])
    mult = osim.MultiplierFunction(inner, 0.9)
    inner.thisown = False  # the MultiplierFunction adopted it
    axis(st, 0, ["ankle_angle"], (0.1, 0.2, 1.0), poly)
    axis(st, 1, ["subtalar_angle"], (0.8, 0.6, 0.0), mult)
    axis(st, 2, [], (0, 0, 1), osim.Constant(0.1))
    axis(st, 3, [], (1, 0, 0), osim.Constant(0.01))
    axis(st, 4, ["ankle_angle"], (0, 1, 0), osim.LinearFunction(0.02, -0.4))
    axis(st, 5, [], (0, 0, 1), osim.Constant(0))
    ankle = osim.CustomJoint("ankle", shank, vec3(0, 0, 0), vec3(0, 0, 0), foot, vec3(0, 0, 0), vec3(0, 0, 0), st)
    m.addJoint(ankle)
    set_defaults(ankle, (0.2, -0.1), (-0.5, 0.4))
    for cname, k, rest, c in [("hip_flexion", 300.0, 0.4, 5.0), ("hip_adduction", 300.0, 0.0, 5.0),
                              ("hip_rotation", 300.0, 0.0, 5.0), ("knee_angle", 200.0, -0.6, 3.0),
                              ("ankle_angle", 30.0, 0.1, 0.5), ("subtalar_angle", 30.0, 0.0, 0.5)]:
        f = osim.SpringGeneralizedForce(cname)
        f.setName("spring_" + cname)
        f.setStiffness(k)
        f.setRestLength(rest)
        f.setViscosity(c)
        m.addForce(f)
    # Soft limits: rotational (degrees in the file), on a Coupled coordinate (SI units), one
    # integrating its dissipated energy (an extra state variable).
    for cname, up, kup, low, klow, damp, trans, energy in [
            ("hip_flexion", 20.0, 20.0, -30.0, 20.0, 0.5, 5.0, True),
            ("knee_angle", -30.0, 10.0, -40.0, 10.0, 0.2, 2.0, False),
            ("subtalar_angle", 0.05, 500.0, -0.05, 500.0, 5.0, 0.02, False)]:
        f = osim.CoordinateLimitForce(cname, up, kup, low, klow, damp, trans, energy)
        f.setName("limit_" + cname)
        m.addForce(f)
    return m, 1.0


def exponential_model():
    """A block on four ExponentialContactForce corners against a tilted contact plane, thrown
    sideways so it slides, then sticks (OpenSim's Python package lacks the parameters class, so
    the elements are written as XML into the printed model)."""
    m = osim.Model()
    m.setName("block_exponential")
    m.setGravity(vec3(0, -9.81, 0))
    block = body(m, "block", 2.0, (0, 0, 0), (0.02, 0.03, 0.025, 0, 0, 0))
    free = joint(m, osim.FreeJoint, "free", m.getGround(), (0, 0, 0), (0, 0, 0), block, (0, 0, 0), (0, 0, 0))
    set_defaults(free, (0.05, 0.1, -0.04, 0.3, 0.12, -0.1), (0.5, -0.3, 1.0, 1.2, 0.0, 0.4))
    return m, 1.0


def bushing_model():
    """A free body hung from Ground by a BushingForce between rotated offset frames, and a
    pinned link tied to it by a second bushing."""
    m = osim.Model()
    m.setName("bushings")
    m.setGravity(vec3(0, -9.81, 0))
    g = m.getGround()
    pod = body(m, "pod", 2.0, (0.05, -0.1, 0.02), (0.03, 0.02, 0.025, 0.001, 0, 0.002))
    free = joint(m, osim.FreeJoint, "pod_free", g, (0, 0, 0), (0, 0, 0), pod, (0, 0, 0), (0, 0, 0))
    set_defaults(free, (0.2, -0.1, 0.15, 0.05, 0.9, -0.03), (0.5, -0.8, 0.3, 0.2, 0.0, -0.1))
    link = body(m, "link", 1.0, (0, -0.2, 0), (0.02, 0.004, 0.02, 0, 0, 0))
    pin = joint(m, osim.PinJoint, "link_pin", g, (0.5, 1.0, 0), (0.1, 0, 0), link, (0, 0, 0), (0, 0, 0))
    set_defaults(pin, (0.4,), (0.0,))
    def pose(angle, axis, p):
        return osim.Transform(osim.Rotation(angle, osim.CoordinateAxis(axis)), vec3(*p))

    # Arguments: translational then rotational stiffness, translational then rotational damping.
    b1 = osim.BushingForce("hanger", g, pose(0.2, 0, (0, 1.0, 0)), pod, pose(-0.1, 2, (0, 0.1, 0)),
                           vec3(400, 300, 500), vec3(20, 30, 25), vec3(5, 6, 4),
                           vec3(0.3, 0.2, 0.25))
    m.addForce(b1)
    b2 = osim.BushingForce("tie", link, pose(0.2, 2, (0, -0.4, 0)), pod, pose(0.05, 0, (0.1, 0, 0)),
                           vec3(100, 120, 80), vec3(5, 4, 6), vec3(2, 2, 2),
                           vec3(0.1, 0.1, 0.1))
    m.addForce(b2)
    return m, 1.0


# Four corners of the block; the contact plane's +z (the normal) turned to Ground's +y and
# tilted by 0.1 rad about x; its origin lowered 1 cm. Shape, friction and viscosity differ from
# the defaults so that every parameter is read.
EXPONENTIAL_XML = """
<ExponentialContactForce name="corner{i}">
  <contact_plane_transform>-1.4707963267948966 0 0 0 -0.01 0</contact_plane_transform>
  <exponential_shape_parameters>0.006 0.6 1100</exponential_shape_parameters>
  <normal_viscosity>0.8</normal_viscosity>
  <max_normal_force>50000</max_normal_force>
  <friction_elasticity>15000</friction_elasticity>
  <friction_viscosity>250</friction_viscosity>
  <settle_velocity>0.02</settle_velocity>
  <initial_mu_static>0.6</initial_mu_static>
  <initial_mu_kinetic>0.4</initial_mu_kinetic>
  <Station name="station">
    <socket_parent_frame>/bodyset/block</socket_parent_frame>
    <location>{x} -0.05 {z}</location>
  </Station>
</ExponentialContactForce>
"""


def add_exponential_forces(path):
    text = open(path).read()
    corners = [(0.1, 0.1), (0.1, -0.1), (-0.1, 0.1), (-0.1, -0.1)]
    xml = "".join(EXPONENTIAL_XML.format(i=i, x=x, z=z) for i, (x, z) in enumerate(corners))
    text = text.replace('<ForceSet name="forceset">\n\t\t\t<objects />',
                        '<ForceSet name="forceset">\n\t\t\t<objects>' + xml + '</objects>')
    assert "corner3" in text
    open(path, "w").write(text)


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
    for name, make in [("osim_joints_hc", joints_model), ("osim_custom_joints", custom_model),
                       ("osim_block_exponential", exponential_model),
                       ("osim_bushings", bushing_model)]:
        model, duration = make()
        model.finalizeConnections()
        model.printToXML(os.path.join(out, name + ".osim"))
        if name == "osim_block_exponential":
            add_exponential_forces(os.path.join(out, name + ".osim"))
        if name == "osim_custom_joints":
            # The same model with the knee's splines as NaturalCubicSplines (the Python
            # package does not expose that class, so the tags are renamed in the file).
            text = open(os.path.join(out, name + ".osim")).read()
            text = text.replace("<SimmSpline", "<NaturalCubicSpline", 2)
            text = text.replace("</SimmSpline>", "</NaturalCubicSpline>", 2)
            natural = os.path.join(out, "osim_custom_natural.osim")
            open(natural, "w").write(text)
            run(osim.Model(natural), duration, os.path.join(out, "osim_custom_natural.csv"))
        # Simulate the file as written, as a user would.
        run(osim.Model(os.path.join(out, name + ".osim")), duration, os.path.join(out, name + ".csv"))
        print("wrote", name)


if __name__ == "__main__":
    main()
