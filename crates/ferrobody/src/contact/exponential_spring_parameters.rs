//! `ExponentialSpringParameters` (notes §1.1): the shape of the exponential normal force, its
//! damping and cap, the friction spring and damper, the settle velocity, and the initial
//! friction coefficients, with Simbody's defaults and checks.

use crate::error::{invalid, ModelError};
use crate::scalar::Real;

/// Parameters of an exponential spring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExponentialSpringParameters<T: Real = f64> {
    /// Shape parameter d0 (m): offset of the exponential. Default 0.0065905.
    pub d0: T,
    /// Shape parameter d1 (N): force at p_z = d0; must be > 0. Default 0.5336.
    pub d1: T,
    /// Shape parameter d2 (1/m): decay rate; must be > 0. Default 1150.
    pub d2: T,
    /// Normal viscosity c_z (s/m): f_z,damp = −c_z v_z f_z,elas; ≥ 0. Default 0.5.
    pub normal_viscosity: T,
    /// Cap on the normal force (N); > 0. Default 1e5.
    pub max_normal_force: T,
    /// Friction elasticity k_xy (N/m); > 0. Default 20 000.
    pub friction_elasticity: T,
    /// Friction viscosity c_xy (N·s/m); ≥ 0. Default 2√(k_xy · 1 kg) = 282.842712474619.
    pub friction_viscosity: T,
    /// Settle velocity (m/s): anchor-point speed below which a station counts as fixed; > 0.
    /// Default 0.01.
    pub settle_velocity: T,
    /// Initial static friction coefficient μs; default 0.7.
    pub initial_mu_static: T,
    /// Initial kinetic friction coefficient μk; default 0.5.
    pub initial_mu_kinetic: T,
}

impl<T: Real> Default for ExponentialSpringParameters<T> {
    fn default() -> Self {
        let mut p = Self {
            d0: T::c(0.0065905),
            d1: T::c(0.5336),
            d2: T::c(1150.0),
            normal_viscosity: T::c(0.5),
            max_normal_force: T::c(100000.0),
            friction_elasticity: T::zero(),
            friction_viscosity: T::zero(),
            settle_velocity: T::c(0.01),
            initial_mu_static: T::c(0.7),
            initial_mu_kinetic: T::c(0.5),
        };
        p.set_elasticity_and_viscosity_for_critical_damping(T::c(20000.0), T::one());
        p
    }
}

impl<T: Real> ExponentialSpringParameters<T> {
    /// Sets k_xy and the critically damping c_xy = 2√(k_xy m) for a mass m (kg).
    pub fn set_elasticity_and_viscosity_for_critical_damping(&mut self, kxy: T, mass: T) {
        self.friction_elasticity = kxy;
        self.friction_viscosity = T::c(2.0) * (kxy * mass).sqrt();
    }

    /// Sets the initial friction coefficients: each is clipped to ≥ 0, then μk is lowered to μs
    /// if it is larger (Simbody's `setInitialMuStatic` rule applied last).
    pub fn set_initial_friction(&mut self, mu_s: T, mu_k: T) {
        let clip = |x: T| if x.re() < 0.0 { T::zero() } else { x };
        self.initial_mu_static = clip(mu_s);
        self.initial_mu_kinetic = clip(mu_k);
        if self.initial_mu_kinetic.re() > self.initial_mu_static.re() {
            self.initial_mu_kinetic = self.initial_mu_static;
        }
    }

    /// Checks every value (Simbody's setters' rules); names the first bad one.
    pub fn validate(&self) -> Result<(), ModelError> {
        let positive = [
            ("d1", self.d1),
            ("d2", self.d2),
            ("max_normal_force", self.max_normal_force),
            ("friction_elasticity", self.friction_elasticity),
            ("settle_velocity", self.settle_velocity),
        ];
        super::checks::all_positive(&positive)?;
        let non_negative = [
            ("normal_viscosity", self.normal_viscosity),
            ("friction_viscosity", self.friction_viscosity),
            ("mu_static", self.initial_mu_static),
            ("mu_kinetic", self.initial_mu_kinetic),
        ];
        super::checks::all_non_negative(&non_negative)?;
        if !self.d0.re().is_finite() {
            return Err(invalid!("d0: must be finite, got {}", self.d0.re()));
        }
        if self.initial_mu_kinetic.re() > self.initial_mu_static.re() {
            return Err(invalid!(
                "mu_kinetic: {} must not exceed mu_static ({})",
                self.initial_mu_kinetic.re(),
                self.initial_mu_static.re()
            ));
        }
        Ok(())
    }

    /// Converts to another scalar type through `f64`.
    pub fn cast<U: Real>(&self) -> ExponentialSpringParameters<U> {
        let c = |x: T| U::c(x.re());
        ExponentialSpringParameters {
            d0: c(self.d0),
            d1: c(self.d1),
            d2: c(self.d2),
            normal_viscosity: c(self.normal_viscosity),
            max_normal_force: c(self.max_normal_force),
            friction_elasticity: c(self.friction_elasticity),
            friction_viscosity: c(self.friction_viscosity),
            settle_velocity: c(self.settle_velocity),
            initial_mu_static: c(self.initial_mu_static),
            initial_mu_kinetic: c(self.initial_mu_kinetic),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_critical_damping() {
        let p = ExponentialSpringParameters::<f64>::default();
        assert_eq!(p.friction_viscosity, 282.842712474619);
        let mut q = p;
        q.set_elasticity_and_viscosity_for_critical_damping(1e5, 1.0);
        assert_eq!(q.friction_viscosity, 2.0 * 1e5f64.sqrt());
        q.set_elasticity_and_viscosity_for_critical_damping(1e5, 20.0);
        assert_eq!(q.friction_viscosity, 2.0 * 2e6f64.sqrt());
        assert!(p.validate().is_ok());
        let mut bad = p;
        bad.d1 = 0.0;
        assert!(bad.validate().unwrap_err().to_string().starts_with("d1"));
        let mut clamp = p;
        clamp.set_initial_friction(-1.0, 0.3);
        assert_eq!(
            (clamp.initial_mu_static, clamp.initial_mu_kinetic),
            (0.0, 0.0)
        );
    }
}
