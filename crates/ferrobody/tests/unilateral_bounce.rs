//! Scene s4_unilateral_bounce (shared/spec/scenarios.md): a ball bouncing on Ground's plane with
//! a rigid SpherePlaneContact and the semi-explicit Euler rigid-contact stepper, against
//! Simbody 3.7's trajectory and against the physics (restitution, rolling, capture).

use ferrobody::prelude::*;

const G: f64 = 9.81;
const E: f64 = 0.5;
const H: f64 = 1e-3;

/// One row per step: t, y, vx, vy, wz, contact enabled; and every impact's kinetic energy
/// before and after the impact phase.
struct Run {
    rows: Vec<[f64; 6]>,
    impacts: Vec<(f64, f64, f64)>,
}

fn run_s4(solver: &str, h: f64) -> Run {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/scenes/s4_unilateral_bounce.toml"
    );
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("solver = \"plus\"", &format!("solver = \"{solver}\""))
        .replace("fixed_step = 1e-3", &format!("fixed_step = {h:e}"));
    let scene = ferrobody::io::parse_scene(&text, path, "s4").unwrap();
    let model = &scene.model;
    let mut sim = Simulation::new(model, scene.initial_state.clone(), scene.integrator).unwrap();
    let mut rows = Vec::new();
    let mut impacts = Vec::new();
    let contact = UnilateralContactId(0);
    let mut t_next = 0.0;
    while sim.state().t < scene.duration - 1e-12 {
        t_next += h;
        sim.advance_to(t_next).unwrap();
        let s = sim.state();
        let on = model.is_unilateral_enabled(s, contact) as u8 as f64;
        rows.push([s.t, s.q[5], s.u[3], s.u[4], s.u[2], on]);
        if let Some(r) = sim.rigid_stepper().unwrap().last_impact() {
            impacts.push((r.t, r.kinetic_energy_before, r.kinetic_energy_after));
        }
    }
    Run { rows, impacts }
}

#[test]
fn s4_matches_simbody_37_trajectory() {
    let run = run_s4("plus", H);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/simbody37/s4_unilateral_bounce.csv"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (cy, cvx, cvy, cwz) = (col("y"), col("vx"), col("vy"), col("wz"));
    let mut compared = 0;
    for line in lines {
        let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let k = (v[0] / H).round() as usize;
        if k == 0 {
            continue;
        }
        let ours = run.rows[k - 1];
        assert!((ours[0] - v[0]).abs() < 1e-9);
        // Same algorithm, same step sequence: only roundoff separates the two (observed 6e-14).
        for (a, b, name) in [
            (ours[1], v[cy], "y"),
            (ours[2], v[cvx], "vx"),
            (ours[3], v[cvy], "vy"),
            (ours[4], v[cwz], "wz"),
        ] {
            assert!(
                (a - b).abs() < 1e-9,
                "t = {}: {name} = {a}, Simbody {b}",
                v[0]
            );
        }
        compared += 1;
    }
    assert_eq!(compared, 300);
}

/// Index of the first step whose vertical velocity turned from falling to rising.
fn bounces(rows: &[[f64; 6]]) -> Vec<usize> {
    (1..rows.len())
        .filter(|&k| rows[k - 1][3] < -1e-3 && rows[k][3] > 0.0)
        .collect()
}

#[test]
fn s4_first_impact_restitution_and_rolling() {
    for solver in ["plus", "pgs"] {
        let run = run_s4(solver, H);
        let k = bounces(&run.rows)[0];
        let (before, after) = (run.rows[k - 1], run.rows[k]);
        // The impact step also applies gravity for h after the impact (contact released).
        let cor = (after[3] + G * H) / -before[3];
        assert!((cor - E).abs() < 0.01 * E, "{solver}: COR {cor}");
        let vx = after[2];
        assert!(
            (vx - 10.0 / 7.0).abs() < 0.01 * 10.0 / 7.0,
            "{solver}: vx {vx}"
        );
        // Rolling without slip: contact-point velocity vx + ωz·r = 0.
        // PLUS solves the rolling rows exactly; PGS stops at an RMS residual of 1e-6 m/s.
        let slip_tol = if solver == "plus" { 1e-12 } else { 1e-6 };
        assert!(
            (vx + after[4] * 0.1).abs() < slip_tol,
            "{solver}: slip {}",
            vx + after[4] * 0.1
        );
    }
}

#[test]
fn s4_apex_heights_fall_by_e_squared() {
    // Semi-explicit Euler's flight error shifts an apex by about h·v/2 on the way down and up,
    // so the measured ratio is off by ≈ 3 g h / v (2.9 % at h = 1 ms for the third bounce, at
    // 1.05 m/s; Simbody's stepper gives the same numbers). A quarter of the step resolves the
    // restitution law itself: ≈ 0.7 %.
    let run = run_s4("plus", H / 4.0);
    let ks = bounces(&run.rows);
    assert!(ks.len() >= 4, "{} bounces", ks.len());
    // Heights of the ball's bottom (y − r): apexes before the first bounce and between bounces,
    // and the height at which each impact happened (anywhere in the 1 mm proximity band, as
    // in Simbody). A rebound at speed e·v from height y_c rises e² times the fall to y_c.
    let mut apex = vec![0.9];
    for w in ks.windows(2) {
        let top = run.rows[w[0]..w[1]]
            .iter()
            .map(|r| r[1])
            .fold(f64::MIN, f64::max);
        apex.push(top - 0.1);
    }
    for i in 1..=3 {
        let impact_height = run.rows[ks[i - 1] - 1][1] - 0.1;
        let ratio = (apex[i] - impact_height) / (apex[i - 1] - impact_height);
        // Semi-explicit Euler shifts each apex by O(h·v) ≈ 1e-3 of its height.
        assert!(
            (ratio - E * E).abs() < 0.02 * E * E,
            "bounce {i}: apex ratio {ratio}"
        );
        println!("bounce {i}: apex {:.6} m, ratio {ratio:.5}", apex[i]);
    }
}

#[test]
fn s4_ball_is_captured_rests_and_never_sinks() {
    let run = run_s4("plus", H);
    let lowest = run.rows.iter().map(|r| r[1] - 0.1).fold(f64::MAX, f64::min);
    assert!(lowest > -1e-3, "sank {lowest} m");
    let rest: Vec<_> = run.rows.iter().filter(|r| r[0] > 1.3).collect();
    for r in &rest {
        assert!(
            (r[1] - 0.1).abs() <= 1e-3,
            "t = {}: height {}",
            r[0],
            r[1] - 0.1
        );
        assert!(
            r[3].abs() < 1e-12 && r[5] == 1.0,
            "t = {}: vy {} enabled {}",
            r[0],
            r[3],
            r[5]
        );
    }
    for (t, before, after) in &run.impacts {
        assert!(
            after <= &(before + 1e-12),
            "t = {t}: impact raised KE {before} -> {after}"
        );
    }
    assert!(run.impacts.len() >= 6);
}
