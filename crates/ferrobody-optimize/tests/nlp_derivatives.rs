//! The NLP's exact Jacobian and gradient against central differences, at a point away from
//! the guess (every state, control and a free final time moved), for both transcriptions.

use super::moco_problems::example;
use ferrobody_optimize::inspect::NlpView;
use ferrobody_optimize::{Bounds, FinalTime, Goal, Guess, ProblemFile, Transcription};

/// A problem with a free final time and both goals, so every column kind is exercised.
fn double_pendulum_free_time() -> ferrobody_optimize::Problem {
    let mut file = ProblemFile::load(&example("double_pendulum_swingup.toml")).unwrap();
    let p = &mut file.problem;
    p.set_time_bounds(0.0, FinalTime::Free(Bounds::new(0.5, 2.0)))
        .unwrap();
    p.add_goal(Goal::FinalTime { weight: 0.3 }).unwrap();
    p.add_goal(Goal::ControlEffort {
        weight: 2.0,
        exponent: 3,
        control_weights: vec![1.0, 0.5],
        divide_by_duration: false,
        divide_by_displacement: false,
    })
    .unwrap();
    // A reference moving in time, so the tracking goal's t_f derivative is exercised.
    let text: String = std::iter::once("time\tq0\tq1/speed\n".to_string())
        .chain((0..=20).map(|i| {
            let t = i as f64 * 0.1;
            format!("{t}\t{}\t{}\n", (2.0 * t).sin(), t * t)
        }))
        .collect();
    let reference = ferrobody_optimize::Table::parse(&text, "reference").unwrap();
    p.add_state_tracking(0.7, reference, &|name| (name == "q0").then_some(3.0))
        .unwrap();
    p.add_periodicity(&[("q1", "q1/speed"), ("/tau0", "/tau1")])
        .unwrap();
    file.problem
}

/// A deterministic point: the guess plus a spread of smooth offsets.
pub fn moved_point(view: &NlpView) -> Vec<f64> {
    let mut x = view.initial_point(&Guess::Bounds).unwrap();
    for (i, xi) in x.iter_mut().enumerate() {
        *xi += 0.3 * ((i as f64) * 0.7).sin();
    }
    // t_f = 1.13 keeps every grid time off the reference's rows (its kinks), where central
    // differences would straddle two slopes.
    x[0] = 1.13;
    x
}

fn check(transcription: Transcription) {
    let view = NlpView::new(double_pendulum_free_time(), transcription, 6).unwrap();
    let x = moved_point(&view);
    check_at(&view, &x);
}

/// The exact Jacobian and gradient of `view` at `x` against central differences.
pub fn check_at(view: &NlpView, x: &[f64]) {
    let x = x.to_vec();
    let n = view.n_variables();
    let mut exact = vec![vec![0.0; n]; view.n_constraints()];
    for (r, c, v) in view.jacobian(&x).unwrap() {
        exact[r][c] += v;
    }
    let gradient = view.objective_gradient(&x);
    // Central differences with step 1e-6 on O(1) functions: truncation ~1e-12·f''', round-off
    // ~1e-16/1e-6 = 1e-10 per unit of |g|; the dynamics reach |u̇| ~ 1e3, so 1e-6 relative to
    // the largest entry's size with an absolute floor of 1e-6 separates round-off from a
    // wrong derivative (a missing term is O(h·J) ~ 1e-2 or larger).
    let step = 1e-6;
    let mut worst: f64 = 0.0;
    for j in 0..n {
        let (mut plus, mut minus) = (x.clone(), x.clone());
        plus[j] += step;
        minus[j] -= step;
        let gp = view.constraints(&plus).unwrap();
        let gm = view.constraints(&minus).unwrap();
        for (r, row) in exact.iter().enumerate() {
            let fd = (gp[r] - gm[r]) / (2.0 * step);
            let err = (fd - row[j]).abs() / (1.0 + fd.abs());
            assert!(err < 1e-5, "∂g{r}/∂x{j}: exact {} fd {fd}", row[j]);
            worst = worst.max(err);
        }
        let fd = (view.objective(&plus) - view.objective(&minus)) / (2.0 * step);
        let err = (fd - gradient[j]).abs() / (1.0 + fd.abs());
        assert!(err < 1e-6, "∂J/∂x{j}: exact {} fd {fd}", gradient[j]);
    }
    assert!(worst > 0.0);
}

#[test]
fn hermite_simpson_jacobian_matches_central_differences() {
    check(Transcription::HermiteSimpson);
}

#[test]
fn trapezoidal_jacobian_matches_central_differences() {
    check(Transcription::Trapezoidal);
}

/// A muscle-driven problem: a DeGroote muscle over a wrap cylinder, via a moving and a
/// conditional path point, swings a pendulum; its excitation is the control, its activation
/// and normalized tendon force are states. The Jacobian's columns run through the path, the
/// wrap, the tendon and activation dynamics (issue 37, item 7; issue 40).
#[test]
fn muscle_driven_jacobian_matches_central_differences() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/opensim/muscles/mus_pendulum_wrap.osim");
    let text = std::fs::read_to_string(&file).unwrap();
    let (start, end) = (
        text.find("<ControllerSet").unwrap(),
        text.find("</ControllerSet>").unwrap() + "</ControllerSet>".len(),
    );
    let text = format!("{}{}", &text[..start], &text[end..]);
    let osim = ferrobody::io::osim::parse(&text, "mus_pendulum_wrap.osim").unwrap();
    let mut p = ferrobody_optimize::Problem::from_osim(&osim).unwrap();
    assert_eq!(p.control_names(), ["/forceset/lifter"]);
    p.set_time_bounds(0.0, FinalTime::Free(Bounds::new(0.2, 2.0)))
        .unwrap();
    p.add_goal(Goal::control_effort(1.0)).unwrap();
    p.add_goal(Goal::FinalTime { weight: 0.5 }).unwrap();
    for transcription in [Transcription::HermiteSimpson, Transcription::Trapezoidal] {
        let view = NlpView::new(p.clone(), transcription, 4).unwrap();
        let mut x = view.initial_point(&Guess::Bounds).unwrap();
        // The swing near −0.1 rad (the wrap engaged, the conditional point in; away from
        // both switches), a loaded tendon, activations and excitations inside (0, 1).
        let ny = p.state_names().len();
        let nc = p.control_names().len();
        x[0] = 0.8;
        for (i, xi) in x.iter_mut().enumerate().skip(1) {
            let wiggle = 0.02 * ((i as f64) * 0.7).sin();
            *xi = match (i - 1) % (ny + nc) {
                0 => -0.1 + wiggle,
                1 => 0.3 + wiggle,
                2 => 0.4 + wiggle,
                3 => 0.6 + wiggle,
                _ => 0.5 + wiggle,
            };
        }
        check_at(&view, &x);
    }
}

#[test]
fn jacobian_pattern_has_no_duplicates() {
    let view = NlpView::new(
        double_pendulum_free_time(),
        Transcription::HermiteSimpson,
        4,
    )
    .unwrap();
    let x = moved_point(&view);
    let mut entries: Vec<(usize, usize)> = view
        .jacobian(&x)
        .unwrap()
        .into_iter()
        .map(|(r, c, _)| (r, c))
        .collect();
    let n = entries.len();
    entries.sort_unstable();
    entries.dedup();
    assert_eq!(entries.len(), n);
}

/// Moco's predictive 2D walking problem (examples/optimal-control/gait2d_predictive.toml) on
/// a coarse mesh: 18 muscles, smooth foot contact, symmetry, the average-speed endpoint
/// constraint and the effort divided by the centre of mass's displacement — every column of
/// the Jacobian and the gradient against central differences, at Moco's guess moved a little.
#[test]
fn predictive_walking_jacobian_matches_central_differences() {
    let file = ProblemFile::load(&example("gait2d_predictive.toml")).unwrap();
    let view = NlpView::new(file.problem, Transcription::HermiteSimpson, 2).unwrap();
    let mut x = view.initial_point(&file.guess).unwrap();
    for (i, xi) in x.iter_mut().enumerate().skip(1) {
        *xi += 0.01 * ((i as f64) * 0.7).sin();
    }
    check_at(&view, &x);
}

/// Moco's tracking problem of example2DWalking (examples/optimal-control/gait2d_tracking.toml)
/// on a coarse mesh: the contact-tracking goal's gradient (through the smooth contacts'
/// forces in q and u) and the splined state tracking, at a point where the feet press on the
/// ground (MocoTrack's guess, moved a little), against central differences.
#[test]
fn tracking_walking_gradient_matches_central_differences() {
    let file = ProblemFile::load(&example("gait2d_tracking.toml")).unwrap();
    let view = NlpView::new(file.problem, Transcription::HermiteSimpson, 3).unwrap();
    let mut x = view.initial_point(&file.guess).unwrap();
    for (i, xi) in x.iter_mut().enumerate() {
        *xi += 0.01 * ((i as f64) * 0.7).sin();
    }
    check_at(&view, &x);
}

/// The grid points evaluated on several threads give the same constraints and Jacobian, bit
/// for bit, as on one (each point's evaluation is independent and deterministic).
#[test]
fn threaded_evaluation_is_bit_for_bit_the_sequential_one() {
    let file = ProblemFile::load(&example("gait2d_predictive.toml")).unwrap();
    let one = NlpView::new(file.problem.clone(), Transcription::HermiteSimpson, 3).unwrap();
    let three = NlpView::with_threads(file.problem, Transcription::HermiteSimpson, 3, 3).unwrap();
    let x = one.initial_point(&file.guess).unwrap();
    assert_eq!(one.constraints(&x).unwrap(), three.constraints(&x).unwrap());
    assert_eq!(one.jacobian(&x).unwrap(), three.jacobian(&x).unwrap());
}
