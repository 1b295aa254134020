//! Goals and endpoint constraints against closed-form optima on the sliding mass (m = 2 kg,
//! m ẍ = u): rest-to-rest minimum effort (periodicity supplies the final rest) and tracking
//! a reachable reference.

use super::moco_problems::example;
use ferrobody_optimize::{
    solve, Bounds, FinalTime, Goal, Guess, Problem, SolverSettings, StateBounds, Table,
};

fn sliding_mass(tf: f64) -> Problem {
    let osim = ferrobody::io::osim::load(&example("sliding_mass.osim")).unwrap();
    let mut p = Problem::from_osim(&osim).unwrap();
    p.set_time_bounds(0.0, FinalTime::Fixed(tf)).unwrap();
    p
}

fn settings() -> SolverSettings {
    SolverSettings {
        mesh_intervals: 20,
        convergence_tolerance: 1e-8,
        constraint_tolerance: 1e-10,
        progress: false,
        ..SolverSettings::default()
    }
}

fn ends(initial: Option<f64>, final_: Option<f64>) -> StateBounds {
    StateBounds {
        path: Bounds::new(-10.0, 10.0),
        initial: initial.map(Bounds::fixed),
        final_: final_.map(Bounds::fixed),
    }
}

#[test]
fn periodic_speed_makes_rest_to_rest_effort() {
    // Moving d = 1 m in T = 1 s from rest with ∫u² minimal: u linear in t, x cubic. With the
    // final speed free the optimum is 3 m² d²/T³ = 12; with v(t_f) = v(t₀) = 0 by periodicity
    // it is 12 m² d²/T³ = 48. Hermite–Simpson integrates cubics exactly, so only IPOPT's
    // tolerance (1e-8) separates the optimum from 48.
    let mut p = sliding_mass(1.0);
    p.set_state_bounds("position", ends(Some(0.0), Some(1.0)))
        .unwrap();
    p.set_state_bounds("position/speed", ends(Some(0.0), None))
        .unwrap();
    p.add_goal(Goal::control_effort(1.0)).unwrap();
    let free = solve(p.clone(), &settings(), &Guess::Bounds).unwrap();
    assert!((free.objective - 12.0).abs() < 1e-6, "{}", free.objective);
    p.add_periodicity(&[("position/speed", "position/speed")])
        .unwrap();
    let rest = solve(p, &settings(), &Guess::Bounds).unwrap();
    assert!((rest.objective - 48.0).abs() < 1e-6, "{}", rest.objective);
    let v = rest.column("/slider/position/speed").unwrap();
    assert!(v.last().unwrap().abs() < 1e-9);
}

#[test]
fn tracking_a_reachable_reference_recovers_its_force() {
    // x_ref = t²/2, v_ref = t are reached from rest by u = m·1 = 2 N. Tracking both (weight
    // 10) with a tiny effort term (1e-7, which keeps the last control, which barely moves
    // the states, defined) follows the reference and pushes with 2 N over the first 80 %.
    let text: String =
        std::iter::once("time\t/slider/position/value\tposition/speed\n".to_string())
            .chain((0..=40).map(|i| {
                let t = i as f64 / 40.0;
                format!("{t}\t{}\t{t}\n", 0.5 * t * t)
            }))
            .collect();
    let reference = Table::parse(&text, "reference").unwrap();
    let mut p = sliding_mass(1.0);
    p.set_state_bounds("position", ends(Some(0.0), None))
        .unwrap();
    p.set_state_bounds("position/speed", ends(Some(0.0), None))
        .unwrap();
    p.add_state_tracking(10.0, reference, &|_| None).unwrap();
    p.add_goal(Goal::control_effort(1e-7)).unwrap();
    // The tracking weight makes the objective badly scaled for IPOPT's L-BFGS: 1e-10 on the
    // defects ends in its restoration phase; 1e-8 (still far below the 1e-3 checked) does not.
    let settings = SolverSettings {
        convergence_tolerance: 1e-6,
        constraint_tolerance: 1e-8,
        ..settings()
    };
    let s = solve(p, &settings, &Guess::Bounds).unwrap();
    let x = s.column("/slider/position/value").unwrap();
    for (t, xi) in s.time.iter().zip(&x) {
        // The reference is linear between its rows: it differs from t²/2 by up to
        // (1/40)²/8 ≈ 8e-5 m; the effort term costs a little more near the end.
        assert!((xi - 0.5 * t * t).abs() < 1e-3, "x({t}) = {xi}");
    }
    let u = s.column("/actuator").unwrap();
    let early: Vec<f64> = s
        .time
        .iter()
        .zip(&u)
        .filter(|(t, _)| **t <= 0.8)
        .map(|(_, u)| *u)
        .collect();
    let mean = early.iter().sum::<f64>() / early.len() as f64;
    // IPOPT stops at dual infeasibility 1e-6 of a cost that is flat in u at the scale of
    // h² (x moves by u h²/2m per interval): 1 % on the mean force is what that leaves.
    assert!((mean - 2.0).abs() < 1e-2, "mean u = {mean}");
}

#[test]
fn periodicity_refuses_state_control_pairs_and_unknown_names() {
    let mut p = sliding_mass(1.0);
    assert!(p.add_periodicity(&[("position", "/actuator")]).is_err());
    assert!(p.add_periodicity(&[("position", "nowhere")]).is_err());
}
