//! Two-point linear spring and damper (Simbody `Force::TwoPointLinearSpring`,
//! `Force::TwoPointLinearDamper`).
//!
//! With `d = p_2 − p_1` between the stations, `ℓ = |d|`, `e = d/ℓ`:
//! spring force on station 2 `f = −k (ℓ − ℓ₀) e` (N), energy `½ k (ℓ − ℓ₀)²` (J);
//! damper force on station 2 `f = −c (ḋ·e) e`. Station 1 gets `−f`. At zero length the
//! direction is undefined and no force is applied.

use super::context::{check_body, check_param};
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::ModelError;
use crate::ids::BodyId;
use crate::scalar::Real;
use crate::tree::Body;
use nalgebra::Vector3;

/// Linear spring between station `p1` of `body1` and station `p2` of `body2`.
#[derive(Clone, Debug)]
pub struct TwoPointLinearSpring<T: Real> {
    /// First body.
    pub body1: BodyId,
    /// Station on body 1 (body frame, m).
    pub p1: Vector3<T>,
    /// Second body.
    pub body2: BodyId,
    /// Station on body 2 (body frame, m).
    pub p2: Vector3<T>,
    /// Stiffness k (N/m).
    pub stiffness: T,
    /// Rest length ℓ₀ (m).
    pub rest_length: T,
}

/// Linear damper between station `p1` of `body1` and station `p2` of `body2`.
#[derive(Clone, Debug)]
pub struct TwoPointLinearDamper<T: Real> {
    /// First body.
    pub body1: BodyId,
    /// Station on body 1 (body frame, m).
    pub p1: Vector3<T>,
    /// Second body.
    pub body2: BodyId,
    /// Station on body 2 (body frame, m).
    pub p2: Vector3<T>,
    /// Damping c (N·s/m).
    pub damping: T,
}

/// Separation vector, unit direction and length between the two stations (None at zero length).
fn separation<T: Real>(
    ctx: &ForceContext<'_, T>,
    b1: BodyId,
    p1: &Vector3<T>,
    b2: BodyId,
    p2: &Vector3<T>,
) -> Option<(Vector3<T>, T)> {
    let d = ctx.station_position(b2, p2) - ctx.station_position(b1, p1);
    let len = d.norm();
    (len.re() > 0.0).then(|| (d / len, len))
}

impl<T: Real> TwoPointLinearSpring<T> {
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_body(bodies, self.body1)?;
        check_body(bodies, self.body2)?;
        check_param("stiffness", self.stiffness, true)?;
        check_param("rest length", self.rest_length, true)
    }

    pub(crate) fn cast<U: Real>(&self) -> TwoPointLinearSpring<U> {
        TwoPointLinearSpring {
            body1: self.body1,
            p1: self.p1.map(|x| U::c(x.re())),
            body2: self.body2,
            p2: self.p2.map(|x| U::c(x.re())),
            stiffness: U::c(self.stiffness.re()),
            rest_length: U::c(self.rest_length.re()),
        }
    }
}

impl<T: Real> ForceElement<T> for TwoPointLinearSpring<T> {
    fn name(&self) -> &str {
        "two_point_linear_spring"
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        if let Some((e, len)) = separation(ctx, self.body1, &self.p1, self.body2, &self.p2) {
            let f2 = e * (-(self.stiffness * (len - self.rest_length)));
            out.add_station_force(self.body2, &self.p2, &f2);
            out.add_station_force(self.body1, &self.p1, &(-f2));
        }
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        let d =
            ctx.station_position(self.body2, &self.p2) - ctx.station_position(self.body1, &self.p1);
        let stretch = d.norm() - self.rest_length;
        self.stiffness * stretch * stretch * T::c(0.5)
    }
}

impl<T: Real> TwoPointLinearDamper<T> {
    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_body(bodies, self.body1)?;
        check_body(bodies, self.body2)?;
        check_param("damping", self.damping, true)
    }

    pub(crate) fn cast<U: Real>(&self) -> TwoPointLinearDamper<U> {
        TwoPointLinearDamper {
            body1: self.body1,
            p1: self.p1.map(|x| U::c(x.re())),
            body2: self.body2,
            p2: self.p2.map(|x| U::c(x.re())),
            damping: U::c(self.damping.re()),
        }
    }
}

impl<T: Real> ForceElement<T> for TwoPointLinearDamper<T> {
    fn name(&self) -> &str {
        "two_point_linear_damper"
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        if let Some((e, _)) = separation(ctx, self.body1, &self.p1, self.body2, &self.p2) {
            let rate = (ctx.station_velocity(self.body2, &self.p2)
                - ctx.station_velocity(self.body1, &self.p1))
            .dot(&e);
            let f2 = e * (-(self.damping * rate));
            out.add_station_force(self.body2, &self.p2, &f2);
            out.add_station_force(self.body1, &self.p1, &(-f2));
        }
    }
}
