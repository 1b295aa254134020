//! Loading scales linearly (issue 23 finding 5): `check` of a 100 000-ball contact scene took
//! 55 s with the linear name searches of the model builder (more than 120 s for this test
//! binary's build), about 1 s in a release build and 5–15 s in this test's build with them
//! replaced by maps. A watchdog of 90 s tells the two apart with a wide margin on a slow
//! machine; it is a hang detector, not a timing figure (those are in docs/performance.md).

use std::fmt::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The s7 layout (examples/scenes/generate_s7.py) with `n` balls.
fn many_balls(n: usize) -> String {
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
    s.push_str(
        "[[contact]]\nmodel = \"compliant\"\n[[contact.surface]]\nbody = \"ground\"\n\
         shape = \"half_space\"\nframe = { rotation = { axis = [0.0, 0.0, 1.0], angle_deg = -90.0 } }\n\
         material = \"s1\"\n",
    );
    for j in 0..n {
        let _ = write!(
            s,
            "[[contact.surface]]\nbody = \"ball{j}\"\nshape = \"sphere\"\nradius = 0.05\nmaterial = \"s1\"\n"
        );
    }
    s
}

#[test]
fn a_100_000_ball_scene_passes_check_without_quadratic_loading() {
    let dir = std::env::temp_dir().join(format!("ferrobody-scale-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = dir.join("balls.toml");
    std::fs::write(&scene, many_balls(100_000)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrobody"))
        .arg("check")
        .arg(&scene)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            panic!("check of 100 000 balls still running after 90 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
