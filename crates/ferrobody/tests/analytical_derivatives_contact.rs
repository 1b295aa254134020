//! The analytical Jacobians with contact and other body forces (`BodyForceDerivatives`, the
//! reduced Hunt–Crossley path against Ground) and `StateDerivativeJacobian`'s analytical path,
//! against dual numbers.

use crate::common;
use crate::covered_trees;

use common::{random_state, Rng};
use covered_trees::{builder_with_bodies_of, covered_tree, relative_gap};
use ferrobody::derivatives::{ForwardDynamicsJacobian, RneaDerivatives, StateDerivativeJacobian};
use ferrobody::pipeline::realize;
use ferrobody::prelude::*;

/// A covered tree whose every body carries a 0.4 m sphere against a ground half space (solid
/// y < 0.2): Hunt–Crossley contact on the even bodies, smooth sphere/half-space on the odd
/// ones; a two-point spring and damper between the first and the last body, a constant force
/// and torque on the first.
fn contact_tree(seed: u64, n: usize) -> (Model<f64>, State<f64>) {
    use ferrobody::contact::{
        ContactMaterial, FrictionModel, HuntCrossleyForce, SmoothContactParameters,
        SmoothSphereHalfSpaceForce,
    };
    use ferrobody::forces::{
        ConstantForce, ConstantTorque, TwoPointLinearDamper, TwoPointLinearSpring,
    };
    use ferrobody::geometry::{ContactSurface, Shape};
    let (tree, _) = covered_tree(seed, n);
    let mut rng = Rng::new(seed + 1000);
    let mut b = builder_with_bodies_of(&tree);
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let mut ground = Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
    ground.p = Vector3::new(0.0, 0.2, 0.0);
    let material = ContactMaterial {
        stiffness: 1e6,
        dissipation: 0.5,
        static_friction: 0.8,
        dynamic_friction: 0.5,
        viscous_friction: 0.1,
    };
    let mut surfaces = vec![ContactSurface {
        body: BodyId::GROUND,
        x_bs: ground,
        shape: Shape::HalfSpace,
    }];
    let parameters = SmoothContactParameters::new(1e4, 1.0, 0.8, 0.5, 0.1, 0.2, 1e-5, 300.0, 50.0);
    for k in 1..=n {
        let station = Transform::from_translation(rng.vec3(0.2));
        if k % 2 == 0 {
            surfaces.push(ContactSurface {
                body: BodyId(k),
                x_bs: station,
                shape: Shape::Sphere { radius: 0.4 },
            });
        } else {
            let mut f = SmoothSphereHalfSpaceForce::new(
                BodyId(k),
                station.p,
                0.4,
                BodyId::GROUND,
                ground,
                parameters,
            )
            .unwrap();
            f.name = format!("smooth{k}");
            b.add_force(Force::SmoothSphereHalfSpace(f)).unwrap();
        }
    }
    let materials = vec![material; surfaces.len()];
    let hc =
        HuntCrossleyForce::new("hc", surfaces, materials, 0.1, FrictionModel::Hollars).unwrap();
    b.add_force(Force::HuntCrossley(hc)).unwrap();
    let (first, last) = (BodyId(1), BodyId(n));
    b.add_force(Force::TwoPointLinearSpring(TwoPointLinearSpring {
        body1: first,
        p1: rng.vec3(0.3),
        body2: last,
        p2: rng.vec3(0.3),
        stiffness: 50.0,
        rest_length: 0.3,
    }))
    .unwrap();
    b.add_force(Force::TwoPointLinearDamper(TwoPointLinearDamper {
        body1: BodyId::GROUND,
        p1: rng.vec3(0.3),
        body2: last,
        p2: rng.vec3(0.3),
        damping: 3.0,
    }))
    .unwrap();
    b.add_force(Force::ConstantForce(ConstantForce {
        body: first,
        station: rng.vec3(0.3),
        force: rng.vec3(2.0),
    }))
    .unwrap();
    b.add_force(Force::ConstantTorque(ConstantTorque {
        body: first,
        torque: rng.vec3(1.0),
    }))
    .unwrap();
    let model = b.build().unwrap();
    let state = random_state(&model, &mut rng, 1.0);
    (model, state)
}

/// The contacts of `model` that push at `state`.
fn touching_contacts(model: &Model<f64>, state: &State<f64>) -> usize {
    let mut data = Data::new(model);
    realize(model, state, &mut data, Stage::Dynamics).unwrap();
    let reports = ferrobody::pipeline::contact_reports(model, state, &data);
    reports.iter().filter(|c| c.normal_force > 0.0).count()
}

/// ∂u̇/∂q and ∂u̇/∂u of the analytical path against dual numbers. Stiff contact (1e6 Pa)
/// makes entries up to 1e5; the two paths sum in different orders, so relative round-off of
/// 1e-11 of the largest entry.
fn assert_forward_jacobians_agree(
    model: &Model<f64>,
    state: &State<f64>,
    tau: &[f64],
    label: &str,
) {
    let mut analytical = ForwardDynamicsJacobian::new(model).unwrap();
    let mut dual = ForwardDynamicsJacobian::new(model).unwrap();
    analytical.compute_analytical(state, tau).unwrap();
    dual.compute_dual(state, tau).unwrap();
    for (name, a, d) in [
        ("du̇/dq", &analytical.dudot_dq, &dual.dudot_dq),
        ("du̇/du", &analytical.dudot_du, &dual.dudot_du),
    ] {
        let gap = relative_gap(a, d);
        assert!(gap < 1e-11, "{label}: {name} off by {gap:e}");
    }
}

/// `StateDerivativeJacobian` forced onto its analytical path against dual numbers (the same
/// 1e-11 of the largest entry).
fn assert_state_jacobians_agree(model: &Model<f64>, state: &State<f64>, label: &str) {
    let mut analytical = StateDerivativeJacobian::new(model)
        .unwrap()
        .analytical_where_covered();
    let mut dual = StateDerivativeJacobian::new(model).unwrap().dual_only();
    analytical.compute(state).unwrap();
    dual.compute(state).unwrap();
    let gap = relative_gap(&analytical.jacobian, &dual.jacobian);
    assert!(gap < 1e-11, "{label}: ∂ẏ/∂y off by {gap:e}");
}

#[test]
fn with_contact_springs_and_constant_forces_the_analytical_jacobians_match_dual_numbers() {
    let mut touching = 0;
    for seed in 0..30 {
        let n = 2 + (seed as usize * 5) % 11;
        let (model, state) = contact_tree(seed, n);
        assert!(RneaDerivatives::supports(&model, &state));
        let tau: Vec<f64> = (0..model.nu()).map(|k| 0.2 * k as f64 - 0.5).collect();
        assert_forward_jacobians_agree(&model, &state, &tau, &format!("seed {seed}, {n} bodies"));
        touching += touching_contacts(&model, &state);
    }
    assert!(
        touching > 20,
        "only {touching} Hunt-Crossley contacts touched"
    );
}

#[test]
fn the_state_derivative_jacobian_takes_the_analytical_path_and_matches_dual_numbers() {
    for seed in 0..20 {
        let n = 2 + (seed as usize * 3) % 10;
        let (model, state) = if seed % 2 == 0 {
            contact_tree(seed, n)
        } else {
            covered_tree(seed, n)
        };
        assert_state_jacobians_agree(&model, &state, &format!("seed {seed}, {n} bodies"));
    }
}

/// A covered tree with Hunt–Crossley spheres all on its last body against a half space in
/// Ground (the reduced path), with the given friction curve.
fn spheres_on_one_body(
    seed: u64,
    n: usize,
    friction: ferrobody::contact::FrictionModel,
) -> (Model<f64>, State<f64>) {
    use ferrobody::contact::{ContactMaterial, HuntCrossleyForce};
    use ferrobody::geometry::{ContactSurface, Shape};
    let (tree, _) = covered_tree(seed, n);
    let mut rng = Rng::new(seed + 2000);
    let mut b = builder_with_bodies_of(&tree);
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let mut ground = Transform::from_axis_angle(Vector3::z(), -std::f64::consts::FRAC_PI_2);
    ground.p = Vector3::new(0.0, 0.3, 0.0);
    let mut surfaces = vec![ContactSurface {
        body: BodyId::GROUND,
        x_bs: ground,
        shape: Shape::HalfSpace,
    }];
    let mut materials = vec![ContactMaterial {
        stiffness: 2e6,
        dissipation: 0.7,
        static_friction: 0.9,
        dynamic_friction: 0.4,
        viscous_friction: 0.05,
    }];
    for _ in 0..6 {
        surfaces.push(ContactSurface {
            body: BodyId(n),
            x_bs: Transform::from_translation(rng.vec3(0.4)),
            shape: Shape::Sphere {
                radius: rng.uniform(0.2, 0.5),
            },
        });
        materials.push(ContactMaterial {
            stiffness: rng.uniform(1e6, 1e7),
            dissipation: 0.5,
            static_friction: 0.8,
            dynamic_friction: 0.5,
            viscous_friction: 0.1,
        });
    }
    let hc = HuntCrossleyForce::new("feet", surfaces, materials, 0.05, friction).unwrap();
    b.add_force(Force::HuntCrossley(hc)).unwrap();
    let model = b.build().unwrap();
    let state = random_state(&model, &mut rng, 1.0);
    (model, state)
}

#[test]
fn hunt_crossley_spheres_on_one_body_take_the_reduced_path_and_match_dual_numbers() {
    use ferrobody::contact::FrictionModel;
    let mut touching = 0;
    for seed in 0..30 {
        let n = 1 + (seed as usize * 7) % 9;
        let friction = if seed % 2 == 0 {
            FrictionModel::Hollars
        } else {
            FrictionModel::Stribeck
        };
        let (model, state) = spheres_on_one_body(seed, n, friction);
        touching += touching_contacts(&model, &state);
        let label = format!("seed {seed}, {n} bodies");
        assert_forward_jacobians_agree(&model, &state, &vec![0.1; model.nu()], &label);
        assert_state_jacobians_agree(&model, &state, &label);
    }
    assert!(touching > 20, "only {touching} contacts touched");
}

#[test]
fn the_stiff_block_takes_the_analytical_path_and_matches_dual_numbers() {
    let root = common::repo_root();
    let scene = ferrobody::io::scene::load_scene(
        &root.join("examples/scenes/block_hunt_crossley_vt0.001.toml"),
    )
    .unwrap();
    let model = &scene.model;
    let mut rng = Rng::new(7);
    for k in 0..20 {
        let mut state = scene.initial_state.clone();
        state.q[5] = 0.0905 + 0.001 * k as f64 * 0.5;
        for i in 0..model.nu() {
            state.u[i] += rng.uniform(-0.5, 0.5);
        }
        let mut default = StateDerivativeJacobian::new(model).unwrap();
        let mut dual = StateDerivativeJacobian::new(model).unwrap().dual_only();
        default.compute(&state).unwrap();
        dual.compute(&state).unwrap();
        let gap = relative_gap(&default.jacobian, &dual.jacobian);
        // Stiffness 1e7 Pa on 1 cm spheres: entries up to 1e5.
        assert!(gap < 1e-11, "state {k}: ∂ẏ/∂y off by {gap:e}");
    }
}
