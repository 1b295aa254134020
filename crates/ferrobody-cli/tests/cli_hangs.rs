//! Plots of empty, constant or overflowing data end (issue 23, finding 2): plotters' tick
//! search never returned for an infinite or empty axis range. Each command here must end
//! within 20 s.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{exe, temp_dir};

/// Runs `cmd` and fails (killing it) if it is still running after 20 s.
fn ends_in_time(mut cmd: Command) -> std::process::ExitStatus {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("still running after 20 s: {cmd:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn plotting_a_scene_without_bodies_ends() {
    let dir = temp_dir("empty");
    let path = dir.join("empty.toml");
    std::fs::write(&path, "[simulation]\nduration = 0.05\n").unwrap();
    let mut cmd = exe();
    cmd.arg("run")
        .arg(&path)
        .args(["--plot", "--quiet", "--out"])
        .arg(dir.join("out"));
    assert!(ends_in_time(cmd).success());
    assert!(dir.join("out/heights.svg").exists());
}

#[test]
fn plotting_huge_values_ends() {
    let dir = temp_dir("huge");
    let path = dir.join("huge.toml");
    let scene = "[simulation]\nduration = 0.05\n[[body]]\nname = \"far\"\nmobilizer = \"slider\"\nmass = 1.0\nq = [1e307]\nu = [1e306]\n";
    std::fs::write(&path, scene).unwrap();
    let mut cmd = exe();
    cmd.arg("run")
        .arg(&path)
        .args(["--plot", "--quiet", "--out"])
        .arg(dir.join("out"));
    ends_in_time(cmd);
}

#[test]
fn curves_with_degenerate_parameters_end() {
    let dir = temp_dir("curves");
    for args in [
        ["--stiffness", "0"],
        ["--stiffness", "1e300"],
        ["--bd", "inf"],
    ] {
        let mut cmd = exe();
        cmd.args(["curves", "smooth-sphere-half-space"])
            .args(args)
            .arg("--out")
            .arg(&dir);
        ends_in_time(cmd);
    }
}
