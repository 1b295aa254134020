//! `ferrobody run|check` on a scene that includes a URDF robot (`[[robot]]`): what the robot
//! leaves out is reported once on stderr and by `check`, `--strict` refuses it, and the run's
//! contact rows are the robot's feet.

use std::path::{Path, PathBuf};

use crate::common;
use common::{exe, temp_dir};

fn scene() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes/anymal_stand.toml")
}

#[test]
fn a_robot_scene_runs_reports_what_it_leaves_out_and_strict_refuses_it() {
    let dir = temp_dir("run");
    let out = exe()
        .arg("run")
        .arg(scene())
        .args(["--out", dir.to_str().unwrap(), "--duration", "0.3"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(err.matches("not simulated: ").count(), 1, "{err}");
    assert!(
        err.contains("13 collision box (robot 'anymal'), 24 collision cylinder (robot 'anymal')"),
        "{err}"
    );
    // By 0.3 s the robot has landed on its four feet: contact rows name their bodies.
    let contacts = std::fs::read_to_string(dir.join("contacts.csv")).unwrap();
    for foot in ["LF_SHANK", "RF_SHANK", "LH_SHANK", "RH_SHANK"] {
        assert!(contacts.contains(&format!(",ground,{foot},")), "{foot}");
    }
    let strict = exe()
        .arg("run")
        .arg(scene())
        .args(["--strict", "--out", dir.join("b").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(strict.status.code(), Some(1));
    let err = String::from_utf8_lossy(&strict.stderr);
    assert!(
        err.contains("--strict: the scene's robots have elements that are not simulated"),
        "{err}"
    );
    let check = exe().arg("check").arg(scene()).output().unwrap();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        text.contains("body 'LF_SHANK': pin mobilizer on 'LF_THIGH'")
            && text.contains("not simulated: 13 collision box (robot 'anymal')"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
