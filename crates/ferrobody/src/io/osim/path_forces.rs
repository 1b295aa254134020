//! OpenSim's `PathActuator`, `PathSpring`, `Ligament`, `Blankevoort1991Ligament` and
//! `ExpressionBasedPathForce` (`resting_length` 0, `clamp_stretch` true and `expression`
//! `0.0` by default; whitespace removed before parsing, as OpenSim removes it) as
//! [`PathForce`]s on the same geometry paths as the muscles (points, conditional and moving
//! points, wrap objects). A `PathActuator` takes its `PrescribedController` function of time
//! as its control, else zero, as in OpenSim. A `Ligament`'s `force_length_curve` is any
//! OpenSim function ([`function_property`]), OpenSim's default SimmSpline when left out.

use super::custom_joint::function_property;
use super::document::{tag_of, Res};
use super::forces::ForceCtx;
use crate::model::Force;
use crate::muscles::{default_ligament_curve, PathForce, PathForceLaw};
use roxmltree::Node;

/// The path-force tags this reader simulates.
pub(super) const SUPPORTED: [&str; 5] = [
    "PathActuator",
    "PathSpring",
    "Ligament",
    "Blankevoort1991Ligament",
    "ExpressionBasedPathForce",
];

impl ForceCtx<'_, '_, '_> {
    /// Adds a `PathActuator` or `PathSpring`.
    pub(super) fn path_force(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let name = node.attribute("name").unwrap_or("path_force").to_string();
        let tag = tag_of(node);
        let law = if tag == "PathSpring" {
            PathForceLaw::Spring {
                resting_length: doc.scalar(node, "resting_length", f64::NAN)?,
                stiffness: doc.scalar(node, "stiffness", f64::NAN)?,
                dissipation: doc.scalar(node, "dissipation", f64::NAN)?,
            }
        } else if tag == "Blankevoort1991Ligament" {
            PathForceLaw::Blankevoort {
                slack_length: doc.scalar(node, "slack_length", 0.0)?,
                linear_stiffness: doc.scalar(node, "linear_stiffness", 1.0)?,
                transition_strain: doc.scalar(node, "transition_strain", 0.06)?,
                damping_coefficient: doc.scalar(node, "damping_coefficient", 0.003)?,
            }
        } else if tag == "ExpressionBasedPathForce" {
            let expression =
                self.expression_property(node, "expression", &PathForce::EXPRESSION_VARIABLES)?;
            PathForceLaw::Expression {
                resting_length: doc.scalar(node, "resting_length", 0.0)?,
                clamp_stretch: doc.boolean(node, "clamp_stretch", true)?,
                expression,
            }
        } else if tag == "Ligament" {
            PathForceLaw::Ligament {
                resting_length: doc.scalar(node, "resting_length", 0.0)?,
                pcsa_force: doc.scalar(node, "pcsa_force", 0.0)?,
                force_length_curve: function_property(doc, node, "force_length_curve")?
                    .unwrap_or_else(default_ligament_curve),
            }
        } else {
            let bounds = super::actuators::check_control_bounds(doc, node)?;
            self.control_bounds.insert(name.clone(), bounds);
            PathForceLaw::Actuator {
                optimal_force: doc.scalar(node, "optimal_force", 1.0)?,
                control: self.excitation_of(node, &name)?,
            }
        };
        let path = self.geometry_path(node)?;
        let force = PathForce { name, path, law };
        self.push(node, Force::PathForce(Box::new(force)))?;
        Ok(())
    }
}
