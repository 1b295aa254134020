//! Mobility linear spring and damper (Simbody `Force::MobilityLinearSpring`,
//! `Force::MobilityLinearDamper`): generalized force `−k (q − q₀)` on one coordinate's speed
//! (energy `½ k (q − q₀)²`), and `−c u` on one speed. The spring acts on coordinate k and speed
//! k of the same mobilizer, so it needs a mobilizer whose q̇ = u for that coordinate (every
//! kind but the quaternion ones).

use super::context::{check_mobility, check_param};
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::ModelError;
use crate::ids::BodyId;
use crate::scalar::Real;
use crate::tree::Body;

/// Linear spring on coordinate `coordinate` of `body`'s mobilizer.
#[derive(Clone, Debug)]
pub struct MobilityLinearSpring<T: Real> {
    /// The mobilized body.
    pub body: BodyId,
    /// Index of the coordinate within the mobilizer's q (and of the speed within its u).
    pub coordinate: usize,
    /// Stiffness k (N·m/rad or N/m).
    pub stiffness: T,
    /// Neutral position q₀ (rad or m).
    pub q0: T,
}

/// Linear damper on speed `speed` of `body`'s mobilizer.
#[derive(Clone, Debug)]
pub struct MobilityLinearDamper<T: Real> {
    /// The mobilized body.
    pub body: BodyId,
    /// Index of the speed within the mobilizer's u.
    pub speed: usize,
    /// Damping c (N·m·s/rad or N·s/m).
    pub damping: T,
}

impl<T: Real> MobilityLinearSpring<T> {
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_mobility(bodies, self.body, self.coordinate, true)?;
        if bodies[self.body.0].mobilizer.quaternion_offset().is_some() {
            return Err("a mobility spring cannot act on a quaternion mobilizer".into());
        }
        check_param("stiffness", self.stiffness, true)?;
        check_param("q0", self.q0, false)
    }

    pub(crate) fn cast<U: Real>(&self) -> MobilityLinearSpring<U> {
        MobilityLinearSpring {
            body: self.body,
            coordinate: self.coordinate,
            stiffness: U::c(self.stiffness.re()),
            q0: U::c(self.q0.re()),
        }
    }
}

impl<T: Real> ForceElement<T> for MobilityLinearSpring<T> {
    fn name(&self) -> &str {
        "mobility_linear_spring"
    }

    #[inline(always)]
    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let q = ctx.q_of(self.body, self.coordinate);
        out.add_mobility_force(
            self.body,
            self.coordinate,
            -(self.stiffness * (q - self.q0)),
        );
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        let dq = ctx.body_q(self.body)[self.coordinate] - self.q0;
        self.stiffness * dq * dq * T::c(0.5)
    }
}

impl<T: Real> MobilityLinearDamper<T> {
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_mobility(bodies, self.body, self.speed, false)?;
        check_param("damping", self.damping, true)
    }

    pub(crate) fn cast<U: Real>(&self) -> MobilityLinearDamper<U> {
        MobilityLinearDamper {
            body: self.body,
            speed: self.speed,
            damping: U::c(self.damping.re()),
        }
    }
}

impl<T: Real> ForceElement<T> for MobilityLinearDamper<T> {
    fn name(&self) -> &str {
        "mobility_linear_damper"
    }

    #[inline(always)]
    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let u = ctx.u_of(self.body, self.speed);
        out.add_mobility_force(self.body, self.speed, -(self.damping * u));
    }
}
