//! `ferrobody optimize`: Moco's sliding mass solved from its problem file into Moco's .sto,
//! CSV, plots and a summary; a solve that does not converge is one error line with IPOPT's
//! status and its last iterate kept apart from any solution (issue 40).

use crate::common;
use common::{assert_clean_error, assert_success, exe, temp_dir};
use std::path::{Path, PathBuf};

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/optimal-control")
        .join(name)
}

#[test]
fn sliding_mass_solution_files() {
    let dir = temp_dir("optimize-sliding-mass");
    let out = exe()
        .arg("optimize")
        .arg(example("sliding_mass.toml"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert_success(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Solve_Succeeded: objective 0.4001"),
        "{stdout}"
    );
    // Progress: a line per iteration on stderr.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("inf_pr"), "{stderr}");
    let sto = std::fs::read_to_string(dir.join("solution.sto")).unwrap();
    assert!(sto.contains("num_states=2\n") && sto.contains("status=Solve_Succeeded\n"));
    let labels = "time\t/slider/position/value\t/slider/position/speed\t/actuator";
    assert!(sto.contains(labels), "{sto}");
    // 2N + 1 = 101 grid points after the labels.
    let rows = sto.split(labels).nth(1).unwrap().trim().lines().count();
    assert_eq!(rows, 101);
    for file in [
        "solution.csv",
        "states.svg",
        "controls.svg",
        "summary.json",
        "replay.html",
        "replay.glb",
    ] {
        assert!(dir.join(file).metadata().unwrap().len() > 0, "{file}");
    }
}

#[test]
fn unconverged_solve_is_an_error_with_the_status() {
    let dir = temp_dir("optimize-unconverged");
    let text = std::fs::read_to_string(example("double_pendulum_swingup.toml")).unwrap();
    let problem = dir.join("few_iterations.toml");
    let text = text
        .replace("max_iterations = 3000", "max_iterations = 2")
        .replace(
            "model = \"double_pendulum_swingup.osim\"",
            &format!("model = {:?}", example("double_pendulum_swingup.osim")),
        );
    std::fs::write(&problem, text).unwrap();
    let out = exe()
        .arg("optimize")
        .arg(&problem)
        .arg("--out")
        .arg(dir.join("out"))
        .arg("--quiet")
        .output()
        .unwrap();
    assert_clean_error(&out, "Maximum_Iterations_Exceeded after 2 iterations");
    assert!(dir.join("out/unsolved_iterate.sto").exists());
    assert!(!dir.join("out/solution.sto").exists());
}

#[test]
fn missing_problem_file_is_one_line() {
    let dir = temp_dir("optimize-missing");
    let out = exe()
        .arg("optimize")
        .arg(dir.join("nowhere.toml"))
        .arg("--out")
        .arg(dir.join("out"))
        .output()
        .unwrap();
    assert_clean_error(&out, "nowhere.toml: No such file or directory");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("No such file").count(), 1, "{stderr}");
}
