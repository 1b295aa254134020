"""Makes OpenSim 4.6 references for the muscle-driven models of opensim-models (issue 37), in the
layout of ../shared/reference/opensim/muscles/ (columns as make_muscle_references.py writes).

Usage: python make_model_references.py OPENSIM_MODELS_REPO OUT_DIR DURATION [NAME ...]
(needs `pip install opensim`; OPENSIM_MODELS_REPO is a checkout of opensim-org/opensim-models,
commit 20a888b9; paths starting `core:` are in the checkout of opensim-org/opensim-core named
by the environment variable OPENSIM_CORE).

Each model is loaded from its file; where the table below gives excitations, a
PrescribedController with a Constant (or Sine) function per muscle is added through the API;
the model is written with `printToXML` and that written file is loaded back and run (so the
.osim in OUT_DIR is exactly what was simulated): initSystem, equilibrateMuscles,
RungeKuttaMerson at accuracy 1e-6, one integrate(t) per 0.01 s row.
"""
import os
import shutil
import sys

import opensim as osim

sys.path.insert(0, os.path.dirname(__file__))
from make_muscle_references import run  # noqa: E402

# Coordinate default values set before the run, and non-muscle actuators driven by
# Sine(amplitude, 2π, 0, 0), per model.
DEFAULTS = {"gait2d": {"pelvis_ty": 0.95}}
EXTRA_CONTROLS = {"gait2d": {"lumbarAct": 20.0}}

# name → (file in the repository, excitation: None, a constant, or "sine")
MODELS = {
    "gait2d": ("core:OpenSim/Examples/Moco/example2DWalking/2D_gait.osim", 0.2),
    "tug_of_war": ("Models/Tug_of_War/Tug_of_War.osim", "sine"),
    "tug_of_war_millard": ("Models/Tug_of_War/Tug_of_War_Millard.osim", 0.3),
    "gait10dof18musc": ("Models/Gait10dof18musc/gait10dof18musc.osim", None),
    "gait10dof18musc_excited": ("Models/Gait10dof18musc/gait10dof18musc.osim", 0.2),
    "gait2392_thelen": ("Models/Gait2392_Simbody/gait2392_thelen2003muscle.osim", 0.1),
    "gait2392_millard": ("Models/Gait2392_Simbody/gait2392_millard2012muscle.osim", None),
    # issue 39: every model of opensim-models, without controls
    "walker_model": ("Models/WalkerModel/WalkerModel.osim", None),
    "walker_model_terrain": ("Models/WalkerModel/WalkerModelTerrain.osim", None),
    "double_pendulum": ("Models/DoublePendulum/double_pendulum.osim", None),
    "pendulum_double_pendulum": ("Models/Pendulum/double_pendulum.osim", None),
    "bouncing_block": ("Models/BouncingBlock/bouncing_block.osim", None),
    "bouncing_block_weak_spring": ("Models/BouncingBlock/bouncing_block_weak_spring.osim", None),
    "hamner": ("Models/Hamner/FullBodyModel_Hamner2010_v2_0.osim", None),
    "toy_landing": ("Models/ToyLanding/ToyLandingModel.osim", None),
    "toy_landing_afo": ("Models/ToyLanding/ToyLandingModel_AFO.osim", None),
    "toy_landing_active_afo": ("Models/ToyLanding/ToyLandingModel_activeAFO.osim", None),
    "jumper": ("Models/Jumper/DynamicJumperModel.osim", None),
    "leg39": ("Models/Leg39/leg39.osim", None),
    "leg6dof9musc": ("Models/Leg6Dof9Musc/leg6dof9musc.osim", None),
    "soccer_kick": ("Models/SoccerKick/SoccerKickingModel.osim", None),
    "rajagopal2016": ("Models/Rajagopal/Rajagopal2016.osim", None),
    "rajagopal_lai_uhlrich2023": ("Models/Rajagopal/RajagopalLaiUhlrich2023.osim", None),
    "rajagopal2015_opensense": ("Models/Rajagopal_OpenSense/Rajagopal2015_opensense.osim", None),
    "arm26": ("Models/Arm26/arm26.osim", None),
    "arm26_excited": ("Models/Arm26/arm26.osim", "sine"),
    "gait2354": ("Models/Gait2354_Simbody/gait2354_simbody.osim", None),
    # opensim-core's thoracoscapular shoulder model (Seth et al. 2019): a ScapulothoracicJoint
    "thoracoscapular": ("core:OpenSim/Tests/shared/ThoracoscapularShoulderModel.osim", None),
    # an EllipsoidJoint scapula (a 3.0 document, kept as written, its ForceSet of 103
    # wrapped PathSprings removed: see STRIP_FORCES)
    "shoulder_ellipsoid_joint_v30000": (
        "core:OpenSim/Tests/Wrapping/"
        "testGeometryPathWrapping_ShoulderWrappingWithPathSprings.osim", None),
    # the same document with its 103 PathSprings (over ellipsoid, cylinder, sphere and torus
    # wraps), kept as written; run for 0.05 s only: OpenSim's own run turns to NaN at
    # t = 0.09 s, where ferrobody's step size underflows at 0.086 s
    "shoulder_path_springs_v30000": (
        "core:OpenSim/Tests/Wrapping/"
        "testGeometryPathWrapping_ShoulderWrappingWithPathSprings.osim", None),
    # pre-4.0 documents (the notebooks' tutorial models), kept as written: ferrobody upgrades
    # them as OpenSim does
    "tutorial_double_pendulum_v30501": (
        "notebooks/resources/Tutorial 3/double_pendulum.osim", None),
    "tutorial_gait2392_v30000": ("notebooks/resources/Tutorial 4/gait2392.osim", None),
    "tutorial_gait2354_v20303": (
        "notebooks/resources/Tutorial 5/gait2354_simbody.osim", None),
    "tutorial_gait10dof18musc_v30000": (
        "notebooks/resources/Tutorial 6/gait10dof18musc_simbody.osim", None),
    # opensim-core's IK test shoulder (a 3.0 document, kept as written): CoordinateLimitForces
    # on the ScapulothoracicJoint's Euler-type coordinates (q̇ ≠ u), a PointConstraint, locks
    "subject1_abdbonepin_v30000": ("core:Applications/IK/test/subject1_abdbonepin.osim", None),
    # opensim-core's CMC test block hanging from a RigidTendonMuscle, driven by a Sine
    "rigid_tendon_block": ("core:Applications/CMC/test/block_hanging_RigidTendonMuscle.osim",
                           "sine"),
    # opensim-core's controller test: a block on a slider driven by a CoordinateActuator
    # whose PrescribedController's control is a quintic GCVSpline (fitted at load time)
    "controllers_tug_of_war": ("core:OpenSim/Tools/Test/testControllers_TugOfWar.osim", None),
    # gait10dof18musc under the ground reaction forces of its pipeline's walk (external loads)
    "gait10dof18musc_grf": ("Models/Gait10dof18musc/gait10dof18musc.osim", None),
    # opensim-core's Schutte1993Muscle_Deprecated models, kept as written
    "neck3dof_schutte_v20001": ("core:OpenSim/Tools/Test/Neck3dof_point_constraint.osim", None),
    "wrist_mass_schutte_v10905": ("core:OpenSim/Simulation/Test/wrist_mass.osim", None),
}

# Models run with an ExternalLoads file (added as the forward tool adds it): name → (loads file
# in the repository, the last time of data kept). The loads file is written to OUT_DIR as
# NAME_loads.xml and its data file, cut after that time, as NAME_loads.mot.
EXTERNAL_LOADS = {
    "gait10dof18musc_grf": ("Pipelines/Gait10dof18musc/ExperimentalData/subject01_walk_grf.xml",
                            0.3),
}


def copy_external_loads(repo, src, t_end, out_dir, name):
    """The loads file and its data (rows up to t_end) copied into out_dir; the new path."""
    src = os.path.join(repo, src)
    text = open(src, encoding="utf-8").read()
    start = text.index("<datafile>") + len("<datafile>")
    end = text.index("</datafile>")
    data_src = os.path.join(os.path.dirname(src), text[start:end].strip())
    xml = os.path.join(out_dir, f"{name}_loads.xml")
    with open(xml, "w", encoding="utf-8") as f:
        f.write(text[:start] + f"{name}_loads.mot" + text[end:])
    lines = open(data_src, encoding="utf-8").read().splitlines()
    header = lines.index(next(l for l in lines if l.strip() == "endheader"))
    rows = [l for l in lines[header + 2:] if l.strip() and float(l.split()[0]) <= t_end]
    head = [f"nRows={len(rows)}" if l.startswith("nRows=") else l for l in lines[:header + 2]]
    with open(os.path.join(out_dir, f"{name}_loads.mot"), "w", encoding="utf-8") as f:
        f.write("\n".join(head + rows) + "\n")
    return xml


# Models whose file is copied into OUT_DIR as written (NAME.osim) and run from there; OpenSim's
# own conversion (printToXML) is written beside it as NAME.resaved.osim, for comparing the two
# loads, and is not kept in testdata.
KEEP_ORIGINAL = {name for name in MODELS
                 if name.startswith("tutorial_") or "_schutte_" in name or "_v30000" in name}

# Models whose file is kept as written but for its <ForceSet>, removed (the model tests the
# EllipsoidJoint alone; shoulder_path_springs_v30000 keeps the springs).
STRIP_FORCES = {"shoulder_ellipsoid_joint_v30000"}


def copy_without_force_set(src, out):
    """`src` written to `out` with its <ForceSet>…</ForceSet> removed."""
    text = open(src, encoding="utf-8").read()
    start, end = text.index("<ForceSet"), text.index("</ForceSet>") + len("</ForceSet>")
    with open(out, "w", encoding="utf-8") as f:
        f.write(text[:start] + text[end:])


def with_controller(model, excitation):
    """A PrescribedController driving every muscle with `excitation` (not yet added)."""
    controller = osim.PrescribedController()
    controller.setName("excitations")
    muscles = model.getMuscles()
    for i in range(muscles.getSize()):
        m = muscles.get(i)
        controller.addActuator(m)
        if excitation == "sine":
            f = osim.Sine(0.25, 2 * 3.141592653589793, 0.5 * i, 0.35)
        else:
            f = osim.Constant(excitation)
        controller.prescribeControlForActuator(m.getName(), f)
    return controller


def main():
    repo, out_dir, duration = sys.argv[1], sys.argv[2], float(sys.argv[3])
    import make_muscle_references
    make_muscle_references.DURATION = duration
    only = sys.argv[4:]
    for name, (path, excitation) in MODELS.items():
        if only and name not in only:
            continue
        if path.startswith("core:"):
            path = os.path.join(os.environ["OPENSIM_CORE"], path[5:])
        else:
            path = os.path.join(repo, path)
        model = osim.Model(path)
        model.setName(name)
        model.finalizeFromProperties()
        for coord, value in DEFAULTS.get(name, {}).items():
            model.getCoordinateSet().get(coord).setDefaultValue(value)
        controller = with_controller(model, excitation) if excitation is not None else None
        for actuator, amplitude in EXTRA_CONTROLS.get(name, {}).items():
            if controller is None:
                controller = osim.PrescribedController()
                controller.setName("excitations")
            try:
                found = model.getActuators().get(actuator)
            except RuntimeError:  # an actuator in <components>
                found = osim.Actuator.safeDownCast(model.getComponent("/" + actuator))
            controller.addActuator(found)
            controller.prescribeControlForActuator(
                actuator, osim.Sine(amplitude, 2 * 3.141592653589793, 0, 0))
        if controller is not None:
            model.addController(controller)
        model.finalizeConnections()
        out = os.path.join(out_dir, f"{name}.osim")
        if name in KEEP_ORIGINAL:
            # OpenSim's run of the file as written (printToXML writes a SimmSpline's knots to
            # six digits, so its conversion can run differently)
            model.printToXML(os.path.join(out_dir, f"{name}.resaved.osim"))
            if name in STRIP_FORCES:
                copy_without_force_set(path, out)
            else:
                shutil.copyfile(path, out)
        else:
            model.printToXML(out)
        loads = None
        if name in EXTERNAL_LOADS:
            loads = copy_external_loads(repo, *EXTERNAL_LOADS[name], out_dir, name)
        run(out, os.path.join(out_dir, f"{name}.csv"), loads)
        print("wrote", out)


if __name__ == "__main__":
    main()
