//! Conservation laws on random trees (every mobilizer kind): with only gravity, total energy is
//! constant. This checks the Coriolis and gyroscopic terms independently of the
//! ABA/CRBA/RNEA consistency tests, which share them.

use crate::common;

use common::{add_random_bodies, Rng, G};
use ferrobody::algorithms::kinetic_energy;
use ferrobody::model::potential_energy;
use ferrobody::prelude::*;

fn conservative_tree(seed: u64, n: usize) -> (Model<f64>, State<f64>) {
    let mut rng = Rng::new(seed);
    let mut b = ModelBuilder::<f64>::new();
    add_random_bodies(&mut b, &mut rng, n, seed as usize, |_, _, _, _| {});
    b.add_gravity(Vector3::new(0.0, -G, 0.0));
    let model = b.build().unwrap();
    let mut s = model.default_state();
    for i in 0..model.nq() {
        s.q[i] += rng.uniform(-0.5, 0.5);
    }
    for i in 0..model.nu() {
        s.u[i] = rng.uniform(-1.0, 1.0);
    }
    (model, s)
}

fn energy(model: &Model<f64>, s: &State<f64>, d: &Data<f64>) -> f64 {
    kinetic_energy(model, d) + potential_energy(model, s, d)
}

#[test]
fn random_trees_conserve_energy_under_gravity() {
    for seed in 0..4 {
        let (model, s) = conservative_tree(seed, 10);
        let mut energies = Vec::new();
        let mut sim = Simulation::new(&model, s, IntegratorSettings::rk_merson(1e-9)).unwrap();
        sim.run(1.0, 0.1, |m, s, d| {
            energies.push(energy(m, s, d));
            Ok(())
        })
        .unwrap();
        let e0 = energies[0];
        let drift = energies.iter().map(|e| (e - e0).abs()).fold(0.0, f64::max);
        let scale = e0.abs().max(1.0);
        // RK-Merson at accuracy 1e-9 keeps the local error per step near 1e-9 relative; over a
        // few hundred steps the drift stays well under 1e-6 relative. A wrong Coriolis term
        // gives drifts of order 1e-1.
        assert!(
            drift / scale < 1e-6,
            "seed {seed}: energy drift {drift:e} of {e0}"
        );
    }
}

/// A body on an Ellipsoid mobilizer (its origin on an ellipsoid whose semi-axes differ, so
/// the hinge's linear part and Ḣu matter) under a massless intermediate body like the
/// ScapulothoracicJoint's, then a Pin: energy is constant.
#[test]
fn ellipsoid_mobilizer_conserves_energy_under_gravity() {
    use ferrobody::math::{MassProperties, Transform};
    let mut b = ModelBuilder::<f64>::new();
    let inertia = nalgebra::Matrix3::from_diagonal(&Vector3::new(0.02, 0.03, 0.025));
    let shell = MassProperties::new(0.0, Vector3::zeros(), nalgebra::Matrix3::zeros());
    let on_ellipsoid = BodyDef::ellipsoid(
        "on_ellipsoid",
        BodyId::GROUND,
        Vector3::new(0.2, 0.08, 0.12),
        shell,
    )
    .with_x_pf(Transform::from_body_xyz(&Vector3::new(0.1, -0.87, 1.7)))
    .with_x_bm(Transform::from_body_xyz(&Vector3::new(
        0.0,
        0.0,
        std::f64::consts::FRAC_PI_2,
    )));
    let on_ellipsoid = b.add_body(on_ellipsoid).unwrap();
    let wing = MassProperties::new(1.3, Vector3::new(0.05, -0.1, 0.02), inertia);
    let wing = BodyDef::new("wing", on_ellipsoid, Mobilizer::Pin, wing)
        .with_x_pf(Transform::from_body_xyz(&Vector3::new(0.3, 0.0, 0.0)));
    b.add_body(wing).unwrap();
    b.add_gravity(Vector3::new(0.0, -G, 0.0));
    let model = b.build().unwrap();
    let mut s = model.default_state();
    s.q.copy_from_slice(&[0.3, -0.4, 0.8, 0.5]);
    s.u.copy_from_slice(&[1.1, -0.7, 0.4, 2.0]);
    let mut energies = Vec::new();
    let mut sim = Simulation::new(&model, s, IntegratorSettings::rk_merson(1e-10)).unwrap();
    sim.run(1.0, 0.05, |m, s, d| {
        energies.push(energy(m, s, d));
        Ok(())
    })
    .unwrap();
    let e0 = energies[0];
    let drift = energies.iter().map(|e| (e - e0).abs()).fold(0.0, f64::max);
    // As above: RK-Merson at 1e-10 drifts far below 1e-6 relative; dropping Ḣu (or the
    // hinge's linear part) drifts by more than 1e-2.
    assert!(
        drift / e0.abs().max(1.0) < 1e-6,
        "energy drift {drift:e} of {e0}"
    );
}
