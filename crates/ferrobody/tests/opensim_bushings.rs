//! OpenSim's nonlinear bushings (`FunctionBasedBushingForce`, `ExpressionBasedBushingForce`)
//! against OpenSim 4.6's own run, and against the linear bushing they reduce to.
use crate::common;
use crate::opensim_errors::error_of;
use crate::opensim_muscles::{simulate, worst};
use ferrobody::forces::{BushingStiffness, LinearBushing, NonlinearBushing};
use ferrobody::math::function::Function;
use ferrobody::math::Transform;
use ferrobody::model::{element_contribution, Force};
use ferrobody::prelude::*;
use ferrobody::{pipeline, Stage};
use nalgebra::{Matrix3, Vector3};

/// A free block hung from a turned Ground frame by a FunctionBasedBushingForce (two
/// SimmSplines, a PiecewiseLinearFunction, a PolynomialFunction and two LinearFunctions on its
/// six deflections, with damping), and a free tail hung from the block by an
/// ExpressionBasedBushingForce whose expressions couple the deflections (`3*theta_y*delta_z`,
/// `-40*delta_x*delta_z`, `exp(delta_y)`, `sin(theta_z)`, cubes), every bushing frame offset
/// and turned on its body (scripts/opensim/make_muscle_references.py `bushings`). Both
/// programs take OpenSim's `TwoFrameLinker` arithmetic: the runs agree to round-off, 1.6e-14 at
/// worst (a speed of the tail), held to 1e-12 (every coordinate, speed and body origin, every
/// 0.01 s over 1 s).
#[test]
fn function_and_expression_based_bushings_match_opensim() {
    let theirs = common::csv_rows("testdata/opensim/muscles/mus_nonlinear_bushings.csv");
    let ours = simulate("muscles/mus_nonlinear_bushings.osim", 1.0);
    let (d, col, t) = worst(&ours, &theirs, |_| true);
    eprintln!("mus_nonlinear_bushings: largest difference {d:e} ({col} at t = {t})");
    assert!(d < 1e-12, "{col} differs by {d:e} at t = {t}");
}

/// With `LinearFunction`s `kᵢ x` and the same dampings, a FunctionBasedBushingForce is
/// Simbody's LinearBushing: at a state with every deflection and rate nonzero, the two give
/// the same body forces to round-off (they differ only in the order of operations: Simbody's
/// `~X_GF * X_GM` and angle conversion against TwoFrameLinker's). A sign or frame slip in either
/// would show at the size of the forces.
#[test]
fn linear_functions_make_the_linear_bushing() {
    let stiffness = [3.0, 5.0, 7.0, 200.0, 300.0, 400.0];
    let damping = [0.1, 0.2, 0.3, 4.0, 5.0, 6.0];
    let x_b1f = Transform::from_body_xyz(&Vector3::new(0.1, -0.2, 0.3));
    let x_b1f = Transform {
        p: Vector3::new(0.05, 0.1, -0.02),
        ..x_b1f
    };
    let x_b2m = Transform::from_body_xyz(&Vector3::new(-0.2, 0.1, 0.05));
    let x_b2m = Transform {
        p: Vector3::new(-0.03, 0.2, 0.01),
        ..x_b2m
    };
    let mut b = ModelBuilder::<f64>::new();
    let box_mass = MassProperties::new(1.0, Vector3::zeros(), Matrix3::identity() * 0.1);
    let body = |name: &str| BodyDef::new(name, BodyId::GROUND, Mobilizer::FreeEuler, box_mass);
    let one = b.add_body(body("one")).unwrap();
    let two = b.add_body(body("two")).unwrap();
    let linear = b
        .add_force(Force::LinearBushing(LinearBushing {
            name: "linear".into(),
            body1: one,
            x_b1f,
            body2: two,
            x_b2m,
            stiffness,
            damping,
            dissipated_energy: None,
        }))
        .unwrap();
    let functions = stiffness.map(|k| Function::Linear {
        slope: k,
        intercept: 0.0,
    });
    let nonlinear = b
        .add_force(Force::NonlinearBushing(Box::new(NonlinearBushing {
            name: "functions".into(),
            body1: one,
            x_b1f,
            body2: two,
            x_b2m,
            stiffness: BushingStiffness::Functions(Box::new(functions)),
            damping,
        })))
        .unwrap();
    let model = b.build().unwrap();
    let mut s = model.default_state();
    let q = [
        0.1, 0.2, -0.1, 0.3, -0.2, 0.25, 0.05, 0.05, 0.02, 0.34, -0.18, 0.3,
    ];
    for (i, v) in q.iter().enumerate() {
        s.q[i] = *v;
    }
    for i in 0..s.u.len() {
        s.u[i] = 0.3 * (i as f64 + 1.0).sin();
    }
    let mut data = Data::new(&model);
    pipeline::realize(&model, &s, &mut data, Stage::Velocity).unwrap();
    let a = element_contribution(&model, &s, &data, linear).body_forces;
    let b = element_contribution(&model, &s, &data, nonlinear).body_forces;
    let scale = a.iter().map(|f| f.norm()).fold(0.0, f64::max);
    assert!(scale > 10.0, "the state deflects the bushing: {scale}");
    for (fa, fb) in a.iter().zip(&b) {
        // Forces of ~100 N from deflections of ~0.3: 1e-12 relative is a few hundred ulps of
        // the largest terms, room for the two orders of operations.
        assert!((fa - fb).norm() < 1e-12 * scale, "{fa} vs {fb}");
    }
}

/// A bad expression, or a bushing frame that is not in the model, is a one-line error naming
/// the element and its line.
#[test]
fn bushing_errors_name_the_element() {
    let text = std::fs::read_to_string(
        common::repo_root().join("testdata/opensim/muscles/mus_nonlinear_bushings.osim"),
    )
    .unwrap();
    let bad_expression = text.replace(
        "<Fz_expression>180*delta_z</Fz_expression>",
        "<Fz_expression>180*delta_w</Fz_expression>",
    );
    assert_ne!(bad_expression, text);
    let e = error_of(&bad_expression);
    assert!(
        e.contains("/forceset/link")
            && e.contains("<Fz_expression>")
            && e.contains("unknown variable 'delta_w'"),
        "{e}"
    );
    let missing_frame = text.replacen(
        "<socket_frame2>block_offset</socket_frame2>",
        "<socket_frame2>knee_offset</socket_frame2>",
        1,
    );
    assert_ne!(missing_frame, text);
    let e = error_of(&missing_frame);
    assert!(
        e.contains("/forceset/hip") && e.contains("knee_offset"),
        "{e}"
    );
}
