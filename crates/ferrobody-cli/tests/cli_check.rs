//! `ferrobody check` runs exactly `run`'s validation up to the first step and lists everything a
//! scene holds (issue 23, finding 4).

use std::path::{Path, PathBuf};

use crate::common;
use common::exe;

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/scenes")
        .join(name)
}

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrobody-check-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `check` and `run` both refuse, with the same reason.
fn both_refuse(path: &Path, expect: &str) {
    let check = exe().arg("check").arg(path).output().unwrap();
    assert_eq!(
        check.status.code(),
        Some(1),
        "check accepted {}",
        path.display()
    );
    let err = String::from_utf8_lossy(&check.stderr);
    assert!(err.contains(expect), "{err}");
    let out_dir = path.with_extension("out");
    let run = exe()
        .arg("run")
        .arg(path)
        .args(["--quiet", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains(expect));
}

#[test]
fn check_refuses_what_run_refuses() {
    let s4 = std::fs::read_to_string(scene("s4_unilateral_bounce.toml")).unwrap();
    let rk = s4.replacen(
        "method = \"semi-explicit-euler\"",
        "method = \"rk-merson\"",
        1,
    );
    assert_ne!(rk, s4);
    both_refuse(&write("unilateral_rk.toml", &rk), "rigid-contact stepper");
    let massless = "[simulation]\nduration = 0.1\n[[body]]\nname = \"ghost\"\nmobilizer = \"free\"\nmass = 0.0\n";
    both_refuse(&write("massless.toml", massless), "ghost");
}

#[test]
fn check_lists_constraints_unilateral_contacts_and_fixed_steps() {
    let out = exe()
        .arg("check")
        .arg(scene("s5_sphere_on_sphere_rolling.toml"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("constraint: SphereOnSphereContact between 'ground' and 'ball'"),
        "{text}"
    );
    let out = exe()
        .arg("check")
        .arg(scene("u2_pendulum_hard_stops.toml"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("unilateral contact: HardStopUpper"), "{text}");
    assert!(
        text.contains("semi-explicit-euler integrator, fixed step 0.00025 s"),
        "{text}"
    );
    assert!(
        !text.contains("accuracy"),
        "a fixed-step run has no accuracy: {text}"
    );
}

#[test]
fn check_lists_urdf_actuators_and_refuses_them_for_scenes() {
    let panda = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/urdf/panda.urdf");
    let out = exe()
        .arg("check")
        .arg(&panda)
        .args(["--actuators", "position", "--kp", "100"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "actuator 'panda_joint1': position on coordinate 'panda_joint1' of 'panda_link1', gear 1"
        ),
        "{text}"
    );
    // Issue 38, item 5: each body lists its coordinates and speeds by name.
    assert!(
        text.contains("coordinates panda_joint1; speeds panda_joint1/speed"),
        "{text}"
    );
    assert_eq!(text.matches("actuator '").count(), 9, "{text}");
    let refused = exe()
        .arg("check")
        .arg(scene("p1_double_pendulum.toml"))
        .args(["--actuators", "motors"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--actuators is for .urdf robots"));
}
