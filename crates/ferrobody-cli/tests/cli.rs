//! The command-line contract (shared/spec/cli-contract.md): outputs, exit codes, one-line
//! errors for bad input, a failing simulation that keeps its rows, and determinism.

use std::process::Output;

use crate::common;
use common::{assert_clean_error, assert_success, exe, scenes, temp_dir, TestDir};

fn run_scene_text(name: &str, text: &str, extra: &[&str]) -> (Output, TestDir) {
    let dir = temp_dir(name);
    let scene = dir.join("scene.toml");
    std::fs::write(&scene, text).unwrap();
    let out = exe()
        .arg("run")
        .arg(&scene)
        .arg("--out")
        .arg(dir.join("out"))
        .args(extra)
        .output()
        .unwrap();
    (out, dir)
}

const GOOD: &str = r#"
gravity = [0.0, -9.81, 0.0]
[simulation]
duration = 0.5
[integrator]
accuracy = 1e-6
[[body]]
name = "link"
mobilizer = "pin"
mass = 1.0
com = [0.5, 0.0, 0.0]
inertia = [0.0, 0.1, 0.1]
q = [0.3]
"#;

#[test]
fn bad_inputs_give_one_clear_error_line() {
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "toml_syntax",
            GOOD.replace("mass = 1.0", "mass = = 1.0"),
            "scene.toml:10:",
        ),
        (
            "unknown_key",
            GOOD.replace("mass = 1.0", "mass = 1.0\ncolour = \"red\""),
            "unknown field `colour`",
        ),
        (
            "unknown_parent",
            GOOD.replace(
                "mobilizer = \"pin\"",
                "parent = \"nobody\"\nmobilizer = \"pin\"",
            ),
            "no body named 'nobody'",
        ),
        (
            "negative_mass",
            GOOD.replace("mass = 1.0", "mass = -1.0"),
            "mass: must be finite and non-negative",
        ),
        (
            "nan_mass",
            GOOD.replace("mass = 1.0", "mass = nan"),
            "mass: must be finite",
        ),
        ("nan_gravity", GOOD.replace("-9.81", "nan"), "gravity"),
        (
            "bad_inertia",
            GOOD.replace("[0.0, 0.1, 0.1]", "[1.0, 1.0, 3.0]"),
            "inertia",
        ),
        (
            "negative_inertia",
            GOOD.replace("[0.0, 0.1, 0.1]", "[-1.0, 0.1, 0.1]"),
            "inertia",
        ),
        (
            "unknown_mobilizer",
            GOOD.replace("\"pin\"", "\"hinge\""),
            "unknown variant `hinge`",
        ),
        (
            "wrong_q_length",
            GOOD.replace("q = [0.3]", "q = [0.3, 0.1]"),
            "needs 1 values",
        ),
        (
            "missing_duration",
            GOOD.replace("duration = 0.5", ""),
            "missing field `duration`",
        ),
        (
            "zero_accuracy",
            GOOD.replace("accuracy = 1e-6", "accuracy = 0.0"),
            "accuracy",
        ),
    ];
    for (name, text, expect) in cases {
        let (out, _) = run_scene_text(name, &text, &[]);
        assert_clean_error(&out, expect);
    }
    let missing = exe()
        .args(["run", "/definitely/not/here.toml"])
        .output()
        .unwrap();
    assert_clean_error(&missing, "cannot read the file");
    let check = exe()
        .args(["check", "/definitely/not/here.toml"])
        .output()
        .unwrap();
    assert_clean_error(&check, "/definitely/not/here.toml");
}

#[test]
fn run_writes_trajectory_and_summary() {
    let (out, dir) = run_scene_text("good", GOOD, &[]);
    assert_success(&out);
    let csv = std::fs::read_to_string(dir.join("out/trajectory.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&header[..4], &["t", "link.px", "link.py", "link.pz"]);
    assert_eq!(&header[14..17], &["ke", "pe", "energy"]);
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 51, "rows at t = 0, 0.01, ..., 0.5");
    assert_eq!(rows[50][0], 0.5);
    assert!(rows.iter().all(|r| r.len() == header.len()));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/summary.json")).unwrap())
            .unwrap();
    for key in [
        "scene",
        "duration",
        "integrator",
        "accuracy",
        "steps_taken",
        "steps_failed",
        "realizations",
        "jacobians",
        "newton_matrices",
        "wall_time_s",
        "final_energy",
        "warnings",
    ] {
        assert!(summary.get(key).is_some(), "summary.json lacks {key}");
    }
    assert_eq!(summary["status"], "ok");
}

#[test]
fn overrides_apply() {
    let (out, dir) = run_scene_text(
        "override",
        GOOD,
        &["--duration", "0.2", "--accuracy", "1e-4"],
    );
    assert!(out.status.success());
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["end_time"], 0.2);
    assert_eq!(summary["accuracy"], 1e-4);
}

#[test]
fn failing_simulation_keeps_rows_and_exits_nonzero() {
    // Explicit Euler on a very stiff spring is unstable: the state overflows to infinity.
    let text = r#"
[simulation]
duration = 100.0
[integrator]
method = "explicit-euler-fixed"
fixed_step = 0.1
[[body]]
name = "mass"
mobilizer = "slider"
mass = 1.0
inertia = [1.0, 1.0, 1.0]
q = [0.1]
[[force]]
type = "mobility_linear_spring"
body = "mass"
stiffness = 1e12
"#;
    let (out, dir) = run_scene_text("blowup", text, &[]);
    assert_clean_error(&out, "non-finite");
    let csv = std::fs::read_to_string(dir.join("out/trajectory.csv")).unwrap();
    assert!(
        csv.lines().count() > 2,
        "rows written before the failure are kept"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["status"], "failed");
}

#[test]
fn a_run_that_cannot_start_still_writes_its_summary() {
    // A pin about z whose body has no inertia about z: its articulated inertia is singular.
    let text = GOOD
        .replace("com = [0.5, 0.0, 0.0]", "com = [0.0, 0.0, 0.0]")
        .replace("[0.0, 0.1, 0.1]", "[0.1, 0.1, 0.0]");
    let (out, dir) = run_scene_text("singular", &text, &[]);
    assert_clean_error(&out, "singular");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out/summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["status"], "failed");
    assert!(summary["error"].as_str().unwrap().contains("singular"));
}

#[test]
fn runs_are_byte_identical() {
    let dir = temp_dir("determinism");
    let scene = scenes().join("p2_free_tumble.toml");
    let mut files = Vec::new();
    for k in 0..2 {
        let out_dir = dir.join(format!("run{k}"));
        let out = exe()
            .arg("run")
            .arg(&scene)
            .arg("--out")
            .arg(&out_dir)
            .args(["--duration", "3"])
            .output()
            .unwrap();
        assert!(out.status.success());
        files.push(std::fs::read(out_dir.join("trajectory.csv")).unwrap());
    }
    assert!(!files[0].is_empty());
    assert_eq!(files[0], files[1]);
}

#[test]
fn bench_prints_one_json_line() {
    let out = exe()
        .arg("bench")
        .arg(scenes().join("p1_double_pendulum.toml"))
        .args(["--runs", "3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 1);
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(v["scene"], "p1_double_pendulum");
    assert_eq!(v["runs"], 3);
    for key in [
        "wall_median_s",
        "wall_min_s",
        "wall_max_s",
        "steps_taken",
        "steps_failed",
        "realizations",
        "jacobians",
        "newton_matrices",
    ] {
        assert!(v.get(key).is_some(), "bench output lacks {key}");
    }
    assert!(v["wall_min_s"].as_f64().unwrap() <= v["wall_median_s"].as_f64().unwrap());
}

#[test]
fn check_and_demo_succeed() {
    for name in ["p1_double_pendulum.toml", "p2_free_tumble.toml"] {
        let out = exe()
            .arg("check")
            .arg(scenes().join(name))
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("is valid"));
    }
    let dir = temp_dir("demo");
    let out = exe()
        .arg("demo")
        .arg("--out")
        .arg(dir.join("demo"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(dir.join("demo/trajectory.csv").exists() && dir.join("demo/summary.json").exists());
    let contacts = std::fs::read_to_string(dir.join("demo/contacts.csv")).unwrap();
    assert!(
        contacts.lines().count() > 100,
        "the demo's bodies touch the ground"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("contacts.csv") && stdout.contains("trajectory.csv"),
        "{stdout}"
    );
}

#[test]
fn contact_scenes_write_contacts_csv() {
    let dir = temp_dir("contacts");
    let out = exe()
        .arg("run")
        .arg(scenes().join("s1_hc_ball.toml"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert_success(&out);
    let csv = std::fs::read_to_string(dir.join("contacts.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "t,element,body1,body2,px,py,pz,nx,ny,nz,depth,fx,fy,fz,normal_force,friction_force,slip_speed"
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!((r[1], r[2], r[3]), ("contact", "ground", "ball"));
        let depth: f64 = r[10].parse().unwrap();
        assert!(depth > 0.0, "only overlapping pairs are listed");
    }
    // The ball rests on the ground at the end: a contact row at the final time.
    assert!(rows.iter().any(|r| r[0] == "2.0"));
    // A scene without contact elements writes no contacts.csv.
    let dir2 = temp_dir("no-contacts");
    let out = exe()
        .arg("run")
        .arg(scenes().join("p2_free_tumble.toml"))
        .arg("--out")
        .arg(&dir2)
        .args(["--duration", "0.1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(!dir2.join("contacts.csv").exists());
}
