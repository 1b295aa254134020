//! The rigid-contact scenes of examples/scenes (u1–u5): block sliding to rest on four
//! PointPlaneContacts, pendulum between hard stops, rope pendulum, two spheres colliding, box
//! edge on an edge. Each is checked against closed-form physics.

use ferrobody::algorithms::energy::kinetic_energy;
use ferrobody::io::{load_scene, Scene};
use ferrobody::prelude::*;

/// Steps a scene one fixed step at a time, calling `each` after every step; asserts that no
/// impact phase ever raised the kinetic energy. Returns the number of impacts.
fn run_scene(name: &str, mut each: impl FnMut(&Model, &State, &Data)) -> (Scene, usize) {
    let path = format!(
        "{}/../../examples/scenes/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let scene = load_scene(std::path::Path::new(&path)).unwrap();
    let mut sim =
        Simulation::new(&scene.model, scene.initial_state.clone(), scene.integrator).unwrap();
    let h = scene.integrator.fixed_step;
    let steps = (scene.duration / h).round() as usize;
    let mut impacts = 0;
    for k in 1..=steps {
        sim.advance_to(k as f64 * h).unwrap();
        if let Some(r) = sim.rigid_stepper().unwrap().last_impact() {
            impacts += 1;
            // Energy never increases across an impact (roundoff allowance).
            assert!(
                r.kinetic_energy_after <= r.kinetic_energy_before * (1.0 + 1e-12) + 1e-15,
                "{name}, t = {}: impact raised KE {} -> {}",
                r.t,
                r.kinetic_energy_before,
                r.kinetic_energy_after
            );
        }
        let (model, state, data) = sim.realized().unwrap();
        each(model, state, data);
    }
    (scene, impacts)
}

#[test]
fn block_slides_v2_over_2_mu_g_then_stays() {
    let (v0, mu, g) = (2.0, 0.5, 9.81);
    let mut xs = Vec::new();
    let (_, _) = run_scene("u1_block_slide", |_, s, _| {
        xs.push((s.t, s.q[4], s.q[5], s.u[3]))
    });
    let stop = xs
        .iter()
        .position(|r| r.3.abs() < 1e-9)
        .expect("the block stops");
    let distance = xs[stop].1;
    let expected = v0 * v0 / (2.0 * mu * g);
    assert!(
        (distance - expected).abs() < 0.01 * expected,
        "stopped after {distance} m, expected {expected}"
    );
    for r in &xs[stop..] {
        // No drift once stopped, and the block stays on the floor (centre height 0.1).
        assert!(
            (r.1 - distance).abs() < 1e-9,
            "t = {}: drifted to {}",
            r.0,
            r.1
        );
        assert!((r.2 - 0.1).abs() < 1e-3, "t = {}: height {}", r.0, r.2);
    }
    let t_stop = xs[stop].0;
    assert!(
        (t_stop - v0 / (mu * g)).abs() < 2e-3,
        "stopped at t = {t_stop}"
    );
}

#[test]
fn hard_stops_rebound_with_the_cor() {
    let mut rows: Vec<(f64, f64, f64)> = Vec::new();
    let (_, impacts) = run_scene("u2_pendulum_hard_stops", |_, s, _| {
        rows.push((s.t, s.q[0], s.u[0]))
    });
    assert!(impacts >= 4, "{impacts} impacts");
    let mut checked = 0;
    for w in rows.windows(2) {
        let (before, after) = (w[0].2, w[1].2);
        if before * after < 0.0 && before.abs() > 0.1 {
            // A reversal at a stop: |q| near 0.5. The step adds h·q̈ (|q̈| ≤ g) after the impact.
            assert!(
                (w[0].1.abs() - 0.5).abs() < 0.01,
                "reversal away from a stop at q = {}",
                w[0].1
            );
            let ratio = -after / before;
            assert!(
                (ratio - 0.5).abs() < 0.01 * 0.5 + 9.81e-3 / before.abs(),
                "t = {}: ratio {ratio}",
                w[1].0
            );
            checked += 1;
        }
        // Never beyond a stop by more than the constraint tolerance.
        assert!(w[1].1.abs() <= 0.5 + 1e-3, "t = {}: q = {}", w[1].0, w[1].1);
    }
    assert!(checked >= 4, "{checked} rebounds checked");
}

#[test]
fn rope_never_stretches_and_goes_slack_and_taut() {
    let (length, tol) = (1.0, 1e-3);
    let mut lengths = Vec::new();
    run_scene("u3_rope_pendulum", |_, s, _| {
        lengths.push((s.q[4] * s.q[4] + s.q[5] * s.q[5] + s.q[6] * s.q[6]).sqrt())
    });
    let longest = lengths.iter().cloned().fold(0.0, f64::max);
    // Position projection fires once |perr| exceeds the tolerance (Simbody 3.7), so a taut rope
    // may pass it by one step's drift (observed 1e-8 m; allowed 1e-7 m).
    assert!(
        longest <= length + tol * (1.0 + 1e-4),
        "rope stretched to {longest}"
    );
    let taut = |l: &f64| *l > length - tol;
    let first_taut = lengths.iter().position(taut).expect("the rope goes taut");
    let slack_again = lengths[first_taut..]
        .iter()
        .position(|l| *l < length - 0.01);
    assert!(slack_again.is_some(), "the rope never went slack again");
    let retaut = lengths[first_taut + slack_again.unwrap()..]
        .iter()
        .any(taut);
    assert!(retaut, "the rope never went taut a second time");
}

#[test]
fn spheres_collide_with_restitution_and_conserve_momentum() {
    let mut rows = Vec::new();
    let (_, impacts) = run_scene("u4_two_spheres", |m, s, d| {
        let (a, b) = (m.body_id("ball_a").unwrap(), m.body_id("ball_b").unwrap());
        let pa = Vector3::from_column_slice(&s.body_q(m, a)[4..7]);
        let pb = Vector3::from_column_slice(&s.body_q(m, b)[4..7]);
        let va = Vector3::from_column_slice(&s.body_u(m, a)[3..6]);
        let vb = Vector3::from_column_slice(&s.body_u(m, b)[3..6]);
        rows.push((pa, pb, va, vb, kinetic_energy(m, d)));
    });
    assert_eq!(impacts, 1);
    let p0 = rows[0].2 + rows[0].3 * 2.0;
    for r in &rows {
        assert!((r.2 + r.3 * 2.0 - p0).norm() < 1e-12, "momentum changed");
    }
    let k = rows
        .windows(2)
        .position(|w| (w[1].2 - w[0].2).norm() > 0.1)
        .expect("an impact");
    let (before, after) = (&rows[k], &rows[k + 1]);
    let n = (before.1 - before.0).normalize();
    let approach = (before.3 - before.2).dot(&n);
    let n1 = (after.1 - after.0).normalize();
    let separation = (after.3 - after.2).dot(&n1);
    let cor = -separation / approach;
    assert!((cor - 0.5).abs() < 0.005, "COR {cor}");
    assert!(after.4 < before.4, "KE {} -> {}", before.4, after.4);
}

#[test]
fn box_edge_bounces_on_edge_and_comes_to_rest() {
    let mut rows = Vec::new();
    let (scene, impacts) = run_scene("u5_edge_edge", |_, s, _| rows.push((s.t, s.q[5], s.u[4])));
    assert!(impacts >= 3, "{impacts} impacts");
    let k = rows
        .windows(2)
        .position(|w| w[0].2 < -0.5 && w[1].2 > 0.0)
        .expect("a bounce");
    let cor = (rows[k + 1].2 + 9.81 * scene.integrator.fixed_step) / -rows[k].2;
    assert!((cor - 0.5).abs() < 0.005, "COR {cor}");
    for r in &rows {
        assert!(
            r.1 - 0.1 > -1e-3,
            "t = {}: the edges interpenetrate by {}",
            r.0,
            0.1 - r.1
        );
    }
    let last = rows.last().unwrap();
    assert!(
        (last.1 - 0.1).abs() < 1e-3 && last.2.abs() < 1e-9,
        "final {last:?}"
    );
}
