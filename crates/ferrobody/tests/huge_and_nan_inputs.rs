//! Values that make the arithmetic meaningless are refused where they enter (a mass or inertia
//! beyond 1e30), and a state that breaks one evaluation (a non-finite q) leaves nothing behind
//! that breaks the next: the constrained solve's workspace was left 0 × 0 after a failed
//! factorization, and the retry panicked with "Matrix index out of bounds" (issue 22).

use ferrobody::io::load_scene;
use ferrobody::prelude::*;
use ferrobody::{pipeline, Stage};
use std::path::PathBuf;

#[test]
fn masses_and_inertias_beyond_1e30_are_refused() {
    let sphere = |m: f64, i: f64| {
        MassProperties::new(m, Vector3::zeros(), Matrix3::from_diagonal_element(i))
    };
    for (mp, expect) in [
        (sphere(1e31, 1.0), "mass must be at most 1e30 kg"),
        (sphere(1.0, 1e31), "inertia entries must be at most 1e30"),
    ] {
        let mut b = ModelBuilder::<f64>::new();
        let e = b
            .add_body(BodyDef::new("ball", BodyId::GROUND, Mobilizer::Free, mp))
            .unwrap_err()
            .to_string();
        assert!(e.contains(expect) && e.contains("'ball'"), "{e}");
    }
    let mut b = ModelBuilder::<f64>::new();
    assert!(b
        .add_body(BodyDef::new(
            "ball",
            BodyId::GROUND,
            Mobilizer::Free,
            sphere(1e30, 1e30)
        ))
        .is_ok());
}

#[test]
fn a_failed_constrained_solve_does_not_break_the_next_one() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scenes/s5_sphere_on_sphere_sliding.toml");
    let scene = load_scene(&path).unwrap();
    assert!(scene.model.has_constraints());
    let mut data = Data::new(&scene.model);
    let mut bad = scene.initial_state.clone();
    bad.q[0] = f64::NAN;
    // Whatever the NaN does, it must come back as a result, not a panic...
    let _ = pipeline::realize(&scene.model, &bad, &mut data, Stage::Acceleration);
    // ...and the good state must still evaluate, with the same numbers as in fresh data.
    pipeline::realize(
        &scene.model,
        &scene.initial_state,
        &mut data,
        Stage::Acceleration,
    )
    .unwrap();
    let mut fresh = Data::new(&scene.model);
    pipeline::realize(
        &scene.model,
        &scene.initial_state,
        &mut fresh,
        Stage::Acceleration,
    )
    .unwrap();
    assert_eq!(data.udot().unwrap(), fresh.udot().unwrap());
}

/// Step sizes so small that a run could never end (1e-320 s) are refused by name.
#[test]
fn step_sizes_below_1e_12_are_refused() {
    use ferrobody::integrators::{IntegratorKind, IntegratorSettings, MIN_STEP_SIZE};
    let fixed = IntegratorSettings::fixed(IntegratorKind::RungeKutta4, 1e-320);
    let e = fixed.validate().unwrap_err().to_string();
    assert!(e.contains("fixed_step must be at least 1e-12"), "{e}");
    for name in ["max_step", "min_step", "initial_step"] {
        let mut s = IntegratorSettings::rk_merson(1e-6);
        match name {
            "max_step" => s.max_step = Some(1e-320),
            "min_step" => s.min_step = Some(1e-320),
            _ => s.initial_step = Some(1e-320),
        }
        let e = s.validate().unwrap_err().to_string();
        assert!(e.contains(&format!("{name} must be at least")), "{e}");
    }
    assert!(
        IntegratorSettings::fixed(IntegratorKind::RungeKutta4, MIN_STEP_SIZE)
            .validate()
            .is_ok()
    );
}
