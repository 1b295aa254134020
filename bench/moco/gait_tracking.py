#!/usr/bin/env python3
"""Moco 4.6 along example2DWalking's own path: its tracking problem (MocoTrack of
referenceCoordinates.sto low-pass filtered at 6 Hz, with the speeds' GCV-spline derivatives, and
of referenceGRF.sto by MocoContactTrackingGoal), then its predictive problem from the tracking
solution. Exactly opensim-core's OpenSim/Examples/Moco/example2DWalking/example2DWalking.cpp
(weights 10, 1, 1; 50 intervals; tolerances 1e-4; 1000 iterations), single thread (parallel=0).

Usage: PYTHON-with-opensim bench/moco/gait_tracking.py OUTDIR [tracking|prediction|both]
       (env MESH_INTERVALS, default 50)

Reads its inputs from examples/optimal-control/ (gait2d_predictive.osim is 2D_gait.osim at tag
4.6; gait2d_reference_coordinates.sto, gait2d_reference_grf.sto/.xml are the example's data).
Writes into OUTDIR: gaitTracking_tracked_states.sto (the table MocoTrack tracks),
tracking_guess.sto, tracking_solution.sto, tracking.log, prediction_solution.sto,
prediction.log and results.csv (objective, its terms, iterations, wall time of study.solve()).
"""
import contextlib
import csv
import ctypes
import math
import os
import re
import shutil
import sys
import time

import opensim as osim

osim.Logger.removeFileSink()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(ROOT, 'examples', 'optimal-control')
MESH = int(os.environ.get('MESH_INTERVALS', '50'))
PI = math.pi
_libc = ctypes.CDLL(None)


@contextlib.contextmanager
def capture_console(path):
    sys.stdout.flush()
    sys.stderr.flush()
    _libc.fflush(None)
    saved_out, saved_err = os.dup(1), os.dup(2)
    with open(path, 'w') as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            _libc.fflush(None)
            os.dup2(saved_out, 1)
            os.dup2(saved_err, 2)
            os.close(saved_out)
            os.close(saved_err)


def add_symmetry(problem, model):
    """example2DWalking.cpp's symmetry goal, coordinate by coordinate."""
    symmetry = osim.MocoPeriodicityGoal('symmetryGoal')
    problem.addGoal(symmetry)
    for coord in model.getComponentsList():
        coord = osim.Coordinate.safeDownCast(coord)
        if coord is None:
            continue
        name = coord.getName()
        names = [coord.getStateVariableNames().getitem(i) for i in range(2)]
        for n in names:
            if name.endswith('_r'):
                symmetry.addStatePair(osim.MocoPeriodicityGoalPair(n, re.sub('_r', '_l', n)))
            if name.endswith('_l'):
                symmetry.addStatePair(osim.MocoPeriodicityGoalPair(n, re.sub('_l', '_r', n)))
            if not (name.endswith('_l') or name.endswith('_r') or name.endswith('_tx')):
                symmetry.addStatePair(osim.MocoPeriodicityGoalPair(n, n))
    symmetry.addStatePair(osim.MocoPeriodicityGoalPair('/jointset/groundPelvis/pelvis_tx/speed'))
    symmetry.addControlPair(osim.MocoPeriodicityGoalPair('/lumbarAct'))
    for component in model.getComponentsList():
        muscle = osim.Muscle.safeDownCast(component)
        if muscle is None:
            continue
        n = muscle.getStateVariableNames().getitem(0)
        if muscle.getName().endswith('_r'):
            symmetry.addStatePair(osim.MocoPeriodicityGoalPair(n, re.sub('_r', '_l', n)))
        if muscle.getName().endswith('_l'):
            symmetry.addStatePair(osim.MocoPeriodicityGoalPair(n, re.sub('_l', '_r', n)))


def set_bounds(problem):
    d = PI / 180
    problem.setStateInfo('/jointset/groundPelvis/pelvis_tilt/value', [-20 * d, -10 * d])
    problem.setStateInfo('/jointset/groundPelvis/pelvis_tx/value', [0, 1])
    problem.setStateInfo('/jointset/groundPelvis/pelvis_ty/value', [0.75, 1.25])
    for side in 'lr':
        problem.setStateInfo(f'/jointset/hip_{side}/hip_flexion_{side}/value', [-10 * d, 60 * d])
        problem.setStateInfo(f'/jointset/knee_{side}/knee_angle_{side}/value', [-50 * d, 0])
        problem.setStateInfo(f'/jointset/ankle_{side}/ankle_angle_{side}/value', [-15 * d, 25 * d])
    problem.setStateInfo('/jointset/lumbar/lumbar/value', [0, 20 * d])


def configure(solver):
    solver.set_num_mesh_intervals(MESH)
    solver.set_verbosity(2)
    solver.set_optim_solver('ipopt')
    solver.set_optim_convergence_tolerance(1e-4)
    solver.set_optim_constraint_tolerance(1e-4)
    solver.set_optim_max_iterations(1000)
    solver.set_parallel(0)


def tracking_study():
    track = osim.MocoTrack()
    track.setName('gaitTracking')
    table = osim.TableProcessor('gait2d_reference_coordinates.sto')
    table.append(osim.TabOpLowPassFilter(6))
    model_processor = osim.ModelProcessor('2D_gait.osim')
    track.setModel(model_processor)
    track.setStatesReference(table)
    track.set_states_global_tracking_weight(1)
    track.set_allow_unused_references(True)
    track.set_track_reference_position_derivatives(True)
    track.set_apply_tracked_states_to_guess(True)
    track.set_initial_time(0.0)
    track.set_final_time(0.470089)
    study = track.initialize()
    problem = study.updProblem()
    model = model_processor.process()
    model.initSystem()
    add_symmetry(problem, model)
    effort = osim.MocoControlGoal.safeDownCast(problem.updGoal('control_effort'))
    effort.setWeight(10)
    contact = osim.MocoContactTrackingGoal('contact', 1)
    contact.setExternalLoadsFile('gait2d_reference_grf.xml')
    right = osim.StdVectorString()
    right.append('contactHeel_r')
    right.append('contactFront_r')
    contact.addContactGroup(right, 'Right_GRF')
    left = osim.StdVectorString()
    left.append('contactHeel_l')
    left.append('contactFront_l')
    contact.addContactGroup(left, 'Left_GRF')
    contact.setProjection('plane')
    contact.setProjectionVector(osim.Vec3(0, 0, 1))
    problem.addGoal(contact)
    set_bounds(problem)
    solver = osim.MocoCasADiSolver.safeDownCast(study.updSolver())
    configure(solver)
    return study, solver


def prediction_study(guess_file):
    study = osim.MocoStudy()
    study.setName('gaitPrediction')
    problem = study.updProblem()
    model_processor = osim.ModelProcessor('2D_gait.osim')
    problem.setModelProcessor(model_processor)
    model = model_processor.process()
    model.initSystem()
    add_symmetry(problem, model)
    speed = osim.MocoAverageSpeedGoal('speed')
    speed.set_desired_average_speed(1.2)
    problem.addGoal(speed)
    effort = osim.MocoControlGoal('effort', 10)
    effort.setExponent(3)
    effort.setDivideByDisplacement(True)
    problem.addGoal(effort)
    problem.setTimeBounds(0, [0.4, 0.6])
    set_bounds(problem)
    solver = study.initCasADiSolver()
    configure(solver)
    solver.setGuessFile(guess_file)
    return study, solver


def solve(name, study, solver, out):
    log = os.path.join(out, name + '.log')
    with capture_console(log):
        solver.getGuess().write(os.path.join(out, name + '_guess.sto'))
        start = time.perf_counter()
        solution = study.solve()
        wall = time.perf_counter() - start
        success = solution.success()
        if not success:
            solution.unseal()
        solution.printObjectiveBreakdown()
    solution.write(os.path.join(out, name + '_solution.sto'))
    terms = ';'.join('%s=%.10g' % (t, solution.getObjectiveTerm(t))
                     for t in solution.getObjectiveTermNames())
    row = {'problem': name, 'mesh_intervals': MESH, 'objective': '%.10g' % solution.getObjective(),
           'final_time': '%.10g' % solution.getFinalTime(),
           'iterations': solution.getNumIterations(), 'solve_wall_time_s': '%.3f' % wall,
           'success': str(success).lower(), 'status': solution.getStatus(),
           'objective_terms': terms}
    print(row, flush=True)
    path = os.path.join(out, 'results.csv')
    new = not os.path.exists(path)
    with open(path, 'a', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(row))
        if new:
            w.writeheader()
        w.writerow(row)


def main(argv):
    out = os.path.abspath(argv[1])
    which = argv[2] if len(argv) > 2 else 'both'
    os.makedirs(out, exist_ok=True)
    shutil.copy(os.path.join(EXAMPLE, 'gait2d_predictive.osim'), os.path.join(out, '2D_gait.osim'))
    for data in ('gait2d_reference_coordinates.sto', 'gait2d_reference_grf.sto',
                 'gait2d_reference_grf.xml'):
        shutil.copy(os.path.join(EXAMPLE, data), os.path.join(out, data))
    os.chdir(out)
    if which in ('tracking', 'both'):
        study, solver = tracking_study()
        solve('tracking', study, solver, out)
    if which in ('prediction', 'both'):
        study, solver = prediction_study(os.path.join(out, 'tracking_solution.sto'))
        solve('prediction', study, solver, out)


if __name__ == '__main__':
    main(sys.argv)
