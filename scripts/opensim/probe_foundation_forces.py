"""Prints OpenSim's ElasticFoundationForce on each body (getRecordValues: force, then torque
about the body origin, Ground) at the states of a reference run's rows, for
crates/ferrobody/tests/contact_mesh_mesh.rs.

Needs `pip install opensim` (4.6). Usage, from the model's folder (OpenSim finds the meshes
next to the model):
    python3 probe_foundation_forces.py MODEL.osim MODEL.csv FORCE_NAME T [T ...]
e.g. python3 ../../scripts/opensim/probe_foundation_forces.py osim_ball_slab_ef.osim \
         osim_ball_slab_ef.csv ball_slab 0.05 0.3 0.7   (in testdata/opensim)
"""

import csv
import sys

import opensim as osim


def main():
    model_file, csv_file, force_name, times = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    model = osim.Model(model_file)
    state = model.initSystem()
    rows = list(csv.DictReader(open(csv_file)))
    coords = model.getCoordinateSet()
    force = model.getForceSet().get(force_name)
    labels = force.getRecordLabels()
    print("t," + ",".join(labels.get(i) for i in range(labels.size())))
    for t in times:
        row = next(r for r in rows if abs(float(r["t"]) - float(t)) < 1e-9)
        for i in range(coords.getSize()):
            c = coords.get(i)
            c.setValue(state, float(row[c.getName()]), False)
            c.setSpeedValue(state, float(row[c.getName() + ".u"]))
        model.realizeDynamics(state)
        values = force.getRecordValues(state)
        print(t + "," + ",".join("%.17g" % values.get(i) for i in range(values.size())))


if __name__ == "__main__":
    main()
