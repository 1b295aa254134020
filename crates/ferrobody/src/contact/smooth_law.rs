//! The law of Simbody's `SmoothSphereHalfSpaceForce`, apart from its geometry: the parameters,
//! the smoothed Hertz/Hunt–Crossley normal force and the regularized friction, in Simbody's
//! order of operations (the equations are in [`super::smooth_sphere_halfspace`]'s module docs).
//! Reference: A. Falisse, G. Serrancolí et al., PLoS ONE 14(10) e0217730 (2019); Simbody's
//! `SmoothSphereHalfSpaceForce.cpp`.

use crate::error::ModelError;
use crate::scalar::Real;
use nalgebra::Vector3;

/// The nine parameters of the smooth model, with Simbody's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothContactParameters<T: Real = f64> {
    /// Plane-strain modulus E (Pa), the same for both materials. Default 1.
    pub stiffness: T,
    /// Hunt–Crossley dissipation c (s/m). Default 0.
    pub dissipation: T,
    /// Static friction coefficient μs. Default 0.
    pub static_friction: T,
    /// Dynamic friction coefficient μd. Default 0.
    pub dynamic_friction: T,
    /// Viscous friction coefficient μv (s/m). Default 0.
    pub viscous_friction: T,
    /// Transition velocity v_tr of the friction curve (m/s). Default 0.01.
    pub transition_velocity: T,
    /// cf: keeps the Hertz force and the slip speed differentiable at zero. Default 1e-5.
    pub constant_contact_force: T,
    /// bd: sharpness of the tanh switching the Hertz force on with the indentation (1/m).
    /// Default 300.
    pub hertz_smoothing: T,
    /// bv: sharpness of the tanh switching the Hunt–Crossley force off when separating fast
    /// (s/m). Default 50.
    pub hunt_crossley_smoothing: T,
}

impl<T: Real> Default for SmoothContactParameters<T> {
    fn default() -> Self {
        Self {
            stiffness: T::one(),
            dissipation: T::zero(),
            static_friction: T::zero(),
            dynamic_friction: T::zero(),
            viscous_friction: T::zero(),
            transition_velocity: T::c(0.01),
            constant_contact_force: T::c(1e-5),
            hertz_smoothing: T::c(300.0),
            hunt_crossley_smoothing: T::c(50.0),
        }
    }
}

impl<T: Real> SmoothContactParameters<T> {
    /// All nine at once, in Simbody's `setParameters` order.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        stiffness: T,
        dissipation: T,
        mu_s: T,
        mu_d: T,
        mu_v: T,
        v_tr: T,
        cf: T,
        bd: T,
        bv: T,
    ) -> Self {
        Self {
            stiffness,
            dissipation,
            static_friction: mu_s,
            dynamic_friction: mu_d,
            viscous_friction: mu_v,
            transition_velocity: v_tr,
            constant_contact_force: cf,
            hertz_smoothing: bd,
            hunt_crossley_smoothing: bv,
        }
    }

    /// Checks that every parameter is finite, non-negative where Simbody's model needs it, and
    /// that the transition velocity and cf are positive.
    pub fn validate(&self) -> Result<(), ModelError> {
        let named = [
            ("stiffness", self.stiffness),
            ("dissipation", self.dissipation),
            ("static_friction", self.static_friction),
            ("dynamic_friction", self.dynamic_friction),
            ("viscous_friction", self.viscous_friction),
            ("hertz_smoothing", self.hertz_smoothing),
            ("hunt_crossley_smoothing", self.hunt_crossley_smoothing),
        ];
        super::checks::all_non_negative(&named)?;
        super::checks::all_positive(&[
            ("transition_velocity", self.transition_velocity),
            ("constant_contact_force", self.constant_contact_force),
        ])
    }

    /// Converts to another scalar type through `f64`.
    pub fn cast<U: Real>(&self) -> SmoothContactParameters<U> {
        let c = |x: T| U::c(x.re());
        SmoothContactParameters::new(
            c(self.stiffness),
            c(self.dissipation),
            c(self.static_friction),
            c(self.dynamic_friction),
            c(self.viscous_friction),
            c(self.transition_velocity),
            c(self.constant_contact_force),
            c(self.hertz_smoothing),
            c(self.hunt_crossley_smoothing),
        )
    }
}

/// The normal-force parts of the smooth law at indentation `depth` and penetration rate `rate`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmoothNormalForce<T: Real> {
    /// Smoothed Hertz force `fh_smooth` (N).
    pub hertz: T,
    /// Smoothed Hunt–Crossley force `fhc_smooth` (N): the normal force applied.
    pub hunt_crossley: T,
    /// Potential energy approximation `(2/5) fh_smooth δ` (J).
    pub potential_energy: T,
}

/// The normal force of the smooth law (exact Simbody arithmetic).
#[inline]
pub fn smooth_normal_force<T: Real>(
    p: &SmoothContactParameters<T>,
    radius: T,
    depth: T,
    rate: T,
) -> SmoothNormalForce<T> {
    smooth_normal_force_with(p, hertz_factor(p, radius), depth, rate)
}

/// The depth-independent factor of the Hertz force, `(4/3) k √(R k)` with `k = ½ E^(2/3)`,
/// in Simbody's order of operations (`fh_pos = (4/3) k √(R k) (δ² + cf)^(3/4)`).
#[inline]
pub fn hertz_factor<T: Real>(p: &SmoothContactParameters<T>, radius: T) -> T {
    let k = T::c(0.5) * p.stiffness.powf_exact(2.0 / 3.0);
    T::c(4.0 / 3.0) * k * (radius * k).sqrt()
}

/// [`smooth_normal_force`] with its [`hertz_factor`] given (bit for bit the same).
#[inline]
pub fn smooth_normal_force_with<T: Real>(
    p: &SmoothContactParameters<T>,
    hertz_factor: T,
    depth: T,
    rate: T,
) -> SmoothNormalForce<T> {
    let (half, one) = (T::c(0.5), T::one());
    let fh_pos = hertz_factor
        * (depth * depth + p.constant_contact_force)
            .sqrt()
            .powf_exact(1.5);
    let hertz = fh_pos * (half + half * (p.hertz_smoothing * depth).tanh_exact());
    let fhc_pos = hertz * (one + T::c(1.5) * p.dissipation * rate);
    let switch = if p.dissipation.re() == 0.0 {
        // 2/(3c) = +∞: the tanh is 1.
        one
    } else {
        half + half
            * (p.hunt_crossley_smoothing * (rate + T::c(2.0) / (T::c(3.0) * p.dissipation)))
                .tanh_exact()
    };
    SmoothNormalForce {
        hertz,
        hunt_crossley: fhc_pos * switch,
        potential_energy: T::c(0.4) * hertz * depth,
    }
}

/// The friction force magnitude for normal force `fhc` and tangential velocity `v_t`, and the
/// regularized slip speed `v_s = √(|v_t|² + cf)`.
#[inline]
pub fn smooth_friction<T: Real>(
    p: &SmoothContactParameters<T>,
    fhc: T,
    v_t: &Vector3<T>,
) -> (T, T) {
    let v_slip = (v_t.norm_squared() + p.constant_contact_force).sqrt();
    let v_rel = v_slip / p.transition_velocity;
    let ramp = if v_rel.re() < 1.0 { v_rel } else { T::one() };
    let (mu_s, mu_d) = (p.static_friction, p.dynamic_friction);
    let mu = ramp * (mu_d + T::c(2.0) * (mu_s - mu_d) / (T::one() + v_rel * v_rel))
        + p.viscous_friction * v_slip;
    (fhc * mu, v_slip)
}
