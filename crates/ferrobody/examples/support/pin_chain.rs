//! The n-body Pin chain of the profiling examples: rods of 1 kg, 0.5 m apart, centre of mass
//! 0.25 m along each rod, under gravity; with `spatial`, every other link's frame is turned 90°
//! about the rod, so the chain is three-dimensional (6×6 inertias) instead of planar (3×3).
//! The state: q_i = 0.1 sin i, u_i = 0.2 cos i.

use ferrobody::prelude::*;

/// The chain and its state.
pub fn pin_chain(n: usize, spatial: bool) -> (Model<f64>, State<f64>) {
    let mut b = ModelBuilder::<f64>::new();
    let rod = MassProperties::new(
        1.0,
        Vector3::new(0.25, 0.0, 0.0),
        Matrix3::from_diagonal(&Vector3::new(1e-4, 1.0 / 48.0, 1.0 / 48.0)),
    );
    let mut parent = BodyId::GROUND;
    for i in 0..n {
        let mut x_pf = if spatial && i % 2 == 1 {
            Transform::from_axis_angle(Vector3::x(), std::f64::consts::FRAC_PI_2)
        } else {
            Transform::identity()
        };
        if i > 0 {
            x_pf.p = Vector3::new(0.5, 0.0, 0.0);
        }
        let def = BodyDef::new(&format!("link{i}"), parent, Mobilizer::Pin, rod).with_x_pf(x_pf);
        parent = b.add_body(def).expect("valid body");
    }
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let model = b.build().expect("valid model");
    let mut s = model.default_state();
    for i in 0..n {
        s.q[i] = 0.1 * (i as f64).sin();
        s.u[i] = 0.2 * (i as f64).cos();
    }
    (model, s)
}
