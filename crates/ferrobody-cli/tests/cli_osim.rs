//! `ferrobody run|check|bench` on OpenSim models: outputs (states.sto in OpenSim's storage
//! format, body columns named after the OpenSim bodies), left-out elements and `--strict`,
//! one-line errors, a closed stdout that ends the program quietly, and which models `check`
//! says run in two dimensions.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common;
use common::{assert_clean_error, assert_success, exe, temp_dir};

fn model(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/opensim")
        .join(name)
}

#[test]
fn run_writes_states_sto_and_named_body_columns() {
    let dir = temp_dir("run");
    let out = exe()
        .arg("run")
        .arg(model("osim_leg_hc.osim"))
        .args([
            "--out",
            dir.to_str().unwrap(),
            "--duration",
            "0.2",
            "--report-interval",
            "0.05",
        ])
        .output()
        .unwrap();
    assert_success(&out);
    let sto = std::fs::read_to_string(dir.join("states.sto")).unwrap();
    let lines: Vec<&str> = sto.lines().collect();
    assert_eq!(
        &lines[..6],
        [
            "states",
            "version=1",
            "nRows=5",
            "nColumns=13",
            "inDegrees=no",
            "endheader"
        ]
    );
    let header: Vec<&str> = lines[6].split('\t').collect();
    assert_eq!(header[0], "time");
    assert_eq!(
        header[1],
        "/jointset/ground_pelvis/ground_pelvis_coord_0/value"
    );
    assert_eq!(
        header[2],
        "/jointset/ground_pelvis/ground_pelvis_coord_0/speed"
    );
    assert_eq!(lines.len(), 7 + 5);
    let first: Vec<f64> = lines[7].split('\t').map(|v| v.parse().unwrap()).collect();
    // ground_pelvis_coord_2 (pelvis height) starts at its default value 0.93.
    assert_eq!((first[0], first[5]), (0.0, 0.93));
    let csv = std::fs::read_to_string(dir.join("trajectory.csv")).unwrap();
    assert!(csv.lines().next().unwrap().contains("pelvis.px,pelvis.py"));
    let summary = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(
        summary.contains("\"accuracy\": 1e-5") || summary.contains("\"accuracy\": 0.00001"),
        "{summary}"
    );
}

/// A model with a force of a class OpenSim itself does not know (the BodyDragExample plugin's
/// `BodyDragForce`): left out and listed, as OpenSim skips it.
fn with_left_out_element(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(model("osim_leg_hc.osim")).unwrap();
    let text = text.replacen(
        "<ForceSet name=\"forceset\">\n\t\t\t<objects>",
        "<ForceSet name=\"forceset\">\n\t\t\t<objects>\n\t\t\t\t<BodyDragForce name=\"hip_motor\"><body_name>pelvis</body_name></BodyDragForce>",
        1,
    );
    assert!(text.contains("hip_motor"));
    let path = dir.join("leg_with_actuator.osim");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn left_out_elements_are_reported_and_strict_refuses_them() {
    let dir = temp_dir("strict");
    let path = with_left_out_element(&dir);
    let out = exe()
        .arg("run")
        .arg(&path)
        .args([
            "--out",
            dir.join("a").to_str().unwrap(),
            "--duration",
            "0.02",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.matches("not simulated: 1 BodyDragForce").count(),
        1,
        "{err}"
    );
    let out = exe()
        .arg("run")
        .arg(&path)
        .args(["--strict", "--out", dir.join("b").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--strict") && err.contains("BodyDragForce"),
        "{err}"
    );
    let check = exe().arg("check").arg(&path).output().unwrap();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        text.contains("not simulated: 1 BodyDragForce") && text.contains("joint 'knee': PinJoint"),
        "{text}"
    );
}

#[test]
fn bad_model_is_one_line_error_with_exit_code_1() {
    let dir = temp_dir("bad");
    let text = std::fs::read_to_string(model("osim_leg_hc.osim"))
        .unwrap()
        .replacen("<mass>3</mass>", "<mass>nan</mass>", 1);
    let path = dir.join("bad.osim");
    std::fs::write(&path, text).unwrap();
    let out = exe()
        .arg("run")
        .arg(&path)
        .args(["--out", dir.join("o").to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("/bodyset/shank") && err.contains("bad.osim:"),
        "{err}"
    );
}

/// `check` says when a model takes the two-dimensional path: the planar leg does, the ball on
/// a FreeJoint does not.
#[test]
fn check_tells_which_models_run_in_two_dimensions() {
    let line = "every body moves in Ground's xy plane";
    for (name, planar) in [("osim_leg_hc.osim", true), ("osim_ball_smooth.osim", false)] {
        let out = exe().arg("check").arg(model(name)).output().unwrap();
        assert_success(&out);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.contains(line), planar, "{name}: {text}");
    }
}

#[test]
fn bench_and_integrator_options_accept_osim_models() {
    let out = exe()
        .arg("bench")
        .arg(model("osim_ball_smooth.osim"))
        .args([
            "--runs",
            "1",
            "--duration",
            "0.1",
            "--accuracy",
            "1e-4",
            "--integrator",
            "rk-merson",
        ])
        .output()
        .unwrap();
    assert_success(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"scene\":\"ball_smooth\""));
    let out = exe()
        .arg("bench")
        .arg(model("osim_ball_smooth.osim"))
        .args(["--integrator", "rk9"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown method 'rk9'"));
}

#[test]
fn a_closed_stdout_ends_the_program_quietly() {
    // 3000 bodies: `check` prints far more than a pipe buffer (64 KiB) holds, so most of its
    // lines are written after the reader has gone.
    let dir = temp_dir("pipe");
    let mut scene = String::from("[simulation]\nduration = 0.1\n");
    for i in 0..3000 {
        scene.push_str(&format!(
            "[[body]]\nname = \"ball_with_a_long_name_{i}\"\nmobilizer = \"free\"\nmass = 1.0\ninertia = [0.1, 0.1, 0.1]\n"
        ));
    }
    let path = dir.join("many.toml");
    std::fs::write(&path, scene).unwrap();
    let mut child = exe()
        .arg("check")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader is dropped here: every later line goes to a closed pipe.
    let out = child.wait_with_output().unwrap();
    assert!(first.contains("many"), "{first}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.status.success(), "{:?}: {err}", out.status);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 37: `check` lists a muscle's path points and wrap objects; `run` writes the muscle
/// states into states.sto under OpenSim's names.
#[test]
fn check_and_run_describe_and_record_muscles() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/opensim/muscles/mus_pendulum_wrap.osim");
    let out = exe().arg("check").arg(&model).output().unwrap();
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("path: point on 'base', moving point on 'arm', conditional point on 'arm', point on 'arm'"),
        "{text}"
    );
    assert!(text.contains("wraps over 'pivot_cyl' on 'base'"), "{text}");
    assert!(
        text.contains("every element of the model is simulated"),
        "{text}"
    );
    let dir = temp_dir("muscle_run");
    let out = exe()
        .arg("run")
        .arg(&model)
        .args(["--duration", "0.05", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_success(&out);
    let sto = std::fs::read_to_string(dir.join("states.sto")).unwrap();
    let header = sto.lines().find(|l| l.starts_with("time")).unwrap();
    assert!(
        header.ends_with("/forceset/lifter/activation\t/forceset/lifter/normalized_tendon_force"),
        "{header}"
    );
    // muscles.csv: one row per muscle per report, its first row OpenSim's equilibrated state.
    let csv = std::fs::read_to_string(dir.join("muscles.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "t,muscle,excitation,activation,fiber_length,fiber_velocity,tendon_force,length,lengthening_speed"
    );
    assert_eq!(lines.len(), 1 + 6, "six reports of one muscle");
    let first: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(&first[..2], &["0.0", "lifter"]);
    let reference = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../testdata/opensim/muscles/mus_pendulum_wrap.csv"),
    )
    .unwrap();
    let mut rows = reference.lines();
    let names: Vec<&str> = rows.next().unwrap().split(',').collect();
    let values: Vec<f64> = rows
        .next()
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    let at = |col: &str| values[names.iter().position(|n| *n == col).unwrap()];
    for (k, col) in ["excitation", "activation", "fiber_length"]
        .iter()
        .enumerate()
    {
        let ours: f64 = first[2 + k].parse().unwrap();
        // The equilibrated state agrees with OpenSim's to round-off (tests/opensim_muscles.rs).
        assert!(
            (ours - at(&format!("lifter.{col}"))).abs() < 1e-12,
            "{col}: {ours}"
        );
    }
    let length: f64 = first[7].parse().unwrap();
    assert!((length - at("lifter.length")).abs() < 1e-12);
}

/// `--controls FILE` drives a muscle as OpenSim's forward tool does (linear interpolation of
/// the file's rows): the tug of war with its Millard muscle's PiecewiseLinear controller
/// replaced by a .sto of the same knots runs exactly as the original; bad files and names are
/// one-line errors naming the file and line.
#[test]
fn a_controls_file_drives_muscles_as_the_controller_it_replaces() {
    let dir = temp_dir("controls");
    let original = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/opensim/muscles/mus_tug_of_war.osim");
    let text = std::fs::read_to_string(&original).unwrap();
    let text = text
        .replace(
            "<socket_actuators>/forceset/left /forceset/right</socket_actuators>",
            "<socket_actuators>/forceset/right</socket_actuators>",
        )
        .replace(
            "<PiecewiseLinearFunction>\n\t\t\t\t\t\t\t\t<x> 0 0.5 1 1.5 2</x>\n\t\t\t\t\t\t\t\t<y> 0.1 0.6 0.2 0.4 0.1</y>\n\t\t\t\t\t\t\t</PiecewiseLinearFunction>",
            "",
        );
    assert!(!text.contains("PiecewiseLinearFunction"));
    let edited = dir.join("tug_right_only.osim");
    std::fs::write(&edited, text).unwrap();
    let controls = dir.join("controls.sto");
    std::fs::write(
        &controls,
        "controls\nversion=1\nnRows=5\nnColumns=2\ninDegrees=no\nendheader\ntime\t/forceset/left\n0\t0.1\n0.5\t0.6\n1\t0.2\n1.5\t0.4\n2\t0.1\n",
    )
    .unwrap();
    let run = |model: &Path, controls: Option<&Path>, out: &str| {
        let mut cmd = exe();
        cmd.arg("run")
            .arg(model)
            .args(["--duration", "0.6", "--quiet", "--out"]);
        cmd.arg(dir.join(out));
        if let Some(c) = controls {
            cmd.arg("--controls").arg(c);
        }
        cmd.output().unwrap()
    };
    assert_success(&run(&original, None, "a"));
    assert_success(&run(&edited, Some(&controls), "b"));
    let a = std::fs::read_to_string(dir.join("a/muscles.csv")).unwrap();
    let b = std::fs::read_to_string(dir.join("b/muscles.csv")).unwrap();
    assert_eq!(a, b, "the controls file reproduces the controller's run");
    // Without the file the left muscle has no controller: zero excitation, another run.
    assert_success(&run(&edited, None, "c"));
    let c = std::fs::read_to_string(dir.join("c/muscles.csv")).unwrap();
    assert_ne!(a, c);
    let bad = |body: &str, expect: &str| {
        std::fs::write(&controls, body).unwrap();
        let out = run(&edited, Some(&controls), "d");
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expect), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    };
    bad(
        "time\tnobody\n0\t1\n",
        "controls.sto:1: column 'nobody' names no simulated muscle",
    );
    bad(
        "time\tright\n0\t1\n",
        "controls.sto:1: actuator 'right' is already driven",
    );
    bad(
        "time\tleft\n0\t0.1\n1\tnan\n",
        "controls.sto:3: column 'left' is NaN",
    );
}

/// `check` lists the excitation controls: the muscles no controller drives, by name, as they
/// stand in the model's control vector (issue 37, item 4).
#[test]
fn check_lists_the_excitation_controls() {
    let model =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/opensim/models/arm26.osim");
    let out = exe().arg("check").arg(&model).output().unwrap();
    assert_success(&out);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "6 excitation controls (muscles and actuators without a controller): \
             TRIlong, TRIlat, TRImed, BIClong, BICshort, BRA"
        ),
        "{text}"
    );
}

/// `--external-loads` (OpenSim's forward tool's external loads file): gait10dof18musc runs
/// under its pipeline's ground reaction forces and moves otherwise than without them; a force
/// on a body the model lacks, and an identifier matching other than three columns, are
/// one-line errors naming the loads file and the line.
#[test]
fn external_loads_are_applied_and_bad_ones_are_one_line_errors() {
    let dir = temp_dir("external_loads");
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/opensim/models");
    let model = models.join("gait10dof18musc.osim");
    let loads = models.join("gait10dof18musc_grf_loads.xml");
    let run = |loads: Option<&Path>, out: &str| {
        let mut cmd = exe();
        cmd.arg("run")
            .arg(&model)
            .args(["--duration", "0.02", "--quiet", "--out"])
            .arg(dir.join(out));
        if let Some(l) = loads {
            cmd.arg("--external-loads").arg(l);
        }
        cmd.output().unwrap()
    };
    assert_success(&run(Some(&loads), "with"));
    assert_success(&run(None, "without"));
    let with = std::fs::read_to_string(dir.join("with/trajectory.csv")).unwrap();
    let without = std::fs::read_to_string(dir.join("without/trajectory.csv")).unwrap();
    assert_ne!(with, without, "the ground reaction forces move the model");
    let text = std::fs::read_to_string(&loads).unwrap();
    std::fs::copy(
        models.join("gait10dof18musc_grf_loads.mot"),
        dir.join("gait10dof18musc_grf_loads.mot"),
    )
    .unwrap();
    let bad = |edited: String, expect: &str| {
        let file = dir.join("loads.xml");
        std::fs::write(&file, edited).unwrap();
        assert_clean_error(&run(Some(&file), "bad"), expect);
    };
    bad(
        text.replace("<applied_to_body>calcn_l<", "<applied_to_body>heel_l<"),
        "loads.xml:23: ExternalForce 'left': applied_to_body 'heel_l' is not a frame of the model",
    );
    bad(
        text.replace(
            "<point_identifier>1_ground_force_p<",
            "<point_identifier>1_ground_force_<",
        ),
        "loads.xml:23: ExternalForce 'left': identifier '1_ground_force_' must match exactly 3 columns of the data file, found 6",
    );
}
