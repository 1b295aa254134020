//! Closed-form checks: free fall, the small-angle pendulum period, and the spring–mass period.

use crate::common;

use common::G;
use ferrobody::forces::{MobilityLinearSpring, TwoPointLinearSpring};
use ferrobody::prelude::*;
use std::f64::consts::PI;

#[test]
fn free_fall_matches_closed_form() {
    let mut b = ModelBuilder::<f64>::new();
    let ball = b
        .add_body(BodyDef::new(
            "ball",
            BodyId::GROUND,
            Mobilizer::Free,
            MassProperties::solid_sphere(1.0, 0.1),
        ))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -G, 0.0));
    let model = b.build().unwrap();
    let mut s = model.default_state();
    s.set_body_q(&model, ball, &[1.0, 0.0, 0.0, 0.0, 0.0, 10.0, 0.0]);
    s.set_body_u(&model, ball, &[0.0, 0.0, 0.0, 2.0, 3.0, 0.0]);
    let mut sim = Simulation::new(&model, s, IntegratorSettings::rk_merson(1e-8)).unwrap();
    sim.advance_to(1.2).unwrap();
    let q = sim.state().body_q(&model, ball);
    let t = 1.2;
    // A quadratic trajectory is integrated exactly by a 4th-order method: only round-off remains.
    assert!((q[4] - 2.0 * t).abs() < 1e-12);
    assert!((q[5] - (10.0 + 3.0 * t - 0.5 * G * t * t)).abs() < 1e-12);
    let u = sim.state().body_u(&model, ball);
    assert!((u[4] - (3.0 - G * t)).abs() < 1e-12);
}

/// Time of the first downward zero crossing of a sampled signal, linearly interpolated.
fn zero_crossings(samples: &[(f64, f64)]) -> Vec<f64> {
    samples
        .windows(2)
        .filter(|w| w[0].1 > 0.0 && w[1].1 <= 0.0)
        .map(|w| w[0].0 + (w[1].0 - w[0].0) * w[0].1 / (w[0].1 - w[1].1))
        .collect()
}

fn sample(
    model: &Model<f64>,
    state: State<f64>,
    t_end: f64,
    dt: f64,
    read: impl Fn(&State<f64>) -> f64,
) -> Vec<(f64, f64)> {
    let mut sim = Simulation::new(model, state, IntegratorSettings::rk_merson(1e-10)).unwrap();
    let mut out = Vec::new();
    sim.run(t_end, dt, |_, s, _| {
        out.push((s.t, read(s)));
        Ok(())
    })
    .unwrap();
    out
}

#[test]
fn small_angle_pendulum_period() {
    // Point mass on a massless rod of length L: T = 2π √(L/g) (1 + θ₀²/16) to second order.
    let l = 1.3;
    let mut b = ModelBuilder::<f64>::new();
    let bob = MassProperties::new(2.0, Vector3::new(0.0, -l, 0.0), Matrix3::zeros());
    let link = b
        .add_body(BodyDef::new("bob", BodyId::GROUND, Mobilizer::Pin, bob))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -G, 0.0));
    let model = b.build().unwrap();
    let theta0 = 0.01;
    let mut s = model.default_state();
    s.set_body_q(&model, link, &[theta0]);
    let samples = sample(&model, s, 10.0, 1e-3, |s| s.q[0]);
    let crossings = zero_crossings(&samples);
    let period = (crossings[2] - crossings[0]) / 2.0;
    let expected = 2.0 * PI * (l / G).sqrt() * (1.0 + theta0 * theta0 / 16.0);
    // Next term of the series is O(θ₀⁴) ≈ 1e-8 relative; the sampling interpolation error is
    // below 1e-9 s at dt = 1 ms for this smooth signal.
    assert!(
        (period - expected).abs() / expected < 1e-7,
        "period {period}, expected {expected}"
    );
}

#[test]
fn spring_mass_period_slider_and_two_point_spring() {
    // Mass m on a slider with a spring k: T = 2π √(m/k), both as a mobility spring and as a
    // two-point spring to Ground (no gravity).
    let (m, k) = (2.5, 40.0);
    for two_point in [false, true] {
        let mut b = ModelBuilder::<f64>::new();
        let mp = MassProperties::new(m, Vector3::zeros(), Matrix3::identity());
        let body = b
            .add_body(BodyDef::new("mass", BodyId::GROUND, Mobilizer::Slider, mp))
            .unwrap();
        if two_point {
            b.add_force(Force::TwoPointLinearSpring(TwoPointLinearSpring {
                body1: BodyId::GROUND,
                p1: Vector3::new(-1.0, 0.0, 0.0),
                body2: body,
                p2: Vector3::zeros(),
                stiffness: k,
                rest_length: 1.0,
            }))
            .unwrap();
        } else {
            b.add_force(Force::MobilityLinearSpring(MobilityLinearSpring {
                body,
                coordinate: 0,
                stiffness: k,
                q0: 0.0,
            }))
            .unwrap();
        }
        let model = b.build().unwrap();
        let mut s = model.default_state();
        s.q[0] = 0.2;
        let samples = sample(&model, s, 5.0, 1e-3, |s| s.q[0]);
        let c = zero_crossings(&samples);
        let period = (c[c.len() - 1] - c[0]) / (c.len() - 1) as f64;
        let expected = 2.0 * PI * (m / k).sqrt();
        assert!(
            (period - expected).abs() / expected < 1e-8,
            "two_point={two_point}: {period} vs {expected}"
        );
        // Amplitude is conserved (undamped): max |q| stays 0.2.
        let amp = samples.iter().map(|(_, q)| q.abs()).fold(0.0, f64::max);
        assert!((amp - 0.2).abs() < 1e-6);
    }
}

#[test]
fn report_times_end_exactly_at_the_final_time() {
    // 5/3 s reported every 1/3 s: rows at k/3 for k = 0..5, and no near-duplicate last row
    // from rounding (5 · (1/3) is a few ulp away from 5/3).
    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity());
    b.add_body(BodyDef::new("mass", BodyId::GROUND, Mobilizer::Slider, mp))
        .unwrap();
    let model = b.build().unwrap();
    let mut sim = Simulation::new(
        &model,
        model.default_state(),
        IntegratorSettings::rk_merson(1e-6),
    )
    .unwrap();
    let mut times = Vec::new();
    sim.run(5.0 / 3.0, 1.0 / 3.0, |_, s, _| {
        times.push(s.t);
        Ok(())
    })
    .unwrap();
    assert_eq!(times.len(), 6, "{times:?}");
    assert_eq!(*times.last().unwrap(), 5.0 / 3.0);
}
