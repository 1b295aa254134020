//! Random trees of the joints the analytical derivatives cover, for the analytical-derivative
//! tests (`analytical_derivatives.rs`, `analytical_derivatives_contact.rs`).
#![allow(dead_code)]

use super::common::{random_mass_properties, random_state, random_transform, Rng};
use ferrobody::forces::{MobilityConstantForce, MobilityLinearDamper, MobilityLinearSpring};
use ferrobody::prelude::*;
use nalgebra::DMatrix;

pub const KINDS: [Mobilizer; 9] = [
    Mobilizer::Pin,
    Mobilizer::Free,
    Mobilizer::Slider,
    Mobilizer::Ball,
    Mobilizer::Cylinder,
    Mobilizer::FreeEuler,
    Mobilizer::Translation,
    Mobilizer::BallEuler,
    Mobilizer::Weld,
];

/// A random tree of `n` bodies of the covered joint kinds (random parents, frames, masses),
/// gravity along a random direction, and on each mobilizer a constant generalized force and a
/// damper on its first speed and (without a quaternion) a spring on its last coordinate.
pub fn covered_tree(seed: u64, n: usize) -> (Model<f64>, State<f64>) {
    let mut rng = Rng::new(seed);
    let mut b = ModelBuilder::<f64>::new();
    for i in 0..n {
        let kind = KINDS[(i + seed as usize) % KINDS.len()];
        let parent = BodyId(rng.below(b.nbodies()));
        let def = BodyDef::new(
            &format!("b{i}"),
            parent,
            kind,
            random_mass_properties(&mut rng),
        )
        .with_x_pf(random_transform(&mut rng))
        .with_x_bm(random_transform(&mut rng));
        let id = b.add_body(def).unwrap();
        if kind.nu() > 0 {
            b.add_force(Force::MobilityConstantForce(MobilityConstantForce {
                body: id,
                speed: 0,
                force: rng.uniform(-1.0, 1.0),
            }))
            .unwrap();
            // (Springs act on coordinates, which a quaternion mobilizer does not offer.)
            if !matches!(kind, Mobilizer::Ball | Mobilizer::Free) {
                b.add_force(Force::MobilityLinearSpring(MobilityLinearSpring {
                    body: id,
                    coordinate: kind.nu() - 1,
                    stiffness: rng.uniform(0.0, 50.0),
                    q0: rng.uniform(-0.5, 0.5),
                }))
                .unwrap();
            }
            b.add_force(Force::MobilityLinearDamper(MobilityLinearDamper {
                body: id,
                speed: 0,
                damping: rng.uniform(0.0, 5.0),
            }))
            .unwrap();
        }
    }
    b.add_gravity(rng.vec3(10.0));
    let model = b.build().unwrap();
    let state = random_state(&model, &mut rng, 2.0);
    (model, state)
}

/// Largest entry of `a − b` over the largest entry of `b` (or 1).
pub fn relative_gap(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    (a - b).amax() / b.amax().max(1.0)
}

/// A builder holding the bodies of `tree` (same names, parents, joints, masses, frames) and
/// nothing else, to add other forces to.
pub fn builder_with_bodies_of(tree: &Model<f64>) -> ModelBuilder<f64> {
    let mut b = ModelBuilder::<f64>::new();
    for body in tree.bodies().iter().skip(1) {
        let def = BodyDef::new(
            &body.name,
            body.parent,
            body.mobilizer,
            body.mass_properties,
        )
        .with_x_pf(body.x_pf)
        .with_x_bm(body.x_bm);
        b.add_body(def).unwrap();
    }
    b
}
