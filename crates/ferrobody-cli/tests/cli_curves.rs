//! `ferrobody curves`: tables and plots for every landed contact model, parameter overrides,
//! every model's parameters validated (the exponential spring's honoured) and a default
//! output folder (issue 23, finding 7).

use crate::common;
use common::{assert_clean_error, assert_success, exe, temp_dir};

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
        assert_success(&out);
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

#[test]
fn curves_write_tables_and_plots() {
    let dir = temp_dir("curves");
    let out = exe()
        .args(["curves", "smooth-sphere-half-space", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_success(&out);
    let depth = std::fs::read_to_string(dir.join("force_vs_depth.csv")).unwrap();
    assert_eq!(
        depth.lines().next().unwrap(),
        "x,fy_smooth_v0,fy_smooth_vp05,fy_smooth_vm05,pe_smooth"
    );
    assert_eq!(depth.lines().count(), 602);
    let rate = std::fs::read_to_string(dir.join("force_vs_rate.csv")).unwrap();
    assert_eq!(rate.lines().next().unwrap(), "v,fy_smooth_x0.1");
    assert_eq!(rate.lines().count(), 402);
    for svg in [
        "hertz_force.svg",
        "hunt_crossley_force.svg",
        "energy_error.svg",
    ] {
        let text = std::fs::read_to_string(dir.join(svg)).unwrap();
        assert!(
            text.starts_with("<svg") && text.contains("(N)"),
            "{svg} has an axis with units"
        );
    }
    // Parameters change the curves; a bad value or model is an error.
    let stiffer = temp_dir("curves-stiff");
    let out = exe()
        .args([
            "curves",
            "smooth-sphere-half-space",
            "--stiffness",
            "2e6",
            "--out",
        ])
        .arg(&stiffer)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_ne!(
        std::fs::read_to_string(stiffer.join("force_vs_depth.csv")).unwrap(),
        depth
    );
    let bad = exe()
        .args(["curves", "smooth-sphere-half-space", "--cf", "-1", "--out"])
        .arg(&stiffer)
        .output()
        .unwrap();
    assert_clean_error(&bad, "constant_contact_force");
    let unknown = exe()
        .args(["curves", "nonsense", "--out"])
        .arg(&stiffer)
        .output()
        .unwrap();
    assert_clean_error(&unknown, "unknown contact model");
}

#[test]
fn every_landed_contact_model_has_curves() {
    let cases = [
        (
            "hunt-crossley",
            vec![
                ("force_vs_depth.csv", "x,fn_v0,fn_vp05,fn_vm05,pe"),
                ("friction_vs_slip.csv", "slip,mu_hollars,mu_stribeck"),
            ],
            vec!["normal_force.svg", "friction.svg"],
        ),
        (
            "exponential-spring",
            vec![("force_vs_height.csv", "pz,fz_elastic,fz_vm05,fz_vp05")],
            vec!["normal_force.svg"],
        ),
        (
            "smooth-sphere-half-space",
            vec![("friction_vs_slip.csv", "slip,mu_hollars,mu_stribeck")],
            vec!["friction.svg"],
        ),
    ];
    for (model, tables, plots) in cases {
        let dir = temp_dir(&format!("curves-{model}"));
        let out = exe()
            .args(["curves", model, "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{model}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for (file, header) in tables {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            assert_eq!(text.lines().next().unwrap(), header, "{model}: {file}");
            assert!(text.lines().count() > 100);
        }
        for svg in plots {
            assert!(
                std::fs::read_to_string(dir.join(svg))
                    .unwrap()
                    .contains("(m"),
                "{model}: {svg} axis units"
            );
        }
    }
}
