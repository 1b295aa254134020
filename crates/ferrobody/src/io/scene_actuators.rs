//! Scene actuators: the `[[actuator]]` tables (docs/scene-format.md), each driving one
//! coordinate of a joint named by its body (the body it moves) or, for a `[[robot]]`, by its
//! URDF joint name. Errors name the table's line.

use super::scene_robot::AddedRobot;
use crate::actuators::{
    Actuator, ActuatorKind, GeneralActuator, JointMotor, PositionServo, VelocityServo,
};
use crate::error::{invalid, ModelError};
use crate::ids::BodyId;
use crate::model::{Model, ModelBuilder};
use crate::state::State;
use serde::Deserialize;

/// The force law of an `[[actuator]]` (`kind = "..."`).
#[derive(Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
pub(super) enum ActuatorKindName {
    Motor,
    Position,
    Velocity,
    General,
}

impl ActuatorKindName {
    fn label(self) -> &'static str {
        match self {
            ActuatorKindName::Motor => "motor",
            ActuatorKindName::Position => "position",
            ActuatorKindName::Velocity => "velocity",
            ActuatorKindName::General => "general",
        }
    }
}

/// One `[[actuator]]` table.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct ActuatorSection {
    pub name: Option<String>,
    pub joint: String,
    pub coordinate: Option<usize>,
    pub kind: ActuatorKindName,
    pub gear: Option<f64>,
    pub kp: Option<f64>,
    pub kv: Option<f64>,
    pub gain: Option<f64>,
    pub bias: Option<[f64; 3]>,
    pub ctrl_range: Option<[f64; 2]>,
    pub force_range: Option<[f64; 2]>,
    /// The initial control.
    pub ctrl: Option<f64>,
}

/// An error of one table: its line (1-based) and the message.
pub(super) type LineError = (usize, ModelError);

/// Adds every table's actuator; `lines[i]` is table i's line.
pub(super) fn add_actuators(
    b: &mut ModelBuilder<f64>,
    sections: &[ActuatorSection],
    lines: &[usize],
    robots: &[AddedRobot],
) -> Result<(), LineError> {
    for (i, (s, &line)) in sections.iter().zip(lines).enumerate() {
        let name = s.name.clone().unwrap_or_else(|| s.joint.clone());
        let place = |m: ModelError| (line, invalid!("actuator[{i}] '{name}'.{m}"));
        let body = joint_body(b, robots, &s.joint).ok_or_else(|| {
            place(invalid!(
                "joint: no body or robot joint named '{}'",
                s.joint
            ))
        })?;
        let mut actuator = Actuator::new(
            &name,
            body,
            s.coordinate.unwrap_or(0),
            kind(s).map_err(place)?,
        );
        actuator.gear = s.gear.unwrap_or(1.0);
        actuator.ctrl_range = s.ctrl_range;
        actuator.force_range = s.force_range;
        if let Some(problem) = b.actuator_problem(&actuator) {
            return Err((line, invalid!("actuator[{i}] '{name}': {problem}")));
        }
        b.add_actuator(actuator)
            .map_err(|e| (line, invalid!("actuator[{i}] '{name}': {e}")))?;
    }
    Ok(())
}

/// Sets the initial controls the tables give (`ctrl`).
pub(super) fn set_initial_controls(
    model: &Model<f64>,
    state: &mut State<f64>,
    sections: &[ActuatorSection],
    lines: &[usize],
) -> Result<(), LineError> {
    let mut controls = model.controls(state).to_vec();
    for (k, s) in sections.iter().enumerate() {
        if let Some(c) = s.ctrl {
            if !c.is_finite() {
                return Err((
                    lines[k],
                    ModelError::NonFinite {
                        what: format!("actuator[{k}].ctrl"),
                        value: c,
                    },
                ));
            }
            controls[k] = c;
        }
    }
    model
        .set_controls(state, &controls)
        .map_err(|e| (lines.first().copied().unwrap_or(1), e.into_model_error()))
}

/// The body a joint name moves: a body of that name, else a robot joint of that name.
fn joint_body(b: &ModelBuilder<f64>, robots: &[AddedRobot], joint: &str) -> Option<BodyId> {
    b.body_id(joint)
        .filter(|id| *id != BodyId::GROUND)
        .or_else(|| {
            robots
                .iter()
                .flat_map(|r| r.info.joints.iter())
                .find(|j| j.name == joint)
                .map(|j| j.body)
        })
}

/// The force law, refusing gains that do not belong to the kind.
fn kind(s: &ActuatorSection) -> Result<ActuatorKind<f64>, ModelError> {
    let given = [
        ("kp", s.kp.is_some()),
        ("kv", s.kv.is_some()),
        ("gain", s.gain.is_some()),
        ("bias", s.bias.is_some()),
    ];
    let allowed: &[&str] = match s.kind {
        ActuatorKindName::Motor => &[],
        ActuatorKindName::Position => &["kp", "kv"],
        ActuatorKindName::Velocity => &["kv"],
        ActuatorKindName::General => &["gain", "bias"],
    };
    if let Some((key, _)) = given.iter().find(|(k, on)| *on && !allowed.contains(k)) {
        return Err(invalid!(
            "{key}: not a parameter of a {} actuator",
            s.kind.label()
        ));
    }
    let need = |key: &str, v: Option<f64>| v.ok_or_else(|| format!("{key}: missing"));
    Ok(match s.kind {
        ActuatorKindName::Motor => ActuatorKind::Motor(JointMotor),
        ActuatorKindName::Position => ActuatorKind::PositionServo(PositionServo {
            kp: need("kp", s.kp)?,
            kv: s.kv.unwrap_or(0.0),
        }),
        ActuatorKindName::Velocity => ActuatorKind::VelocityServo(VelocityServo {
            kv: need("kv", s.kv)?,
        }),
        ActuatorKindName::General => ActuatorKind::General(GeneralActuator {
            gain: s.gain.unwrap_or(1.0),
            bias: s.bias.unwrap_or([0.0; 3]),
        }),
    })
}
