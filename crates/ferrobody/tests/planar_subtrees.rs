//! Planar subtrees (`ferrobody::model::planar`): subtrees whose joints keep every body in one
//! plane run the articulated-body algorithm on 3×3 inertias. The reduction must be exact:
//! random planar trees with fully three-dimensional inertias, COM offsets and applied forces
//! (out-of-plane parts included) must satisfy `M u̇ = τ − bias` and give the body
//! accelerations, the exact time derivative of the body velocities; and any joint that can leave the plane must keep its
//! whole subtree on the 6×6 path.

use crate::common;

use common::Rng;
use ferrobody::algorithms::{crba, rnea};
use ferrobody::prelude::*;
use nalgebra::{DMatrix, DVector};
use num_dual::Dual64;

/// A rotation that keeps z parallel to itself: about z, then possibly a half turn about x
/// (which reverses z: a Pin about −z is still planar).
fn about_z(rng: &mut Rng) -> Transform<f64> {
    let mut x = Transform::from_axis_angle(Vector3::z(), rng.uniform(-3.0, 3.0));
    if rng.below(2) == 1 {
        x = x * Transform::from_axis_angle(Vector3::x(), std::f64::consts::PI);
    }
    x.p = rng.vec3(0.5);
    x
}

/// A random planar tree of `n` bodies (Pins, Sliders, Planars and Welds; the root a Pin) on
/// Ground, whose plane normal is `r_root · z`, with random 3-D forces.
fn planar_tree(rng: &mut Rng, n: usize, root_rotation: Transform<f64>) -> Model<f64> {
    let mut b = ModelBuilder::<f64>::new();
    let kinds = [
        Mobilizer::Pin,
        Mobilizer::Slider,
        Mobilizer::Planar,
        Mobilizer::Pin,
        Mobilizer::Weld,
    ];
    for i in 0..n {
        let (parent, kind, mut x_pf) = if i == 0 {
            (BodyId::GROUND, Mobilizer::Pin, root_rotation)
        } else {
            let parent = BodyId(1 + rng.below(b.nbodies() - 1));
            (parent, kinds[i % kinds.len()], about_z(rng))
        };
        if i == 0 {
            x_pf.p = rng.vec3(0.5);
        }
        let mp = common::random_mass_properties(rng);
        let def = BodyDef::new(&format!("b{i}"), parent, kind, mp)
            .with_x_pf(x_pf)
            .with_x_bm(about_z(rng));
        let id = b.add_body(def).unwrap();
        common::add_random_forces(&mut b, rng, id, kind);
    }
    b.add_gravity(rng.vec3(9.81));
    b.build().unwrap()
}

/// ABA against CRBA + RNEA: the residual of inverse dynamics, the mass-matrix solve and the
/// body accelerations.
fn assert_forward_dynamics_exact(model: &Model<f64>, state: &State<f64>, label: &str) {
    let mut data = Data::new(model);
    realize(model, state, &mut data, Stage::Acceleration).unwrap();
    let udot = data.udot().unwrap().clone();
    let a_gb = data.accelerations().unwrap().to_vec();
    let scale = 1.0 + udot.amax();
    let residual = rnea(model, &mut data, &udot);
    // Round-off of a dozen bodies' recursions: 1e-10 relative is far above it (≈1e-14) and
    // far below any modelling difference (a lost out-of-plane term is O(1)).
    assert!(
        residual.amax() < 1e-10 * scale,
        "{label}: RNEA(ABA) residual {:e}",
        residual.amax()
    );
    // The body accelerations are the exact time derivative of the body velocities along
    // (q̇, u̇): the dual parts of V_GB realized at (q + ε q̇, u + ε u̇).
    let dual: Model<Dual64> = model.cast().unwrap();
    let mut moving: State<Dual64> = state.cast();
    let qdot = data.qdot().unwrap().clone();
    for k in 0..model.nq() {
        moving.q[k] = Dual64::new(state.q[k], qdot[k]);
    }
    for k in 0..model.nu() {
        moving.u[k] = Dual64::new(state.u[k], udot[k]);
    }
    let mut dual_data = Data::new(&dual);
    realize(&dual, &moving, &mut dual_data, Stage::Velocity).unwrap();
    for (i, (a, v)) in a_gb
        .iter()
        .zip(dual_data.velocities().unwrap())
        .enumerate()
        .skip(1)
    {
        let a_d = v.map(|x| x.eps);
        assert!(
            (a - a_d).amax() < 1e-10 * scale,
            "{label}: body {i} acceleration {a} against dV/dt {a_d}"
        );
    }
    let bias = rnea(model, &mut data, &DVector::zeros(model.nu()));
    let mut m = DMatrix::zeros(model.nu(), model.nu());
    crba(model, &mut data, &mut m);
    let solved = m.cholesky().expect("mass matrix is SPD").solve(&(-&bias));
    assert!(
        (&solved - &udot).amax() < 1e-10 * scale,
        "{label}: CRBA solve differs by {:e}",
        (&solved - &udot).amax()
    );
}

#[test]
fn planar_trees_take_the_reduced_path_and_agree_with_crba_and_rnea() {
    for seed in 0..16 {
        let mut rng = Rng::new(300 + seed);
        // Even seeds: a plane of general orientation; odd seeds: Ground's xy plane (the
        // component-picking fast path), turned about z.
        let root = if seed % 2 == 0 {
            common::random_transform(&mut rng)
        } else {
            Transform::from_axis_angle(Vector3::z(), rng.uniform(-3.0, 3.0))
        };
        let model = planar_tree(&mut rng, 11, root);
        for body in &model.bodies()[1..] {
            let plane = body
                .plane
                .as_ref()
                .unwrap_or_else(|| panic!("seed {seed}: body '{}' not marked planar", body.name));
            assert_eq!(plane.ground_xy, seed % 2 == 1, "seed {seed}");
        }
        let state = common::random_state(&model, &mut rng, 2.0);
        assert_forward_dynamics_exact(&model, &state, &format!("seed {seed}"));
    }
}

#[test]
fn a_joint_that_can_leave_the_plane_keeps_its_whole_subtree_on_the_full_path() {
    let mp = || MassProperties::new(1.0, Vector3::new(0.2, 0.1, 0.05), Matrix3::identity());
    let chain = |tip: Mobilizer, tip_x_pf: Transform<f64>| {
        let mut b = ModelBuilder::<f64>::new();
        let l1 = b
            .add_body(BodyDef::new("l1", BodyId::GROUND, Mobilizer::Pin, mp()))
            .unwrap();
        let l2 = b
            .add_body(
                BodyDef::new("l2", l1, Mobilizer::Pin, mp())
                    .with_x_pf(Transform::from_translation(Vector3::new(0.5, 0.0, 0.0))),
            )
            .unwrap();
        b.add_body(BodyDef::new("l3", l2, tip, mp()).with_x_pf(tip_x_pf))
            .unwrap();
        // An independent planar chain on Ground: its marking must not depend on the other.
        b.add_body(BodyDef::new("other", BodyId::GROUND, Mobilizer::Pin, mp()))
            .unwrap();
        b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
        b.build().unwrap()
    };
    let flat = Transform::from_translation(Vector3::new(0.5, 0.0, 0.0));
    let tilted = Transform::from_axis_angle(Vector3::x(), 1e-6);
    let slider_along_normal =
        Transform::from_axis_angle(Vector3::y(), -std::f64::consts::FRAC_PI_2);
    let cases = [
        ("planar chain", Mobilizer::Pin, flat, true),
        ("pin tilted 1e-6 rad", Mobilizer::Pin, tilted, false),
        ("ball at the tip", Mobilizer::Ball, flat, false),
        (
            "slider along the normal",
            Mobilizer::Slider,
            slider_along_normal,
            false,
        ),
        ("slider in the plane", Mobilizer::Slider, flat, true),
    ];
    for (label, tip, x_pf, planar) in cases {
        let model = chain(tip, x_pf);
        for body in &model.bodies()[1..4] {
            assert_eq!(
                body.plane.is_some(),
                planar,
                "{label}: body '{}'",
                body.name
            );
        }
        assert!(
            model.bodies()[4].plane.is_some(),
            "{label}: the other chain"
        );
        let mut rng = Rng::new(7);
        let state = common::random_state(&model, &mut rng, 2.0);
        assert_forward_dynamics_exact(&model, &state, label);
    }
}
