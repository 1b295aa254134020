//! Adding path constraints to a problem, by name and checked as Moco checks them
//! ([`crate::path_constraints`] has their equations).

use crate::contact_tracking::Projection;
use crate::error::{OptimizeError, Result};
use crate::path_constraints::{ControlBound, FrameDistance, FramePair, PathConstraint};
use crate::problem::{Problem, Variable};
use ferrobody::math::function::Function;
use ferrobody::nalgebra::Vector3;

impl Problem {
    /// Adds a path constraint, enforced at every mesh point (checked against the model).
    pub fn add_path_constraint(&mut self, constraint: PathConstraint) -> Result<()> {
        let bad = |m: String| Err(OptimizeError::InvalidGoal(m));
        match &constraint {
            PathConstraint::ControlBound(b) => {
                let nc = self.control_names.len();
                if let Some(k) = b.controls.iter().find(|&&k| k >= nc) {
                    return bad(format!("control_bound: control {k} of {nc}"));
                }
                if b.equality_with_lower && (b.upper.is_some() || b.lower.is_none()) {
                    return bad("control_bound: equality_with_lower needs a lower bound \
                                function and no upper one"
                        .to_string());
                }
            }
            PathConstraint::FrameDistance(d) => {
                let nb = self.model.bodies().len();
                for p in &d.pairs {
                    if p.first.0 .0 >= nb || p.second.0 .0 >= nb {
                        return bad("frame_distance: a body index is not in the model".into());
                    }
                    if !(p.minimum >= 0.0 && p.maximum >= p.minimum) {
                        return bad(format!(
                            "frame_distance: distances [{}, {}] must satisfy 0 ≤ minimum ≤ \
                             maximum",
                            p.minimum, p.maximum
                        ));
                    }
                }
                if let Projection::Vector(v) | Projection::Plane(v) = d.projection {
                    if v.norm().is_nan() || v.norm() == 0.0 {
                        return bad(format!(
                            "frame_distance: projection vector {v:?} has no direction"
                        ));
                    }
                }
            }
        }
        self.path_constraints.push(constraint);
        Ok(())
    }

    /// Moco's `MocoControlBoundConstraint`: the named controls within `lower(t)` and
    /// `upper(t)` (either may be absent), or equal to `lower(t)` with `equality_with_lower`.
    pub fn add_control_bound(
        &mut self,
        controls: &[&str],
        lower: Option<Function>,
        upper: Option<Function>,
        equality_with_lower: bool,
    ) -> Result<()> {
        let mut indices = Vec::new();
        for name in controls {
            match self.variable(name)? {
                Variable::Control(k) => indices.push(k),
                Variable::State(_) => {
                    return Err(OptimizeError::InvalidGoal(format!(
                        "control_bound: '{name}' is a state, not a control"
                    )))
                }
            }
        }
        self.add_path_constraint(PathConstraint::ControlBound(Box::new(ControlBound {
            controls: indices,
            lower,
            upper,
            equality_with_lower,
        })))
    }

    /// Moco's `MocoFrameDistanceConstraint`: for each (body 1, body 2, minimum, maximum), the
    /// distance between the bodies' origins — or `points` on them (m, body frames) — projected
    /// by `projection`, within [minimum, maximum] (m). Bodies by name or `/bodyset/NAME`.
    pub fn add_frame_distance(
        &mut self,
        pairs: &[(&str, &str, f64, f64)],
        points: Option<&[([f64; 3], [f64; 3])]>,
        projection: Projection,
    ) -> Result<()> {
        let mut built = Vec::new();
        for (i, &(a, b, minimum, maximum)) in pairs.iter().enumerate() {
            let (pa, pb) = points.and_then(|p| p.get(i)).copied().unwrap_or_default();
            built.push(FramePair {
                first: (self.body(a)?, Vector3::from(pa)),
                second: (self.body(b)?, Vector3::from(pb)),
                minimum,
                maximum,
            });
        }
        let projection = match projection {
            Projection::Vector(v) if v.norm() > 0.0 => Projection::Vector(v.normalize()),
            Projection::Plane(v) if v.norm() > 0.0 => Projection::Plane(v.normalize()),
            other => other,
        };
        self.add_path_constraint(PathConstraint::FrameDistance(FrameDistance {
            pairs: built,
            projection,
        }))
    }

    /// The body named `name` (or `/bodyset/NAME`, `/ground`).
    fn body(&self, name: &str) -> Result<ferrobody::BodyId> {
        let short = name.rsplit('/').next().unwrap_or(name);
        self.model.body_id(short).ok_or_else(|| {
            let known: Vec<&str> = self
                .model
                .bodies()
                .iter()
                .map(|b| b.name.as_str())
                .collect();
            OptimizeError::InvalidGoal(format!(
                "frame_distance: the model has no body '{name}' (it has: {})",
                known.join(", ")
            ))
        })
    }
}
