//! `ferrobody curves` validates every model's parameters, honours the exponential spring's,
//! and has a default output folder (issue 23, finding 7).

mod common;
use common::{exe, temp_dir};

#[test]
fn bad_parameters_are_refused_for_every_model() {
    let dir = temp_dir("bad");
    for (args, expect) in [
        (vec!["hunt-crossley", "--stiffness", "-5"], "stiffness"),
        (
            vec!["hunt-crossley", "--transition-velocity", "0"],
            "--transition-velocity",
        ),
        (vec!["hunt-crossley", "--radius", "inf"], "--radius"),
        (
            vec!["smooth-sphere-half-space", "--shape", "1", "1", "1"],
            "exponential-spring options",
        ),
        (
            vec!["exponential-spring", "--shape", "0.01", "-1", "1000"],
            "d1",
        ),
    ] {
        let out = exe()
            .arg("curves")
            .args(&args)
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
    }
}

#[test]
fn the_exponential_spring_honours_its_parameters() {
    let table = |extra: &[&str], name: &str| {
        let dir = temp_dir(name);
        let out = exe()
            .args(["curves", "exponential-spring", "--out"])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(dir.join("force_vs_height.csv")).unwrap()
    };
    let default = table(&[], "default");
    let custom = table(
        &[
            "--shape",
            "0.01",
            "1.0",
            "1000",
            "--normal-viscosity",
            "1.0",
        ],
        "custom",
    );
    assert_ne!(default, custom);
    assert!(!custom.contains("NaN"));
}

#[test]
fn curves_write_into_a_default_folder() {
    let dir = temp_dir("default");
    let out = exe()
        .args(["curves", "hunt-crossley"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(dir.join("curves-hunt-crossley/force_vs_depth.csv").exists());
}
