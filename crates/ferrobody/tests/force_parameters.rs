//! Force parameters by name (`Model::set_force_parameter`): a changed model runs bit for bit
//! as the scene file with the same value written in it; bad changes are refused by name and
//! leave the model as it was.

use ferrobody::io::{parse_scene, Scene};
use ferrobody::rollout::{simulate, RecordOptions};
use std::path::Path;

fn text(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../examples/scenes")
            .join(name),
    )
    .unwrap()
}

fn run(scene: &Scene) -> Vec<f64> {
    let options = RecordOptions {
        duration: 1.0,
        report_interval: Some(0.01),
        step_to_reports: false,
        contacts: false,
        parallel_forces: false,
    };
    let t = simulate(
        &scene.model,
        scene.initial_state.clone(),
        scene.integrator,
        &options,
    )
    .unwrap();
    assert!(t.error.is_none());
    t.q
}

#[test]
fn a_changed_parameter_runs_like_the_edited_scene() {
    for (file, force, parameter, from, to, value) in [
        (
            "s1_hc_ball.toml",
            "contact",
            "stiffness",
            "stiffness = 1e6",
            "stiffness = 3e6",
            3e6,
        ),
        (
            "s1_hc_ball.toml",
            "contact",
            "transition_velocity",
            "transition_velocity = 0.01",
            "transition_velocity = 0.05",
            0.05,
        ),
        (
            "s3_smooth_ball.toml",
            "smooth_contact",
            "stiffness",
            "stiffness = 1e6",
            "stiffness = 2e6",
            2e6,
        ),
        (
            // The radius enters the Hertz factor the element computes once: the setter must
            // recompute it.
            "s3_smooth_ball.toml",
            "smooth_contact",
            "sphere_radius",
            "sphere_radius = 0.1",
            "sphere_radius = 0.12",
            0.12,
        ),
    ] {
        let original = text(file);
        let edited = original.replacen(from, to, 1);
        assert_ne!(edited, original, "{file}: {from}");
        let mut changed = parse_scene(&original, file, "x").unwrap();
        changed
            .model
            .set_force_parameter(force, parameter, value)
            .unwrap();
        assert_eq!(
            changed.model.force_parameter(force, parameter).unwrap(),
            value
        );
        let written = parse_scene(&edited, file, "x").unwrap();
        let plain = parse_scene(&original, file, "x").unwrap();
        assert_eq!(run(&changed), run(&written), "{file} {parameter}");
        assert_ne!(
            run(&changed),
            run(&plain),
            "{file} {parameter} changes the run"
        );
    }
}

#[test]
fn bad_changes_are_refused_by_name_and_change_nothing() {
    let mut scene = parse_scene(&text("s1_hc_ball.toml"), "s1", "x").unwrap();
    let before = scene.model.force_parameter("contact", "stiffness").unwrap();
    for (force, parameter, value, expected) in [
        ("nope", "stiffness", 1.0, "no force named 'nope'"),
        (
            "contact",
            "mass",
            1.0,
            "no such parameter (this force has: stiffness",
        ),
        (
            "contact",
            "stiffness",
            -1.0,
            "force 'contact'.stiffness: surface[0].material",
        ),
        ("contact", "stiffness", f64::NAN, "must be finite"),
        (
            "contact",
            "transition_velocity",
            0.0,
            "transition_velocity: must be positive",
        ),
    ] {
        let e = scene
            .model
            .set_force_parameter(force, parameter, value)
            .unwrap_err()
            .to_string();
        assert!(e.contains(expected), "{force}.{parameter}: {e}");
    }
    assert_eq!(
        scene.model.force_parameter("contact", "stiffness").unwrap(),
        before
    );
}
