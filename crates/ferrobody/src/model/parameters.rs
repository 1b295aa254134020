//! Force parameters by name on a built model, for parameter sweeps (Python's
//! `Model.with_parameters`): contact stiffness, dissipation, friction and transition velocity,
//! the smooth model's smoothing constants, the exponential spring's shape and damping, linear
//! springs' stiffness and rest length. Every change is validated as the scene loader validates
//! the same key; a refused change leaves the model as it was.
//!
//! A Hunt–Crossley element's material parameters apply to all of its surfaces (the scene
//! format's `[material.NAME]` tables are per surface; a set usually shares one); an elastic
//! foundation's, to all of its meshes (the only surfaces with parameters). The
//! exponential spring's friction coefficients μs, μk are discrete state variables, changed
//! in the state, not here.

use super::Force;
use crate::contact::{ElasticFoundationForce, FoundationShape, HuntCrossleyForce};
use crate::error::{invalid, Error, ModelError, Result};
use crate::model::Model;
use crate::scalar::Real;

/// The parameter names of each kind of force element that has any.
fn names<T: Real>(f: &Force<T>) -> &'static [&'static str] {
    match f {
        Force::HuntCrossley(_) | Force::ElasticFoundation(_) => &[
            "stiffness",
            "dissipation",
            "static_friction",
            "dynamic_friction",
            "viscous_friction",
            "transition_velocity",
        ],
        Force::SmoothSphereHalfSpace(_) => &[
            "stiffness",
            "dissipation",
            "static_friction",
            "dynamic_friction",
            "viscous_friction",
            "transition_velocity",
            "constant_contact_force",
            "hertz_smoothing",
            "hunt_crossley_smoothing",
            "sphere_radius",
        ],
        Force::ExponentialSpring(_) => &[
            "d0",
            "d1",
            "d2",
            "normal_viscosity",
            "max_normal_force",
            "friction_elasticity",
            "friction_viscosity",
            "settle_velocity",
        ],
        Force::TwoPointLinearSpring(_) => &["stiffness", "rest_length"],
        Force::MobilityLinearSpring(_) => &["stiffness", "q0"],
        _ => &[],
    }
}

/// The field a parameter name stands for (Hunt–Crossley elements are handled apart).
fn slot<'a, T: Real>(f: &'a mut Force<T>, parameter: &str) -> Option<&'a mut T> {
    Some(match (f, parameter) {
        (Force::SmoothSphereHalfSpace(s), p) => {
            let k = &mut s.parameters;
            match p {
                "stiffness" => &mut k.stiffness,
                "dissipation" => &mut k.dissipation,
                "static_friction" => &mut k.static_friction,
                "dynamic_friction" => &mut k.dynamic_friction,
                "viscous_friction" => &mut k.viscous_friction,
                "transition_velocity" => &mut k.transition_velocity,
                "constant_contact_force" => &mut k.constant_contact_force,
                "hertz_smoothing" => &mut k.hertz_smoothing,
                "hunt_crossley_smoothing" => &mut k.hunt_crossley_smoothing,
                "sphere_radius" => &mut s.sphere_radius,
                _ => return None,
            }
        }
        (Force::ExponentialSpring(e), p) => {
            let k = &mut e.parameters;
            match p {
                "d0" => &mut k.d0,
                "d1" => &mut k.d1,
                "d2" => &mut k.d2,
                "normal_viscosity" => &mut k.normal_viscosity,
                "max_normal_force" => &mut k.max_normal_force,
                "friction_elasticity" => &mut k.friction_elasticity,
                "friction_viscosity" => &mut k.friction_viscosity,
                "settle_velocity" => &mut k.settle_velocity,
                _ => return None,
            }
        }
        (Force::TwoPointLinearSpring(s), "stiffness") => &mut s.stiffness,
        (Force::TwoPointLinearSpring(s), "rest_length") => &mut s.rest_length,
        (Force::MobilityLinearSpring(s), "stiffness") => &mut s.stiffness,
        (Force::MobilityLinearSpring(s), "q0") => &mut s.q0,
        _ => return None,
    })
}

/// A Hunt–Crossley element with one parameter changed on every surface, rebuilt (and so
/// validated) by its constructor.
fn hunt_crossley_with<T: Real>(
    hc: &HuntCrossleyForce<T>,
    parameter: &str,
    value: T,
) -> std::result::Result<HuntCrossleyForce<T>, ModelError> {
    let mut materials = hc.materials().to_vec();
    let mut transition_velocity = hc.transition_velocity;
    for m in &mut materials {
        match parameter {
            "stiffness" => m.stiffness = value,
            "dissipation" => m.dissipation = value,
            "static_friction" => m.static_friction = value,
            "dynamic_friction" => m.dynamic_friction = value,
            "viscous_friction" => m.viscous_friction = value,
            "transition_velocity" => transition_velocity = value,
            _ => return Err(invalid!("no parameter '{parameter}'")),
        }
    }
    HuntCrossleyForce::new(
        &hc.name,
        hc.surfaces().to_vec(),
        materials,
        transition_velocity,
        hc.friction,
    )
}

/// An elastic-foundation element with one parameter changed on every mesh (or its transition
/// velocity), rebuilt (and so validated) by its constructor.
fn elastic_foundation_with<T: Real>(
    ef: &ElasticFoundationForce<T>,
    parameter: &str,
    value: T,
) -> std::result::Result<ElasticFoundationForce<T>, ModelError> {
    let mut surfaces = ef.surfaces().to_vec();
    let mut transition_velocity = ef.transition_velocity;
    for s in &mut surfaces {
        if let FoundationShape::Mesh(_, p) = &mut s.shape {
            match parameter {
                "stiffness" => p.stiffness = value,
                "dissipation" => p.dissipation = value,
                "static_friction" => p.static_friction = value,
                "dynamic_friction" => p.dynamic_friction = value,
                "viscous_friction" => p.viscous_friction = value,
                "transition_velocity" => transition_velocity = value,
                _ => return Err(invalid!("no parameter '{parameter}'")),
            }
        }
    }
    ElasticFoundationForce::new(&ef.name, surfaces, transition_velocity)
}

impl Model<f64> {
    /// Sets `parameter` of the force element named `force` to `value` (see the module docs
    /// for the names). Errors name the force, the parameter and, for an unknown parameter,
    /// the ones that exist; the model is unchanged on error.
    pub fn set_force_parameter(&mut self, force: &str, parameter: &str, value: f64) -> Result<()> {
        if !value.is_finite() {
            return Err(Error::Model(ModelError::NonFinite {
                what: format!("force '{force}'.{parameter}"),
                value,
            }));
        }
        self.set_force_parameter_value(force, parameter, value)
    }
}

impl<T: Real> Model<T> {
    /// Sets `parameter` of the force element named `force` to a value of the model's scalar
    /// type, checked by the element's own rules: on a dual-number model, a value with a unit
    /// derivative part seeds the derivative with respect to that parameter
    /// (`derivatives::StepJacobian`). The model is unchanged on error.
    pub fn set_force_parameter_value(
        &mut self,
        force: &str,
        parameter: &str,
        value: T,
    ) -> Result<()> {
        let err = |m: ModelError| Error::model(format!("force '{force}'.{parameter}: {m}"));
        let index = self
            .forces
            .iter()
            .position(|f| f.name() == force)
            .ok_or_else(|| {
                let known: Vec<&str> = self.forces.iter().map(|f| f.name()).collect();
                Error::model(format!(
                    "no force named '{force}' (forces: {})",
                    known.join(", ")
                ))
            })?;
        if !names(&self.forces[index]).contains(&parameter) {
            let known = names(&self.forces[index]);
            return Err(err(if known.is_empty() {
                "this force has no settable parameters".into()
            } else {
                invalid!("no such parameter (this force has: {})", known.join(", "))
            }));
        }
        if let Force::HuntCrossley(hc) = &self.forces[index] {
            let changed = hunt_crossley_with(hc, parameter, value).map_err(err)?;
            self.forces[index] = Force::HuntCrossley(changed);
            return Ok(());
        }
        if let Force::ElasticFoundation(ef) = &self.forces[index] {
            let changed = elastic_foundation_with(ef, parameter, value).map_err(err)?;
            self.forces[index] = Force::ElasticFoundation(changed);
            return Ok(());
        }
        let mut changed = self.forces[index].clone();
        if let Some(field) = slot(&mut changed, parameter) {
            *field = value;
        }
        if let Force::SmoothSphereHalfSpace(s) = &mut changed {
            s.refresh();
        }
        changed.validate(&self.bodies).map_err(err)?;
        self.forces[index] = changed;
        Ok(())
    }
}

impl Model<f64> {
    /// The value of `parameter` of the force element named `force` (for a Hunt–Crossley
    /// element's material parameters: its first surface's; for an elastic foundation: its
    /// first mesh's).
    pub fn force_parameter(&self, force: &str, parameter: &str) -> Result<f64> {
        let f = self
            .forces
            .iter()
            .find(|f| f.name() == force)
            .ok_or_else(|| Error::model(format!("no force named '{force}'")))?;
        let unknown = || Error::model(format!("force '{force}': no parameter '{parameter}'"));
        if let Force::HuntCrossley(hc) = f {
            let m = hc.materials().first().ok_or_else(unknown)?;
            return Ok(match parameter {
                "stiffness" => m.stiffness,
                "dissipation" => m.dissipation,
                "static_friction" => m.static_friction,
                "dynamic_friction" => m.dynamic_friction,
                "viscous_friction" => m.viscous_friction,
                "transition_velocity" => hc.transition_velocity,
                _ => return Err(unknown()),
            });
        }
        if let Force::ElasticFoundation(ef) = f {
            let p = ef
                .surfaces()
                .iter()
                .find_map(|s| match &s.shape {
                    FoundationShape::Mesh(_, p) => Some(*p),
                    FoundationShape::Solid(_) => None,
                })
                .ok_or_else(unknown)?;
            return Ok(match parameter {
                "stiffness" => p.stiffness,
                "dissipation" => p.dissipation,
                "static_friction" => p.static_friction,
                "dynamic_friction" => p.dynamic_friction,
                "viscous_friction" => p.viscous_friction,
                "transition_velocity" => ef.transition_velocity,
                _ => return Err(unknown()),
            });
        }
        let mut copy = f.clone();
        slot(&mut copy, parameter).map(|v| *v).ok_or_else(unknown)
    }
}
