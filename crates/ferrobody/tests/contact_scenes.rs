//! The compliant-contact scenes against Simbody 3.7's own trajectories
//! (testdata/simbody37/, produced from shared/spec/scenarios.md). At every report time body
//! positions must agree within 1e-5 m and velocities within 1e-4 m/s or rad/s (the acceptance
//! limits; the figures measured are in docs/validation.md), and s7's final mean height within
//! 1e-4 m. Also: with no dissipation and no friction, a bouncing ball conserves kinetic plus
//! potential energy (contact energy included).

use crate::common;
use ferrobody::algorithms::kinetic_energy;
use ferrobody::io::{load_scene, parse_scene, Scene};
use ferrobody::model::potential_energy;
use ferrobody::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scene(name: &str) -> Scene {
    load_scene(&root().join("examples/scenes").join(name)).unwrap()
}

/// The reference CSV as rows of named columns.
fn reference(name: &str) -> Vec<HashMap<String, f64>> {
    common::csv_rows(&format!("testdata/simbody37/{name}"))
}

/// Simulates a scene and returns, per report, the time and a lookup of named quantities.
fn simulate(
    sc: &Scene,
    read: impl Fn(&Model<f64>, &State<f64>, &Data<f64>) -> HashMap<String, f64>,
) -> Vec<HashMap<String, f64>> {
    let mut rows = Vec::new();
    let mut sim = Simulation::new(&sc.model, sc.initial_state.clone(), sc.integrator).unwrap();
    sim.run(sc.duration, sc.report_interval, |m, s, d| {
        let mut row = read(m, s, d);
        row.insert("t".into(), s.t);
        rows.push(row);
        Ok(())
    })
    .unwrap();
    rows
}

/// Largest |ours − reference| of each (ours, reference) column pair over all rows.
fn max_differences(
    ours: &[HashMap<String, f64>],
    refs: &[HashMap<String, f64>],
    pairs: &[(&str, &str)],
) -> Vec<f64> {
    assert_eq!(ours.len(), refs.len());
    pairs
        .iter()
        .map(|(o, r)| {
            ours.iter()
                .zip(refs)
                .map(|(a, b)| {
                    assert!((a["t"] - b["t"]).abs() < 1e-9);
                    (a[*o] - b[*r]).abs()
                })
                .fold(0.0, f64::max)
        })
        .collect()
}

fn ball_columns(_m: &Model<f64>, _s: &State<f64>, d: &Data<f64>) -> HashMap<String, f64> {
    let (p, v) = (d.poses().unwrap()[1].p, d.velocities().unwrap()[1]);
    HashMap::from([
        ("x".into(), p.x),
        ("y".into(), p.y),
        ("z".into(), p.z),
        ("wx".into(), v[0]),
        ("wy".into(), v[1]),
        ("wz".into(), v[2]),
        ("vx".into(), v[3]),
        ("vy".into(), v[4]),
        ("vz".into(), v[5]),
    ])
}

fn check_ball_scene(file: &str, reference_csv: &str, velocity_bound: f64) -> (f64, f64) {
    let ours = simulate(&scene(file), ball_columns);
    let refs = reference(reference_csv);
    let pos = max_differences(&ours, &refs, &[("x", "x"), ("y", "y"), ("z", "z")]);
    let vel = max_differences(
        &ours,
        &refs,
        &[
            ("vx", "vx"),
            ("vy", "vy"),
            ("vz", "vz"),
            ("wx", "wx"),
            ("wy", "wy"),
            ("wz", "wz"),
        ],
    );
    let (p, v) = (
        pos.iter().cloned().fold(0.0, f64::max),
        vel.iter().cloned().fold(0.0, f64::max),
    );
    // Acceptance: 1e-5 m, and `velocity_bound` (see the callers and docs/validation.md).
    assert!(p < 1e-5, "{file}: positions differ by up to {p:e} m");
    assert!(
        v < velocity_bound,
        "{file}: velocities differ by up to {v:e}"
    );
    (p, v)
}

#[test]
fn s1_hunt_crossley_ball_matches_simbody() {
    // 1e-4 m/s, the acceptance limit: measured 4.2e-5 since the free body's arithmetic is
    // Simbody's (issue 41; docs/validation.md). The scene amplifies one-ulp changes of its
    // initial state to 3.8e-5–2.4e-4 m/s (`s1_amplifies_a_one_ulp_change_of_the_spin_to_1e_4`),
    // so the remaining gap to the shared reference is within Simbody's own spread.
    check_ball_scene("s1_hc_ball.toml", "s1_hc_ball.csv", 1e-4);
}

/// How sensitive s1 is: the scene turns one-ulp changes of its initial state into velocity
/// differences above 1e-4 m/s, so its gap to Simbody (4.2e-5 m/s) is within Simbody's own
/// spread. Measured: the spin ω_z 5 → 5 − 1 ulp moves the velocities by 6.6e-5 m/s, + 1 ulp by
/// 2.4e-4, the speed v_x 1 → 1 + 1 ulp by 3.8e-5.
#[test]
fn s1_amplifies_a_one_ulp_change_of_the_spin_to_1e_4() {
    let base = simulate(&scene("s1_hc_ball.toml"), ball_columns);
    let pairs: Vec<(&str, &str)> = ["vx", "vy", "vz", "wx", "wy", "wz"]
        .iter()
        .map(|k| (*k, *k))
        .collect();
    let mut spread: f64 = 0.0;
    for (speed, step) in [(2, -1i64), (2, 1), (3, 1)] {
        let mut nudged = scene("s1_hc_ball.toml");
        let x = &mut nudged.initial_state.u[speed];
        *x = f64::from_bits((x.to_bits() as i64 + step) as u64);
        let moved = simulate(&nudged, ball_columns);
        let gap = max_differences(&moved, &base, &pairs)
            .into_iter()
            .fold(0.0, f64::max);
        spread = spread.max(gap);
    }
    assert!(
        spread > 1e-4,
        "one-ulp nudges moved the velocities by at most {spread:e}"
    );
}

#[test]
fn s2_compliant_ball_matches_simbody() {
    // 1e-4 m/s (measured 5.0e-5; docs/validation.md).
    check_ball_scene("s2_ccs_ball.toml", "s2_ccs_ball.csv", 1e-4);
}

#[test]
fn s6_chain_matches_simbody() {
    let ours = simulate(&scene("s6_chain_contact.toml"), |m, s, d| {
        let mut row = HashMap::new();
        for i in 1..=5 {
            row.insert(format!("q{i}"), s.q[i - 1]);
            row.insert(format!("u{i}"), s.u[i - 1]);
            let c = d.poses().unwrap()[i].apply(&Vector3::new(0.5, 0.0, 0.0));
            row.insert(format!("s{i}x"), c.x);
            row.insert(format!("s{i}y"), c.y);
        }
        row.insert(
            "energy".into(),
            kinetic_energy(m, d) + potential_energy(m, s, d),
        );
        row
    });
    let refs = reference("s6_chain_contact.csv");
    let names: Vec<(String, String)> = (1..=5)
        .flat_map(|i| [format!("s{i}x"), format!("s{i}y")])
        .map(|n| (n.clone(), n))
        .collect();
    let pairs: Vec<(&str, &str)> = names
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let pos = max_differences(&ours, &refs, &pairs)
        .into_iter()
        .fold(0.0, f64::max);
    let speeds: Vec<(String, String)> = (1..=5)
        .map(|i| (format!("u{i}"), format!("u{i}")))
        .collect();
    let pairs: Vec<(&str, &str)> = speeds
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let vel = max_differences(&ours, &refs, &pairs)
        .into_iter()
        .fold(0.0, f64::max);
    // Acceptance 1e-5 m / 1e-4 rad/s; measured about 1e-8 and 2e-7.
    assert!(
        pos < 1e-5 && vel < 1e-4,
        "s6: sphere centres {pos:e} m, speeds {vel:e} rad/s"
    );
    let energy = max_differences(&ours, &refs, &[("energy", "energy")])[0];
    assert!(energy < 1e-5, "s6 energy differs by {energy:e} J");
}

#[test]
fn s7_final_mean_heights_match_simbody() {
    let text = std::fs::read_to_string(root().join("testdata/simbody37/s7_many_balls_summary.csv"))
        .unwrap();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let (n, mean_ref, steps_ref): (usize, f64, u64) = (
            cols[0].parse().unwrap(),
            cols[1].parse().unwrap(),
            cols[5].parse().unwrap(),
        );
        let sc = scene(&format!("s7_many_balls_n{n}.toml"));
        let mut sim = Simulation::new(&sc.model, sc.initial_state.clone(), sc.integrator).unwrap();
        sim.advance_to(sc.duration).unwrap();
        let heights: f64 = (1..=n).map(|i| sim.state().q[7 * (i - 1) + 5]).sum();
        let mean = heights / n as f64;
        // Acceptance 1e-4 m; measured below 1e-10 m, with Simbody's step count.
        assert!(
            (mean - mean_ref).abs() < 1e-4,
            "N = {n}: mean height {mean} vs {mean_ref}"
        );
        assert_eq!(sim.stats().steps_taken, steps_ref, "N = {n}: steps");
    }
}

#[test]
fn ball_without_dissipation_or_friction_conserves_energy() {
    let text = std::fs::read_to_string(root().join("examples/scenes/s1_hc_ball.toml")).unwrap();
    let text = text
        .replace("dissipation = 0.5", "dissipation = 0.0")
        .replace("static_friction = 0.8", "static_friction = 0.0")
        .replace("dynamic_friction = 0.5", "dynamic_friction = 0.0")
        .replace("accuracy = 1e-6", "accuracy = 1e-10");
    let sc = parse_scene(&text, "elastic ball", "elastic").unwrap();
    let mut energies = Vec::new();
    let mut sim = Simulation::new(&sc.model, sc.initial_state.clone(), sc.integrator).unwrap();
    sim.run(sc.duration, 0.001, |m, s, d| {
        energies.push(kinetic_energy(m, d) + potential_energy(m, s, d));
        Ok(())
    })
    .unwrap();
    let e0 = energies[0];
    let drift = energies.iter().map(|e| (e - e0).abs()).fold(0.0, f64::max) / e0;
    // Several bounces through the stiff Hertz law. The drift is integration error concentrated
    // at contact onsets (the force grows as x^1.5): it falls with the accuracy, measured
    // 1.5e-5 at 1e-6, 1.0e-6 at 1e-8 and 1.1e-9 at 1e-10. A force without its matching
    // potential energy would drift by order 1e-2 whatever the accuracy.
    assert!(drift < 1e-8, "relative energy drift {drift:e}");
}
