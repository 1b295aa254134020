//! No allocation in the step loop (docs/design.md): once a simulation has taken its first steps
//! (its buffers grown to the sizes the model needs), further steps allocate nothing — on
//! OpenSim models with muscles over wrap objects, constraints and contact, and on the contact
//! scenes of every model the library implements.
//!
//! A test binary of its own: `allocation_counter` replaces the global allocator (counting per
//! thread), which the other tests need not pay for.
#![allow(missing_docs)]

use ferrobody::io::{load_scene, osim};
use ferrobody::prelude::*;
use std::path::PathBuf;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Steps `sim` to `warm_up` (buffers grow to size), then requires that the steps up to `end`
/// allocate nothing (`what` names the run in the message).
fn assert_steps_allocate_nothing(what: &str, mut sim: Simulation<f64>, warm_up: f64, end: f64) {
    while sim.state().t < warm_up {
        sim.step(warm_up).unwrap();
    }
    let mut steps = 0;
    let info = allocation_counter::measure(|| {
        while sim.state().t < end {
            sim.step(end).unwrap();
            steps += 1;
        }
    });
    assert!(steps > 0, "{what}: no step measured");
    let count = info.count_total;
    assert_eq!(count, 0, "{what}: {count} allocations in {steps} steps");
}

fn assert_no_allocation_osim(name: &str, warm_up: f64, end: f64) {
    let m = osim::load(&repo_root().join("testdata/opensim").join(name)).unwrap();
    let settings = IntegratorSettings::rk_merson(1e-6);
    let sim = Simulation::new(&m.model, m.default_state.clone(), settings).unwrap();
    assert_steps_allocate_nothing(name, sim, warm_up, end);
}

fn assert_no_allocation_scene(name: &str, warm_up: f64, end: f64) {
    let scene = load_scene(&repo_root().join("examples/scenes").join(name)).unwrap();
    let sim = Simulation::new(&scene.model, scene.initial_state, scene.integrator).unwrap();
    assert_steps_allocate_nothing(name, sim, warm_up, end);
}

#[test]
fn muscles_on_paths_without_wrap_objects_step_without_allocating() {
    // Thelen muscles evaluated in pairs; Millard muscles with conditional and moving points.
    assert_no_allocation_osim("models/gait2392_thelen.osim", 0.01, 0.03);
    assert_no_allocation_osim("models/gait10dof18musc.osim", 0.01, 0.03);
}

#[test]
fn muscles_over_wrap_objects_step_without_allocating() {
    // Cylinders and ellipsoids (arm26), spheres, tori.
    assert_no_allocation_osim("models/arm26.osim", 0.02, 0.1);
    assert_no_allocation_osim("muscles/mus_pendulum_sphere_all.osim", 0.02, 0.2);
    assert_no_allocation_osim("muscles/mus_pendulum_torus.osim", 0.02, 0.2);
}

#[test]
fn constrained_models_and_contact_models_step_without_allocating() {
    // Coupler constraints and two-cylinder wraps (Rajagopal2016); DeGroote muscles in
    // `<components>` with smooth sphere–half-space contact (2D_gait).
    assert_no_allocation_osim("models/rajagopal2016.osim", 0.01, 0.02);
    assert_no_allocation_osim("models/gait2d.osim", 0.01, 0.05);
}

#[test]
fn contact_scenes_step_without_allocating() {
    for (scene, warm_up, end) in [
        ("s1_hc_ball.toml", 0.1, 0.5),
        ("s2_ccs_ball.toml", 0.1, 0.5),
        ("s3_smooth_ball.toml", 0.1, 0.5),
        ("s6_chain_contact.toml", 0.1, 0.3),
        ("s7_many_balls_n100.toml", 0.05, 0.1),
        ("e1_es_slide.toml", 0.1, 0.5),
        ("box_mesh_floor.toml", 0.05, 0.1),
        ("s5_sphere_on_sphere_rolling.toml", 0.1, 0.5),
        ("s4_unilateral_bounce.toml", 0.1, 0.5),
        ("u1_block_slide.toml", 0.1, 0.3),
    ] {
        assert_no_allocation_scene(scene, warm_up, end);
    }
}

#[test]
fn every_integrator_steps_without_allocating() {
    let scene = load_scene(&repo_root().join("examples/scenes/s1_hc_ball.toml")).unwrap();
    let error_controlled = [
        IntegratorKind::RungeKuttaMerson,
        IntegratorKind::RungeKutta2,
        IntegratorKind::RungeKutta3,
        IntegratorKind::RungeKuttaFeldberg,
        IntegratorKind::ExplicitEuler,
        IntegratorKind::SemiExplicitEuler2,
        IntegratorKind::Verlet,
        IntegratorKind::Implicit,
    ];
    let fixed = [
        IntegratorKind::RungeKutta4,
        IntegratorKind::ExplicitEulerFixed,
    ];
    let settings = error_controlled
        .map(|kind| IntegratorSettings {
            kind,
            ..IntegratorSettings::rk_merson(1e-4)
        })
        .into_iter()
        .chain(fixed.map(|kind| IntegratorSettings::fixed(kind, 1e-3)));
    for settings in settings {
        let state = scene.initial_state.clone();
        let sim = Simulation::new(&scene.model, state, settings).unwrap();
        assert_steps_allocate_nothing(&format!("{:?}", settings.kind), sim, 0.1, 0.5);
    }
}

#[test]
fn the_counter_counts_this_threads_allocations() {
    // Guards the tests above against a counter that is not installed (they would pass).
    let info = allocation_counter::measure(|| {
        std::hint::black_box(vec![1.0_f64; 4]);
    });
    assert_eq!(info.count_total, 1);
}
