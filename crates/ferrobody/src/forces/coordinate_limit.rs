//! Coordinate limit force (OpenSim `CoordinateLimitForce`): a soft joint stop on one
//! coordinate, a stiffness that rises smoothly past each limit, and damping that fades in
//! with it.
//!
//! With `K↑(q) = step(q; 0 → k↑ over [q↑, q↑ + Δ])` and `K↓(q) = step(q; k↓ → 0 over
//! [q↓ − Δ, q↓])`, Simbody's quintic `step(x) = x³ (10 − 15x + 6x²)`:
//! `τ = −K↑ (q − q↑) + K↓ (q↓ − q) − c (K↑/k↑ + K↓/k↓) u` (N·m or N), on the coordinate's
//! speed. Energy (J), with `δ` the depth past the limit and `x = δ/Δ`:
//! `k x³ (2 − 2.5x + 6x²/7) δ²` inside the transition, `k (δ²/2 − Δ²/7)` beyond it.
//!
//! Values are in SI units here (rad, N·m/rad, N·m·s/rad); OpenSim's file gives rotational
//! limits and transition in degrees and stiffness and damping per degree, which the .osim
//! reader converts as OpenSim's `extendConnectToModel` does. Source: OpenSim
//! `CoordinateLimitForce.cpp`; Simbody `Function::Step`.

use super::context::{check_mobility, check_param};
use super::{ForceAccumulator, ForceContext, ForceElement};
use crate::error::{invalid, ModelError};
use crate::ids::{BodyId, ZId};
use crate::scalar::Real;
use crate::tree::Body;

/// A soft limit on coordinate `coordinate` of `body`'s mobilizer.
#[derive(Clone, Debug)]
pub struct CoordinateLimitForce<T: Real> {
    /// A name for messages.
    pub name: String,
    /// The mobilized body.
    pub body: BodyId,
    /// Index of the coordinate within the mobilizer's q (and of its speed within u).
    pub coordinate: usize,
    /// Upper limit q↑ (rad or m).
    pub upper_limit: T,
    /// Stiffness beyond the upper limit k↑ (N·m/rad or N/m), positive.
    pub upper_stiffness: T,
    /// Lower limit q↓ (rad or m).
    pub lower_limit: T,
    /// Stiffness beyond the lower limit k↓, positive.
    pub lower_stiffness: T,
    /// Damping c at full stiffness (N·m·s/rad or N·s/m).
    pub damping: T,
    /// Width Δ of the transition to full stiffness (rad or m), positive.
    pub transition: T,
    /// An auxiliary state variable integrating the dissipated power, if wanted (OpenSim's
    /// `compute_dissipation_energy`; it also enters the integrator's error control).
    pub dissipated_energy: Option<ZId>,
}

/// Simbody's `Function::Step(y0, y1, x0, x1)` at `x`.
fn step<T: Real>(y0: T, y1: T, x0: T, x1: T, x: T) -> T {
    let sign = if x1.re() > x0.re() { 1.0 } else { -1.0 };
    if (x - x0).re() * sign <= 0.0 {
        return y0;
    }
    if (x - x1).re() * sign >= 0.0 {
        return y1;
    }
    let t = (x - x0) * (T::one() / (x1 - x0));
    let up = t * t * t * (T::c(10.0) + t * (t * T::c(6.0) - T::c(15.0)));
    y0 + up * (y1 - y0)
}

impl<T: Real> CoordinateLimitForce<T> {
    /// The stiffnesses `(K↑, K↓)` at `q`.
    fn stiffnesses(&self, q: T) -> (T, T) {
        let k_up = step(
            T::zero(),
            self.upper_stiffness,
            self.upper_limit,
            self.upper_limit + self.transition,
            q,
        );
        let k_low = step(
            self.lower_stiffness,
            T::zero(),
            self.lower_limit - self.transition,
            self.lower_limit,
            q,
        );
        (k_up, k_low)
    }

    pub(crate) fn validate(&self, bodies: &[Body<T>]) -> Result<(), ModelError> {
        check_mobility(bodies, self.body, self.coordinate, true)?;
        // OpenSim reads the coordinate's q and its speed u (`getOneU` at the same index) and
        // applies the force to that u, so Euler-angle mobilizers (q̇ = N(q)u) qualify; a
        // quaternion's four q have no coordinate to limit.
        if bodies[self.body.0].mobilizer.quaternion_offset().is_some() {
            return Err("a coordinate limit needs a mobilizer without a quaternion".into());
        }
        for (name, v) in [
            ("upper_stiffness", self.upper_stiffness),
            ("lower_stiffness", self.lower_stiffness),
            ("transition", self.transition),
        ] {
            check_param(name, v, true)?;
            if v.re() == 0.0 {
                return Err(invalid!("{name} must be positive"));
            }
        }
        check_param("damping", self.damping, true)?;
        check_param("upper_limit", self.upper_limit, false)?;
        check_param("lower_limit", self.lower_limit, false)
    }

    pub(crate) fn cast<U: Real>(&self) -> CoordinateLimitForce<U> {
        let c = |x: T| U::c(x.re());
        CoordinateLimitForce {
            name: self.name.clone(),
            body: self.body,
            coordinate: self.coordinate,
            upper_limit: c(self.upper_limit),
            upper_stiffness: c(self.upper_stiffness),
            lower_limit: c(self.lower_limit),
            lower_stiffness: c(self.lower_stiffness),
            damping: c(self.damping),
            transition: c(self.transition),
            dissipated_energy: self.dissipated_energy,
        }
    }
}

impl<T: Real> ForceElement<T> for CoordinateLimitForce<T> {
    fn name(&self) -> &str {
        &self.name
    }

    fn calc_force(&self, ctx: &ForceContext<'_, T>, out: &mut ForceAccumulator<'_, T>) {
        let q = ctx.body_q(self.body)[self.coordinate];
        let u = ctx.body_u(self.body)[self.coordinate];
        let (k_up, k_low) = self.stiffnesses(q);
        let f_up = -(k_up * (q - self.upper_limit));
        let f_low = k_low * (self.lower_limit - q);
        let f_damp =
            -(self.damping * (k_up / self.upper_stiffness + k_low / self.lower_stiffness) * u);
        out.add_mobility_force(self.body, self.coordinate, f_up + f_low + f_damp);
        if let Some(z) = self.dissipated_energy {
            out.set_zdot(z, -(u * f_damp));
        }
    }

    fn potential_energy(&self, ctx: &ForceContext<'_, T>) -> T {
        let q = ctx.body_q(self.body)[self.coordinate];
        let (k, delta) = if q.re() > self.upper_limit.re() {
            (self.upper_stiffness, q - self.upper_limit)
        } else if q.re() < self.lower_limit.re() {
            (self.lower_stiffness, self.lower_limit - q)
        } else {
            return T::zero();
        };
        let trans = self.transition;
        if delta.re() >= trans.re() {
            k * (T::c(-2.0 / 14.0) * trans * trans + T::c(0.5) * delta * delta)
        } else {
            let x = delta / trans;
            k * x * x * x * (T::c(2.0) - T::c(2.5) * x + T::c(6.0 / 7.0) * x * x) * (delta * delta)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::step;

    #[test]
    fn step_is_smooth_and_saturates() {
        assert_eq!(step(0.0, 2.0, 1.0, 3.0, 0.5), 0.0);
        assert_eq!(step(0.0, 2.0, 1.0, 3.0, 3.5), 2.0);
        assert!((step(0.0f64, 2.0, 1.0, 3.0, 2.0) - 1.0).abs() < 1e-15);
        // Descending step (the lower limit's): from 5 at x0 = -1 to 0 at x1 = 0.
        assert_eq!(step(5.0, 0.0, -1.0, 0.0, -2.0), 5.0);
        assert!((step(5.0f64, 0.0, -1.0, 0.0, -0.5) - 2.5).abs() < 1e-14);
    }
}
