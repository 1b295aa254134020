//! Exact derivatives through constrained steps: the s5 rolling ball (SphereOnSphereContact with
//! its two no-slip rows) advanced 0.05 s on `num_dual::Dual64` — multipliers, projection and all —
//! differentiated with respect to the initial angle from the top, against a central finite
//! difference. Both runs take the same steps (branches compare real parts).

use ferrobody::constraints::{Constraint, SphereOnSphereContact};
use ferrobody::prelude::*;
use num_dual::Dual64;

/// Ball position x and speed vx after 0.05 s from angle `a` (rad) off the top.
fn run<T: Real>(a: T) -> (T, T) {
    let mut b = ModelBuilder::<T>::new();
    let mp = MassProperties::new(
        T::c(1.0),
        Vector3::zeros(),
        Matrix3::identity() * T::c(0.025),
    );
    let ball = b
        .add_body(BodyDef::new("ball", BodyId::GROUND, Mobilizer::Free, mp))
        .unwrap();
    b.add_gravity(Vector3::new(T::c(0.0), T::c(-9.81), T::c(0.0)));
    let c = SphereOnSphereContact::new(
        BodyId::GROUND,
        Vector3::zeros(),
        T::c(1.0),
        ball,
        Vector3::zeros(),
        T::c(0.25),
        true,
    );
    b.add_constraint(Constraint::SphereOnSphereContact(c))
        .unwrap();
    let model = b.build().unwrap();
    let mut s = model.default_state();
    let r = T::c(1.25);
    s.set_body_q(
        &model,
        ball,
        &[
            T::one(),
            T::zero(),
            T::zero(),
            T::zero(),
            -r * a.sin(),
            r * a.cos(),
            T::zero(),
        ],
    );
    // Fixed steps (a step at the minimum size is always accepted) and a constraint tolerance
    // so tight that every step projects: the runs at a ± h then take exactly the same path, and
    // finite differences see no jump from a step accepted in one run and rejected in another.
    let settings = IntegratorSettings {
        initial_step: Some(0.005),
        min_step: Some(0.005),
        max_step: Some(0.005),
        constraint_tolerance: Some(1e-13),
        ..IntegratorSettings::rk_merson(1e-8)
    };
    let mut sim = Simulation::new(&model, s, settings).unwrap();
    sim.advance_to(0.05).unwrap();
    (sim.state().q[4], sim.state().u[3])
}

#[test]
fn constrained_steps_differentiate_exactly() {
    let a = 0.3;
    let (x, vx) = run(Dual64::new(a, 1.0));
    let h = 1e-6;
    let (xp, vxp) = run(a + h);
    let (xm, vxm) = run(a - h);
    let (fd_x, fd_vx) = ((xp - xm) / (2.0 * h), (vxp - vxm) / (2.0 * h));
    // Central differences: truncation O(h²) ≈ 1e-12 and rounding ≈ 1e-16/h = 1e-10, plus the
    // Newton iterations ending at 2e-14 (SignificantReal) rather than exactly on the manifold:
    // 2e-14 / 2h = 1e-8. All far below 1e-6 on derivatives of order 1.
    assert!(
        (x.eps - fd_x).abs() < 1e-6 * (1.0 + fd_x.abs()),
        "dx/da {} vs {fd_x}",
        x.eps
    );
    assert!(
        (vx.eps - fd_vx).abs() < 1e-6 * (1.0 + fd_vx.abs()),
        "dvx/da {} vs {fd_vx}",
        vx.eps
    );
    assert!(fd_x.abs() > 0.5, "x moves with the angle");
}
