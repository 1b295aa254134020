//! Loading a scene file: TOML → [`Scene`] (model, initial state, run settings).
//!
//! Parse errors are reported as `file:line:column: message`; errors found while building the
//! model name the key, e.g. `file: body[2] 'link2'.mass: must be finite and non-negative`.

use super::scene_build::build_scene;
use super::scene_types::SceneFile;
use super::scene_visual::Visual;
use crate::error::{Error, ParseError, Result};
use crate::integrators::IntegratorSettings;
use crate::model::Model;
use crate::state::State;
use std::path::Path;

/// A loaded scene: everything needed to run it.
pub struct Scene {
    /// Scene name (the `name` key, else the file stem).
    pub name: String,
    /// Free-text description.
    pub description: String,
    /// The model.
    pub model: Model<f64>,
    /// The initial state.
    pub initial_state: State<f64>,
    /// Simulated duration (s).
    pub duration: f64,
    /// Interval between report rows (s).
    pub report_interval: f64,
    /// Integrator settings.
    pub integrator: IntegratorSettings,
    /// Whether report times are also step boundaries (OpenSim's `Manager`, for .osim models)
    /// instead of being interpolated between steps (Simbody's `TimeStepper` reporting, the
    /// scene files' default). See `Simulation::run_stepping_to_reports`.
    pub step_to_reports: bool,
    /// The bodies' visual shapes for the replay (scene `[[body.visual]]`; none from .osim).
    pub visuals: Vec<Visual>,
    /// What the scene's `[[robot]]`s read but do not simulate (visuals, collision shapes
    /// other than spheres, ...), counted by kind and robot.
    pub left_out: std::collections::BTreeMap<String, usize>,
    /// Names of the generalized coordinates and speeds ([`super::MobilityNames`]).
    pub names: super::MobilityNames,
}

/// Reads and builds a scene file.
pub fn load_scene(path: &Path) -> Result<Scene> {
    let file = path.display().to_string();
    let text =
        std::fs::read_to_string(path).map_err(|e| Error::io(path, "cannot read the file", e))?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse_scene(&text, &file, &stem)
}

/// Parses scene text; `file` names it in errors, `default_name` is used when it has no `name`.
pub fn parse_scene(text: &str, file: &str, default_name: &str) -> Result<Scene> {
    let raw: SceneFile = toml::from_str(text).map_err(|e| toml_error(text, file, &e))?;
    let scene_dir = Path::new(file).parent().unwrap_or(Path::new(""));
    let line_of = |offset: usize| text.get(..offset).unwrap_or(text).matches('\n').count() + 1;
    build_scene(raw, default_name, scene_dir, line_of).map_err(|e| {
        let error = ParseError::in_file(file, e.problem);
        Error::Parse(match e.line {
            Some(line) => error.at_line(line),
            None => error,
        })
    })
}

/// A TOML error at its line and column (where known), its message on one line.
fn toml_error(text: &str, file: &str, e: &toml::de::Error) -> Error {
    let error = ParseError::in_file(file, e.message().replace('\n', " "));
    Error::Parse(match e.span() {
        Some(span) => {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            error.at_line(line).at_column(column)
        }
        None => error,
    })
}
