//! Actuators for a URDF robot (`ferrobody.load(urdf, actuators=...)`, `--actuators`): one per
//! actuated joint, in model order, gear 1, named after the joint.
//!
//! The actuated joints are those the file's `<transmission>` elements name when it has any
//! (ROS's `transmission_interface`), else every revolute, continuous and prismatic joint. A
//! joint's `<limit effort>` becomes the actuator's force range `[−effort, effort]` (N or N·m);
//! an effort of 0, which URDF files use for "not given", leaves the force unlimited. The
//! mechanical reduction of a transmission is not applied (the effort limit of a URDF is
//! already the joint's). Reference: ROS `urdf` and `transmission_interface` specifications.

use super::build::RobotInfo;
use super::document::{JointKind, Robot, UrdfError};
use super::links::err;
use crate::actuators::{Actuator, ActuatorKind, JointMotor, PositionServo};
use crate::error::{invalid, ModelError};
use crate::model::ModelBuilder;

/// Which actuators a URDF robot gets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub enum UrdfActuators {
    /// None: the robot is driven only by forces the user adds.
    #[default]
    None,
    /// A joint motor per actuated joint: the control is the joint torque or force.
    Motors,
    /// A position servo per actuated joint: the control is the target joint position.
    Position {
        /// Position gain (N·m/rad or N/m).
        kp: f64,
        /// Velocity gain (N·m·s/rad or N·s/m).
        kv: f64,
    },
}

impl UrdfActuators {
    /// Parses the names the command line and Python use: `none`, `motors`, `position` (with
    /// the gains given).
    pub fn from_name(name: &str, kp: f64, kv: f64) -> Result<Self, ModelError> {
        match name {
            "none" => Ok(UrdfActuators::None),
            "motors" => Ok(UrdfActuators::Motors),
            "position" => Ok(UrdfActuators::Position { kp, kv }),
            other => Err(invalid!(
                "actuators: expected \"none\", \"motors\" or \"position\", got \"{other}\""
            )),
        }
    }
}

/// Adds `kind`'s actuators on `robot`'s actuated joints (module docs) to a model being built.
pub fn add_actuators(
    b: &mut ModelBuilder<f64>,
    robot: &Robot,
    info: &RobotInfo,
    kind: UrdfActuators,
) -> Result<(), UrdfError> {
    let kind = match kind {
        UrdfActuators::None => return Ok(()),
        UrdfActuators::Motors => ActuatorKind::Motor(JointMotor),
        UrdfActuators::Position { kp, kv } => ActuatorKind::PositionServo(PositionServo { kp, kv }),
    };
    for name in &robot.transmission_joints {
        if !robot.joints.iter().any(|j| &j.name == name) {
            let message = format!("no joint named '{name}' for its transmission");
            return Err(err(1, "robot".into(), message));
        }
    }
    let by_transmission = !robot.transmission_joints.is_empty();
    for joint in &info.joints {
        let one_dof = matches!(
            joint.kind,
            JointKind::Revolute | JointKind::Continuous | JointKind::Prismatic
        );
        let listed = robot.transmission_joints.contains(&joint.name);
        if !one_dof || (by_transmission && !listed) {
            continue;
        }
        let mut actuator = Actuator::new(&joint.name, joint.body, 0, kind);
        actuator.force_range = joint.effort.filter(|e| *e > 0.0).map(|e| [-e, e]);
        b.add_actuator(actuator).map_err(|e| {
            let line = robot
                .joints
                .iter()
                .find(|j| j.name == joint.name)
                .map_or(1, |j| j.line);
            err(line, format!("joint '{}'", joint.name), e.to_string())
        })?;
    }
    Ok(())
}
