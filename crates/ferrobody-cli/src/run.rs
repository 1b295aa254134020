//! `ferrobody run`: simulate a scene, streaming `trajectory.csv`, then write `summary.json`.

use crate::recorder::Recorder;
pub use crate::run_outputs::Extras;
use crate::run_outputs::{
    remove_earlier_outputs, write_plots_and_replay, Progress, Reporter, Writers,
};
use anyhow::{Context, Result};
use ferrobody::io::osim::OsimInfo;
use ferrobody::io::Scene;
use ferrobody::Simulation;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Command-line values that replace the scene's.
#[derive(Default)]
pub struct Overrides {
    pub duration: Option<f64>,
    pub accuracy: Option<f64>,
    pub report_interval: Option<f64>,
    pub integrator: Option<String>,
    /// .osim models: fail if anything is left out.
    pub strict: bool,
    pub max_steps: Option<u64>,
    /// .urdf models: a Free root joint instead of a weld.
    pub floating_base: bool,
    /// .urdf models: the actuators on the joints.
    pub actuators: ferrobody::io::urdf::UrdfActuators,
    /// .osim models: a controls file (`--controls`).
    pub controls: Option<std::path::PathBuf>,
    /// .osim models: an external loads file (`--external-loads`).
    pub external_loads: Option<std::path::PathBuf>,
}

/// What a run did; written as `summary.json`.
#[derive(Serialize)]
pub struct Summary {
    pub scene: String,
    pub description: String,
    pub status: &'static str,
    pub error: Option<String>,
    pub duration: f64,
    pub end_time: f64,
    pub integrator: &'static str,
    pub accuracy: f64,
    /// The integrator's counters (`steps_taken`, `steps_attempted`, `steps_failed`,
    /// `realizations`, the implicit method's `jacobians` and `newton_matrices`), as the
    /// library serializes them.
    #[serde(flatten)]
    pub stats: ferrobody::integrators::Stats,
    pub wall_time_s: f64,
    pub report_rows: u64,
    pub contact_rows: u64,
    pub initial_energy: f64,
    pub final_energy: f64,
    pub warnings: Vec<String>,
    pub files: Vec<String>,
}

impl Summary {
    /// The summary of a run that could not start.
    fn failed_at_start(scene: &Scene, error: &str) -> Self {
        Summary {
            scene: scene.name.clone(),
            description: scene.description.clone(),
            status: "failed",
            error: Some(error.to_string()),
            duration: scene.duration,
            end_time: scene.initial_state.t,
            integrator: scene.integrator.kind.name(),
            accuracy: scene.integrator.accuracy,
            stats: ferrobody::integrators::Stats::default(),
            wall_time_s: 0.0,
            report_rows: 0,
            contact_rows: 0,
            initial_energy: f64::NAN,
            final_energy: f64::NAN,
            warnings: Vec::new(),
            files: Vec::new(),
        }
    }
}

fn write_summary(out: &Path, summary: &Summary) -> Result<()> {
    let json_path = out.join("summary.json");
    std::fs::write(&json_path, serde_json::to_string_pretty(summary)? + "\n")
        .with_context(|| format!("cannot write {}", json_path.display()))
}

pub fn run_command(
    path: &Path,
    out: Option<PathBuf>,
    overrides: Overrides,
    extras: Extras,
) -> Result<()> {
    if let Some(w) = extras.max_wall_time {
        anyhow::ensure!(
            w.is_finite() && w >= 0.0,
            "--max-wall-time must be finite and non-negative, got {w}"
        );
    }
    let loaded = crate::model_file::load(
        path,
        &crate::model_file::LoadOptions {
            strict: overrides.strict,
            show_progress: !extras.quiet,
            floating_base: overrides.floating_base,
            actuators: overrides.actuators,
            controls: overrides.controls.as_deref(),
            external_loads: overrides.external_loads.as_deref(),
        },
    )?;
    let mut scene = loaded.scene;
    apply_overrides(&mut scene, &overrides)?;
    if !scene.left_out.is_empty() {
        eprintln!(
            "note: {}: not simulated: {}",
            path.display(),
            crate::model_file::counts(&scene.left_out)
        );
    }
    for w in loaded.osim.iter().flat_map(|info| &info.warnings) {
        eprintln!("warning: {w}");
    }
    let out = out.unwrap_or_else(|| default_out_dir(&scene.name));
    let summary = simulate_to_files(&scene, &out, extras, loaded.osim.as_ref())?;
    out!(
        "{}: simulated {} s in {} steps ({} rejected), {} force evaluations, {:.3} s wall time; energy {} J -> {} J",
        summary.scene,
        summary.end_time,
        summary.stats.steps_taken,
        summary.stats.error_test_failures,
        summary.stats.realizations,
        summary.wall_time_s,
        fmt_energy(summary.initial_energy),
        fmt_energy(summary.final_energy),
    );
    let mut written = vec![format!("trajectory.csv ({} rows)", summary.report_rows)];
    if scene.model.has_contact() {
        written.push(format!("contacts.csv ({} rows)", summary.contact_rows));
    }
    let muscles = ferrobody::io::muscles_csv::muscle_count(&scene.model);
    if muscles > 0 {
        written.push(format!(
            "muscles.csv ({} rows)",
            summary.report_rows * muscles as u64
        ));
    }
    if loaded.osim.is_some() {
        written.push(format!("states.sto ({} rows)", summary.report_rows));
    }
    written.push("summary.json".to_string());
    written.extend(summary.files.iter().cloned());
    out!("wrote into {}/: {}", out.display(), written.join(", "));
    Ok(())
}

/// The output folder when `--out` is not given: the scene's name made one safe path component
/// in the working directory (a scene file from someone else must not choose where files go:
/// `../x` or `/abs` would write outside it). Characters other than letters, digits, `-`, `_`
/// and `.` become `_`, and leading dots are dropped.
pub fn default_out_dir(name: &str) -> PathBuf {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    PathBuf::from(if safe.is_empty() {
        "ferrobody-run"
    } else {
        safe
    })
}

pub fn fmt_energy(e: f64) -> String {
    format!("{e:.6}")
}

pub fn apply_overrides(scene: &mut Scene, o: &Overrides) -> Result<()> {
    if let Some(dt) = o.report_interval {
        anyhow::ensure!(
            dt.is_finite() && dt > 0.0,
            "--report-interval must be positive and finite, got {dt}"
        );
        scene.report_interval = dt;
        ferrobody::io::check_report_rows(scene.duration, scene.report_interval)
            .map_err(|m| anyhow::anyhow!("--report-interval: {m}"))?;
    }
    if let Some(name) = &o.integrator {
        scene.integrator.kind = crate::model_file::integrator_kind(name)?;
    }
    if let Some(n) = o.max_steps {
        anyhow::ensure!(n > 0, "--max-steps must be at least 1");
        scene.integrator.max_steps = n;
    }
    if let Some(d) = o.duration {
        anyhow::ensure!(
            d.is_finite() && d > 0.0,
            "--duration must be positive and finite, got {d}"
        );
        scene.duration = d;
        ferrobody::io::check_report_rows(scene.duration, scene.report_interval)
            .map_err(|m| anyhow::anyhow!("--duration: {m}"))?;
    }
    if let Some(a) = o.accuracy {
        anyhow::ensure!(
            a.is_finite() && a > 0.0 && a <= 1.0,
            "--accuracy must be in (0, 1] (a relative error), got {a}"
        );
        scene.integrator.accuracy = a;
    }
    Ok(())
}

/// Runs the scene, writing `trajectory.csv` as it goes and `summary.json` at the end (also when
/// the simulation fails, in which case the error is returned after the files are written).
pub fn simulate_to_files(
    scene: &Scene,
    out: &Path,
    extras: Extras,
    osim: Option<&OsimInfo>,
) -> Result<Summary> {
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create output folder {}", out.display()))?;
    remove_earlier_outputs(out)?;
    let csv_path = out.join("trajectory.csv");
    let mut rep = Reporter {
        writers: Writers::create(scene, out, osim)?,
        recorder: (extras.plot || extras.replay).then(|| Recorder::new(&scene.model)),
        progress: Progress::new(scene.duration, extras.quiet),
        energies: (f64::NAN, f64::NAN),
        rows: 0,
        contact_rows: 0,
    };
    let warnings = crate::start_checks::start_warnings(scene);
    let start = Instant::now();
    let model = &scene.model;
    let mut sim = match Simulation::new(model, scene.initial_state.clone(), scene.integrator) {
        Ok(mut sim) => {
            sim.set_wall_time_limit(extras.max_wall_time);
            sim.set_parallel_forces(true);
            sim
        }
        Err(e) => {
            let summary = Summary::failed_at_start(scene, &e.message());
            write_summary(out, &summary)?;
            return Err(e).with_context(|| format!("{}: cannot start the simulation", scene.name));
        }
    };
    let on_report =
        |m: &ferrobody::Model, s: &ferrobody::State, d: &ferrobody::Data| rep.report(m, s, d);
    let result = if scene.step_to_reports {
        sim.run_stepping_to_reports(scene.duration, scene.report_interval, on_report)
    } else {
        sim.run(scene.duration, scene.report_interval, on_report)
    };
    let wall = start.elapsed().as_secs_f64();
    rep.progress.finish();
    // The rows reach the disk before any drawing starts.
    rep.writers.flush()?;
    let files = match &rep.recorder {
        Some(rec) => write_plots_and_replay(out, scene, rec, extras)?,
        None => Vec::new(),
    };
    let warnings =
        crate::start_checks::with_end_warnings(scene, warnings, rep.energies, result.is_ok());
    let summary = Summary {
        scene: scene.name.clone(),
        description: scene.description.clone(),
        status: match &result {
            Ok(()) => "ok",
            Err(_) if crate::interrupt::requested() => "interrupted",
            Err(_) => "failed",
        },
        error: result.as_ref().err().map(|e| e.message()),
        duration: scene.duration,
        end_time: sim.state().t,
        integrator: scene.integrator.kind.name(),
        accuracy: scene.integrator.accuracy,
        stats: sim.stats(),
        wall_time_s: wall,
        report_rows: rep.rows,
        contact_rows: rep.contact_rows,
        initial_energy: rep.energies.0,
        final_energy: rep.energies.1,
        warnings: warnings.clone(),
        files,
    };
    write_summary(out, &summary)?;
    result.with_context(|| {
        let cause = warnings
            .first()
            .map_or(String::new(), |w| format!(" ({w})"));
        format!(
            "{}: rows up to the failure are in {}{cause}",
            scene.name,
            csv_path.display()
        )
    })?;
    Ok(summary)
}
