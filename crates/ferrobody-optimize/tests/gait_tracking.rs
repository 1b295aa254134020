//! Moco's tracking problem of example2DWalking (examples/optimal-control/gait2d_tracking.toml):
//! the goals against Moco's own numbers, and ferrobody's stored solution against Moco's.
//!
//! Moco 4.6 solved it with `bench/moco/gait_tracking.py` (50 intervals, Hermite–Simpson,
//! tolerances 1e-4): objective 1.530373413 = state_tracking 0.3551934832 + control_effort
//! 0.797338211 + contact 0.3778417188, 172 iterations; its solution is stored as
//! `gait2d_tracking_moco_solution.sto`. ferrobody's (`ferrobody optimize
//! examples/optimal-control/gait2d_tracking.toml`) is `gait2d_tracking_solution.sto`.

use super::moco_problems::example;
use ferrobody_optimize::inspect::NlpView;
use ferrobody_optimize::{Guess, ProblemFile, Table, Transcription};

/// Moco's objective terms (results.csv of bench/moco/gait_tracking.py, 10 digits).
const MOCO_STATE_TRACKING: f64 = 0.3551934832;
const MOCO_EFFORT: f64 = 0.797338211;
const MOCO_CONTACT: f64 = 0.3778417188;

fn view_at(solution: &str) -> (NlpView, Vec<f64>) {
    let file = ProblemFile::load(&example("gait2d_tracking.toml")).unwrap();
    let view = NlpView::new(file.problem, Transcription::HermiteSimpson, 50).unwrap();
    let table = Table::read(&example(solution)).unwrap();
    assert_eq!(table.time.len(), 101, "one row per grid point");
    let x = view.initial_point(&Guess::Table(table)).unwrap();
    (view, x)
}

/// Moco's solution, evaluated by ferrobody's goals, gives Moco's value of each goal: the
/// contact forces of the model, the splined references and the quadrature are Moco's. The
/// .sto keeps 16 digits, so the terms agree to round-off of the sums; 1e-6 relative leaves
/// room for the quintic spline's solve (OpenSim's GCVSPL stops its smoothing search near p = 0,
/// ours is the exact interpolant: 1e-7 apart on the data, tests/reference_spline.rs).
#[test]
fn moco_s_solution_has_moco_s_goal_values() {
    let (view, x) = view_at("gait2d_tracking_moco_solution.sto");
    let values = view.goal_values(&x);
    let expect = [
        ("state_tracking", MOCO_STATE_TRACKING),
        ("effort", MOCO_EFFORT),
        ("contact_tracking", MOCO_CONTACT),
    ];
    for ((label, value), (moco_label, moco)) in values.iter().zip(expect) {
        assert_eq!(*label, moco_label);
        let gap = (value - moco).abs() / moco;
        assert!(
            gap < 1e-6,
            "{label}: ferrobody {value}, Moco {moco} ({gap:.1e} relative)"
        );
    }
}

/// ferrobody's solution satisfies Moco's problem (every defect and endpoint constraint within
/// IPOPT's 1e-4) and its objective is Moco's within the 2 % — in fact within 1e-4:
/// both solvers reach the same optimum.
#[test]
fn ferrobody_s_solution_reaches_moco_s_optimum() {
    let (view, x) = view_at("gait2d_tracking_solution.sto");
    let g = view.constraints(&x).unwrap();
    let worst = g.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(worst < 1e-4, "largest constraint violation {worst}");
    let moco = MOCO_STATE_TRACKING + MOCO_EFFORT + MOCO_CONTACT;
    let objective = view.objective(&x);
    let gap = (objective - moco).abs() / moco;
    assert!(
        gap < 1e-4,
        "objective {objective} vs Moco's {moco}: {gap:.1e} relative"
    );
}
