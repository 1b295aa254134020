//! What `ferrobody run` writes while it runs: the streaming writers, the per-report work
//! (energies, rows, recorder, Ctrl-C), the removal of an earlier run's files, the plots and
//! replay, and the progress bar.

use crate::recorder::Recorder;
use anyhow::{Context, Result};
use ferrobody::io::osim::OsimInfo;
use ferrobody::io::{ContactsWriter, MusclesWriter, Scene, StatesWriter, TrajectoryWriter};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::BufWriter;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

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

/// The streaming writers of a run: trajectory.csv, contacts.csv (when the model has contact),
/// muscles.csv (when it has muscles) and states.sto (for .osim models).
pub(crate) struct Writers {
    writer: TrajectoryWriter<BufWriter<File>>,
    contacts: Option<ContactsWriter<BufWriter<File>>>,
    muscles: Option<MusclesWriter<BufWriter<File>>>,
    states: Option<StatesWriter>,
}

impl Writers {
    /// Flushes every file (and corrects states.sto's row count).
    pub fn flush(&mut self) -> Result<()> {
        self.writer.flush()?;
        if let Some(w) = self.states.take() {
            w.finish()?;
        }
        if let Some(c) = self.contacts.as_mut() {
            c.flush()?;
        }
        if let Some(m) = self.muscles.as_mut() {
            m.flush()?;
        }
        Ok(())
    }

    pub fn create(scene: &Scene, out: &Path, osim: Option<&OsimInfo>) -> Result<Self> {
        let create = |name: &str| {
            let path = out.join(name);
            File::create(&path)
                .map(BufWriter::new)
                .with_context(|| format!("cannot create {}", path.display()))
        };
        let writer =
            TrajectoryWriter::with_names(create("trajectory.csv")?, &scene.model, &scene.names)?;
        let contacts = if scene.model.has_contact() {
            Some(ContactsWriter::new(create("contacts.csv")?)?)
        } else {
            None
        };
        let muscles = if ferrobody::io::muscles_csv::has_muscles(&scene.model) {
            Some(MusclesWriter::new(create("muscles.csv")?)?)
        } else {
            None
        };
        let states = match osim {
            Some(info) => {
                let rows = (scene.duration / scene.report_interval).ceil() as u64 + 1;
                let path = out.join("states.sto");
                Some(StatesWriter::create_with_states(
                    &path,
                    &info.coordinates,
                    &info.state_variables,
                    rows,
                )?)
            }
            None => None,
        };
        Ok(Self {
            writer,
            contacts,
            muscles,
            states,
        })
    }
}

/// What a run does at each report time: the energies, the rows of every file, the recorder of
/// the plots and replay, the progress bar, and Ctrl-C.
pub(crate) struct Reporter {
    pub writers: Writers,
    pub recorder: Option<Recorder>,
    pub progress: Progress,
    pub energies: (f64, f64),
    pub rows: u64,
    pub contact_rows: u64,
}

impl Reporter {
    pub fn report(
        &mut self,
        m: &ferrobody::Model,
        s: &ferrobody::State,
        d: &ferrobody::Data,
    ) -> ferrobody::Result<()> {
        let e = ferrobody::algorithms::kinetic_energy(m, d)
            + ferrobody::model::potential_energy(m, s, d);
        if self.rows == 0 {
            self.energies.0 = e;
        }
        self.energies.1 = e;
        self.rows += 1;
        self.progress.update(s.t);
        if let Some(r) = self.recorder.as_mut() {
            r.record(m, s, d)?;
        }
        let w = &mut self.writers;
        if let Some(c) = w.contacts.as_mut() {
            self.contact_rows += c.write_rows(m, s, d)? as u64;
        }
        if let Some(mw) = w.muscles.as_mut() {
            mw.write_rows(m, s, d)?;
        }
        if let Some(st) = w.states.as_mut() {
            st.write_row(s)?;
        }
        w.writer.write_row(m, s, d)?;
        if crate::interrupt::requested() {
            return Err(ferrobody::Error::simulation(
                s.t,
                ferrobody::SimulationFailure::Interrupted {
                    how: "Ctrl-C".into(),
                },
            ));
        }
        Ok(())
    }
}

/// Every file a run may write: an earlier run's copies are removed first, so that a folder
/// never mixes two runs' outputs (plots of an old run beside a new CSV).
const OUTPUT_FILES: [&str; 11] = [
    "trajectory.csv",
    "contacts.csv",
    "muscles.csv",
    "states.sto",
    "summary.json",
    "heights.svg",
    "speeds.svg",
    "energy.svg",
    "contact_forces.svg",
    "replay.glb",
    "replay.html",
];

pub(crate) fn remove_earlier_outputs(out: &Path) -> Result<()> {
    for name in OUTPUT_FILES {
        let path = out.join(name);
        if path.is_file() {
            std::fs::remove_file(&path)
                .with_context(|| format!("cannot remove the earlier {}", path.display()))?;
        }
    }
    Ok(())
}

/// The SVG plots and the 3D replay asked for, from the recorded run; their file names.
pub(crate) fn write_plots_and_replay(
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
        crate::replay::write_replay(out, &scene.model, &scene.visuals, rec, &scene.name)?;
        files.extend(["replay.glb".to_string(), "replay.html".to_string()]);
    }
    Ok(files)
}

/// A progress bar on stderr, shown only once a run has lasted a second, only on a terminal,
/// and never with `--quiet`.
pub(crate) struct Progress {
    bar: ProgressBar,
    start: Instant,
    enabled: bool,
    shown: std::cell::Cell<bool>,
}

impl Progress {
    pub fn new(duration: f64, quiet: bool) -> Self {
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

    pub fn update(&self, t: f64) {
        if self.enabled && !self.shown.get() && self.start.elapsed().as_secs_f64() > 1.0 {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown.set(true);
        }
        self.bar.set_message(format!("{t:.2} s"));
        self.bar.set_position((t * 1000.0).round() as u64);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
