//! Loading what the command line is given: a scene file (TOML), an OpenSim model (.osim) or
//! a URDF robot (.urdf, run like an .osim model: from its neutral configuration at rest).
//!
//! An .osim file runs as OpenSim's `Manager` runs it: RK-Merson at accuracy 1e-5 (the forward
//! tool's default), rows every 0.01 s with each row a step boundary, for 1 s unless
//! `--duration` says otherwise.

use anyhow::{bail, Result};
use ferrobody::io::osim::{self, OsimInfo};
use ferrobody::io::urdf;
use ferrobody::io::{load_scene, Scene};
use ferrobody::IntegratorKind;
use indicatif::{HumanBytes, ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;

/// A loaded scene, with what an OpenSim model adds to it. What a model file or a scene's
/// robots leave out is `scene.left_out`.
pub struct Loaded {
    pub scene: Scene,
    pub osim: Option<OsimInfo>,
}

/// How to load a model file.
#[derive(Clone, Copy, Default)]
pub struct LoadOptions<'a> {
    /// .osim and .urdf models: fail if any element is not simulated.
    pub strict: bool,
    /// Show a spinner on a terminal while loading.
    pub show_progress: bool,
    /// .urdf models: mobilize the root link with a Free joint instead of welding it.
    pub floating_base: bool,
    /// .urdf models: the actuators on the joints.
    pub actuators: urdf::UrdfActuators,
    /// .osim models: a controls file driving the actuators (`--controls`).
    pub controls: Option<&'a Path>,
    /// .osim models: an ExternalLoads file (`--external-loads`).
    pub external_loads: Option<&'a Path>,
}

/// `--actuators`, `--kp`, `--kv`: actuators for a .urdf robot.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct ActuatorArgs {
    /// For .urdf robots: one actuator per actuated joint (none, motors or position servos;
    /// `<limit effort>` as the force range). Controls start at zero.
    #[arg(long, value_enum, default_value_t = ActuatorChoice::None)]
    pub actuators: ActuatorChoice,
    /// Position gain of `--actuators position` (N·m/rad or N/m).
    #[arg(long, default_value_t = 1.0)]
    pub kp: f64,
    /// Velocity gain of `--actuators position` (N·m·s/rad or N·s/m).
    #[arg(long, default_value_t = 0.0)]
    pub kv: f64,
}

/// The kinds `--actuators` takes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq)]
pub enum ActuatorChoice {
    #[default]
    None,
    Motors,
    Position,
}

impl ActuatorArgs {
    /// As the library's choice.
    pub fn choice(&self) -> urdf::UrdfActuators {
        match self.actuators {
            ActuatorChoice::None => urdf::UrdfActuators::None,
            ActuatorChoice::Motors => urdf::UrdfActuators::Motors,
            ActuatorChoice::Position => urdf::UrdfActuators::Position {
                kp: self.kp,
                kv: self.kv,
            },
        }
    }
}

/// Whether `path` names a URDF robot (by its extension).
pub fn is_urdf(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("urdf"))
}

/// Whether `path` names an OpenSim model (by its extension).
pub fn is_osim(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("osim"))
}

/// Loads a scene or an .osim model; with `strict`, an .osim model that leaves anything out is
/// an error. With `show_progress` and stderr a terminal, a spinner with the file's size and
/// the elapsed time stands on stderr while it loads (large scenes take seconds).
pub fn load(path: &Path, options: &LoadOptions) -> Result<Loaded> {
    let spinner =
        (options.show_progress && std::io::stderr().is_terminal()).then(|| loading_spinner(path));
    let loaded = load_quietly(path, options);
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    loaded
}

fn loading_spinner(path: &Path) -> ProgressBar {
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template("{spinner} loading {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.set_message(format!("{} ({})", path.display(), HumanBytes(size)));
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    spinner
}

fn load_quietly(path: &Path, options: &LoadOptions) -> Result<Loaded> {
    let strict = options.strict;
    if is_urdf(path) {
        let root = if options.floating_base {
            urdf::RootJoint::Floating
        } else {
            urdf::RootJoint::Fixed
        };
        let robot = urdf::load_actuated(path, root, options.actuators)?;
        if strict && !robot.left_out.is_empty() {
            bail!(
                "{}: --strict: the robot has elements that are not simulated: {}",
                path.display(),
                counts(&robot.left_out)
            );
        }
        let scene = robot.into_default_scene();
        return Ok(Loaded { scene, osim: None });
    }
    if options.actuators != urdf::UrdfActuators::None {
        bail!(
            "{}: --actuators is for .urdf robots (a scene declares its own with [[actuator]])",
            path.display()
        );
    }
    if options.external_loads.is_some() && !is_osim(path) {
        bail!(
            "{}: --external-loads is for .osim models (a scene applies forces with [[force]])",
            path.display()
        );
    }
    if options.controls.is_some() && !is_osim(path) {
        bail!(
            "{}: --controls is for .osim models (a scene's actuators take controls from Python or [[actuator]])",
            path.display()
        );
    }
    if !is_osim(path) {
        let scene = load_scene(path)?;
        if strict && !scene.left_out.is_empty() {
            bail!(
                "{}: --strict: the scene's robots have elements that are not simulated: {}",
                path.display(),
                counts(&scene.left_out)
            );
        }
        return Ok(Loaded { scene, osim: None });
    }
    let model = osim::load_with(
        path,
        &osim::LoadOptions {
            controls: options.controls,
            external_loads: options.external_loads,
        },
    )?;
    let (scene, info) = model.into_default_scene();
    if strict && !info.left_out.is_empty() {
        bail!(
            "{}: --strict: the model has elements that are not simulated: {}",
            path.display(),
            left_out_list(&info)
        );
    }
    Ok(Loaded {
        scene,
        osim: Some(info),
    })
}

/// "2 Thelen2003Muscle, 1 PrescribedController": the left-out elements by type.
pub fn left_out_list(info: &OsimInfo) -> String {
    counts(&info.left_out)
}

/// "2 visual, 1 transmission": counts by tag.
pub fn counts(left_out: &std::collections::BTreeMap<String, usize>) -> String {
    left_out
        .iter()
        .map(|(tag, n)| format!("{n} {tag}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parses an `--integrator` name.
pub fn integrator_kind(name: &str) -> Result<IntegratorKind> {
    IntegratorKind::from_name(name).ok_or_else(|| {
        let names: Vec<_> = IntegratorKind::ALL.iter().map(|k| k.name()).collect();
        anyhow::anyhow!(
            "--integrator: unknown method '{name}' (one of: {})",
            names.join(", ")
        )
    })
}
