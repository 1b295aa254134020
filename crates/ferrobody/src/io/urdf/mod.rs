//! URDF robots (`.urdf`): the links and joints of a ROS robot description as a model, its
//! neutral configuration at rest as the default state, and the joint names.
//!
//! * `document`: the XML as plain data, every error with its line (roxmltree: urdf-rs keeps
//!   no positions, and these files are small).
//! * `build`: links → bodies, joints → mobilizers (the table there), gravity −9.81 m/s²
//!   along z.
//!
//! * [`UrdfActuators`]: optional motors or position servos on the joints (`<limit effort>` as
//!   force range, `<transmission>` elements choosing the joints where present).
//!
//! Read but not simulated: visual geometry, Gazebo extensions, joint dynamics,
//! mimic and safety tags, counted by tag in [`UrdfModel::left_out`]. Collision geometry is
//! read: its spheres become contact surfaces when a scene's `[[robot]]` asks for contact
//! (`io::scene`); a robot run alone has no contact and counts it as left out.

mod actuators;
pub(crate) mod build;
pub(crate) mod document;
mod links;
mod names;

pub use actuators::UrdfActuators;
pub(crate) use build::add_robot;
pub use build::{Attach, CollisionSphere, RobotInfo, RobotJoint, RootJoint};
pub use document::JointKind;

use crate::error::{Error, ParseError, Result};
use crate::{IntegratorSettings, Model, State};
use std::collections::BTreeMap;
use std::path::Path;

/// A loaded robot.
pub struct UrdfModel {
    /// The robot's name.
    pub name: String,
    /// The model (bodies named after the links).
    pub model: Model<f64>,
    /// The neutral configuration at rest (all joint coordinates zero, an identity quaternion).
    pub default_state: State<f64>,
    /// Links and joints.
    pub info: RobotInfo,
    /// Elements read but not simulated, by tag.
    pub left_out: BTreeMap<String, usize>,
}

/// Reads a URDF file.
pub fn load(path: &Path, root: RootJoint) -> Result<UrdfModel> {
    load_actuated(path, root, UrdfActuators::None)
}

/// Reads a URDF file, with actuators on its joints ([`UrdfActuators`]).
pub fn load_actuated(path: &Path, root: RootJoint, actuators: UrdfActuators) -> Result<UrdfModel> {
    let file = path.display().to_string();
    let text = crate::io::read_text_file(path, "cannot read the file")?;
    parse_actuated(&text, &file, root, actuators)
}

/// Parses URDF text; `file` names it in errors.
pub fn parse(text: &str, file: &str, root: RootJoint) -> Result<UrdfModel> {
    parse_actuated(text, file, root, UrdfActuators::None)
}

/// [`parse`] with actuators on the robot's joints ([`UrdfActuators`]).
pub fn parse_actuated(
    text: &str,
    file: &str,
    root: RootJoint,
    actuators: UrdfActuators,
) -> Result<UrdfModel> {
    let xml = roxmltree::Document::parse(text).map_err(|e| {
        ParseError::in_file(
            file,
            format!("XML syntax error: {}", crate::io::one_line(&e.to_string())),
        )
        .at_line(e.pos().row)
    })?;
    let error = |e: document::UrdfError| {
        Error::Parse(
            ParseError::in_file(file, e.problem)
                .at_line(e.line)
                .in_element(e.path),
        )
    };
    let robot = document::read(&xml).map_err(error)?;
    let (model, info) = build::build_actuated(&robot, root, actuators).map_err(error)?;
    let default_state = model.default_state();
    Ok(UrdfModel {
        name: robot.name,
        model,
        default_state,
        info,
        left_out: robot.left_out,
    })
}

impl UrdfModel {
    /// The scene `ferrobody run ROBOT.urdf` runs: the .osim run settings
    /// (`io::osim::RUN_DURATION`, `RUN_REPORT_INTERVAL`, RK-Merson at `RUN_ACCURACY`).
    pub fn into_default_scene(self) -> crate::io::Scene {
        use crate::io::osim::{RUN_ACCURACY, RUN_DURATION, RUN_REPORT_INTERVAL};
        self.into_scene(
            RUN_DURATION,
            RUN_REPORT_INTERVAL,
            IntegratorSettings::rk_merson(RUN_ACCURACY),
        )
    }

    /// As a scene: `duration` s, reports every `report_interval` s, with `integrator`.
    pub fn into_scene(
        self,
        duration: f64,
        report_interval: f64,
        integrator: IntegratorSettings,
    ) -> crate::io::Scene {
        crate::io::Scene {
            names: self.info.mobility_names(&self.model),
            name: self.name.clone(),
            description: format!(
                "URDF robot '{}': {} links, {} moving joints",
                self.name,
                self.info.links.len(),
                self.info.joints.len()
            ),
            model: self.model,
            initial_state: self.default_state,
            duration,
            report_interval,
            integrator,
            // As for .osim models: every report a step boundary.
            step_to_reports: true,
            visuals: Vec::new(),
            left_out: self.left_out,
        }
    }
}
