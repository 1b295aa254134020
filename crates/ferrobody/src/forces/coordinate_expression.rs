//! OpenSim's `ExpressionBasedCoordinateForce`: a generalized force `τ = f(q, q̇)` on one
//! coordinate, f an expression of the coordinate's value `q` and speed `qdot` (the u at the
//! coordinate's index) in Lepton's syntax ([`crate::math::expression`]); N·m or N. It stores
//! no energy OpenSim reports: no potential energy.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/ExpressionBasedCoordinateForce.cpp`
//! (`computeForce`).

use super::context::check_mobility;
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::ModelError;
use crate::ids::BodyId;
use crate::math::expression::Expression;
use crate::scalar::Real;
use crate::tree::Body;

/// A generalized force given by an expression of one coordinate's q and u.
#[derive(Clone, Debug, PartialEq)]
pub struct CoordinateExpressionForce {
    /// Its name.
    pub name: String,
    /// The mobilized body.
    pub body: BodyId,
    /// Index of the coordinate within the mobilizer's q (and of its speed within u).
    pub coordinate: usize,
    /// `f(q, qdot)`, parsed with the variables `["q", "qdot"]`.
    pub expression: Expression,
}

impl CoordinateExpressionForce {
    /// The variable names the expression is parsed with.
    pub const VARIABLES: [&'static str; 2] = ["q", "qdot"];

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks the coordinate (a quaternion's q has none).
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_mobility(bodies, self.body, self.coordinate, false)?;
        if bodies[self.body.0].mobilizer.quaternion_offset().is_some() {
            return Err("a coordinate force needs a mobilizer without a quaternion".into());
        }
        Ok(())
    }
}

impl<T: Real> ForceElement<T> for CoordinateExpressionForce {
    fn name(&self) -> &str {
        CoordinateExpressionForce::name(self)
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let q = ctx.body_q(self.body)[self.coordinate];
        let u = ctx.body_u(self.body)[self.coordinate];
        let tau = self.expression.eval(&[q, u]);
        out.add_mobility_force(self.body, self.coordinate, tau);
    }

    fn potential_energy(&self, _ctx: &ForceContext<'_, T>) -> T {
        T::zero()
    }
}
