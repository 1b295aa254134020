//! Setting up Moco's contact-tracking goal on a problem: contacts found by name, the body the
//! measured force acts on matched to each contact's sphere or half space, the measured force's
//! columns splined ([`crate::contact_tracking`] has the goal's equations).

use crate::contact_tracking::{ContactGroup, ContactTracking, Projection};
use crate::error::{OptimizeError, Result};
use crate::external_loads::ExternalLoads;
use crate::goals::Goal;
use crate::problem::Problem;
use crate::spline::{column_spline, ReferenceSpline};
use ferrobody::model::Force;

impl Problem {
    /// Moco's `MocoContactTrackingGoal` with weight `weight`: each group is (the names of its
    /// smooth sphere/half-space contacts, the name of the measured force in `loads` they
    /// track); the error is projected by `projection` and, when `normalize`, divided per axis
    /// by the measured force's peak magnitude (`normalize_tracking_error`).
    pub fn add_contact_tracking(
        &mut self,
        weight: f64,
        loads: &ExternalLoads,
        groups: &[(Vec<String>, String)],
        projection: Projection,
        normalize: bool,
    ) -> Result<()> {
        let bad = |m: String| Err(OptimizeError::InvalidGoal(format!("contact_tracking: {m}")));
        let projection = match projection {
            Projection::None => Projection::None,
            Projection::Vector(v) | Projection::Plane(v)
                if v.norm().is_nan() || v.norm() == 0.0 =>
            {
                return bad(format!("projection vector {v:?} has no direction"));
            }
            Projection::Vector(v) => Projection::Vector(v.normalize()),
            Projection::Plane(v) => Projection::Plane(v.normalize()),
        };
        let mut built = Vec::new();
        for (contacts, force_name) in groups {
            let external = loads.force(force_name)?;
            if !external
                .force_expressed_in_body
                .eq_ignore_ascii_case("ground")
            {
                return bad(format!(
                    "external force '{force_name}' is expressed in '{}': only forces \
                     expressed in ground are supported",
                    external.force_expressed_in_body
                ));
            }
            let mut elements = Vec::new();
            for contact in contacts {
                elements.push(self.contact_element(
                    contact,
                    &external.applied_to_body,
                    force_name,
                )?);
            }
            let invalid = |m: String| OptimizeError::InvalidGoal(format!("contact_tracking: {m}"));
            // Each axis' spline and divisor (1, or its peak when normalized).
            let axis = |suffix: &str| -> Result<(ReferenceSpline, f64)> {
                let label = format!("{}{suffix}", external.force_identifier);
                let Some(col) = loads.data.labels.iter().position(|l| *l == label) else {
                    return Err(invalid(format!("the loads' data has no column '{label}'")));
                };
                let mut divisor = 1.0;
                if normalize {
                    let peak = loads
                        .data
                        .rows
                        .iter()
                        .map(|r| r[col].abs())
                        .fold(0.0, f64::max);
                    if peak < 1e-14 {
                        return Err(invalid(format!("normalize: the peak of '{label}' is zero")));
                    }
                    divisor = peak;
                }
                Ok((column_spline(&loads.data, col, &label)?, divisor))
            };
            let ((x, nx), (y, ny), (z, nz)) = (axis("x")?, axis("y")?, axis("z")?);
            let (reference, normalize_by) = ([x, y, z], [nx, ny, nz]);
            built.push(ContactGroup {
                name: force_name.clone(),
                elements,
                reference,
                normalize: normalize_by,
            });
        }
        let denominator = self.weight_of_model();
        self.add_goal(Goal::ContactTracking(ContactTracking {
            weight,
            groups: built,
            projection,
            denominator,
        }))
    }

    /// The smooth contact named `name` (or a path ending in it), with the sign that gives the
    /// force on `body`: −1 on the sphere's body, +1 on the half space's (Moco's record offsets).
    fn contact_element(&self, name: &str, body: &str, force_name: &str) -> Result<(usize, f64)> {
        let short = name.rsplit('/').next().unwrap_or(name);
        let forces = self.model.forces();
        let Some((e, force)) = forces.iter().enumerate().find(|(_, f)| f.name() == short) else {
            return Err(OptimizeError::InvalidGoal(format!(
                "contact_tracking: the model has no force named '{name}'"
            )));
        };
        let Force::SmoothSphereHalfSpace(contact) = force else {
            return Err(OptimizeError::InvalidGoal(format!(
                "contact_tracking: '{name}' is not a SmoothSphereHalfSpaceForce"
            )));
        };
        let body_name = |b: ferrobody::BodyId| self.model.bodies()[b.0].name.as_str();
        if body_name(contact.sphere_body) == body {
            Ok((e, -1.0))
        } else if body_name(contact.half_space_body) == body {
            Ok((e, 1.0))
        } else {
            Err(OptimizeError::InvalidGoal(format!(
                "contact_tracking: contact '{name}' has its sphere on '{}' and its half space \
                 on '{}'; neither is '{body}', the applied_to_body of external force \
                 '{force_name}'",
                body_name(contact.sphere_body),
                body_name(contact.half_space_body)
            )))
        }
    }

    /// The model's mass times the gravity's magnitude (its mass alone without gravity), as
    /// Moco's contact-tracking goal divides by it.
    fn weight_of_model(&self) -> f64 {
        let mass: f64 = self
            .model
            .bodies()
            .iter()
            .map(|b| b.mass_properties.mass)
            .sum();
        let g = self
            .model
            .forces()
            .iter()
            .find_map(|f| match f {
                Force::Gravity(gravity) => Some(gravity.g.norm()),
                _ => None,
            })
            .unwrap_or(0.0);
        if g > 1e-14 {
            mass * g
        } else {
            mass
        }
    }
}
