//! Plots and the replay: the demo writes both, `run` only on request; the replay draws what
//! the model is (issue 23 finding 9): the s4 ball as its contact sphere, the u5 box as the
//! scene's own `visual` box, Ground's edge as a rod; bad `visual` entries are one-line errors.

use std::path::Path;

use crate::common;
use common::{assert_success, exe, scenes, temp_dir};

/// A primitive's bounding box: lowest and highest corner.
type Bounds = ([f32; 3], [f32; 3]);

/// Runs `scene` briefly with `--replay` and returns, per node name, the bounding box of each
/// of its mesh's primitives (body frame, f32 positions).
fn replay_bounds(scene: &Path, dir: &Path) -> Vec<(String, Vec<Bounds>)> {
    let out = exe()
        .arg("run")
        .arg(scene)
        .arg("--out")
        .arg(dir)
        .args(["--duration", "0.05", "--replay", "--quiet"])
        .output()
        .unwrap();
    assert_success(&out);
    let doc = gltf::Gltf::from_slice(&std::fs::read(dir.join("replay.glb")).unwrap())
        .expect("valid glTF");
    doc.nodes()
        .filter_map(|n| {
            let mesh = n.mesh()?;
            let boxes = mesh
                .primitives()
                .map(|p| (p.bounding_box().min, p.bounding_box().max))
                .collect();
            Some((n.name().unwrap_or_default().to_string(), boxes))
        })
        .collect()
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    // f32 vertex positions of sizes near 0.1–1 m: 1e-6 m is a few f32 ulps.
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6)
}

#[test]
fn the_s4_ball_is_its_contact_sphere_over_the_contact_plane() {
    let dir = temp_dir("s4");
    let nodes = replay_bounds(&scenes().join("s4_unilateral_bounce.toml"), &dir);
    let ball = &nodes
        .iter()
        .find(|(n, _)| n == "ball")
        .expect("ball node")
        .1;
    assert_eq!(ball.len(), 1, "one sphere");
    assert!(
        close(ball[0].0, [-0.1; 3]) && close(ball[0].1, [0.1; 3]),
        "a sphere of radius 0.1 at the centre, got {ball:?}"
    );
    let ground = &nodes.iter().find(|(n, _)| n == "ground").expect("ground").1;
    assert!(
        ground
            .iter()
            .any(|(lo, hi)| hi[1].abs() < 1e-6 && lo[1] < 0.0),
        "a slab under the plane y = 0, got {ground:?}"
    );
}

#[test]
fn the_u5_box_is_its_visual_and_grounds_edge_a_rod() {
    let dir = temp_dir("u5");
    let nodes = replay_bounds(&scenes().join("u5_edge_edge.toml"), &dir);
    let boxes = &nodes.iter().find(|(n, _)| n == "box").expect("box node").1;
    assert_eq!(boxes.len(), 1, "the visual replaces the automatic shapes");
    assert!(
        close(boxes[0].0, [-0.2, -0.1, -0.2]) && close(boxes[0].1, [0.2, 0.1, 0.2]),
        "the 0.4 x 0.2 x 0.4 m box, got {boxes:?}"
    );
    let ground = &nodes.iter().find(|(n, _)| n == "ground").expect("ground").1;
    assert!(
        ground
            .iter()
            .any(|(lo, hi)| close(*lo, [-0.005, -0.005, -0.5]) && close(*hi, [0.005, 0.005, 0.5])),
        "Ground's edge along z, 1 m long, got {ground:?}"
    );
}

#[test]
fn visual_cylinders_and_spheres_take_their_frames() {
    let dir = temp_dir("cylinder");
    let scene = dir.join("visual.toml");
    std::fs::write(
        &scene,
        r#"
[simulation]
duration = 0.1
[[body]]
name = "link"
mobilizer = "pin"
mass = 1.0
inertia = [0.1, 0.1, 0.1]
[[body.visual]]
shape = "cylinder"
radius = 0.05
half_length = 0.5
frame = { translation = [0.0, -0.5, 0.0], rotation = { axis = [1.0, 0.0, 0.0], angle_deg = 90.0 } }
color = [0.2, 0.3, 0.4]
[[body.visual]]
shape = "sphere"
radius = 0.1
frame = { translation = [0.0, -1.0, 0.0] }
"#,
    )
    .unwrap();
    let nodes = replay_bounds(&scene, &dir.join("out"));
    let link = &nodes.iter().find(|(n, _)| n == "link").expect("link").1;
    assert_eq!(link.len(), 2);
    assert!(
        close(link[0].0, [-0.05, -1.0, -0.05]) && close(link[0].1, [0.05, 0.0, 0.05]),
        "cylinder turned onto y and moved down, got {link:?}"
    );
    assert!(
        close(link[1].0, [-0.1, -1.1, -0.1]) && close(link[1].1, [0.1, -0.9, 0.1]),
        "sphere moved down, got {link:?}"
    );
}

#[test]
fn bad_visuals_are_one_line_errors_naming_the_entry() {
    let dir = temp_dir("bad");
    for (visual, expected) in [
        (
            "shape = \"sphere\"\nradius = -1.0",
            "body[0] 'b'.visual[0].radius: must be positive and finite, got -1",
        ),
        (
            "shape = \"box\"",
            "body[0] 'b'.visual[0].half_extents: required for a box visual",
        ),
        (
            "shape = \"box\"\nhalf_extents = [1.0, 0.0, 1.0]",
            "body[0] 'b'.visual[0].half_extents: must be positive",
        ),
        (
            "shape = \"cylinder\"\nradius = 1.0",
            "body[0] 'b'.visual[0].half_length: required for a cylinder visual",
        ),
        (
            "shape = \"sphere\"\nradius = 1.0\nhalf_extents = [1.0, 1.0, 1.0]",
            "body[0] 'b'.visual[0].half_extents: not a key of a sphere visual",
        ),
        (
            "shape = \"sphere\"\nradius = 1.0\ncolor = [2.0, 0.0, 0.0]",
            "body[0] 'b'.visual[0].color: each component must be in [0, 1]",
        ),
        ("shape = \"cone\"\nradius = 1.0", "unknown variant `cone`"),
    ] {
        let scene = dir.join("bad.toml");
        std::fs::write(
            &scene,
            format!(
                "[simulation]\nduration = 0.1\n[[body]]\nname = \"b\"\nmobilizer = \"free\"\n\
                 mass = 1.0\ninertia = [1.0, 1.0, 1.0]\n[[body.visual]]\n{visual}\n"
            ),
        )
        .unwrap();
        let out = exe().arg("check").arg(&scene).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{visual}: refused");
        assert!(stderr.contains(expected), "{visual}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    }
}

#[test]
fn the_meshed_box_and_the_egg_are_drawn_as_their_contact_shapes() {
    // Issue 20: the box's triangle mesh (0.2 x 0.1 x 0.2 m) and the egg's ellipsoid (semi-axes
    // 0.1, 0.05, 0.08 m) in their body frames.
    let dir = temp_dir("meshbox");
    let nodes = replay_bounds(&scenes().join("box_mesh_floor.toml"), &dir);
    let body = &nodes.iter().find(|(n, _)| n == "box").expect("box node").1;
    assert_eq!(body.len(), 1, "one mesh");
    assert!(
        close(body[0].0, [-0.1, -0.05, -0.1]) && close(body[0].1, [0.1, 0.05, 0.1]),
        "the box mesh, got {body:?}"
    );
    let dir = temp_dir("egg");
    let nodes = replay_bounds(&scenes().join("egg_on_ball.toml"), &dir);
    let egg = &nodes.iter().find(|(n, _)| n == "egg").expect("egg node").1;
    assert_eq!(egg.len(), 1, "one ellipsoid");
    assert!(
        close(egg[0].0, [-0.1, -0.05, -0.08]) && close(egg[0].1, [0.1, 0.05, 0.08]),
        "the ellipsoid, got {egg:?}"
    );
}

#[test]
fn demo_writes_plots_and_a_valid_replay() {
    let dir = temp_dir("replay");
    let out = exe().arg("demo").arg("--out").arg(&dir).output().unwrap();
    assert_success(&out);
    // stderr is not a terminal here: no progress bar, nothing at all on stderr.
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for svg in [
        "heights.svg",
        "speeds.svg",
        "energy.svg",
        "contact_forces.svg",
    ] {
        let text = std::fs::read_to_string(dir.join(svg)).unwrap();
        assert!(
            text.contains("time (s)") && text.contains("<svg"),
            "{svg} has a time axis with units"
        );
    }
    // The gltf crate's loader is the validator: it checks the container, accessors and indices.
    let bytes = std::fs::read(dir.join("replay.glb")).unwrap();
    let doc = gltf::Gltf::from_slice(&bytes).expect("replay.glb is valid glTF");
    let blob = doc.blob.clone().expect("a binary chunk");
    let names: Vec<&str> = doc.nodes().filter_map(|n| n.name()).collect();
    for body in [
        "ground",
        "link1",
        "link5",
        "hc_ball",
        "smooth_ball",
        "block",
    ] {
        assert!(names.contains(&body), "node for {body} in {names:?}");
    }
    let animation = doc.animations().next().expect("an animation of the poses");
    let channels: Vec<_> = animation.channels().collect();
    assert_eq!(
        channels.len(),
        2 * 8,
        "translation and rotation for each of the 8 moving bodies"
    );
    let times: Vec<f32> = channels[0]
        .reader(|_| Some(blob.as_slice()))
        .read_inputs()
        .unwrap()
        .collect();
    assert_eq!(times.len(), 301);
    assert_eq!(*times.last().unwrap(), 3.0);
    // The page embeds the GLB and reaches for nothing on the network.
    let html = std::fs::read_to_string(dir.join("replay.html")).unwrap();
    assert!(!html.contains("__FERROBODY_GLB_BASE64__") && !html.contains("__FERROBODY_TITLE__"));
    assert!(
        !html.contains("http://") && !html.contains("https://") && !html.contains("<script src"),
        "self-contained"
    );
}

#[test]
fn run_writes_plots_and_replay_on_request_only() {
    let dir = temp_dir("run-extras");
    let scene = scenes().join("s3_smooth_ball.toml");
    let out = exe()
        .arg("run")
        .arg(&scene)
        .arg("--out")
        .arg(dir.join("plain"))
        .args(["--duration", "0.2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!dir.join("plain/heights.svg").exists() && !dir.join("plain/replay.glb").exists());
    let out = exe()
        .arg("run")
        .arg(&scene)
        .arg("--out")
        .arg(dir.join("extras"))
        .args(["--duration", "0.2", "--plot", "--replay", "--quiet"])
        .output()
        .unwrap();
    assert_success(&out);
    for f in [
        "heights.svg",
        "speeds.svg",
        "energy.svg",
        "contact_forces.svg",
        "replay.glb",
        "replay.html",
    ] {
        assert!(dir.join("extras").join(f).exists(), "{f}");
    }
    gltf::Gltf::from_slice(&std::fs::read(dir.join("extras/replay.glb")).unwrap())
        .expect("valid glTF");
}

/// The replay of a muscle model carries each muscle's path (its points in Ground, the wrap
/// object's tangent points included while it wraps) and activation at every report, for the
/// viewer to draw coloured by activation (`extras.ferrobody_muscles` of replay.glb).
#[test]
fn the_replay_carries_muscle_paths_and_activations() {
    let dir = temp_dir("muscle_replay");
    let model = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/opensim/muscles/mus_pendulum_wrap.osim");
    let out = exe()
        .arg("run")
        .arg(&model)
        .arg("--out")
        .arg(&dir)
        .args(["--duration", "0.05", "--replay", "--quiet"])
        .output()
        .unwrap();
    assert_success(&out);
    let muscles = &muscle_extras(&dir);
    assert_eq!(muscles["names"], serde_json::json!(["lifter"]));
    let frames = muscles["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 6, "one frame per report");
    let first = frames[0][0].as_array().unwrap();
    // Activation 0.5 (its default), then the origin, the cylinder's two tangent points (the
    // swing starts at −0.5 rad, wrapped) with the 23 points of the helix between them, the
    // moving point and the insertion (the conditional point is out at −0.5): 28 points.
    assert_eq!(first[0].as_f64().unwrap(), 0.5);
    assert_eq!((first.len() - 1) / 3, 28, "{first:?}");
    // The tangent points and the helix lie on the cylinder (radius 0.05 m about the base's z
    // axis through the origin, the base fixed in Ground): points 2 to 26 (point 1 is the
    // origin); the replay keeps 5 decimals.
    for k in 2..=26 {
        let (x, y) = (
            first[3 * k - 2].as_f64().unwrap(),
            first[3 * k - 1].as_f64().unwrap(),
        );
        let r = (x * x + y * y).sqrt();
        assert!((r - 0.05).abs() < 2e-5, "point {k} at radius {r}");
    }
    let html = std::fs::read_to_string(dir.join("replay.html")).unwrap();
    assert!(html.contains("drawMuscles"));
}

/// Path actuators and path springs are drawn like muscles: their paths in the replay's
/// `extras.ferrobody_muscles`, coloured by the actuator's control or the spring's tautness.
#[test]
fn the_replay_carries_path_forces() {
    let dir = temp_dir("path_force_replay");
    let model = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/opensim/muscles/mus_path_forces.osim");
    let out = exe()
        .arg("run")
        .arg(&model)
        .arg("--out")
        .arg(&dir)
        .args(["--duration", "0.02", "--replay", "--quiet"])
        .output()
        .unwrap();
    assert_success(&out);
    let paths = &muscle_extras(&dir);
    assert_eq!(
        paths["names"],
        serde_json::json!(["lift", "bungee", "tether"])
    );
    let first = paths["frames"][0].as_array().unwrap();
    // lift: control 0.5 (Sine offset) and three points; bungee: taut (0.40 m > 0.3 m), two
    // points; tether: taut (1.07 m > 0.9 m), two points.
    let drive_and_points = |k: usize| {
        let v = first[k].as_array().unwrap();
        (v[0].as_f64().unwrap(), (v.len() - 1) / 3)
    };
    assert_eq!(drive_and_points(0), (0.5, 3));
    assert_eq!(drive_and_points(1), (1.0, 2));
    assert_eq!(drive_and_points(2), (1.0, 2));
}

/// `extras.ferrobody_muscles` of the JSON chunk of `dir/replay.glb`.
fn muscle_extras(dir: &Path) -> serde_json::Value {
    let bytes = std::fs::read(dir.join("replay.glb")).unwrap();
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let doc: serde_json::Value = serde_json::from_slice(&bytes[20..20 + json_len]).unwrap();
    doc["extras"]["ferrobody_muscles"].clone()
}
