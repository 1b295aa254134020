//! `ferrobody run`: simulate a scene, streaming `trajectory.csv`, then write `summary.json`.

use crate::recorder::Recorder;
use anyhow::{Context, Result};
use ferrobody::io::osim::OsimInfo;
use ferrobody::io::{ContactsWriter, Scene, StatesWriter, TrajectoryWriter};
use ferrobody::Simulation;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use std::fs::File;
use std::io::BufWriter;
use std::io::IsTerminal;
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
}

/// What to write besides trajectory.csv, contacts.csv and summary.json.
#[derive(Clone, Copy, Default)]
pub struct Extras {
    /// SVG plots of heights, speeds, energy and contact forces.
    pub plot: bool,
    /// replay.glb and replay.html.
    pub replay: bool,
    /// No progress bar.
    pub quiet: bool,
    /// Wall-time limit of the run (s).
    pub max_wall_time: Option<f64>,
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
    pub steps_taken: u64,
    pub steps_failed: u64,
    pub realizations: u64,
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
            steps_taken: 0,
            steps_failed: 0,
            realizations: 0,
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
    let loaded = crate::model_file::load(path, overrides.strict)?;
    let mut scene = loaded.scene;
    apply_overrides(&mut scene, &overrides)?;
    if let Some(info) = loaded.osim.as_ref().filter(|i| !i.left_out.is_empty()) {
        eprintln!(
            "note: {}: not simulated: {}",
            path.display(),
            crate::model_file::left_out_list(info)
        );
    }
    let out = out.unwrap_or_else(|| default_out_dir(&scene.name));
    let summary = simulate_to_files(&scene, &out, extras, loaded.osim.as_ref())?;
    out!(
        "{}: simulated {} s in {} steps ({} rejected), {} force evaluations, {:.3} s wall time; energy {} J -> {} J",
        summary.scene,
        summary.end_time,
        summary.steps_taken,
        summary.steps_failed,
        summary.realizations,
        summary.wall_time_s,
        fmt_energy(summary.initial_energy),
        fmt_energy(summary.final_energy),
    );
    let mut written = vec![format!("trajectory.csv ({} rows)", summary.report_rows)];
    if scene.model.has_contact() {
        written.push(format!("contacts.csv ({} rows)", summary.contact_rows));
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

/// The streaming writers of a run: trajectory.csv, contacts.csv (when the model has contact)
/// and states.sto (for .osim models).
struct Writers {
    writer: TrajectoryWriter<BufWriter<File>>,
    contacts: Option<ContactsWriter<BufWriter<File>>>,
    states: Option<StatesWriter>,
}

impl Writers {
    fn create(scene: &Scene, out: &Path, osim: Option<&OsimInfo>) -> Result<Self> {
        let create = |name: &str| {
            let path = out.join(name);
            File::create(&path)
                .map(BufWriter::new)
                .with_context(|| format!("cannot create {}", path.display()))
        };
        let writer = TrajectoryWriter::new(create("trajectory.csv")?, &scene.model)?;
        let contacts = if scene.model.has_contact() {
            Some(ContactsWriter::new(create("contacts.csv")?)?)
        } else {
            None
        };
        let states = match osim {
            Some(info) => {
                let rows = (scene.duration / scene.report_interval).ceil() as u64 + 1;
                let path = out.join("states.sto");
                Some(StatesWriter::create(&path, &info.coordinates, rows)?)
            }
            None => None,
        };
        Ok(Self {
            writer,
            contacts,
            states,
        })
    }
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
    let csv_path = out.join("trajectory.csv");
    let Writers {
        mut writer,
        mut contacts,
        mut states,
    } = Writers::create(scene, out, osim)?;
    let model = &scene.model;
    let warnings = crate::start_checks::start_warnings(scene);
    let mut energies = (f64::NAN, f64::NAN);
    let mut rows = 0u64;
    let mut recorder = (extras.plot || extras.replay).then(|| Recorder::new(&scene.model));
    let progress = Progress::new(scene.duration, extras.quiet);
    let mut contact_rows = 0u64;
    let start = Instant::now();
    let mut sim = match Simulation::new(model, scene.initial_state.clone(), scene.integrator) {
        Ok(mut sim) => {
            sim.set_wall_time_limit(extras.max_wall_time);
            sim
        }
        Err(e) => {
            let summary = Summary::failed_at_start(scene, &e.to_string());
            write_summary(out, &summary)?;
            return Err(e).with_context(|| format!("{}: cannot start the simulation", scene.name));
        }
    };
    let on_report = |m: &ferrobody::Model, s: &ferrobody::State, d: &ferrobody::Data| {
        let e = ferrobody::algorithms::kinetic_energy(m, d)
            + ferrobody::algorithms::potential_energy(m, s, d);
        if rows == 0 {
            energies.0 = e;
        }
        energies.1 = e;
        rows += 1;
        progress.update(s.t);
        if let Some(r) = recorder.as_mut() {
            r.record(m, s, d);
        }
        if let Some(c) = contacts.as_mut() {
            contact_rows += c.write_rows(m, s, d)? as u64;
        }
        if let Some(w) = states.as_mut() {
            w.write_row(s)?;
        }
        writer.write_row(m, s, d)
    };
    let result = if scene.step_to_reports {
        sim.run_stepping_to_reports(scene.duration, scene.report_interval, on_report)
    } else {
        sim.run(scene.duration, scene.report_interval, on_report)
    };
    let wall = start.elapsed().as_secs_f64();
    progress.finish();
    // The rows reach the disk before any drawing starts.
    writer.flush()?;
    if let Some(w) = states {
        w.finish()?;
    }
    if let Some(c) = contacts.as_mut() {
        c.flush()?;
    }
    let files = match &recorder {
        Some(rec) => write_plots_and_replay(out, scene, rec, extras)?,
        None => Vec::new(),
    };
    let stats = sim.stats();
    let warnings =
        crate::start_checks::with_end_warnings(scene, warnings, energies, result.is_ok());
    let summary = Summary {
        scene: scene.name.clone(),
        description: scene.description.clone(),
        status: if result.is_ok() { "ok" } else { "failed" },
        error: result.as_ref().err().map(|e| e.to_string()),
        duration: scene.duration,
        end_time: sim.state().t,
        integrator: scene.integrator.kind.name(),
        accuracy: scene.integrator.accuracy,
        steps_taken: stats.steps_taken,
        steps_failed: stats.error_test_failures,
        realizations: stats.realizations,
        wall_time_s: wall,
        report_rows: rows,
        contact_rows,
        initial_energy: energies.0,
        final_energy: energies.1,
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

/// The SVG plots and the 3D replay asked for, from the recorded run; their file names.
fn write_plots_and_replay(
    out: &Path,
    scene: &Scene,
    rec: &Recorder,
    extras: Extras,
) -> Result<Vec<String>> {
    let mut files = Vec::new();
    if extras.plot {
        files.extend(crate::plots::write_run_plots(out, rec, &scene.name)?);
    }
    if extras.replay {
        crate::replay::write_replay(out, &scene.model, rec, &scene.name)?;
        files.extend(["replay.glb".to_string(), "replay.html".to_string()]);
    }
    Ok(files)
}

/// A progress bar on stderr, shown only once a run has lasted a second, only on a terminal,
/// and never with `--quiet`.
struct Progress {
    bar: ProgressBar,
    start: Instant,
    enabled: bool,
    shown: std::cell::Cell<bool>,
}

impl Progress {
    fn new(duration: f64, quiet: bool) -> Self {
        let length = (duration * 1000.0).round() as u64;
        let bar = ProgressBar::with_draw_target(Some(length), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(
            "simulated {msg} [{bar:40}] {percent}% (elapsed {elapsed}, eta {eta})",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        let enabled = !quiet && std::io::stderr().is_terminal();
        Self {
            bar,
            start: Instant::now(),
            enabled,
            shown: false.into(),
        }
    }

    fn update(&self, t: f64) {
        if self.enabled && !self.shown.get() && self.start.elapsed().as_secs_f64() > 1.0 {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown.set(true);
        }
        self.bar.set_message(format!("{t:.2} s"));
        self.bar.set_position((t * 1000.0).round() as u64);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
