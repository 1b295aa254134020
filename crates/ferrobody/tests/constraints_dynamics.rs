//! Constrained motion over time: a four-bar linkage (a closed loop with a redundant row), a
//! ball rolling on a sphere carried by a spinning body, and a constraint disabled mid-run.

use crate::common;

use ferrobody::algorithms::kinetic_energy;
use ferrobody::constraints::*;
use ferrobody::model::potential_energy;
use ferrobody::pipeline::assembly;
use ferrobody::prelude::*;

fn rod(length: f64) -> MassProperties<f64> {
    let i = length * length / 12.0;
    MassProperties::new(
        1.0,
        Vector3::new(length / 2.0, 0.0, 0.0),
        Matrix3::from_diagonal(&Vector3::new(1e-3, i, i)),
    )
}

/// Crank (1 m) and rocker (2 m) pinned to Ground 2.5 m apart, a coupler (2 m) pinned to the
/// crank; a Ball joins the coupler's tip to the rocker's tip. All pins are about Z, so the
/// Ball's z row is identically zero: a redundant row that the solver must tolerate.
fn four_bar() -> (Model<f64>, State<f64>, ConstraintId) {
    let mut b = ModelBuilder::<f64>::new();
    let crank = b
        .add_body(BodyDef::new(
            "crank",
            BodyId::GROUND,
            Mobilizer::Pin,
            rod(1.0),
        ))
        .unwrap();
    let coupler = b
        .add_body(
            BodyDef::new("coupler", crank, Mobilizer::Pin, rod(2.0))
                .with_x_pf(Transform::from_translation(Vector3::new(1.0, 0.0, 0.0))),
        )
        .unwrap();
    let rocker = b
        .add_body(
            BodyDef::new("rocker", BodyId::GROUND, Mobilizer::Pin, rod(2.0))
                .with_x_pf(Transform::from_translation(Vector3::new(2.5, 0.0, 0.0))),
        )
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let ball = Ball {
        body1: coupler,
        point1: Vector3::new(2.0, 0.0, 0.0),
        body2: rocker,
        point2: Vector3::new(2.0, 0.0, 0.0),
    };
    let id = b.add_constraint(Constraint::Ball(ball)).unwrap();
    let model = b.build().unwrap();
    let mut state = model.default_state();
    // A rough closure guess; the simulation's initialization assembles it.
    state.q.copy_from_slice(&[1.2, -0.9, 1.9]);
    state.u[0] = 3.0;
    (model, state, id)
}

#[test]
fn four_bar_linkage_stays_closed_and_conserves_energy() {
    let (model, state, id) = four_bar();
    let settings = IntegratorSettings::rk_merson(1e-9);
    let tol = settings.consistent_constraint_tolerance();
    let mut sim = Simulation::new(&model, state, settings).unwrap();
    let (mut e0, mut drift, mut worst_closure, mut crank_turns) = (None, 0.0f64, 0.0f64, 0.0f64);
    sim.run(10.0, 0.01, |m, s, d| {
        let e = kinetic_energy(m, d) + potential_energy(m, s, d);
        let e0 = *e0.get_or_insert(e);
        drift = drift.max(((e - e0) / e0).abs());
        let closure = m.constraint_position_errors(d, id).unwrap();
        // Simbody's measure of a constraint violation: the RMS over the enabled rows.
        let rms = (closure.iter().map(|x| x * x).sum::<f64>() / closure.len() as f64).sqrt();
        worst_closure = worst_closure.max(rms);
        crank_turns = crank_turns.max(s.q[0].abs());
        // The redundant z row gets no multiplier.
        assert_eq!(m.constraint_multipliers(d, id).unwrap()[2], 0.0);
        Ok(())
    })
    .unwrap();
    eprintln!(
        "four-bar: closure {worst_closure:.3e} m (tol {tol:e}), energy drift {drift:.3e}, {:?}",
        sim.stats()
    );
    assert!(worst_closure <= tol, "RMS closure error {worst_closure:e}");
    assert!(drift < 1e-6, "relative energy drift {drift:e}");
    assert!(crank_turns > 1.5, "the linkage must actually move");
}

/// A turntable: body F spins freely about Ground's Y axis and carries a unit sphere centred on
/// the axis; a ball (radius 0.25) rolls on it, slightly off the top.
#[test]
fn ball_rolls_without_slip_on_a_spinning_sphere() {
    let mut b = ModelBuilder::<f64>::new();
    let table_mp = MassProperties::new(5.0, Vector3::zeros(), Matrix3::identity() * 2.0);
    let z_to_y =
        Transform::from_axis_angle(Vector3::new(1.0, 0.0, 0.0), -std::f64::consts::FRAC_PI_2);
    let table = b
        .add_body(BodyDef::new("table", BodyId::GROUND, Mobilizer::Pin, table_mp).with_x_pf(z_to_y))
        .unwrap();
    let (ball, id) = common::add_ball_on_sphere(&mut b, table, true);
    let model = b.build().unwrap();
    let mut state = model.default_state();
    let a: f64 = 0.05;
    state.set_body_q(
        &model,
        ball,
        &[1.0, 0.0, 0.0, 0.0, -1.25 * a.sin(), 1.25 * a.cos(), 0.0],
    );
    state.set_body_u(&model, table, &[2.0]);
    let mut sim = Simulation::new(&model, state, IntegratorSettings::rk_merson(1e-8)).unwrap();
    let (mut worst_verr, mut e0, mut drift, mut ball_speed) = (0.0f64, None, 0.0f64, 0.0f64);
    sim.run(1.0, 0.01, |m, s, d| {
        let verr = m.constraint_velocity_errors(d, id).unwrap();
        worst_verr = worst_verr.max(verr.iter().map(|x| x.abs()).fold(0.0, f64::max));
        // The table really moves under the ball.
        assert!(s.t == 0.0 || s.u[0].abs() > 1.0);
        let e = kinetic_energy(m, d) + potential_energy(m, s, d);
        let e0 = *e0.get_or_insert(e);
        drift = drift.max((e - e0).abs());
        let v = d.velocities().unwrap()[2];
        ball_speed = ball_speed.max(Vector3::new(v[3], v[4], v[5]).norm());
        Ok(())
    })
    .unwrap();
    eprintln!("turntable: |verr| {worst_verr:.3e}, energy drift {drift:.3e} J, ball speed up to {ball_speed:.3}");
    assert!(worst_verr <= 1e-8, "slip or separation rate {worst_verr:e}");
    assert!(
        drift < 1e-6,
        "rolling is workless: energy drift {drift:e} J"
    );
    assert!(
        ball_speed > 0.1,
        "the spinning table must carry the ball along"
    );
}

#[test]
fn a_disabled_constraint_lets_the_ball_fall_and_can_be_enabled_again() {
    let mut b = ModelBuilder::<f64>::new();
    let (ball, id) = common::add_ball_on_sphere(&mut b, BodyId::GROUND, true);
    let model = b.build().unwrap();
    let mut state = model.default_state();
    state.set_body_q(&model, ball, &[1.0, 0.0, 0.0, 0.0, 0.0, 1.25, 0.0]);
    let mut sim = Simulation::new(&model, state, IntegratorSettings::rk_merson(1e-8)).unwrap();
    sim.advance_to(0.1).unwrap();
    assert!(
        sim.data().unwrap().udot().unwrap()[4].abs() < 1e-9,
        "balanced on top: no vertical acceleration"
    );
    model.disable_constraint(sim.state_mut(), id).unwrap();
    assert!(!model.is_constraint_enabled(sim.state(), id));
    let d = sim.data().unwrap().clone();
    assert!(
        (d.udot().unwrap()[4] + 9.81).abs() < 1e-12,
        "free fall once disabled"
    );
    assert!(d
        .constraint_multipliers()
        .unwrap()
        .iter()
        .all(|&l| l == 0.0));
    sim.advance_to(0.3).unwrap();
    assert!(sim.state().q[5] < 1.25 - 0.5 * 9.81 * 0.04 + 1e-6);
    // Enabling does not satisfy the constraint; assembly does, and the run goes on.
    let mut state = sim.state().clone();
    model.enable_constraint(&mut state, id).unwrap();
    assembly::assemble(&model, &mut state, 1e-10).unwrap();
    assert!((state.q[5] - 1.25).abs() < 1e-9);
    let mut sim = Simulation::new(&model, state, IntegratorSettings::rk_merson(1e-8)).unwrap();
    sim.advance_to(0.4).unwrap();
    assert!(model
        .disable_constraint(&mut model.default_state(), ConstraintId(3))
        .is_err());
}
