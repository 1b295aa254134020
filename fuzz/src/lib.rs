//! What every fuzz target does with an input that parses: build the simulation and take a few
//! steps, realize the reported quantities and write one trajectory and contacts row, as
//! `ferrobody run` would. Shared with the mutation test of the normal suite
//! (`crates/ferrobody/tests/parser_mutations.rs`, which includes this file by path).

use ferrobody::io::{ContactsWriter, TrajectoryWriter};
use ferrobody::{IntegratorSettings, Model, Result, Simulation, State};

/// Steps taken at most per input: enough to reach contact, impact and constraint code.
pub const STEPS: usize = 20;

/// Builds the simulation of `model` from `state` with `settings` (the default budgets: a
/// hang here is a finding) and takes up to [`STEPS`] steps towards `duration`, writing one
/// row of each output. Errors are the clean outcome for bad input; only panics, hangs and
/// crashes are findings.
pub fn step_briefly(
    model: &Model<f64>,
    state: State<f64>,
    settings: IntegratorSettings,
    duration: f64,
) -> Result<()> {
    let mut sim = Simulation::new(model, state, settings)?;
    let t_end = sim.state().t + duration;
    for _ in 0..STEPS {
        if sim.state().t >= t_end {
            break;
        }
        sim.step(t_end)?;
    }
    let state = sim.state().clone();
    let data = sim.data()?;
    let mut trajectory = TrajectoryWriter::new(Vec::new(), model)?;
    trajectory.write_row(model, &state, data)?;
    let mut contacts = ContactsWriter::new(Vec::new())?;
    contacts.write_rows(model, &state, data)?;
    Ok(())
}

/// The repository root (the first folder above this crate with `examples/scenes`), so that
/// inputs read as if they sat beside the seeds: scenes in `examples/scenes` (their mesh files
/// in `examples/scenes/meshes`), models in `testdata/opensim` (with `box.obj`).
fn repo_root() -> std::path::PathBuf {
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .find(|p| p.join("examples/scenes").is_dir())
        .unwrap_or(here)
        .to_path_buf()
}

/// A scene file's text: parse, build, step.
pub fn scene_text(text: &str) -> Result<()> {
    let file = repo_root().join("examples/scenes/fuzz.toml");
    let scene = ferrobody::io::parse_scene(text, &file.display().to_string(), "fuzz")?;
    step_briefly(
        &scene.model,
        scene.initial_state,
        scene.integrator,
        scene.duration,
    )
}

/// A URDF robot's text: parse, build (with a floating base: every link moves), step.
pub fn urdf_text(text: &str) -> Result<()> {
    let robot =
        ferrobody::io::urdf::parse(text, "fuzz.urdf", ferrobody::io::urdf::RootJoint::Floating)?;
    let scene = robot.into_default_scene();
    step_briefly(
        &scene.model,
        scene.initial_state,
        scene.integrator,
        scene.duration,
    )
}

/// An OpenSim model's text: parse, build, step (as `ferrobody run` runs it).
pub fn osim_text(text: &str) -> Result<()> {
    let file = repo_root().join("testdata/opensim/fuzz.osim");
    let (scene, _) =
        ferrobody::io::osim::parse(text, &file.display().to_string())?.into_default_scene();
    step_briefly(
        &scene.model,
        scene.initial_state,
        scene.integrator,
        scene.duration,
    )
}
