//! Ellipsoid contact surfaces (issue 20) in scenes: both pairs at work in one Hunt–Crossley set,
//! resting loads against the closed-form Hertz law with Simbody's effective radii, and the
//! one-line errors of the `shape`, `radius` and `radii` keys. (The OpenSim comparison of the
//! half-space pair is `opensim_models::ellipsoid_hunt_crossley_matches_opensim`.)

use ferrobody::io::{load_scene, parse_scene, Scene};
use ferrobody::rollout::{simulate, RecordOptions, Trajectory};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scene(text: &str) -> ferrobody::Result<Scene> {
    parse_scene(text, "inline.toml", "inline")
}

fn error(text: &str) -> String {
    match scene(text) {
        Ok(_) => panic!("the scene loaded"),
        Err(e) => e.to_string(),
    }
}

fn run(s: &Scene, duration: f64) -> Trajectory {
    let options = RecordOptions {
        duration,
        report_interval: Some(0.01),
        step_to_reports: false,
        contacts: true,
        parallel_forces: false,
    };
    let t = simulate(&s.model, s.initial_state.clone(), s.integrator, &options).unwrap();
    assert!(t.error.is_none(), "{:?}", t.error);
    t
}

#[test]
fn the_egg_strikes_the_ball_then_lands_on_the_floor() {
    let s = load_scene(&root().join("examples/scenes/egg_on_ball.toml")).unwrap();
    let t = run(&s, s.duration);
    let c = &t.contacts;
    let ball_centre = [0.0, 0.1, 0.0];
    let (mut on_ball, mut on_floor) = (0, 0);
    for k in 0..c.depth.len() {
        let (p, n) = (c.point[k], c.normal[k]);
        if p[1] > 0.05 {
            // The ball is surface 2 (the ellipsoid is always surface 1 of that pair): the normal
            // points from the egg into the ball, so back along it lies the egg, and the point is
            // about a radius from the ball's centre.
            on_ball += 1;
            let r: Vec<f64> = (0..3).map(|i| p[i] - ball_centre[i]).collect();
            let dist = (r[0] * r[0] + r[1] * r[1] + r[2] * r[2]).sqrt();
            assert!((dist - 0.1).abs() < c.depth[k], "{dist}");
            let along: f64 = (0..3).map(|i| -n[i] * r[i] / dist).sum();
            assert!(along > 1.0 - 1e-9, "normal off the ball's radius: {along}");
        } else {
            on_floor += 1;
            assert!((n[1] - 1.0).abs() < 1e-15 && p[1].abs() < c.depth[k]);
        }
    }
    assert!(
        on_ball > 0 && on_floor > 0,
        "{on_ball} on the ball, {on_floor} on the floor"
    );
}

/// The depth at which the Hertz force (4/3) k x √(R k x) carries a weight W (k = E^(2/3)/2
/// for two equal materials).
fn hertz_depth(weight: f64, stiffness: f64, radius: f64) -> f64 {
    let k = stiffness.powf(2.0 / 3.0) / 2.0;
    (weight / (4.0 / 3.0 * k * (radius * k).sqrt())).powf(2.0 / 3.0)
}

const RESTING: &str = r#"
gravity = [0.0, -9.81, 0.0]
[simulation]
duration = 1.0
[integrator]
method = "rk-merson"
accuracy = 1e-8
[material.m]
stiffness = 1e6
dissipation = 5.0
[[body]]
name = "egg"
mobilizer = "translation"
mass = 1.0
inertia = [0.003, 0.002, 0.003]
q = [0.0, Y0, 0.0]
[[contact]]
model = "hunt_crossley"
[[contact.surface]]
body = "ground"
SUPPORT
material = "m"
[[contact.surface]]
body = "egg"
shape = "ellipsoid"
radii = [0.1, 0.05, 0.08]
material = "m"
"#;

#[test]
fn an_egg_at_rest_on_the_floor_carries_its_weight_with_simbody_s_radius() {
    // On its y semi-axis: Simbody's radius is √(a₀ a₂), the semi-axes of the central section.
    let support = "shape = \"half_space\"\nframe = { rotation = { axis = [0.0, 0.0, 1.0], angle = -1.5707963267948966 } }";
    let text = RESTING.replace("SUPPORT", support).replace("Y0", "0.05");
    let t = run(&scene(&text).unwrap(), 1.0);
    let y = t.final_state.q[1];
    let expected = 0.05 - hertz_depth(9.81, 1e6, (0.1f64 * 0.08).sqrt());
    // Settled to 1e-9 m by the dissipation; the integrator's accuracy 1e-8 leaves ~1e-10.
    assert!((y - expected).abs() < 1e-9, "{y} vs {expected}");
}

#[test]
fn an_egg_at_rest_on_a_ball_carries_its_weight_with_the_combined_curvature() {
    // On its y semi-axis over a ball of radius 0.1 whose top is at y = 0.2: principal
    // curvatures b/a² and b/c² of the egg plus 1/r of the ball, R = 1/√((κ₁+1/r)(κ₂+1/r)).
    let support = "shape = \"sphere\"\nradius = 0.1\nframe = { translation = [0.0, 0.1, 0.0] }";
    let text = RESTING.replace("SUPPORT", support).replace("Y0", "0.25");
    let t = run(&scene(&text).unwrap(), 1.0);
    let y = t.final_state.q[1];
    let (k1, k2, kr): (f64, f64, f64) = (0.05 / 0.01, 0.05 / 0.0064, 10.0);
    let radius: f64 = 1.0 / ((k1 + kr) * (k2 + kr)).sqrt();
    let expected = 0.25 - hertz_depth(9.81, 1e6, radius);
    assert!((y - expected).abs() < 1e-9, "{y} vs {expected}");
}

const ONE_SURFACE: &str = r#"
[simulation]
duration = 0.1
[material.m]
stiffness = 1e6
[[body]]
name = "egg"
mobilizer = "free"
mass = 1.0
inertia = [0.003, 0.002, 0.003]
[[contact]]
model = "hunt_crossley"
[[contact.surface]]
body = "ground"
shape = "half_space"
material = "m"
[[contact.surface]]
body = "egg"
material = "m"
"#;

#[test]
fn wrong_shape_keys_are_one_line_errors() {
    let with = |keys: &str| error(&format!("{ONE_SURFACE}{keys}\n"));
    let cases = [
        (
            "shape = \"ellipsoid\"",
            "contact[0].surface[1].radii: an ellipsoid needs radii = [a, b, c]",
        ),
        (
            "shape = \"ellipsoid\"\nradius = 0.1",
            "contact[0].surface[1].radius: an ellipsoid has no radius",
        ),
        (
            "shape = \"sphere\"\nradius = 0.1\nradii = [0.1, 0.1, 0.1]",
            "contact[0].surface[1].radii: a sphere has no radii",
        ),
        (
            "shape = \"half_space\"\nradii = [0.1, 0.1, 0.1]",
            "contact[0].surface[1].radii: a half space has no radii",
        ),
        (
            "shape = \"ellipsoid\"\nradii = [0.1, -0.05, 0.08]",
            "contact[0].surface[1].radii[1]: must be positive and finite, got -0.05",
        ),
        (
            "shape = \"ellipsoid\"\nradii = [0.1, 0.05, nan]",
            "contact[0].surface[1].radii[2]: must be positive and finite, got NaN",
        ),
    ];
    for (keys, expected) in cases {
        let e = with(keys);
        assert!(e.contains(expected), "{keys}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn two_ellipsoids_in_one_set_are_refused_until_the_pair_exists() {
    let text = format!(
        "{ONE_SURFACE}shape = \"ellipsoid\"\nradii = [0.1, 0.05, 0.08]\n\
         [[contact.surface]]\nbody = \"ground\"\nshape = \"ellipsoid\"\nradii = [0.1, 0.1, 0.1]\nmaterial = \"m\"\n"
    );
    let e = error(&text);
    assert!(
        e.contains("surfaces 1 and 2: no contact routine for ellipsoid against ellipsoid yet"),
        "{e}"
    );
}
