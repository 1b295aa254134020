//! Moco's predictive 2D walking problem (examples/optimal-control/gait2d_predictive.toml,
//! ../shared/reference/moco problem 3) as ferrobody solved it from the guess Moco was given,
//! at 25 and at 50 mesh intervals (`gait2d_predictive_solution.sto` and `…_solution_50.sto`,
//! written by `ferrobody optimize`; the solves take minutes, so the tests check their results
//! instead of repeating them; docs/optimal-control.md has the commands). The stored solution must be a
//! solution of Moco's problem as stated — within IPOPT's tolerances on every defect, bound and
//! endpoint constraint, re-evaluated here by the library — and a walk: each foot in stance and
//! in swing, the centre of mass moving forward at 1.2 m/s.

use super::moco_problems::example;
use ferrobody::Stage;
use ferrobody_optimize::inspect::NlpView;
use ferrobody_optimize::{Guess, ProblemFile, Table, Transcription};

/// The third: the same problem at 50 intervals along the example's own path, from the
/// solution of its tracking problem (`gait2d_predictive_from_tracking.toml`).
const SOLUTIONS: [(usize, &str); 3] = [
    (25, "gait2d_predictive_solution.sto"),
    (50, "gait2d_predictive_solution_50.sto"),
    (50, "gait2d_predictive_from_tracking_solution.sto"),
];

fn solution(intervals: usize, name: &str) -> (ProblemFile, NlpView, Vec<f64>, Table) {
    let file = ProblemFile::load(&example("gait2d_predictive.toml")).unwrap();
    let table = Table::read(&example(name)).unwrap();
    let view = NlpView::new(
        file.problem.clone(),
        Transcription::HermiteSimpson,
        intervals,
    )
    .unwrap();
    let x = view.initial_point(&Guess::Table(table.clone())).unwrap();
    (file, view, x, table)
}

#[test]
fn the_stored_solutions_satisfy_moco_s_problem() {
    for (intervals, name) in SOLUTIONS {
        satisfies_the_problem(intervals, name);
    }
}

fn satisfies_the_problem(intervals: usize, name: &str) {
    let (_, view, x, table) = solution(intervals, name);
    // The table's rows are the 2N + 1 grid points: the guess lands on them exactly.
    assert_eq!(table.time.len(), 2 * intervals + 1);
    let g = view.constraints(&x).unwrap();
    let worst = g.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    // IPOPT's constr_viol_tol is 1e-4 (Moco's optim_constraint_tolerance); the .sto keeps 17
    // significant digits, so the re-evaluated defects are IPOPT's own.
    assert!(worst < 1e-4, "largest constraint violation {worst}");
    let (lo, hi) = view.bounds();
    for (i, xi) in x.iter().enumerate() {
        // IPOPT keeps its iterates within the bounds relaxed by bound_relax_factor (1e-8).
        assert!(
            *xi >= lo[i] - 1e-6 && *xi <= hi[i] + 1e-6,
            "x{i} = {xi} outside [{}, {}]",
            lo[i],
            hi[i]
        );
    }
    assert!((0.4..=0.6).contains(&x[0]), "final time {}", x[0]);
}

#[test]
fn the_stored_solutions_walk() {
    for (intervals, name) in SOLUTIONS {
        walks(intervals, name);
    }
}

fn walks(intervals: usize, name: &str) {
    let (file, _, x, table) = solution(intervals, name);
    // About 70 % of the half cycle: the right foot swings, the left one stands.
    let mid = intervals + intervals / 2 - 2;
    let last = 2 * intervals;
    let p = &file.problem;
    let model = p.model();
    let (ny, nc) = (p.state_names().len(), p.control_names().len());
    let mut data = ferrobody::Data::new(model);
    let heel = |name: &str| model.body_id(name).unwrap();
    let (right, left) = (heel("calcn_r"), heel("calcn_l"));
    let (mut right_heights, mut left_heights) = (Vec::new(), Vec::new());
    for (i, t) in table.time.iter().enumerate() {
        let y = &x[1 + i * (ny + nc)..1 + i * (ny + nc) + ny];
        let c = &x[1 + i * (ny + nc) + ny..1 + (i + 1) * (ny + nc)];
        let s = p.state_at(*t, y, c).unwrap();
        ferrobody::pipeline::realize(model, &s, &mut data, Stage::Position).unwrap();
        let poses = data.poses().unwrap();
        right_heights.push(poses[right.0].p[1]);
        left_heights.push(poses[left.0].p[1]);
    }
    let range = |h: &[f64]| {
        let lo = h.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = h.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        (lo, hi)
    };
    // Each heel's origin (its contact sphere, radius 3.5 cm, touches the ground when the
    // origin is about 6 mm up) comes down to the ground and lifts at least 5 cm above it:
    // stance and swing for both feet (the right heel lifts off, the left one strikes).
    for (side, heights) in [("right", &right_heights), ("left", &left_heights)] {
        let (lo, hi) = range(heights);
        assert!(
            lo < 0.01,
            "{side} heel never reaches the ground: lowest {lo}"
        );
        assert!(hi > lo + 0.05, "{side} heel never swings: {lo}..{hi}");
    }
    // The solutions from Moco's guess start with the right foot down and the left one in the
    // air; the one from the tracking solution starts where the tracked data do (the right heel
    // striking, the left foot pushing off), so only the stance and swing above apply to it.
    if !name.contains("from_tracking") {
        assert!(
            right_heights[0] < 0.01 && right_heights[mid] > 0.15,
            "right: stance, then swing"
        );
        assert!(
            left_heights[0] > 0.1 && left_heights[mid] < 0.01,
            "left: swing, then stance"
        );
    }
    let tx = p
        .variable("/jointset/groundPelvis/pelvis_tx/value")
        .unwrap();
    let ferrobody_optimize::Variable::State(tx) = tx else {
        panic!("pelvis_tx is a state")
    };
    let (first, last) = (x[1 + tx], x[1 + last * (ny + nc) + tx]);
    // The pelvis advances about 1.2 m/s × t_f (the centre of mass exactly, by the constraint).
    let speed = (last - first) / x[0];
    assert!((speed - 1.2).abs() < 0.1, "pelvis speed {speed}");
}

/// Moco 4.6's own solution of the prediction along the example's path (from its tracking
/// solution, `bench/moco/gait_tracking.py`: 465 iterations, objective 0.1345987383, t_f
/// 0.5000897 s), evaluated by ferrobody: Moco's objective — the effort over the centre of
/// mass's displacement — to 1e-6, and every constraint of the problem as ferrobody states it
/// within Moco's 1e-4. ferrobody's own solution from its tracking solution is 0.13 % above
/// (0.134768): within the 2 %.
#[test]
fn moco_s_prediction_satisfies_ferrobody_s_problem_with_moco_s_objective() {
    let (_, view, x, _) = solution(50, "gait2d_predictive_moco_solution.sto");
    let moco = 0.1345987383;
    let objective = view.objective(&x);
    assert!(
        (objective - moco).abs() / moco < 1e-6,
        "objective {objective} vs Moco's {moco}"
    );
    let g = view.constraints(&x).unwrap();
    let worst = g.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(worst < 1e-4, "largest constraint violation {worst}");
    let (_, ours, y, _) = solution(50, "gait2d_predictive_from_tracking_solution.sto");
    let gap = (ours.objective(&y) - moco) / moco;
    assert!(
        gap.abs() < 0.02,
        "ferrobody's prediction {gap:.2e} from Moco's"
    );
}
