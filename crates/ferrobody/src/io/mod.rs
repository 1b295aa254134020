//! Scene files and output writers (f64 only: the numerical core is generic, I/O is not).
//!
//! * [`scene`]: the TOML scene format (documented key by key in `docs/scene-format.md`) and
//!   its loader, which turns a file into a [`Scene`]: a model, an initial state and run
//!   settings. Every error names the file and the place in it.
//! * [`trajectory`]: the streaming `trajectory.csv` writer of the command-line contract.
//! * [`osim`]: OpenSim model files (`.osim`) as a model, a default state and coordinates.
//! * [`sto`]: OpenSim's storage format for states (`states.sto`).

pub mod contacts;
mod frame_rotation;
pub mod mesh;
mod mobility_names;
pub mod muscles_csv;
pub mod osim;
pub mod scene;
mod scene_actuators;
mod scene_build;
mod scene_constraints;
mod scene_contact_shape;
mod scene_forces;
mod scene_foundation;
mod scene_robot;
mod scene_types;
mod scene_unilateral;
pub mod scene_visual;
pub mod sto;
mod text_file;
pub mod trajectory;
pub mod urdf;

pub use crate::simulation::check_report_rows;
pub use contacts::ContactsWriter;
pub use mobility_names::MobilityNames;
pub use muscles_csv::{muscle_reports, MuscleReport, MusclesWriter};
pub use scene::{load_scene, parse_scene, Scene};
pub use scene_visual::{Visual, VisualShape};
pub use sto::StatesWriter;
pub use text_file::{decode_text, read_text_file};
pub use trajectory::{csv_field, format_number, TrajectoryWriter};

/// A parser's message on one line (errors are one line): roxmltree quotes the character it
/// did not expect, which may be a line break or a tab.
pub(crate) fn one_line(message: &str) -> String {
    message
        .replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('\t', "\\t")
}
