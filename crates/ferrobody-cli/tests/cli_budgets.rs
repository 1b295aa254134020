//! Run budgets (issue 22): a step limit (scene key `integrator.max_steps`, `--max-steps`), a
//! wall-time limit (`--max-wall-time`) and a step-size floor each stop a run with one error line
//! that names the limit and the time, keep the rows written, and leave `summary.json` with
//! `status = "failed"` and the reason.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common;
use common::{exe, temp_dir};

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scenes")
        .join(name)
}

/// Runs s1 with `extra`, expects the stop, and checks the files; returns the summary.
fn stopped(name: &str, scene_path: &Path, extra: &[&str], expect: &str) -> String {
    let dir = temp_dir(name);
    let out: Output = exe()
        .arg("run")
        .arg(scene_path)
        .args(["--quiet", "--out", dir.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{name}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(expect) && err.contains("failed at t = "),
        "{err}"
    );
    let rows = std::fs::read_to_string(dir.join("trajectory.csv"))
        .unwrap()
        .lines()
        .count();
    assert!(rows >= 2, "the header and the first row are kept");
    let summary = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(
        summary.contains("\"status\": \"failed\"") && summary.contains(expect),
        "{summary}"
    );
    summary
}

#[test]
fn the_step_limit_stops_a_run_and_keeps_its_rows() {
    let summary = stopped(
        "steps",
        &scene("s1_hc_ball.toml"),
        &["--max-steps", "50"],
        "step limit reached: 50 steps",
    );
    assert!(summary.contains("\"steps_taken\": 50"), "{summary}");
}

#[test]
fn the_scene_key_sets_the_step_limit() {
    let dir = temp_dir("key");
    let text = std::fs::read_to_string(scene("s1_hc_ball.toml")).unwrap();
    let text = text.replacen("[integrator]\n", "[integrator]\nmax_steps = 7\n", 1);
    let path = dir.join("s1.toml");
    std::fs::write(&path, text).unwrap();
    stopped("key_run", &path, &[], "step limit reached: 7 steps");
}

#[test]
fn the_wall_time_limit_stops_a_run() {
    stopped(
        "wall",
        &scene("s1_hc_ball.toml"),
        &["--max-wall-time", "0"],
        "wall-time limit reached",
    );
}

#[test]
fn a_step_below_the_floor_stops_a_run() {
    // No accuracy can be met this tightly in f64: the step shrinks until the floor stops it.
    stopped(
        "floor",
        &scene("s1_hc_ball.toml"),
        &["--accuracy", "1e-300"],
        "step size fell below 1e-12 s",
    );
}

/// A ball started 0.4 m deep in the ground: `check` and `run` say so, summary.json lists the
/// warning, and the stop at the step limit names it as the likely cause.
#[test]
fn deep_initial_contact_is_named_as_the_likely_cause() {
    let dir = temp_dir("deep");
    let text = std::fs::read_to_string(scene("s1_hc_ball.toml")).unwrap();
    let text = text.replacen(
        "q = [1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0]",
        "q = [1.0, 0.0, 0.0, 0.0, 0.0, -0.3, 0.0]",
        1,
    );
    let path = dir.join("deep.toml");
    std::fs::write(&path, text).unwrap();
    let check = exe().arg("check").arg(&path).output().unwrap();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        text.contains("bodies start in deep contact") && text.contains("0.400 m"),
        "{text}"
    );
    let out = exe()
        .arg("run")
        .arg(&path)
        .args([
            "--quiet",
            "--max-steps",
            "100",
            "--out",
            dir.join("o").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "a warning and the error: {err}");
    assert!(
        lines[0].starts_with("warning: ") && lines[0].contains("deep contact"),
        "{err}"
    );
    assert!(
        lines[1].contains("step limit reached") && lines[1].contains("deep contact"),
        "{err}"
    );
    let summary = std::fs::read_to_string(dir.join("o/summary.json")).unwrap();
    assert!(
        summary.contains("bodies start in deep contact"),
        "{summary}"
    );
}

/// Physically impossible outcomes are not reported as plain successes (issue 23, finding 3):
/// an accuracy above 1 is refused, and energy that grows by orders of magnitude in a model
/// without energy sources is a warning on stderr and in summary.json.
#[test]
fn impossible_outcomes_are_not_silent_successes() {
    let dir = temp_dir("impossible");
    let loose = exe()
        .arg("run")
        .arg(scene("s1_hc_ball.toml"))
        .args([
            "--quiet",
            "--accuracy",
            "10",
            "--out",
            dir.join("a").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(loose.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&loose.stderr).contains("--accuracy must be in (0, 1]"));
    let text = std::fs::read_to_string(scene("s1_hc_ball.toml")).unwrap();
    let text = text
        .replacen("method = \"rk-merson\"", "method = \"rk4\"", 1)
        .replacen("stiffness = 1e6", "stiffness = 1e30", 1);
    let path = dir.join("stiff.toml");
    std::fs::write(&path, text).unwrap();
    let out = exe()
        .arg("run")
        .arg(&path)
        .args(["--quiet", "--out", dir.join("b").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning:") && err.contains("the energy rose"),
        "{err}"
    );
    let summary = std::fs::read_to_string(dir.join("b/summary.json")).unwrap();
    assert!(summary.contains("the energy rose from 5.455"), "{summary}");
}

/// Issue 22's third input: s6 with its ground half space stripped of its rotation, so the
/// chain starts 2.55 m inside it. The error-controlled integrator crawls at ~3e-9 s steps;
/// under the default budgets the run used to grind for ten minutes towards the 1e8-step
/// limit. The pace check stops it after its first window (about 0.5 s of wall time in a
/// release build), with the rows kept; the watchdog is issue 22's 20 s bound.
#[test]
fn a_run_that_cannot_finish_within_the_step_limit_stops_early() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let dir = temp_dir("pace");
    let text = std::fs::read_to_string(scene("s6_chain_contact.toml")).unwrap();
    let stripped: String = text
        .lines()
        .filter(|l| !l.contains("rotation"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(stripped.len(), text.len(), "the half space had a rotation");
    let path = dir.join("sunk.toml");
    std::fs::write(&path, stripped).unwrap();
    let mut child = exe()
        .arg("run")
        .arg(&path)
        .args(["--quiet", "--out", dir.join("o").to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join("stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("still running after 20 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(1));
    let err = std::fs::read_to_string(dir.join("stderr.txt")).unwrap();
    assert!(
        err.contains("step limit would be reached") && err.contains("deep contact"),
        "{err}"
    );
    let summary = std::fs::read_to_string(dir.join("o/summary.json")).unwrap();
    assert!(summary.contains("\"status\": \"failed\""), "{summary}");
    let rows = std::fs::read_to_string(dir.join("o/trajectory.csv"))
        .unwrap()
        .lines()
        .count();
    assert!(rows >= 2, "the header and the first row are kept");
}
