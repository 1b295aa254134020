//! Exact derivatives through a whole integrator step: one Runge–Kutta–Merson step of a pendulum
//! on `num_dual::Dual64`, differentiated with respect to the initial angle, against a central
//! finite difference.

use ferrobody::prelude::*;
use num_dual::Dual64;

fn pendulum<T: Real>() -> Model<T> {
    let mut b = ModelBuilder::<T>::new();
    let rod = MassProperties::new(
        T::c(1.0),
        Vector3::new(T::c(0.5), T::c(0.0), T::c(0.0)),
        Matrix3::from_diagonal(&Vector3::new(T::c(0.0), T::c(1.0 / 12.0), T::c(1.0 / 12.0))),
    );
    b.add_body(BodyDef::new("link", BodyId::GROUND, Mobilizer::Pin, rod))
        .unwrap();
    b.add_gravity(Vector3::new(T::c(0.0), T::c(-9.81), T::c(0.0)));
    b.build().unwrap()
}

/// Angle and rate after one accepted step of size 0.01 from angle `theta0`.
fn one_step<T: Real>(theta0: T) -> (T, T) {
    let model = pendulum::<T>();
    let mut s = model.default_state();
    s.q[0] = theta0;
    let settings = IntegratorSettings {
        initial_step: Some(0.01),
        ..IntegratorSettings::rk_merson(1e-3)
    };
    let mut sim = Simulation::new(&model, s, settings).unwrap();
    sim.step(f64::INFINITY).unwrap();
    assert_eq!(
        sim.state().t,
        0.01,
        "the step was accepted at its initial size"
    );
    (sim.state().q[0], sim.state().u[0])
}

#[test]
fn merson_step_on_dual_numbers_matches_finite_difference() {
    let theta0 = 0.7;
    let (q, u) = one_step(Dual64::from_re(theta0).derivative());
    let (q_f64, u_f64) = one_step(theta0);
    // The real parts are the f64 computation itself.
    assert_eq!((q.re(), u.re()), (q_f64, u_f64));
    let h = 1e-6;
    let (qp, up) = one_step(theta0 + h);
    let (qm, um) = one_step(theta0 - h);
    let (dq_fd, du_fd) = ((qp - qm) / (2.0 * h), (up - um) / (2.0 * h));
    // Central differences with h = 1e-6 are accurate to O(h²) + O(eps/h) ≈ 1e-10.
    assert!(
        (q.eps - dq_fd).abs() < 1e-6,
        "dq/dθ0: dual {} vs fd {dq_fd}",
        q.eps
    );
    assert!(
        (u.eps - du_fd).abs() < 1e-6,
        "du/dθ0: dual {} vs fd {du_fd}",
        u.eps
    );
    // Sanity: over 0.01 s the angle barely changes, so dq/dθ0 ≈ 1.
    assert!((q.eps - 1.0).abs() < 1e-2);
}

#[test]
fn model_cast_to_dual_gives_same_dynamics() {
    let model = pendulum::<f64>();
    let dual: Model<Dual64> = model.cast().unwrap();
    let mut s = model.default_state();
    s.q[0] = 0.3;
    let sd: State<Dual64> = s.cast();
    let mut d = Data::new(&model);
    let mut dd = Data::new(&dual);
    realize(&model, &s, &mut d, Stage::Acceleration).unwrap();
    realize(&dual, &sd, &mut dd, Stage::Acceleration).unwrap();
    assert_eq!(d.udot().unwrap()[0], dd.udot().unwrap()[0].re());
}
