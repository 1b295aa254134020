//! OpenSim's `ExpressionBasedPointToPointForce`: a force along the line between station `p1`
//! of body 1 and station `p2` of body 2 whose magnitude is an expression of their distance `d`
//! (m) and its rate `ddot` (m/s) in Lepton's syntax ([`crate::math::expression`]); N. A
//! positive magnitude pulls the points together:
//!
//! ```text
//!   r = p2_G − p1_G,  d = |r|,  ḋ = (v2_G − v1_G)·r / d,
//!   f1 = (F(d, ḋ) / d) r  on body 1 at p1,   −f1 on body 2 at p2,
//! ```
//!
//! OpenSim's arithmetic, in its order. At d = 0 the direction is undefined and the force is
//! NaN, as in OpenSim (a run stops with a clear error). It stores no energy OpenSim reports.
//!
//! Source: OpenSim 4.6 `OpenSim/Simulation/Model/ExpressionBasedPointToPointForce.cpp`
//! (`implProduceForces`).

use super::context::check_body;
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::ModelError;
use crate::ids::BodyId;
use crate::math::expression::Expression;
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::Vector3;

/// A force between two stations given by an expression of their distance and its rate.
#[derive(Clone, Debug, PartialEq)]
pub struct PointToPointExpressionForce {
    /// Its name.
    pub name: String,
    /// The first body.
    pub body1: BodyId,
    /// The station on body 1 (body frame, m).
    pub p1: Vector3<f64>,
    /// The second body.
    pub body2: BodyId,
    /// The station on body 2 (body frame, m).
    pub p2: Vector3<f64>,
    /// `F(d, ddot)`, parsed with the variables `["d", "ddot"]`.
    pub expression: Expression,
}

impl PointToPointExpressionForce {
    /// The variable names the expression is parsed with.
    pub const VARIABLES: [&'static str; 2] = ["d", "ddot"];

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Checks the two bodies.
    pub fn validate<T: Real>(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_body(bodies, self.body1)?;
        check_body(bodies, self.body2)
    }
}

impl<T: Real> ForceElement<T> for PointToPointExpressionForce {
    fn name(&self) -> &str {
        PointToPointExpressionForce::name(self)
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let p1 = self.p1.map(T::c);
        let p2 = self.p2.map(T::c);
        let r_g = ctx.station_position(self.body2, &p2) - ctx.station_position(self.body1, &p1);
        let d = r_g.norm();
        let v_rel = ctx.station_velocity(self.body2, &p2) - ctx.station_velocity(self.body1, &p1);
        let ddot = v_rel.dot(&r_g) / d;
        let magnitude = self.expression.eval(&[d, ddot]);
        let f1 = r_g * (magnitude / d);
        out.add_station_force(self.body1, &p1, &f1);
        out.add_station_force(self.body2, &p2, &(-f1));
    }

    fn potential_energy(&self, _ctx: &ForceContext<'_, T>) -> T {
        T::zero()
    }
}
