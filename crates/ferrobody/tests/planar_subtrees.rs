//! Planar subtrees (`ferrobody::model::planar`): subtrees whose joints keep every body in one
//! plane run the articulated-body algorithm on 3×3 inertias. The reduction must be exact:
//! random planar trees with fully three-dimensional inertias, COM offsets and applied forces
//! (out-of-plane parts included) must satisfy `M u̇ = τ − bias` and give the body
//! accelerations, the exact time derivative of the body velocities; and any joint that can leave the plane must keep its
//! whole subtree on the 6×6 path.

use crate::common;

use common::Rng;
use ferrobody::algorithms::{crba, rnea};
use ferrobody::math::function::{CubicSpline, Function};
use ferrobody::mobilizer::{AxisFunction, SpatialTransform};
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

/// Every body of `model` is marked planar (in Ground's xy plane when `ground_xy`), and forward
/// dynamics at a random state is exact.
fn assert_planar_and_exact(model: &Model<f64>, rng: &mut Rng, ground_xy: bool, label: &str) {
    for body in &model.bodies()[1..] {
        let plane = body
            .plane
            .as_ref()
            .unwrap_or_else(|| panic!("{label}: body '{}' not marked planar", body.name));
        assert_eq!(plane.ground_xy, ground_xy, "{label}");
    }
    let state = common::random_state(model, rng, 2.0);
    assert_forward_dynamics_exact(model, &state, label);
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
        assert_planar_and_exact(&model, &mut rng, seed % 2 == 1, &format!("seed {seed}"));
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

/// A CustomJoint-like transform planar about F's z: a turn about z following coordinate 0
/// (through a spline when `knee`), the other two rotations never turning (constant 0, about
/// x and y as OpenSim writes them), and translations along x and y following coordinates
/// (coupled to coordinate 0 through splines when `knee`, as OpenSim's 2D knees are), with a
/// constant offset along z.
fn planar_custom_joint(knee: bool) -> SpatialTransform {
    let spline = |y: Vec<f64>| {
        Function::Spline(CubicSpline::simm(vec![-2.0, -1.0, 0.0, 1.0, 2.0], y).unwrap())
    };
    let of = |coordinate: Option<usize>, function| AxisFunction {
        coordinate,
        function,
    };
    let linear = || Function::Linear {
        slope: 1.0,
        intercept: 0.0,
    };
    let (turn, tx, ty, nq) = if knee {
        (
            of(Some(0), spline(vec![-1.9, -1.1, 0.0, 0.9, 2.1])),
            of(Some(0), spline(vec![0.01, -0.02, 0.0, 0.03, 0.01])),
            of(Some(0), spline(vec![-0.4, -0.41, -0.42, -0.41, -0.4])),
            1,
        )
    } else {
        (
            of(Some(0), linear()),
            of(Some(1), linear()),
            of(Some(2), linear()),
            3,
        )
    };
    SpatialTransform {
        axes: [
            Vector3::z(),
            Vector3::x(),
            Vector3::y(),
            Vector3::x(),
            Vector3::y(),
            Vector3::z(),
        ],
        functions: [
            turn,
            of(None, Function::Constant(0.0)),
            of(None, Function::Constant(0.0)),
            tx,
            ty,
            of(None, Function::Constant(0.03)),
        ],
        nq,
    }
}

/// OpenSim's 2D models (gait10dof18musc): a pelvis on a planar CustomJoint on Ground (its
/// plane turned into a general orientation on odd seeds), Pins and knee-like CustomJoints
/// below. All take the reduced path, and it is exact.
#[test]
fn planar_custom_joints_take_the_reduced_path_and_agree_with_crba_and_rnea() {
    for seed in 0..8 {
        let mut rng = Rng::new(900 + seed);
        let x_gf = if seed % 2 == 1 {
            common::random_transform(&mut rng)
        } else {
            Transform::from_translation(rng.vec3(0.5))
        };
        let mut b = ModelBuilder::<f64>::new();
        let mp = |rng: &mut Rng| common::random_mass_properties(rng);
        let pelvis = b
            .add_body(
                BodyDef::function_based(
                    "pelvis",
                    BodyId::GROUND,
                    planar_custom_joint(false),
                    mp(&mut rng),
                )
                .with_x_pf(x_gf)
                .with_x_bm(about_z(&mut rng)),
            )
            .unwrap();
        common::add_random_forces(&mut b, &mut rng, pelvis, Mobilizer::Planar);
        for side in 0..2 {
            let femur = b
                .add_body(
                    BodyDef::new(
                        &format!("femur{side}"),
                        pelvis,
                        Mobilizer::Pin,
                        mp(&mut rng),
                    )
                    .with_x_pf(about_z(&mut rng)),
                )
                .unwrap();
            let tibia = b
                .add_body(
                    BodyDef::function_based(
                        &format!("tibia{side}"),
                        femur,
                        planar_custom_joint(true),
                        mp(&mut rng),
                    )
                    .with_x_pf(about_z(&mut rng))
                    .with_x_bm(about_z(&mut rng)),
                )
                .unwrap();
            common::add_random_forces(&mut b, &mut rng, tibia, Mobilizer::Pin);
        }
        b.add_gravity(rng.vec3(9.81));
        let model = b.build().unwrap();
        assert_planar_and_exact(&model, &mut rng, seed % 2 == 0, &format!("seed {seed}"));
    }
}

/// A CustomJoint that can leave the plane keeps its whole subtree on the 6×6 path: a rotation
/// about x that follows a coordinate, a translation along the normal that does, a constant
/// non-zero turn about x (it tilts the axes after it), or more than three coordinates.
#[test]
fn a_custom_joint_that_can_leave_the_plane_is_not_planar() {
    let of = |coordinate: Option<usize>, function| AxisFunction {
        coordinate,
        function,
    };
    let linear = || Function::Linear {
        slope: 1.0,
        intercept: 0.0,
    };
    let mut turning_x = planar_custom_joint(false);
    turning_x.functions[1] = of(Some(1), linear());
    let mut sliding_z = planar_custom_joint(false);
    sliding_z.functions[5] = of(Some(2), linear());
    let mut tilted = planar_custom_joint(false);
    tilted.functions[1] = of(None, Function::Constant(0.1));
    let cases = [
        ("planar", planar_custom_joint(false), true),
        ("a turn about x", turning_x, false),
        ("a slide along z", sliding_z, false),
        ("a constant tilt about x", tilted, false),
    ];
    // Four coordinates all in the plane (a second turn about z): more than the plane's three
    // directions, which the 3×3 steps cannot hold (they keep at most three columns). The
    // joint stays on the 6×6 path, which evaluates it without a panic (its D is singular up
    // to round-off, so what it returns is not checked).
    let mut four = planar_custom_joint(false);
    four.axes[1] = Vector3::z();
    four.functions[1] = of(Some(3), linear());
    four.nq = 4;
    let model = one_leg_on(four);
    assert!(model.bodies()[1..].iter().all(|b| b.plane.is_none()));
    let state = common::random_state(&model, &mut Rng::new(11), 2.0);
    let _ = realize(&model, &state, &mut Data::new(&model), Stage::Acceleration);
    for (label, transform, planar) in cases {
        let model = one_leg_on(transform);
        for body in &model.bodies()[1..] {
            assert_eq!(body.plane.is_some(), planar, "{label}: '{}'", body.name);
        }
        let mut rng = Rng::new(11);
        let state = common::random_state(&model, &mut rng, 2.0);
        assert_forward_dynamics_exact(&model, &state, label);
    }
}

/// A pelvis on Ground with `transform`, and a leg on a Pin under it.
fn one_leg_on(transform: SpatialTransform) -> Model<f64> {
    let mp = MassProperties::new(1.0, Vector3::new(0.2, 0.1, 0.05), Matrix3::identity());
    let mut b = ModelBuilder::<f64>::new();
    let pelvis = b
        .add_body(BodyDef::function_based(
            "pelvis",
            BodyId::GROUND,
            transform,
            mp,
        ))
        .unwrap();
    b.add_body(BodyDef::new("leg", pelvis, Mobilizer::Pin, mp))
        .unwrap();
    b.add_gravity(Vector3::new(0.0, -9.81, 0.0));
    b.build().unwrap()
}
