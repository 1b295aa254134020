//! Interrupts and stale files (issue 23, finding 8): Ctrl-C stops a run at its next report time
//! with its rows flushed and `summary.json` saying `status = "interrupted"`; a re-run into the
//! same folder never leaves an earlier run's files beside its own.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::{exe, temp_dir};

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scenes")
        .join(name)
}

#[test]
fn ctrl_c_keeps_the_rows_and_says_interrupted() {
    let dir = temp_dir("ctrlc");
    // s1 for 100 000 s: hours of work, stopped after a moment.
    let mut child = exe()
        .arg("run")
        .arg(scene("s1_hc_ball.toml"))
        .args(["--quiet", "--duration", "100000", "--out"])
        .arg(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let csv = dir.join("trajectory.csv");
    let start = Instant::now();
    while std::fs::metadata(&csv).map_or(0, |m| m.len()) < 10_000 {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the run wrote no rows"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "Ctrl-C did not stop the run"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(1));
    let summary = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(summary.contains("\"status\": \"interrupted\""), "{summary}");
    let rows = std::fs::read_to_string(&csv).unwrap().lines().count();
    assert!(rows > 10, "the rows so far are kept");
}

#[test]
fn a_rerun_removes_the_earlier_runs_files() {
    let dir = temp_dir("stale");
    let run = |extra: &[&str]| {
        let out = exe()
            .arg("run")
            .arg(scene("s1_hc_ball.toml"))
            .args(["--quiet", "--duration", "0.05", "--out"])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
    };
    run(&["--plot", "--replay"]);
    assert!(dir.join("heights.svg").exists() && dir.join("replay.html").exists());
    run(&[]);
    for stale in [
        "heights.svg",
        "speeds.svg",
        "energy.svg",
        "replay.glb",
        "replay.html",
    ] {
        assert!(
            !dir.join(stale).exists(),
            "{stale} of the earlier run is still there"
        );
    }
    assert!(dir.join("trajectory.csv").exists() && dir.join("summary.json").exists());
}
