//! Loading scales linearly, for every contact model (issue 23 finding 5, issue 36): `check` of
//! a 100 000-ball scene took 55 s with the linear name searches of the model builder, and a
//! Hunt–Crossley set of 100 000 balls 14.7 s in a release build with the broad phase's first
//! sort an insertion sort (quadratic for balls listed z before x) and its set build testing
//! all n²/2 surface pairs for a contact routine. Now about 1–2 s each in this test's build (figures
//! in docs/performance.md). A watchdog of 90 s per model tells the two apart on a slow machine;
//! it is a hang detector, not a timing figure.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The balls of the s7 layout (examples/scenes/generate_s7.py), `n` of them.
fn balls(n: usize) -> String {
    let mut s = String::from(
        "name = \"balls\"\ngravity = [0.0, -9.81, 0.0]\n[simulation]\nduration = 1.0\n\
         [material.s1]\nstiffness = 1e6\ndissipation = 0.5\n",
    );
    let m = ((n as f64 / 3.0).ceil().sqrt()).ceil() as usize;
    for j in 0..n {
        let (layer, column) = (j % 3, j / 3);
        let (x, y, z) = (
            0.2 * (column % m) as f64,
            0.1 + 0.2 * layer as f64,
            0.2 * (column / m) as f64,
        );
        let _ = write!(
            s,
            "[[body]]\nname = \"ball{j}\"\nmobilizer = \"free\"\nmass = 1.0\n\
             inertia = [0.001, 0.001, 0.001]\nq = [1.0, 0.0, 0.0, 0.0, {x}, {y}, {z}]\n"
        );
    }
    s
}

const FLOOR: &str = "frame = { rotation = { axis = [0.0, 0.0, 1.0], angle_deg = -90.0 } }";

/// One contact set of `model` (compliant, hunt_crossley, elastic_foundation) holding the floor
/// and every ball; an elastic foundation adds a meshed box that the balls press.
fn contact_set(n: usize, model: &str, mesh: &Path) -> String {
    let mut s = format!(
        "[[contact]]\nmodel = \"{model}\"\ntransition_velocity = 0.02\n\
         [[contact.surface]]\nbody = \"ground\"\nshape = \"half_space\"\n{FLOOR}\nmaterial = \"s1\"\n"
    );
    if model == "elastic_foundation" {
        let _ = write!(
            s,
            "[[contact.surface]]\nbody = \"ball0\"\nshape = \"mesh\"\nfile = \"{}\"\nmaterial = \"s1\"\n",
            mesh.display()
        );
    }
    for j in 0..n {
        let _ = write!(
            s,
            "[[contact.surface]]\nbody = \"ball{j}\"\nshape = \"sphere\"\nradius = 0.05\nmaterial = \"s1\"\n"
        );
    }
    s
}

/// One force element of `kind` per ball (smooth sphere/half-space, exponential spring).
fn force_per_ball(n: usize, kind: &str) -> String {
    let mut s = String::new();
    for j in 0..n {
        let _ = match kind {
            "smooth_sphere_half_space" => write!(
                s,
                "[[force]]\ntype = \"{kind}\"\nsphere_body = \"ball{j}\"\nsphere_radius = 0.05\n\
                 half_space_body = \"ground\"\nhalf_space_{FLOOR}\n"
            ),
            _ => write!(
                s,
                "[[force]]\ntype = \"{kind}\"\nbody = \"ball{j}\"\nstation = [0.0, 0.0, 0.0]\n\
                 plane = {{ rotation = {{ axis = [1.0, 0.0, 0.0], angle_deg = -90.0 }} }}\n"
            ),
        };
    }
    s
}

/// Runs `check` on `scene` and fails if it errs or is still running after 90 s.
fn check_within_watchdog(dir: &Path, name: &str, scene: &str) {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, scene).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrobody"))
        .arg("check")
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("check of {name} still running after 90 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    assert!(status.success(), "check of {name} failed: {err}");
    eprintln!("check of {name}: {:.2} s", start.elapsed().as_secs_f64());
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_100_000_ball_scene_passes_check_without_quadratic_loading_for_every_contact_model() {
    const N: usize = 100_000;
    let dir = std::env::temp_dir().join(format!("ferrobody-scale-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mesh = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/meshes/box.obj");
    let bodies = balls(N);
    for model in ["compliant", "hunt_crossley", "elastic_foundation"] {
        let scene = format!("{bodies}{}", contact_set(N, model, &mesh));
        check_within_watchdog(&dir, model, &scene);
    }
    for kind in ["smooth_sphere_half_space", "exponential_spring"] {
        let scene = format!("{bodies}{}", force_per_ball(N, kind));
        check_within_watchdog(&dir, kind, &scene);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
