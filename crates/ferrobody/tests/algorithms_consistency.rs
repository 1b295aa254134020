//! Cross-algorithm consistency on seeded random trees that use every mobilizer kind
//! (Pinocchio's habit): forward dynamics (ABA) against mass matrix (CRBA) + inverse dynamics
//! (RNEA), the mass matrix against kinetic energy, Jacobians against body velocities, and the
//! momentum against the mass matrix.

use crate::common;

use common::random_tree;
use ferrobody::algorithms::{crba, frame_jacobian, kinetic_energy, rnea, station_jacobian};
use ferrobody::prelude::*;
use nalgebra::{DMatrix, DVector};

fn realized(seed: u64, n: usize) -> (Model<f64>, State<f64>, Data<f64>) {
    let (model, state) = random_tree(seed, n);
    let mut data = Data::new(&model);
    realize(&model, &state, &mut data, Stage::Acceleration).unwrap();
    (model, state, data)
}

#[test]
fn aba_agrees_with_crba_and_rnea_on_random_trees() {
    for seed in 0..20 {
        let (model, _state, mut data) = realized(seed, 12);
        let udot = data.udot().unwrap().clone();
        // Inverse dynamics of the forward-dynamics result must vanish.
        let residual = rnea(&model, &mut data, &udot);
        assert!(
            residual.amax() < 1e-10,
            "seed {seed}: RNEA(ABA) residual {:e}",
            residual.amax()
        );
        // M u̇ = −bias, with bias = RNEA(u̇ = 0).
        let bias = rnea(&model, &mut data, &DVector::zeros(model.nu()));
        let mut m = DMatrix::zeros(model.nu(), model.nu());
        crba(&model, &mut data, &mut m);
        let solved = m
            .clone()
            .cholesky()
            .expect("mass matrix is SPD")
            .solve(&(-&bias));
        let diff = (&solved - &udot).amax();
        assert!(
            diff < 1e-10 * (1.0 + udot.amax()),
            "seed {seed}: CRBA solve differs by {diff:e}"
        );
        // RNEA is linear in u̇ with matrix M.
        let probe = DVector::from_fn(model.nu(), |i, _| (i as f64 * 0.37).sin());
        let lin = rnea(&model, &mut data, &probe) - &bias;
        assert!(
            (lin - &m * &probe).amax() < 1e-10,
            "seed {seed}: RNEA not M-linear"
        );
    }
}

#[test]
fn mass_matrix_gives_kinetic_energy() {
    for seed in 20..30 {
        let (model, state, mut data) = realized(seed, 10);
        let mut m = DMatrix::zeros(model.nu(), model.nu());
        crba(&model, &mut data, &mut m);
        let ke_m = 0.5 * state.u.dot(&(&m * &state.u));
        let ke = kinetic_energy(&model, &data);
        assert!(
            (ke - ke_m).abs() < 1e-11 * (1.0 + ke),
            "seed {seed}: {ke} vs {ke_m}"
        );
        assert!((&m - m.transpose()).amax() < 1e-12);
    }
}

#[test]
fn jacobians_reproduce_body_velocities() {
    let (model, state, data) = realized(7, 15);
    for i in 1..model.nbodies() {
        let body = BodyId(i);
        let station = Vector3::new(0.1, -0.2, 0.3);
        let jv = frame_jacobian(&model, &data, body, &Vector3::zeros()) * &state.u;
        assert!(
            (jv - data.velocities().unwrap()[i]).amax() < 1e-12,
            "body {i}"
        );
        let v_station = station_jacobian(&model, &data, body, &station) * &state.u;
        let w = data.velocities().unwrap()[i]
            .fixed_rows::<3>(0)
            .into_owned();
        let v = data.velocities().unwrap()[i]
            .fixed_rows::<3>(3)
            .into_owned();
        let expected = v + w.cross(&(data.poses().unwrap()[i].r * station));
        assert!((v_station - expected).amax() < 1e-12, "body {i}");
    }
}

#[test]
fn jacobian_transpose_maps_body_force_to_generalized_force() {
    // Power balance: Jᵀ F · u = F · (J u).
    let (model, state, data) = realized(3, 9);
    let f = nalgebra::Vector6::new(0.3, -0.1, 0.2, 1.0, 2.0, -0.5);
    let j = frame_jacobian(&model, &data, BodyId(9), &Vector3::new(0.2, 0.0, 0.1));
    let lhs = (j.transpose() * f).dot(&state.u);
    let rhs = f.dot(&(&j * &state.u));
    assert!((lhs - rhs).abs() < 1e-12);
}

#[test]
fn free_bodies_on_ground_use_the_direct_solve_consistently() {
    // Free bodies on Ground with identity frames take ABA's direct Newton–Euler path; one of
    // them carries a pin child so the path must also handle articulated inertias.
    let mut rng = common::Rng::new(99);
    let mut b = ModelBuilder::<f64>::new();
    let mut free = Vec::new();
    for i in 0..3 {
        let mp = common::random_mass_properties(&mut rng);
        free.push(
            b.add_body(BodyDef::new(
                &format!("free{i}"),
                BodyId::GROUND,
                Mobilizer::Free,
                mp,
            ))
            .unwrap(),
        );
    }
    let child = BodyDef::new(
        "child",
        free[1],
        Mobilizer::Pin,
        common::random_mass_properties(&mut rng),
    )
    .with_x_pf(common::random_transform(&mut rng));
    b.add_body(child).unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    let model = b.build().unwrap();
    assert!(model.bodies()[1].hinge_is_identity && !model.bodies()[4].hinge_is_identity);
    let mut state = model.default_state();
    for i in 0..model.nu() {
        state.u[i] = rng.uniform(-1.0, 1.0);
    }
    let mut data = Data::new(&model);
    realize(&model, &state, &mut data, Stage::Acceleration).unwrap();
    let udot = data.udot().unwrap().clone();
    let residual = rnea(&model, &mut data, &udot);
    assert!(
        residual.amax() < 1e-10,
        "RNEA(ABA) residual {:e}",
        residual.amax()
    );
}

#[test]
fn pins_with_m_at_the_body_origin_take_the_rotation_path_consistently() {
    // Pins whose M frame is the body frame have the hinge column [z_F; 0], for which the
    // articulated-body algorithm reads only half of each articulated inertia. Random trees of
    // them, mixed with general Pins and Balls, must still satisfy M u̇ = −bias exactly.
    for seed in 200..210 {
        let mut rng = common::Rng::new(seed);
        let mut b = ModelBuilder::<f64>::new();
        for i in 0..9 {
            let parent = BodyId(rng.below(b.nbodies()));
            let mp = common::random_mass_properties(&mut rng);
            let x_pf = common::random_transform(&mut rng);
            let def = match i % 3 {
                0 | 1 => {
                    BodyDef::new(&format!("pin{i}"), parent, Mobilizer::Pin, mp).with_x_pf(x_pf)
                }
                _ => BodyDef::new(&format!("ball{i}"), parent, Mobilizer::Ball, mp)
                    .with_x_pf(x_pf)
                    .with_x_bm(common::random_transform(&mut rng)),
            };
            b.add_body(def).unwrap();
        }
        b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
        let model = b.build().unwrap();
        assert!(model.bodies()[1].hinge_is_pure_rotation_at_origin());
        let state = common::random_state(&model, &mut rng, 2.0);
        let mut data = Data::new(&model);
        realize(&model, &state, &mut data, Stage::Acceleration).unwrap();
        let udot = data.udot().unwrap().clone();
        let residual = rnea(&model, &mut data, &udot);
        assert!(
            residual.amax() < 1e-10 * (1.0 + udot.amax()),
            "seed {seed}: RNEA(ABA) residual {:e}",
            residual.amax()
        );
    }
}

/// The mass matrix of a mechanism moved far from Ground's origin is the same to round-off:
/// CRBA takes its inertias about each tree's root body, not about Ground's origin (where the
/// parallel-axis terms of a body 3·10⁴ m away would cancel eight digits away).
#[test]
fn the_mass_matrix_keeps_its_digits_far_from_the_origin() {
    use common::{random_mass_properties, random_transform, Rng};
    let far = Vector3::new(3e4, -2e4, 1e4);
    for seed in 40..50 {
        let build = |offset: Vector3<f64>| {
            let mut rng = Rng::new(seed);
            let mut b = ModelBuilder::<f64>::new();
            for i in 0..10 {
                let kind = Mobilizer::ALL[i % Mobilizer::ALL.len()];
                let parent = BodyId(rng.below(b.nbodies()));
                let mut x_pf = random_transform(&mut rng);
                if parent == BodyId::GROUND {
                    x_pf.p += offset;
                }
                let def = BodyDef::new(
                    &format!("b{i}"),
                    parent,
                    kind,
                    random_mass_properties(&mut rng),
                )
                .with_x_pf(x_pf)
                .with_x_bm(random_transform(&mut rng));
                b.add_body(def).unwrap();
            }
            let model = b.build().unwrap();
            let state = common::random_state(&model, &mut rng, 1.0);
            let mut data = Data::new(&model);
            realize(&model, &state, &mut data, Stage::Position).unwrap();
            let mut m = DMatrix::zeros(model.nu(), model.nu());
            crba(&model, &mut data, &mut m);
            m
        };
        let (near, moved) = (build(Vector3::zeros()), build(far));
        let gap = (&near - &moved).amax() / near.amax().max(1.0);
        // Kinematics itself rounds positions 3·10⁴ m out to about 4e-12 m: gaps of 1–2e-12
        // (seeds 40–49); about Ground's origin they are 1e-7 and more.
        assert!(gap < 1e-10, "seed {seed}: moved mass matrix off by {gap:e}");
    }
}
