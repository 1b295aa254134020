"""Makes OpenSim 4.6 references for muscle-driven models (issue 37) in the layout of
../shared/reference/opensim/muscles/ (see its README for the column layout and the run).

Usage: python make_muscle_references.py SHARED_MUSCLES_DIR OUT_DIR [path_forces | spheres |
implicit | torus | defaults | station_frames | ball_actuators | ligaments | body_forces | erf |
point_to_point | bushings | expression_paths | lepton_optimizer]
(needs `pip install opensim`; `lepton_optimizer` makes `mus_pendulum_lepton_optimizer` alone: a
pendulum held by an ExpressionBasedCoordinateForce whose terms Lepton's optimizer rounds
differently from the expression as written; `expression_paths` makes `mus_expression_path_forces` alone:
three ExpressionBasedPathForces between a pendulum, a free box and Ground; `bushings` makes `mus_nonlinear_bushings` alone: a
FunctionBasedBushingForce and an ExpressionBasedBushingForce between free bodies;
`point_to_point` makes `mus_point_to_point_expressions` alone:
two ExpressionBasedPointToPointForces; `erf` makes `mus_pendulum_erf` alone: a pendulum held by an
ExpressionBasedCoordinateForce of Lepton's `erf` and `erfc`; `path_forces` makes `mus_path_forces` alone: a PathActuator and
two PathSprings; `spheres` makes `mus_pendulum_sphere` and `mus_pendulum_sphere_all`: the shared
wrapped pendulum over a WrapSphere, quadrant +x and all; `implicit` makes
`mus_pendulum_implicit`: its DeGroote muscle in the implicit tendon-compliance mode; `torus`
makes `mus_pendulum_torus`: the wrapped pendulum with its WrapCylinder replaced by a WrapTorus
whose ring the muscle must pass through; `defaults` makes `mus_actuators_defaults` from
`mus_actuators.osim` in the first folder, testdata/opensim/muscles: properties left to a
`<defaults>` section; `ball_actuators` makes `mus_ball_actuators`: a BallJoint pendulum (q̇ ≠ u)
with a CoordinateActuator, an ActivationCoordinateActuator and a CoordinateLimitForce on its
Euler angles; `ligaments` makes `mus_ligaments`: a pendulum held by two Ligaments;
`body_forces` makes `mus_body_forces`: PrescribedForces on a free box and
PointToPointActuators between it and a pendulum; `station_frames` makes `station_frames_pin` from opensim-core's
StationDefinedFrames_Advanced.osim, found under the environment variable OPENSIM_CORE: a
pendulum on a PinJoint between two StationDefinedFrames, and `station_frames_advanced`, the
file itself)

`mus_pendulum_points`: the shared `mus_pendulum_wrap.osim` with its PathWrap removed (so the
DeGroote muscle runs over a PathPoint, a MovingPathPoint and a ConditionalPathPoint only);
`mus_pendulum_rigid`: the same with `ignore_tendon_compliance` true and a Sine excitation
(0.3 + 0.2 sin 3t); `mus_block_thelen`: the shared tug of war with its Millard muscle
removed (the block and the Thelen muscle, Sine excitation); `mus_tug_millard_classic`: the
tug of war with the Millard muscle undamped (`fiber_damping` 0, OpenSim's classic model);
`mus_tug_millard_rigid`: with a rigid tendon and no activation dynamics. Each .osim is written, loaded back and run: initSystem,
equilibrateMuscles, RungeKuttaMerson at accuracy 1e-6, one integrate(t) per 0.01 s row.
"""
import os
import shutil
import sys
import xml.etree.ElementTree as ET

import opensim as osim

DURATION = 1.0


def save_through_opensim(tree, out_dir, name, adjust=None):
    """Writes the edited XML, lets OpenSim load it (then `adjust(model)` if given),
    initSystem and write it back, so the file in OUT_DIR is OpenSim's own; returns its path."""
    edited = f"{out_dir}/{name}.edited.osim"
    tree.write(edited)
    model = osim.Model(edited)
    if adjust is not None:
        adjust(model)
    model.initSystem()
    out = f"{out_dir}/{name}.osim"
    model.printToXML(out)
    os.remove(edited)
    return out


def write_variant(src, out_dir, name, rigid):
    """Edits the shared file as XML (OpenSim's API crashes in finalizeConnections once a
    PathWrap is removed), then lets OpenSim load and write it so the file is OpenSim's own."""
    tree = ET.parse(src)
    root = tree.getroot()
    root.find("Model").set("name", name)
    muscle = root.find(".//DeGrooteFregly2016Muscle[@name='lifter']")
    wraps = muscle.find("GeometryPath/PathWrapSet/objects")
    for w in list(wraps):
        wraps.remove(w)
    if rigid:
        functions = root.find(".//PrescribedController/FunctionSet/objects")
        for f in list(functions):
            functions.remove(f)
        sine = ET.SubElement(functions, "Sine")
        for key, value in [("amplitude", "0.2"), ("omega", "3"), ("phase", "0"), ("offset", "0.3")]:
            ET.SubElement(sine, key).text = value
    def rigid_tendon(model):
        lifter = osim.DeGrooteFregly2016Muscle.safeDownCast(model.updForceSet().get("lifter"))
        lifter.set_ignore_tendon_compliance(True)

    return save_through_opensim(tree, out_dir, name, rigid_tendon if rigid else None)


def run(path, csv, external_loads=None):
    model = osim.Model(path)
    if external_loads is not None:
        # as the forward tool adds them (AbstractTool::createExternalLoads)
        model.addModelComponent(osim.ExternalLoads(external_loads, True))
    state = model.initSystem()
    model.equilibrateMuscles(state)
    coords = [model.getCoordinateSet().get(i) for i in range(model.getCoordinateSet().getSize())]
    muscles = [model.getMuscles().get(i) for i in range(model.getMuscles().getSize())]
    in_tree = list(model.getMuscleList())
    if len(in_tree) != len(muscles):  # muscles in <components> too
        muscles = [osim.Muscle.safeDownCast(m) for m in in_tree]
    bodies = [model.getBodySet().get(i) for i in range(model.getBodySet().getSize())]
    cols = ["t"] + [c.getName() for c in coords] + [c.getName() + ".u" for c in coords]
    for m in muscles:
        cols += [f"{m.getName()}.{k}" for k in
                 ["excitation", "activation", "fiber_length", "fiber_velocity", "tendon_force", "length"]]
    for b in bodies:
        cols += [f"{b.getName()}.{k}" for k in ["px", "py", "pz", "qw", "qx", "qy", "qz"]]
    manager = osim.Manager(model)
    manager.setIntegratorMethod(osim.Manager.IntegratorMethod_RungeKuttaMerson)
    manager.setIntegratorAccuracy(1e-6)
    state.setTime(0.0)
    manager.initialize(state)
    rows = []

    def record(s):
        s = osim.State(s)
        model.realizeDynamics(s)
        row = [s.getTime()] + [c.getValue(s) for c in coords] + [c.getSpeedValue(s) for c in coords]
        for m in muscles:
            row += [m.getExcitation(s), m.getActivation(s), m.getFiberLength(s),
                    m.getFiberVelocity(s), m.getTendonForce(s), m.getLength(s)]
        for b in bodies:
            p = b.getPositionInGround(s)
            q = b.getTransformInGround(s).R().convertRotationToQuaternion()
            qs = [q.get(k) for k in range(4)]
            if qs[0] < 0:
                qs = [-x for x in qs]
            row += [p.get(0), p.get(1), p.get(2)] + qs
        rows.append(row)

    record(state)
    n = int(round(DURATION / 0.01))
    for i in range(1, n + 1):
        s = manager.integrate(0.01 * i)
        record(s)
    with open(csv, "w") as f:
        f.write(",".join(cols) + "\n")
        for r in rows:
            f.write(",".join("%.17g" % x for x in r) + "\n")


def write_thelen_only(src, out_dir, name):
    """The shared tug of war without its Millard muscle: the block pulled by the Thelen muscle
    (Sine excitation) alone, against gravity-free sliding."""
    tree = ET.parse(src)
    root = tree.getroot()
    root.find("Model").set("name", name)
    forces = root.find(".//ForceSet/objects")
    for m in list(forces):
        if m.tag == "Millard2012EquilibriumMuscle":
            forces.remove(m)
    ctrl = root.find(".//PrescribedController")
    ctrl.find("socket_actuators").text = "/forceset/right"
    functions = ctrl.find("FunctionSet/objects")
    for f in list(functions):
        if f.tag == "PiecewiseLinearFunction":
            functions.remove(f)
    return save_through_opensim(tree, out_dir, name)


def write_millard_variant(src, out_dir, name, settings):
    """The shared tug of war with its Millard muscle's properties changed (`settings`: tag →
    text), e.g. the classic undamped model or a rigid tendon without activation dynamics."""
    tree = ET.parse(src)
    root = tree.getroot()
    root.find("Model").set("name", name)
    millard = root.find(".//Millard2012EquilibriumMuscle")
    for tag, text in settings.items():
        el = millard.find(tag)
        if el is None:
            el = ET.SubElement(millard, tag)
        el.text = text
    return save_through_opensim(tree, out_dir, name)


def add_controls(model, controls):
    """A PrescribedController named `controls` driving each (actuator, function) pair."""
    controller = osim.PrescribedController()
    controller.setName("controls")
    for actuator, f in controls:
        controller.addActuator(actuator)
        controller.prescribeControlForActuator(actuator.getName(), f)
    model.addController(controller)


def save(model, out_dir, name):
    """`model` connected and written to OUT_DIR/NAME.osim; returns the path."""
    model.finalizeConnections()
    out = f"{out_dir}/{name}.osim"
    model.printToXML(out)
    return out


def write_actuators(out_dir, name):
    """A free body pushed by a PointActuator (off its centre, direction in its own frame) and
    turned by a TorqueActuator (axis in its frame, reaction on a second body), and a pendulum
    driven by an ActivationCoordinateActuator, each by its own Sine; gravity off."""
    model = osim.Model()
    model.setName(name)
    model.setGravity(osim.Vec3(0, 0, 0))
    box = osim.Body("box", 2.0, osim.Vec3(0), osim.Inertia(0.02, 0.03, 0.04))
    model.addBody(box)
    model.addJoint(osim.FreeJoint("free", model.getGround(), box))
    arm = osim.Body("arm", 1.0, osim.Vec3(0, -0.25, 0), osim.Inertia(0.01, 0.002, 0.01))
    model.addBody(arm)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(1, 0, 0), osim.Vec3(0),
                        arm, osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("swing")
    model.addJoint(pin)
    push = osim.PointActuator("box")
    push.setName("push")
    push.set_point(osim.Vec3(0.1, 0.05, 0))
    push.set_direction(osim.Vec3(0, 1, 1))
    push.set_optimal_force(3.0)
    model.addForce(push)
    twist = osim.TorqueActuator(box, arm, osim.Vec3(1, 0, 1), False)
    twist.setName("twist")
    twist.setOptimalForce(0.2)
    model.addForce(twist)
    drive = osim.ActivationCoordinateActuator("swing")
    drive.setName("drive")
    drive.setOptimalForce(2.0)
    drive.set_activation_time_constant(0.05)
    drive.set_default_activation(0.2)
    model.addForce(drive)
    add_controls(model, [(push, osim.Sine(1.0, 3.0, 0.2, 0.5)),
                         (twist, osim.Sine(1.0, 2.0, 0.0, 0.0)),
                         (drive, osim.Sine(0.8, 4.0, 0.0, 0.1))])
    return save(model, out_dir, name)


def write_ball_actuators(out_dir, name):
    """A pendulum on a BallJoint (Euler angles: q̇ ≠ u) driven by a CoordinateActuator on its
    second angle and an ActivationCoordinateActuator on its third (Sine controls), its first
    angle held by a CoordinateLimitForce that it crosses while it swings."""
    model = osim.Model()
    model.setName(name)
    # Gravity along −x, the body's mass centre below the joint along x: the free swing about
    # the vertical is the first angle (R = Rx Ry Rz), away from the second angle's ±90°.
    model.setGravity(osim.Vec3(-9.80665, 0, 0))
    bob = osim.Body("bob", 1.5, osim.Vec3(-0.4, 0.05, 0.02), osim.Inertia(0.02, 0.005, 0.02))
    model.addBody(bob)
    ball = osim.BallJoint("ball", model.getGround(), osim.Vec3(0), osim.Vec3(0),
                          bob, osim.Vec3(0), osim.Vec3(0))
    for i, (q0, u0) in enumerate([(0.1, 0.8), (-0.2, 0.3), (0.1, -0.4)]):
        ball.upd_coordinates(i).setDefaultValue(q0)
        ball.upd_coordinates(i).setDefaultSpeedValue(u0)
    model.addJoint(ball)
    names = [ball.get_coordinates(i).getName() for i in range(3)]
    limit = osim.CoordinateLimitForce(names[0], 10.0, 0.05, -10.0, 0.05, 0.01, 5.0)
    limit.setName("limit")
    model.addForce(limit)
    push = osim.CoordinateActuator(names[1])
    push.setName("push")
    push.setOptimalForce(0.3)
    model.addForce(push)
    drive = osim.ActivationCoordinateActuator(names[2])
    drive.setName("drive")
    drive.setOptimalForce(0.2)
    drive.set_activation_time_constant(0.05)
    model.addForce(drive)
    add_controls(model, [(push, osim.Sine(1.0, 3.0, 0.2, 0.5)),
                         (drive, osim.Sine(0.8, 4.0, 0.0, 0.1))])
    return save(model, out_dir, name)


def write_ligaments(out_dir, name):
    """A pendulum held by two Ligaments from Ground: one with OpenSim's default force-length
    curve (its property left out of the file), one with a SimmSpline curve of its own through
    three points; and by two Blankevoort1991Ligaments, one with its transition strain and
    damping given, one with them left to the defaults. The swing stretches each past its
    resting (slack) length and lets it go slack."""
    model = osim.Model()
    model.setName(name)
    bob = osim.Body("bob", 1.0, osim.Vec3(0, -0.3, 0), osim.Inertia(0.01, 0.002, 0.01))
    model.addBody(bob)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(0), osim.Vec3(0),
                        bob, osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("swing")
    pin.updCoordinate().setDefaultValue(0.6)
    model.addJoint(pin)
    for lig_name, start, end, rest, pcsa, curve in [
            ("lateral", osim.Vec3(-0.25, -0.3, 0), osim.Vec3(0, -0.3, 0), 0.2, 60.0, None),
            ("medial", osim.Vec3(0.3, -0.2, 0.05), osim.Vec3(0.02, -0.25, 0), 0.25, 40.0,
             ([0.0, 1.0, 1.1, 1.3, 2.0], [0.0, 0.0, 0.2, 1.0, 3.0]))]:
        lig = osim.Ligament()
        lig.setName(lig_name)
        lig.updGeometryPath().appendNewPathPoint(lig_name + "_origin", model.getGround(), start)
        lig.updGeometryPath().appendNewPathPoint(lig_name + "_insertion", bob, end)
        lig.set_resting_length(rest)
        lig.set_pcsa_force(pcsa)
        if curve is not None:
            spline = osim.SimmSpline()
            for x, y in zip(*curve):
                spline.addPoint(x, y)
            lig.setForceLengthCurve(spline)
        model.addForce(lig)
    for lig_name, start, end, slack, k, extra in [
            ("acl", osim.Vec3(0.1, -0.45, 0.03), osim.Vec3(0.03, -0.3, 0), 0.2, 100.0,
             (0.08, 2.0)),
            ("pcl", osim.Vec3(-0.15, -0.4, -0.02), osim.Vec3(-0.02, -0.28, 0.01), 0.2, 80.0,
             None)]:
        lig = osim.Blankevoort1991Ligament()
        lig.setName(lig_name)
        path = osim.GeometryPath.safeDownCast(lig.updPath())
        path.appendNewPathPoint(lig_name + "_origin", model.getGround(), start)
        path.appendNewPathPoint(lig_name + "_insertion", bob, end)
        lig.set_slack_length(slack)
        lig.set_linear_stiffness(k)
        if extra is not None:
            lig.set_transition_strain(extra[0])
            lig.set_damping_coefficient(extra[1])
        model.addForce(lig)
    return save(model, out_dir, name)


def write_body_forces(out_dir, name):
    """A free box under two PrescribedForces: one on an offset frame of the box, its force and
    torque in that frame (forceIsGlobal false) at a point of the frame; one on the box, its
    force in Ground at a Ground point (pointIsGlobal), with no torque; Sine,
    PiecewiseLinearFunction and Constant components; and a pendulum pushed from the box by two
    PointToPointActuators (points in the bodies, and fixed in Ground), each driven by a Sine,
    and held by an ExpressionBasedCoordinateForce on its swing; gravity on."""
    model = osim.Model()
    model.setName(name)
    box = osim.Body("box", 2.0, osim.Vec3(0.01, 0.02, 0), osim.Inertia(0.2, 0.3, 0.4))
    model.addBody(box)
    free = osim.FreeJoint("free", model.getGround(), box)
    model.addJoint(free)
    offset = osim.PhysicalOffsetFrame("box_offset", box,
                                      osim.Transform(osim.Rotation(0.4, osim.Vec3(1, 1, 0)),
                                                     osim.Vec3(0.1, -0.05, 0.02)))
    box.addComponent(offset)

    def triple(functions):
        fs = osim.FunctionSet()
        for f in functions:
            fs.cloneAndAppend(f)
        return fs

    def ramp(x, y):
        f = osim.PiecewiseLinearFunction()
        for a, b in zip(x, y):
            f.addPoint(a, b)
        return f

    local = osim.PrescribedForce("local", offset)
    local.set_forceIsGlobal(False)
    local.set_forceFunctions(triple([osim.Sine(3.0, 4.0, 0.0, 1.0), osim.Constant(3.0),
                                     ramp([0, 0.5, 1], [0, -4, 2])]))
    local.set_pointFunctions(triple([osim.Constant(0.05), osim.Sine(0.02, 3.0, 0.5, 0.0),
                                     osim.Constant(-0.03)]))
    local.set_torqueFunctions(triple([osim.Constant(0.1), osim.Sine(0.2, 5.0, 0.0, 0.0),
                                      ramp([0, 1], [0.05, -0.1])]))
    model.addForce(local)
    world = osim.PrescribedForce("world", box)
    world.set_pointIsGlobal(True)
    world.set_forceFunctions(triple([osim.Constant(-2.0), ramp([0, 1], [0, 3]),
                                     osim.Sine(1.5, 6.0, 0.2, 0.0)]))
    world.set_pointFunctions(triple([osim.Constant(0.0), osim.Constant(0.1),
                                     osim.Constant(0.05)]))
    model.addForce(world)
    arm = osim.Body("arm", 1.0, osim.Vec3(0, -0.25, 0), osim.Inertia(0.01, 0.002, 0.01))
    model.addBody(arm)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(0.5, 0, 0), osim.Vec3(0),
                        arm, osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("swing")
    model.addJoint(pin)
    controls = []
    for p2p_name, a, b, is_global, f in [
            ("strut", osim.Vec3(0.05, 0, 0), osim.Vec3(0, -0.3, 0.02), False,
             osim.Sine(2.0, 3.0, 0.0, 0.5)),
            ("fixed_strut", osim.Vec3(0.1, 0.1, 0), osim.Vec3(0.5, -0.2, 0.0), True,
             osim.Sine(1.0, 5.0, 1.0, 0.0))]:
        p2p = osim.PointToPointActuator("box", "arm")
        p2p.setName(p2p_name)
        p2p.setPointA(a)
        p2p.setPointB(b)
        p2p.setPointsAreGlobal(is_global)
        p2p.setOptimalForce(3.0)
        model.addForce(p2p)
        controls.append((p2p, f))
    add_controls(model, controls)
    spring = osim.ExpressionBasedCoordinateForce("swing", "-3*q - 0.2*qdot + 0.5*sin(2*q)^2 - q^3/4")
    spring.setName("nonlinear_spring")
    model.addForce(spring)
    return save(model, out_dir, name)


def write_erf_pendulum(out_dir, name):
    """A pendulum on a PinJoint held by an ExpressionBasedCoordinateForce made of Lepton's
    error functions (`erf` saturating over the swing, `erfc` of the speed), released from
    0.9 rad; gravity on."""
    model = osim.Model()
    model.setName(name)
    arm = osim.Body("arm", 1.5, osim.Vec3(0, -0.3, 0), osim.Inertia(0.02, 0.004, 0.02))
    model.addBody(arm)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(0), osim.Vec3(0),
                        arm, osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("swing")
    pin.updCoordinate().setDefaultValue(0.9)
    model.addJoint(pin)
    spring = osim.ExpressionBasedCoordinateForce(
        "swing", "-6*erf(3*q) + 0.4*erfc(2*qdot) - 0.4 - 0.05*qdot")
    spring.setName("error_function_spring")
    model.addForce(spring)
    return save(model, out_dir, name)


def write_lepton_optimizer_pendulum(out_dir, name):
    """A pendulum on a PinJoint held by an ExpressionBasedCoordinateForce whose terms Lepton's
    optimizer rewrites with another rounding: divisions by constants (`q/3`, `(4*q)/7`,
    `qdot/(1/0.3)`), merged constant factors (`2*(3*qdot)`, `-(5*(0.1*q))`), a reciprocal
    multiplied in (`sin(q)*(1/(2+q^2))`) and divided by (`qdot/(1/(1+q^2))`), constant
    powers (`(2+q^2)^0.5`, `(1.5+q)^-2`, `q^2.5` of |q|), released from 0.9 rad; gravity on."""
    model = osim.Model()
    model.setName(name)
    arm = osim.Body("arm", 1.5, osim.Vec3(0, -0.3, 0), osim.Inertia(0.02, 0.004, 0.02))
    model.addBody(arm)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(0), osim.Vec3(0),
                        arm, osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("swing")
    pin.updCoordinate().setDefaultValue(0.9)
    model.addJoint(pin)
    spring = osim.ExpressionBasedCoordinateForce(
        "swing", "-q/3 - 2*(3*qdot)/7 - (4*q)/7 - (5*(0.1*q)) + 0.3*(2+q^2)^0.5"
        " + 0.2*sin(q)*(1/(2+q^2)) - qdot/(1/0.3)/9 - 0.01*qdot/(1/(1+q^2))"
        " + 0.001*(1.5+q)^-2 - 0.05*abs(q)^2.5")
    spring.setName("optimized_spring")
    model.addForce(spring)
    return save(model, out_dir, name)


def write_point_to_point_expressions(out_dir, name):
    """A free block hung from a Ground point by an ExpressionBasedPointToPointForce (a cubic
    spring with damping in d and ddot), and a pendulum pulled toward the block by a second one
    (an exponential law), each between points off the bodies' origins; gravity on."""
    model = osim.Model()
    model.setName(name)
    block = osim.Body("block", 2.0, osim.Vec3(0.01, -0.02, 0.0), osim.Inertia(0.02, 0.03, 0.04))
    model.addBody(block)
    free = osim.FreeJoint("free", model.getGround(), block)
    model.addJoint(free)
    for i, v in enumerate([0.2, -0.1, 0.3, 0.1, 0.7, -0.05]):
        free.upd_coordinates(i).setDefaultValue(v)
    arm = osim.Body("arm", 1.0, osim.Vec3(0, -0.25, 0), osim.Inertia(0.01, 0.002, 0.01))
    model.addBody(arm)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(0.8, 1.0, 0), osim.Vec3(0),
                        arm, osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("swing")
    pin.updCoordinate().setDefaultValue(0.4)
    model.addJoint(pin)
    hang = osim.ExpressionBasedPointToPointForce(
        "ground", osim.Vec3(0, 1.2, 0.1), "block", osim.Vec3(0.1, 0.05, -0.02),
        "80*(d-0.6) + 2*ddot + 30*(d-0.6)^3")
    hang.setName("hanger")
    model.addForce(hang)
    pull = osim.ExpressionBasedPointToPointForce(
        "arm", osim.Vec3(0, -0.4, 0.05), "block", osim.Vec3(-0.05, 0, 0.03),
        "15*d*exp(-d) - 0.5*ddot")
    pull.setName("puller")
    model.addForce(pull)
    return save(model, out_dir, name)


def write_nonlinear_bushings(out_dir, name):
    """A free block hung from a Ground frame by a FunctionBasedBushingForce (a SimmSpline, a
    LinearFunction, a PolynomialFunction, a PiecewiseLinearFunction, a second SimmSpline and a
    LinearFunction on its six deflections, with damping), and a free tail hung from the block
    by an ExpressionBasedBushingForce whose six expressions couple the deflections; every
    bushing frame offset and turned on its body, every deflection nonzero at the start;
    gravity on."""
    model = osim.Model()
    model.setName(name)
    block = osim.Body("block", 2.0, osim.Vec3(0.01, -0.02, 0.0), osim.Inertia(0.02, 0.03, 0.04))
    model.addBody(block)
    free = osim.FreeJoint("block_free", model.getGround(), block)
    model.addJoint(free)
    for i, v in enumerate([0.15, -0.1, 0.2, 0.05, 0.9, -0.03]):
        free.upd_coordinates(i).setDefaultValue(v)
    tail = osim.Body("tail", 0.5, osim.Vec3(0, -0.05, 0), osim.Inertia(0.004, 0.002, 0.005))
    model.addBody(tail)
    tail_free = osim.FreeJoint("tail_free", model.getGround(), tail)
    model.addJoint(tail_free)
    for i, v in enumerate([0.3, -0.05, 0.1, 0.17, 0.62, 0.05]):
        tail_free.upd_coordinates(i).setDefaultValue(v)

    def spline(points):
        f = osim.SimmSpline()
        for x, y in points:
            f.addPoint(x, y)
        return f

    def piecewise_linear(points):
        f = osim.PiecewiseLinearFunction()
        for x, y in points:
            f.addPoint(x, y)
        return f

    hip = osim.FunctionBasedBushingForce(
        "hip", model.getGround(), osim.Vec3(0, 1.0, 0), osim.Vec3(0.1, 0.2, -0.1),
        block, osim.Vec3(0.02, 0.05, -0.01), osim.Vec3(-0.1, 0, 0.15),
        osim.Vec3(0), osim.Vec3(0), osim.Vec3(8, 10, 6), osim.Vec3(0.5, 0.4, 0.3))
    hip.set_m_x_theta_x_function(spline([(-1, -30), (-0.2, -5), (0, 0), (0.2, 5), (1, 40)]))
    hip.set_m_y_theta_y_function(osim.LinearFunction(25, 0))
    hip.set_m_z_theta_z_function(osim.PolynomialFunction(osim.Vector([30.0, 0.0, 10.0, 0.0])))
    hip.set_f_x_delta_x_function(piecewise_linear([(-1, -500), (-0.05, -15), (0.05, 20),
                                                   (1, 600)]))
    hip.set_f_y_delta_y_function(spline([(-1, -900), (-0.1, -45), (0, 0), (0.1, 40), (1, 800)]))
    hip.set_f_z_delta_z_function(osim.LinearFunction(300, 0))
    model.addForce(hip)

    link = osim.ExpressionBasedBushingForce(
        "link", block, osim.Vec3(0.1, -0.2, 0.05), osim.Vec3(0.2, 0, 0),
        tail, osim.Vec3(0, 0.1, 0), osim.Vec3(0, 0.1, -0.05))
    link.setMxExpression("12*theta_x + 3*theta_y*delta_z")
    link.setMyExpression("8*theta_y + 20*theta_y^3")
    link.setMzExpression("6*sin(theta_z) + 0.5*theta_x")
    link.setFxExpression("150*delta_x + 2000*delta_x^3")
    link.setFyExpression("250*delta_y - 40*delta_x*delta_z + exp(delta_y) - 1")
    link.setFzExpression("180*delta_z")
    link.set_rotational_damping(osim.Vec3(0.2, 0.2, 0.1))
    link.set_translational_damping(osim.Vec3(4, 5, 3))
    model.addForce(link)
    return save(model, out_dir, name)


def write_expression_path_forces(out_dir, name):
    """A pendulum lifted by an ExpressionBasedPathForce over a via point (stretch clamped at its
    resting length: slack phases exercised) and a free box tethered to the arm and hung from
    Ground by two more (one with `clamp_stretch` false, pushing when shorter than its resting
    length); expressions of the stretch `s` and the lengthening speed `ldot`; gravity on."""
    model = osim.Model()
    model.setName(name)
    arm = osim.Body("arm", 1.0, osim.Vec3(0, -0.25, 0), osim.Inertia(0.01, 0.002, 0.01))
    model.addBody(arm)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(1, 0, 0), osim.Vec3(0),
                        arm, osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("swing")
    pin.updCoordinate().setDefaultValue(0.6)
    model.addJoint(pin)
    box = osim.Body("box", 2.0, osim.Vec3(0.01, 0, -0.02), osim.Inertia(0.02, 0.03, 0.04))
    model.addBody(box)
    free = osim.FreeJoint("free", model.getGround(), box)
    model.addJoint(free)
    for i, v in enumerate([0.1, -0.2, 0.05, 0.02, -0.3, 0.01]):
        free.upd_coordinates(i).setDefaultValue(v)
    lift = osim.ExpressionBasedPathForce("lift", 0.45, "300*s + 40*s^2 + 2*ldot", True)
    lift.updGeometryPath().appendNewPathPoint("origin", model.getGround(), osim.Vec3(1.3, 0.2, 0))
    lift.updGeometryPath().appendNewPathPoint("via", arm, osim.Vec3(0.05, -0.2, 0.02))
    lift.updGeometryPath().appendNewPathPoint("insertion", arm, osim.Vec3(0, -0.4, 0))
    model.addForce(lift)
    bungee = osim.ExpressionBasedPathForce("bungee", 0.25, "150*s*exp(-s) + 0.5*ldot*abs(s)",
                                           True)
    bungee.updGeometryPath().appendNewPathPoint("top", model.getGround(), osim.Vec3(0, 0.5, 0))
    bungee.updGeometryPath().appendNewPathPoint("hook", box, osim.Vec3(0, 0.1, 0.02))
    model.addForce(bungee)
    strut = osim.ExpressionBasedPathForce("strut", 1.3, "60*s + 0.3*ldot", False)
    strut.updGeometryPath().appendNewPathPoint("arm_end", arm, osim.Vec3(0, -0.5, 0))
    strut.updGeometryPath().appendNewPathPoint("box_side", box, osim.Vec3(0.05, 0, 0))
    model.addForce(strut)
    return save(model, out_dir, name)


def write_defaults_variant(src, out_dir, name):
    """mus_actuators with properties left to a <defaults> section, as older models write them:
    the push's point and optimal force and the drive's optimal force and activation time
    constant are removed and given by the templates; a TorqueActuator template's optimal force
    is overridden by the twist's own. Written as is (not re-saved: OpenSim would write the
    defaults' values into the elements) and run from that file."""
    text = open(src, encoding="utf-8").read()
    for old in ["<point>0.10000000000000001 0.050000000000000003 0</point>",
                "<optimal_force>3</optimal_force>",
                "<optimal_force>2</optimal_force>",
                "<activation_time_constant>0.050000000000000003</activation_time_constant>"]:
        assert text.count(old) == 1, old
        text = text.replace(old, "")
    defaults = """<defaults>
			<PointActuator name="default">
				<point>0.05 0.1 0</point>
				<optimal_force>5</optimal_force>
			</PointActuator>
			<TorqueActuator name="default">
				<optimal_force>9</optimal_force>
			</TorqueActuator>
			<ActivationCoordinateActuator name="default">
				<optimal_force>1.5</optimal_force>
				<activation_time_constant>0.02</activation_time_constant>
			</ActivationCoordinateActuator>
		</defaults>
		"""
    start = text.index("<Model")
    at = text.index(">", start) + 1
    text = text[:at] + "\n\t\t" + defaults + text[at:]
    text = text.replace(f'<Model name="{ET.fromstring(text).find("Model").get("name")}"',
                        f'<Model name="{name}"')
    out = f"{out_dir}/{name}.osim"
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return out


def write_station_frames_variant(src, out_dir, name):
    """opensim-core's StationDefinedFrames_Advanced.osim (OpenSim/Simulation/Test) made to
    move: its first FreeJoint (all but one coordinate locked) becomes a WeldJoint at the same
    frames, and the second, between the two StationDefinedFrames, a PinJoint about their z
    axes at its `rz` value, so the child body swings under gravity about an axis that the
    stations define. Written as is and run from that file."""
    tree = ET.parse(src)
    model = tree.getroot().find("Model")
    model.set("name", name)
    joints = model.find("JointSet/objects")
    first, second = joints.findall("FreeJoint")
    first.tag = "WeldJoint"
    first.remove(first.find("coordinates"))
    second.tag = "PinJoint"
    coordinates = second.find("coordinates")
    for c in list(coordinates):
        if c.get("name") != "rz":
            coordinates.remove(c)
    rz = coordinates.find("Coordinate")
    locked = rz.find("locked")
    if locked is not None:
        rz.remove(locked)
    out = f"{out_dir}/{name}.osim"
    tree.write(out, encoding="UTF-8", xml_declaration=True)
    return out


def write_path_forces(out_dir, name):
    """A pendulum lifted by a PathActuator (three points, two on the arm; Sine control) and a
    free box hanging from Ground on a PathSpring and tethered to the arm by a second one
    (stretch, lengthening speed and a slack phase all exercised); gravity on."""
    model = osim.Model()
    model.setName(name)
    arm = osim.Body("arm", 1.0, osim.Vec3(0, -0.25, 0), osim.Inertia(0.01, 0.002, 0.01))
    model.addBody(arm)
    pin = osim.PinJoint("pin", model.getGround(), osim.Vec3(1, 0, 0), osim.Vec3(0),
                        arm, osim.Vec3(0), osim.Vec3(0))
    pin.updCoordinate().setName("swing")
    model.addJoint(pin)
    box = osim.Body("box", 2.0, osim.Vec3(0), osim.Inertia(0.02, 0.03, 0.04))
    model.addBody(box)
    model.addJoint(osim.FreeJoint("free", model.getGround(), box))
    lift = osim.PathActuator()
    lift.setName("lift")
    lift.set_optimal_force(20.0)
    lift.addNewPathPoint("origin", model.getGround(), osim.Vec3(1.3, 0.2, 0))
    lift.addNewPathPoint("via", arm, osim.Vec3(0.05, -0.2, 0.02))
    lift.addNewPathPoint("insertion", arm, osim.Vec3(0, -0.4, 0))
    model.addForce(lift)
    bungee = osim.PathSpring("bungee", 0.3, 200.0, 0.5)
    bungee.updGeometryPath().appendNewPathPoint("top", model.getGround(), osim.Vec3(0, 0.5, 0))
    bungee.updGeometryPath().appendNewPathPoint("hook", box, osim.Vec3(0, 0.1, 0.02))
    model.addForce(bungee)
    tether = osim.PathSpring("tether", 0.9, 50.0, 0.2)
    tether.updGeometryPath().appendNewPathPoint("arm_end", arm, osim.Vec3(0, -0.5, 0))
    tether.updGeometryPath().appendNewPathPoint("box_side", box, osim.Vec3(0.05, 0, 0))
    model.addForce(tether)
    add_controls(model, [(lift, osim.Sine(0.5, 3.0, 0.0, 0.5))])
    return save(model, out_dir, name)


def replace_cylinder(src, out_dir, name, tag, object_name, fields):
    """The shared wrapped pendulum with its WrapCylinder replaced by a wrap object `tag` named
    `object_name` with the properties `fields` ((tag, text) pairs), its PathWrap pointed at it."""
    tree = ET.parse(src)
    root = tree.getroot()
    root.find("Model").set("name", name)
    objects = root.find(".//WrapObjectSet/objects")
    objects.remove(objects.find("WrapCylinder"))
    wrap_object = ET.SubElement(objects, tag, name=object_name)
    for field, text in fields:
        ET.SubElement(wrap_object, field).text = text
    root.find(".//PathWrap").find("wrap_object").text = object_name
    return save_through_opensim(tree, out_dir, name)


def write_sphere_variant(src, out_dir, name, quadrant):
    """The shared wrapped pendulum with its WrapCylinder replaced by a WrapSphere of the same
    radius and place (quadrant `quadrant`): the muscle then wraps over a sphere."""
    return replace_cylinder(src, out_dir, name, "WrapSphere", "pivot_cyl",
                            [("translation", "0 0 0"), ("quadrant", quadrant),
                             ("radius", "0.05")])


def write_torus_variant(src, out_dir, name):
    """The shared wrapped pendulum with its WrapCylinder replaced by a WrapTorus on the base:
    axis circle of radius 0.1 m around (-0.1, 0, 0) in the base's xz plane (W's z along the
    base's y), tube radius 0.02 m. The muscle runs down near x = 0 to 0.05 m, outside the
    ring for part of the swing: the torus pulls it over the tube's inner side."""
    return replace_cylinder(src, out_dir, name, "WrapTorus", "pivot_torus",
                            [("xyz_body_rotation", "-1.5707963267948966 0 0"),
                             ("translation", "-0.1 0 0"), ("quadrant", "all"),
                             ("inner_radius", "0.02"), ("outer_radius", "0.1")])


if __name__ == "__main__":
    if len(sys.argv) > 3 and sys.argv[3] == "torus":
        osim_file = write_torus_variant(f"{sys.argv[1]}/mus_pendulum_wrap.osim", sys.argv[2],
                                        "mus_pendulum_torus")
        run(osim_file, f"{sys.argv[2]}/mus_pendulum_torus.csv")
        print("wrote", osim_file)
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "implicit":
        tree = ET.parse(f"{sys.argv[1]}/mus_pendulum_wrap.osim")
        root = tree.getroot()
        root.find("Model").set("name", "mus_pendulum_implicit")
        muscle = root.find(".//DeGrooteFregly2016Muscle")
        mode = muscle.find("tendon_compliance_dynamics_mode")
        if mode is None:
            mode = ET.SubElement(muscle, "tendon_compliance_dynamics_mode")
        mode.text = "implicit"
        out = save_through_opensim(tree, sys.argv[2], "mus_pendulum_implicit")
        run(out, f"{sys.argv[2]}/mus_pendulum_implicit.csv")
        print("wrote", out)
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "spheres":
        for name, quadrant in [("mus_pendulum_sphere", "+x"), ("mus_pendulum_sphere_all", "all")]:
            osim_file = write_sphere_variant(f"{sys.argv[1]}/mus_pendulum_wrap.osim", sys.argv[2],
                                             name, quadrant)
            run(osim_file, f"{sys.argv[2]}/{name}.csv")
            print("wrote", osim_file)
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "station_frames":
        core = os.environ["OPENSIM_CORE"]
        osim_file = write_station_frames_variant(
            f"{core}/OpenSim/Simulation/Test/StationDefinedFrames_Advanced.osim", sys.argv[2],
            "station_frames_pin")
        run(osim_file, f"{sys.argv[2]}/station_frames_pin.csv")
        # the file as written: its FreeJoints' locked rotations held through the Euler-angle
        # kinematics, its two joints' coordinates named alike
        advanced = f"{sys.argv[2]}/station_frames_advanced.osim"
        shutil.copyfile(f"{core}/OpenSim/Simulation/Test/StationDefinedFrames_Advanced.osim",
                        advanced)
        run(advanced, f"{sys.argv[2]}/station_frames_advanced.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "ball_actuators":
        osim_file = write_ball_actuators(sys.argv[2], "mus_ball_actuators")
        run(osim_file, f"{sys.argv[2]}/mus_ball_actuators.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "body_forces":
        osim_file = write_body_forces(sys.argv[2], "mus_body_forces")
        run(osim_file, f"{sys.argv[2]}/mus_body_forces.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "point_to_point":
        osim_file = write_point_to_point_expressions(sys.argv[2], "mus_point_to_point_expressions")
        run(osim_file, f"{sys.argv[2]}/mus_point_to_point_expressions.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "expression_paths":
        osim_file = write_expression_path_forces(sys.argv[2], "mus_expression_path_forces")
        run(osim_file, f"{sys.argv[2]}/mus_expression_path_forces.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "bushings":
        osim_file = write_nonlinear_bushings(sys.argv[2], "mus_nonlinear_bushings")
        run(osim_file, f"{sys.argv[2]}/mus_nonlinear_bushings.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "lepton_optimizer":
        osim_file = write_lepton_optimizer_pendulum(sys.argv[2], "mus_pendulum_lepton_optimizer")
        run(osim_file, f"{sys.argv[2]}/mus_pendulum_lepton_optimizer.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "erf":
        osim_file = write_erf_pendulum(sys.argv[2], "mus_pendulum_erf")
        run(osim_file, f"{sys.argv[2]}/mus_pendulum_erf.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "ligaments":
        osim_file = write_ligaments(sys.argv[2], "mus_ligaments")
        run(osim_file, f"{sys.argv[2]}/mus_ligaments.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "defaults":
        osim_file = write_defaults_variant(f"{sys.argv[1]}/mus_actuators.osim", sys.argv[2],
                                           "mus_actuators_defaults")
        run(osim_file, f"{sys.argv[2]}/mus_actuators_defaults.csv")
        sys.exit(0)
    if len(sys.argv) > 3 and sys.argv[3] == "path_forces":
        path_forces = write_path_forces(sys.argv[2], "mus_path_forces")
        run(path_forces, f"{sys.argv[2]}/mus_path_forces.csv")
        print("wrote", path_forces)
        sys.exit(0)
    shared, out_dir = sys.argv[1], sys.argv[2]
    thelen = write_thelen_only(f"{shared}/mus_tug_of_war.osim", out_dir, "mus_block_thelen")
    run(thelen, f"{out_dir}/mus_block_thelen.csv")
    print("wrote", thelen)
    for name, rigid in [("mus_pendulum_points", False), ("mus_pendulum_rigid", True)]:
        osim_file = write_variant(f"{shared}/mus_pendulum_wrap.osim", out_dir, name, rigid)
        run(osim_file, f"{out_dir}/{name}.csv")
        print("wrote", osim_file)
    actuators = write_actuators(out_dir, "mus_actuators")
    run(actuators, f"{out_dir}/mus_actuators.csv")
    print("wrote", actuators)
    millard_variants = [
        ("mus_tug_millard_classic", {"fiber_damping": "0"}),
        ("mus_tug_millard_rigid", {"ignore_tendon_compliance": "true",
                                   "ignore_activation_dynamics": "true"}),
    ]
    for name, settings in millard_variants:
        osim_file = write_millard_variant(f"{shared}/mus_tug_of_war.osim", out_dir, name, settings)
        run(osim_file, f"{out_dir}/{name}.csv")
        print("wrote", osim_file)
