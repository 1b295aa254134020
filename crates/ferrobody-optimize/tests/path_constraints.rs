//! Path constraints (Moco's `MocoControlBoundConstraint`, `MocoFrameDistanceConstraint`):
//! a closed-form optimum they change, their Jacobian against central differences, their
//! errors.

use super::moco_problems::example;
use super::nlp_derivatives::{check_at, moved_point};
use ferrobody::math::function::{Function, PiecewiseLinear};
use ferrobody_optimize::inspect::NlpView;
use ferrobody_optimize::{solve, Bounds, FinalTime, ProblemFile, Projection, Transcription};

/// The sliding mass (2 kg, 1 m from rest to rest, F = c with |c| ≤ 50 by its control bounds)
/// in minimum time, with a control bound |c| ≤ 25: bang-bang at a = 12.5 m/s², t_f =
/// 2/√12.5 = 0.565685 s. The mesh of 50 intervals puts the switch inside an interval (Moco's
/// 0.4001 against the exact 0.4 without the constraint: 2.7e-4 relative), so 1e-3 relative.
#[test]
fn a_control_bound_slows_the_sliding_mass_to_its_closed_form_time() {
    let mut file = ProblemFile::load(&example("sliding_mass.toml")).unwrap();
    file.settings.progress = false;
    file.problem
        .add_control_bound(
            &["/actuator"],
            Some(Function::Constant(-25.0)),
            Some(Function::Constant(25.0)),
            false,
        )
        .unwrap();
    let s = solve(file.problem, &file.settings, &file.guess).unwrap();
    let exact = 2.0 / 12.5f64.sqrt();
    let gap = (s.final_time() - exact).abs() / exact;
    assert!(gap < 1e-3, "t_f {} vs {exact}", s.final_time());
    let c = s.column("/actuator").unwrap();
    // Within the bound at the mesh points (IPOPT's constraint tolerance 1e-6).
    assert!(c.iter().step_by(2).all(|v| v.abs() <= 25.0 + 1e-5), "{c:?}");
}

/// The double pendulum with a free final time, a control bound whose upper function varies
/// in time and a frame distance between points of both links projected onto a plane: every
/// column of every path row (controls, coordinates, t_f) against central differences.
#[test]
fn path_constraint_jacobian_matches_central_differences() {
    let file = ProblemFile::load(&example("double_pendulum_swingup.toml")).unwrap();
    let mut p = file.problem;
    p.set_time_bounds(0.0, FinalTime::Free(Bounds::new(0.5, 2.0)))
        .unwrap();
    let ramp = PiecewiseLinear::new(vec![0.0, 0.7, 2.0], vec![0.1, 0.6, 0.2]).unwrap();
    p.add_control_bound(
        &["/tau0", "/tau1"],
        Some(Function::Constant(-0.5)),
        Some(Function::PiecewiseLinear(ramp)),
        false,
    )
    .unwrap();
    p.add_frame_distance(
        &[("b0", "b1", 0.2, 1.5), ("/ground", "b1", 0.0, 3.0)],
        Some(&[
            ([0.1, -0.3, 0.0], [0.0, -0.7, 0.05]),
            ([0.0; 3], [0.2, -1.0, 0.0]),
        ]),
        Projection::Plane(ferrobody::nalgebra::Vector3::new(0.0, 0.0, 2.0)),
    )
    .unwrap();
    let view = NlpView::new(p, Transcription::HermiteSimpson, 4).unwrap();
    let x = moved_point(&view);
    check_at(&view, &x);
}

/// Bounds and names are checked as Moco checks them.
#[test]
fn bad_path_constraints_are_refused() {
    let file = ProblemFile::load(&example("double_pendulum_swingup.toml")).unwrap();
    let mut p = file.problem;
    let err = p
        .add_frame_distance(&[("b0", "b1", 0.5, 0.2)], None, Projection::None)
        .unwrap_err();
    assert!(err.to_string().contains("minimum"), "{err}");
    let err = p
        .add_frame_distance(&[("b0", "shin", 0.0, 1.0)], None, Projection::None)
        .unwrap_err();
    assert!(err.to_string().contains("no body 'shin'"), "{err}");
    let err = p
        .add_control_bound(
            &["/jointset/j0/q0/value"],
            Some(Function::Constant(0.0)),
            None,
            false,
        )
        .unwrap_err();
    assert!(err.to_string().contains("is a state"), "{err}");
    let err = p
        .add_control_bound(&["/tau0"], None, Some(Function::Constant(1.0)), true)
        .unwrap_err();
    assert!(err.to_string().contains("equality_with_lower"), "{err}");
}
