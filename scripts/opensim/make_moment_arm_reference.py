"""OpenSim 4.6's moment arms (`Muscle.computeMomentArm`) of every muscle about every coordinate
of a model, at its default pose and at poses given on the command line.

Usage: python make_moment_arm_reference.py MODEL.osim OUT.csv [COORD=VALUE,COORD=VALUE ...]
(each extra argument is one pose: the listed coordinates set, the others at their defaults).
Columns: pose (0 = default), muscle, coordinate, moment_arm (m or m/rad), and
minus_dl_dq: −(ℓ(q+h) − ℓ(q−h))/2h of OpenSim's own path length, h = 1e-6 (the two agree
except where OpenSim's MomentArmSolver does not reproduce −∂ℓ/∂q; see docs/models/opensim.md),
in %.17g.
"""
import sys

import opensim as osim


def central_difference(model, state, muscle, coord, h=1e-6):
    """−∂ℓ/∂q of OpenSim's path length by central differences."""
    s = osim.State(state)
    q = coord.getValue(s)
    lengths = []
    for dq in (h, -h):
        coord.setValue(s, q + dq, False)
        model.realizeVelocity(s)
        lengths.append(muscle.getLength(s))
    return -(lengths[0] - lengths[1]) / (2 * h)


def main():
    path, out = sys.argv[1], sys.argv[2]
    poses = [{}] + [dict((kv.split("=")[0], float(kv.split("=")[1])) for kv in p.split(","))
                    for p in sys.argv[3:]]
    model = osim.Model(path)
    state = model.initSystem()
    coords = [model.getCoordinateSet().get(i) for i in range(model.getCoordinateSet().getSize())]
    muscles = list(model.getMuscleList())
    with open(out, "w") as f:
        f.write("pose,muscle,coordinate,moment_arm,minus_dl_dq\n")
        for k, pose in enumerate(poses):
            s = osim.State(state)
            for c in coords:
                c.setValue(s, pose.get(c.getName(), c.getDefaultValue()), False)
            model.assemble(s)
            model.realizeVelocity(s)
            for m in muscles:
                m = osim.Muscle.safeDownCast(m)
                for c in coords:
                    r = m.computeMomentArm(s, c)
                    d = central_difference(model, s, m, c)
                    f.write(f"{k},{m.getName()},{c.getName()},{r:.17g},{d:.17g}\n")


if __name__ == "__main__":
    main()
