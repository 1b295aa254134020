//! Scene s4 (shared/spec/scenarios.md): a ball bouncing on Ground's plane with a rigid
//! SpherePlaneContact and the semi-explicit Euler rigid-contact stepper.

use ferrobody::prelude::*;

const G: f64 = 9.81;
const R: f64 = 0.1;
const E: f64 = 0.5;

fn bounce_model() -> (Model, UnilateralContactId) {
    let mut b = ModelBuilder::<f64>::new();
    let mp = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity() * 0.004);
    let ball = b
        .add_body(BodyDef::new("ball", BodyId::GROUND, Mobilizer::Free, mp))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -G, 0.0));
    let contact = UnilateralContact::sphere_plane(
        BodyId::GROUND,
        Vector3::y(),
        0.0,
        ball,
        Vector3::zeros(),
        R,
        E,
        FrictionCoefficients::new(0.5, 0.5, 0.0),
    );
    let id = b.add_unilateral_contact(contact).unwrap();
    (b.build().unwrap(), id)
}

/// (t, y, vx, vy, wz) after every 1 ms step for 3 s.
fn run_bounce() -> Vec<[f64; 5]> {
    let (model, _) = bounce_model();
    let mut s = model.default_state();
    s.q[5] = 1.0;
    s.u[3] = 2.0;
    let mut sim =
        Simulation::new(&model, s, IntegratorSettings::semi_explicit_euler(1e-3)).unwrap();
    let mut out = Vec::new();
    sim.run(3.0, 1e-3, |_, s, _| {
        out.push([s.t, s.q[5], s.u[3], s.u[4], s.u[2]]);
        Ok(())
    })
    .unwrap();
    out
}

#[test]
fn s4_debug_print() {
    let rows = run_bounce();
    for w in rows.windows(2) {
        if w[1][3] > 0.0 && w[0][3] < 0.0 {
            println!(
                "impact at t={:.3}: y={:.5} v {:?} -> {:?}",
                w[1][0],
                w[1][1],
                &w[0][2..],
                &w[1][2..]
            );
        }
    }
    println!("end {:?}", rows.last().unwrap());
}
