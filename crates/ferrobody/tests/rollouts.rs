//! `rollout::simulate` and `rollout::rollouts`: parallel runs equal serial ones bit for bit,
//! reports follow `Simulation::run`, failures keep their rows.

use ferrobody::io::load_scene;
use ferrobody::rollout::{rollouts, simulate, RecordOptions};
use std::path::Path;

fn s1() -> ferrobody::io::Scene {
    load_scene(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes/s1_hc_ball.toml"))
        .unwrap()
}

/// s1 stopped by a step limit of 50 after a few rows.
fn step_limited_run() -> (ferrobody::io::Scene, ferrobody::rollout::Trajectory) {
    let mut scene = s1();
    scene.integrator.max_steps = 50;
    let run = simulate(
        &scene.model,
        scene.initial_state.clone(),
        scene.integrator,
        &options(1.0),
    )
    .unwrap();
    (scene, run)
}

fn options(duration: f64) -> RecordOptions {
    RecordOptions {
        duration,
        report_interval: Some(0.01),
        step_to_reports: false,
        contacts: true,
        parallel_forces: false,
    }
}

#[test]
fn parallel_rollouts_equal_serial_runs_bit_for_bit() {
    let scene = s1();
    let starts: Vec<_> = (0..16)
        .map(|k| {
            let mut s = scene.initial_state.clone();
            s.q[5] += 0.01 * k as f64; // the ball's height
            s
        })
        .collect();
    let parallel = rollouts(
        &scene.model,
        &starts,
        scene.integrator,
        &options(0.5),
        Some(2),
    )
    .unwrap();
    for (start, run) in starts.iter().zip(&parallel) {
        let run = run.as_ref().unwrap();
        let alone = simulate(&scene.model, start.clone(), scene.integrator, &options(0.5)).unwrap();
        assert!(run.error.is_none());
        assert_eq!(run.time.len(), 51);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&run.q), bits(&alone.q));
        assert_eq!(bits(&run.u), bits(&alone.u));
        assert_eq!(bits(&run.position), bits(&alone.position));
        assert_eq!(run.contacts, alone.contacts);
        assert_eq!(run.stats, alone.stats);
    }
    // Different starts give different runs (the test compares something).
    let a = parallel[0].as_ref().unwrap();
    let b = parallel[15].as_ref().unwrap();
    assert_ne!(a.q, b.q);
    assert!(!a.contacts.report.is_empty(), "the ball lands within 0.5 s");
}

#[test]
fn reports_follow_simulation_run() {
    let scene = s1();
    let run = simulate(
        &scene.model,
        scene.initial_state.clone(),
        scene.integrator,
        &options(0.3),
    )
    .unwrap();
    let mut sim =
        ferrobody::Simulation::new(&scene.model, scene.initial_state.clone(), scene.integrator)
            .unwrap();
    let mut rows: Vec<(f64, Vec<f64>)> = Vec::new();
    sim.run(0.3, 0.01, |_, s, _| {
        rows.push((s.t, s.q.iter().copied().collect()));
        Ok(())
    })
    .unwrap();
    assert_eq!(rows.len(), run.time.len());
    let nq = scene.model.nq();
    for (k, (t, q)) in rows.iter().enumerate() {
        assert_eq!(*t, run.time[k]);
        assert_eq!(q.as_slice(), &run.q[k * nq..(k + 1) * nq]);
    }
    assert_eq!(run.position.len(), run.time.len() * 3);
    assert_eq!(run.quaternion.len(), run.time.len() * 4);
    assert_eq!(run.final_state.t, 0.3);
}

#[test]
fn a_failing_run_keeps_its_rows_and_says_why() {
    let (scene, run) = step_limited_run();
    let error = run.error.expect("the step limit stops it").message();
    assert!(error.contains("step limit"), "{error}");
    assert!(!run.time.is_empty() && run.time.len() < 101);
    let bad = RecordOptions {
        report_interval: Some(-1.0),
        ..options(1.0)
    };
    let e = simulate(
        &scene.model,
        scene.initial_state.clone(),
        scene.integrator,
        &bad,
    )
    .unwrap_err();
    assert!(e.to_string().contains("report_interval"), "{e}");
}

/// The result types serialize (issue 42) with the names of the command line's summary.json
/// and Python (`steps_failed`), the error as its one-line message.
#[test]
fn results_serialize_with_the_command_lines_names() {
    let (scene, run) = step_limited_run();
    let json: serde_json::Value = serde_json::to_value(&run).unwrap();
    for key in [
        "time",
        "q",
        "u",
        "position",
        "kinetic_energy",
        "final_state",
        "stats",
    ] {
        assert!(json.get(key).is_some(), "trajectory lacks {key}");
    }
    let stats = &json["stats"];
    assert_eq!(stats["steps_taken"], run.stats.steps_taken);
    assert_eq!(stats["steps_failed"], run.stats.error_test_failures);
    assert!(stats.get("error_test_failures").is_none());
    let error = json["error"].as_str().expect("the step limit stopped it");
    assert!(error.starts_with("simulation failed at t = ") && error.contains("step limit"));
    assert_eq!(json["final_state"]["t"], run.final_state.t);
    let settings = serde_json::to_value(scene.integrator).unwrap();
    assert_eq!(settings["max_steps"], 50);
}
