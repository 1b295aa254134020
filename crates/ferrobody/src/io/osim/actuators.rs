//! OpenSim's scalar actuators other than muscles as [`ScalarActuator`]s: `CoordinateActuator`,
//! `ActivationCoordinateActuator` (its activation a z starting at `default_activation`),
//! `TorqueActuator` and `PointActuator`, each driven by its `PrescribedController` function
//! (else zero control, as in OpenSim). A `CoordinateActuator` no controller drives becomes a
//! joint motor on the model's control vector instead (`control_input`). Bodies are named by path (`/bodyset/arm`) or by name.

use super::document::{child, tag_of, Doc, Res};
use super::forces::ForceCtx;
use crate::actuators::{Actuator, ActuatorKind, JointMotor};
use crate::ids::{BodyId, ZId};
use crate::model::Force;
use crate::muscles::path::CoordinateRef;
use crate::muscles::scalar_actuators::{ScalarActuator, ScalarActuatorKind};
use nalgebra::Vector3;
use roxmltree::Node;

/// The actuator tags this reader simulates.
pub(super) const SUPPORTED: [&str; 5] = [
    "CoordinateActuator",
    "ActivationCoordinateActuator",
    "TorqueActuator",
    "PointActuator",
    "PointToPointActuator",
];

impl ForceCtx<'_, '_, '_> {
    /// Adds a supported actuator; returns its state variables by OpenSim path.
    pub(super) fn scalar_actuator(&mut self, node: Node) -> Res<Vec<(String, ZId)>> {
        let doc = self.doc;
        let name = node.attribute("name").unwrap_or("actuator").to_string();
        let optimal_force = doc.scalar(node, "optimal_force", 1.0)?;
        let bounds = check_control_bounds(doc, node)?;
        self.control_bounds.insert(name.clone(), bounds);
        let mut states = Vec::new();
        let kind = match tag_of(node).as_str() {
            "CoordinateActuator" => ScalarActuatorKind::Coordinate {
                coordinate: self.actuated_coordinate(node)?,
            },
            "ActivationCoordinateActuator" => {
                let coordinate = self.actuated_coordinate(node)?;
                let a0 = doc.scalar(node, "default_activation", 0.5)?;
                let activation = self.builder.add_z(a0);
                states.push((format!("{}/activation", doc.path_of(node)), activation));
                ScalarActuatorKind::ActivationCoordinate {
                    coordinate,
                    activation,
                    time_constant: doc.scalar(node, "activation_time_constant", 0.01)?,
                }
            }
            "TorqueActuator" => ScalarActuatorKind::Torque {
                body_a: self
                    .named_body(node, "bodyA")?
                    .ok_or_else(|| doc.err(node, "a TorqueActuator needs <bodyA>"))?,
                body_b: self.named_body(node, "bodyB")?,
                axis: unit(self, node, "axis", [0.0, 0.0, 1.0])?,
                global: doc.boolean(node, "torque_is_global", true)?,
            },
            "PointToPointActuator" => {
                let end = |tag: &str| {
                    self.named_body(node, tag)?.ok_or_else(|| {
                        doc.err(node, format!("a PointToPointActuator needs <{tag}>"))
                    })
                };
                ScalarActuatorKind::PointToPoint {
                    body_a: end("bodyA")?,
                    body_b: end("bodyB")?,
                    point_a: Vector3::from(doc.fixed(node, "pointA", [0.0; 3])?),
                    point_b: Vector3::from(doc.fixed(node, "pointB", [0.0; 3])?),
                    global: doc.boolean(node, "points_are_global", false)?,
                }
            }
            _ => ScalarActuatorKind::Point {
                body: self
                    .named_body(node, "body")?
                    .ok_or_else(|| doc.err(node, "a PointActuator needs <body>"))?,
                point: Vector3::from(doc.fixed(node, "point", [0.0; 3])?),
                point_global: doc.boolean(node, "point_is_global", false)?,
                direction: unit(self, node, "direction", [1.0, 0.0, 0.0])?,
                force_global: doc.boolean(node, "force_is_global", false)?,
            },
        };
        let prescribed = self.excitations.contains_key(&name);
        if let (ScalarActuatorKind::Coordinate { coordinate }, false) = (&kind, prescribed) {
            if self.doc.boolean(node, "appliesForce", true)? {
                let motor = control_input(&name, coordinate, optimal_force);
                if self.builder.actuator_problem(&motor).is_none() {
                    self.builder
                        .add_actuator(motor)
                        .map_err(|e| super::build::model_error(doc, node, e))?;
                    return Ok(states);
                }
            }
        }
        let excitation = self.excitation_of(node, &name)?;
        let actuator = ScalarActuator {
            name,
            optimal_force,
            excitation,
            kind,
        };
        self.push(node, Force::ScalarActuator(Box::new(actuator)))?;
        Ok(states)
    }

    fn actuated_coordinate(&self, node: Node) -> Res<CoordinateRef> {
        let (body, index, _) = self.coordinate(node)?;
        Ok(CoordinateRef { body, index })
    }

    /// The body a property names (a path, a body name, or `ground`), if the property is set.
    fn named_body(&self, node: Node, tag: &str) -> Res<Option<BodyId>> {
        let Some((el, text)) = self.doc.text(node, tag) else {
            return Ok(None);
        };
        let path = if text.starts_with('/') {
            text.clone()
        } else if text == "ground" {
            "/ground".to_string()
        } else {
            format!("/bodyset/{text}")
        };
        self.body(el, &path).map(Some)
    }
}

/// An uncontrolled `CoordinateActuator` as a joint motor on the model's control vector:
/// `τ = F·c` with gear F = `optimal_force`, as `CoordinateActuator::computeActuation`; its
/// control is zero until the user (Python's `sim.controls`, an optimiser) sets it, as OpenSim
/// gives zero control to an actuator no controller drives. `min_control`/`max_control` do not
/// clamp the control in a forward run (OpenSim clamps only in its controllers), so the motor
/// has no control range.
fn control_input(name: &str, coordinate: &CoordinateRef, optimal_force: f64) -> Actuator<f64> {
    let mut motor = Actuator::new(
        name,
        coordinate.body,
        coordinate.index,
        ActuatorKind::Motor(JointMotor),
    );
    motor.gear = optimal_force;
    motor
}

/// `[min_control, max_control]`, refusing `min_control` above `max_control` (unbounded by
/// default; the bounds do not clamp a forward run's control, as in OpenSim; Moco bounds its
/// control variables by them).
pub(super) fn check_control_bounds(doc: &Doc, node: Node) -> Res<[f64; 2]> {
    let min_control = doc.bound(node, "min_control", f64::NEG_INFINITY)?;
    let max_control = doc.bound(node, "max_control", f64::INFINITY)?;
    if min_control > max_control {
        let at = child(node, "min_control").unwrap_or(node);
        return Err(doc.err(
            at,
            format!(
                "control bounds inverted: min_control {min_control} > max_control {max_control}"
            ),
        ));
    }
    Ok([min_control, max_control])
}

/// A direction property, normalized as OpenSim's `UnitVec3` does; zero is an error.
fn unit(ctx: &ForceCtx, node: Node, tag: &str, default: [f64; 3]) -> Res<Vector3<f64>> {
    let v = Vector3::from(ctx.doc.fixed(node, tag, default)?);
    let n = v.norm();
    if !(n.is_finite() && n > 0.0) {
        let at = child(node, tag).unwrap_or(node);
        return Err(ctx
            .doc
            .err(at, format!("<{tag}> must be a nonzero direction")));
    }
    Ok(v / n)
}
