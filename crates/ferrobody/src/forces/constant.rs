//! Constant force, torque and mobility force (Simbody `Force::ConstantForce`,
//! `Force::ConstantTorque`, `Force::MobilityConstantForce`). They do no conservative work that
//! can be stored, so they define no potential energy.

use super::context::{check_mobility, check_param};
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::ModelError;
use crate::ids::BodyId;
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::Vector3;

/// Constant force `force` (Ground, N) at station `station` (body frame, m) of `body`.
#[derive(Clone, Debug)]
pub struct ConstantForce<T: Real> {
    /// The body.
    pub body: BodyId,
    /// Station in the body frame (m).
    pub station: Vector3<T>,
    /// Force in Ground (N).
    pub force: Vector3<T>,
}

/// Constant torque `torque` (Ground, N·m) on `body`.
#[derive(Clone, Debug)]
pub struct ConstantTorque<T: Real> {
    /// The body.
    pub body: BodyId,
    /// Torque in Ground (N·m).
    pub torque: Vector3<T>,
}

/// Constant generalized force on speed `speed` of `body`'s mobilizer.
#[derive(Clone, Debug)]
pub struct MobilityConstantForce<T: Real> {
    /// The mobilized body.
    pub body: BodyId,
    /// Index of the speed within the mobilizer's u.
    pub speed: usize,
    /// Generalized force (N or N·m).
    pub force: T,
}

fn cast3<T: Real, U: Real>(v: &Vector3<T>) -> Vector3<U> {
    v.map(|x| U::c(x.re()))
}

impl<T: Real> ConstantForce<T> {
    pub(crate) fn cast<U: Real>(&self) -> ConstantForce<U> {
        ConstantForce {
            body: self.body,
            station: cast3(&self.station),
            force: cast3(&self.force),
        }
    }
}

impl<T: Real> ForceElement<T> for ConstantForce<T> {
    fn name(&self) -> &str {
        "constant_force"
    }

    fn calc_force(&self, _ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        out.add_station_force(self.body, &self.station, &self.force);
    }
}

impl<T: Real> ConstantTorque<T> {
    pub(crate) fn cast<U: Real>(&self) -> ConstantTorque<U> {
        ConstantTorque {
            body: self.body,
            torque: cast3(&self.torque),
        }
    }
}

impl<T: Real> ForceElement<T> for ConstantTorque<T> {
    fn name(&self) -> &str {
        "constant_torque"
    }

    fn calc_force(&self, _ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        out.add_torque(self.body, &self.torque);
    }
}

impl<T: Real> MobilityConstantForce<T> {
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_mobility(bodies, self.body, self.speed, false)?;
        check_param("force", self.force, false)
    }

    pub(crate) fn cast<U: Real>(&self) -> MobilityConstantForce<U> {
        MobilityConstantForce {
            body: self.body,
            speed: self.speed,
            force: U::c(self.force.re()),
        }
    }
}

impl<T: Real> ForceElement<T> for MobilityConstantForce<T> {
    fn name(&self) -> &str {
        "mobility_constant_force"
    }

    fn calc_force(&self, _ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        out.add_mobility_force(self.body, self.speed, self.force);
    }
}
