//! OpenSim's `PathActuator` and `PathSpring` as [`PathForce`]s on the same geometry paths as
//! the muscles (points, conditional and moving points, wrap objects). A `PathActuator` takes
//! its `PrescribedController` function of time as its control, else zero, as in OpenSim.

use super::document::{tag_of, Res};
use super::forces::ForceCtx;
use crate::model::Force;
use crate::muscles::{PathForce, PathForceLaw};
use roxmltree::Node;

/// The path-force tags this reader simulates.
pub(super) const SUPPORTED: [&str; 2] = ["PathActuator", "PathSpring"];

impl ForceCtx<'_, '_, '_> {
    /// Adds a `PathActuator` or `PathSpring`.
    pub(super) fn path_force(&mut self, node: Node) -> Res<()> {
        let doc = self.doc;
        let name = node.attribute("name").unwrap_or("path_force").to_string();
        let law = if tag_of(node) == "PathSpring" {
            PathForceLaw::Spring {
                resting_length: doc.scalar(node, "resting_length", f64::NAN)?,
                stiffness: doc.scalar(node, "stiffness", f64::NAN)?,
                dissipation: doc.scalar(node, "dissipation", f64::NAN)?,
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
